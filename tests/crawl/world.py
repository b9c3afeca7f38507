"""The world the crawl walks (issue 56, item 1): the demo's clubs, matches, season, events and
league, and beside them each state a club night passes through that the demo does not show:
live tables at every step of their life, a league before its teams and one before its
fixtures, a fixture submitted, conceded or postponed, a withdrawn team, a cup after its final,
a season with no matches, matches whose analysis waits or failed, players with and without
mistakes, claimed and not. Everything is made through the services, as people would make it.

``addresses_empty`` gives the pages of an empty archive (before ``world_build``);
``world_build`` makes the rest and returns, for each URL name, the (state, address) pairs
the crawl opens, and the people each role signs in as.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from clubs.services import club_create, invitation_create
from competitions.inbox import unsubscribe_token
from competitions.league_forfeits import fixture_concede, team_withdraw
from competitions.league_results import fixture_submit
from competitions.league_selectors import fixture_candidates
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from competitions.management.commands.demo import demo_upload
from competitions.management.commands.demo_league import Command as DemoLeague
from competitions.models import League, Season, Team, Tournament
from competitions.postponements import postponement_offer
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from fives_engine import to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match, Player, Upload
from recorder import live
from recorder.models import LiveMatch
from replays.models import MatchAnalysis
from replays.open_data import month_write
from webhooks.models import Delivery, Endpoint
from webhooks.sending import secret_new

# The people each role signs in as: the demo's (demo_league.py, demo.py). The organiser of
# the league is the demo user, who also owns the first club; the captain captains the
# Пятёрочка team; the club admin is the first club's admin; the member is a plain member of
# the first club; "outsider" belongs to no club.
ROLES = {
    "signed out": None,
    "member": "demo-levan",
    "captain": "demo-ivan",
    "organiser": "demo",
    "club admin": "demo-tamar",
}
PEOPLE = ["demo", "demo-levan", "demo-ivan", "demo-tamar"]
FIRST = "tbilisi-fives-club"


@dataclass
class World:
    """The addresses of the crawl: URL name -> [(state, address)], and the world's names
    (clubs, players, teams, events), which are the people's words, in any language."""

    addresses: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    # The states of each kind of object a page is about (a player, a match, a club, a
    # league): a page the world names no state of is opened in these (``subjects_given``).
    subjects: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)

    def subject(self, kind: str, state: str, arg: Any) -> None:
        self.subjects.setdefault(kind, []).append((state, arg))

    def add(self, url_name: str, state: str, *args: Any, query: str = "") -> None:
        address = reverse(url_name, args=args) + query
        self.addresses.setdefault(url_name, []).append((state, address))


def people_make() -> dict[str, Any]:
    """The people of the roles, made before the demo so that it finds them (the demo makes
    the user ``demo`` only with DEBUG on; the league needs them)."""
    users = {}
    for username in PEOPLE:
        users[username], _ = get_user_model().objects.get_or_create(username=username)
    return {role: users.get(username) for role, username in ROLES.items()}


# The pages with no object in their address that an empty archive has too.
NO_OBJECT = (
    "games:match-list",
    "competitions:club-list",
    "games:club-create",
    "games:my-uploads",
    "games:upload-create",
    "games:token-settings",
    "competitions:league-list",
    "competitions:inbox",
    "competitions:email-settings",
    "recorder:record",
    "replays:open-data",
    "replays:puzzles",
    "recorder:board",
)
# And those of accounts, opened in the whole world alone.
ACCOUNTS = (
    "games:signup",
    "login",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
)


def addresses_empty() -> World:
    """The pages an empty archive has: those with no object in their address."""
    world = World()
    for url_name in NO_OBJECT:
        world.add(url_name, "an empty archive")
    return world


def world_build(*, matches: int = 24) -> World:
    """Make the whole world (see the module's words) and return its addresses."""
    call_command("demo", matches=matches, wait=120.0, verbosity=0)
    world = World()
    first = Club.objects.get(slug=FIRST)
    owner = first.owner
    _accounts(world)
    _clubs(world, first, owner)
    _matches_and_players(world, first)
    _uploads(world)
    _live_tables(world, first)
    _leagues(world)
    _events_and_seasons(world, first, owner)
    _live_caught(world)
    _open_data(world)
    _puzzles(world)
    _webhooks(world, first)
    subjects_given(world)
    world.names |= set(Club.objects.values_list("name", flat=True))
    world.names |= set(Player.objects.values_list("handle", flat=True))
    world.names |= set(Team.objects.values_list("name", flat=True))
    world.names |= set(League.objects.values_list("name", flat=True))
    world.names |= set(Tournament.objects.values_list("name", flat=True))
    world.names |= set(Season.objects.values_list("name", flat=True))
    world.names |= set(get_user_model().objects.values_list("username", flat=True))
    world.names |= set(Match.objects.exclude(event="").values_list("event", flat=True))
    return world


# A route about one object, by its address: the kind of object its one parameter names.
SUBJECTS = {"players/<id:pk>/": "player", "matches/<id:pk>/": "match",
            "clubs/<str:slug>/": "club", "leagues/<id:pk>/": "league"}  # fmt: skip


def subjects_given(world: World) -> None:
    """Open each page the world names no state of in the states of the object it is about
    (a new player's page in each player's state...): a new page joins the crawl by its
    address alone. A page about no such object must be given its states here, by name."""
    from tests.crawl.pages import page_routes

    for route, url_name in page_routes():
        if url_name in world.addresses or route.count("<") != 1:
            continue
        kind = next((k for prefix, k in SUBJECTS.items() if route.startswith(prefix)), None)
        for state, arg in world.subjects.get(kind or "", []):
            world.add(url_name, state, arg)


def _accounts(world: World) -> None:
    for url_name in NO_OBJECT + ACCOUNTS:
        world.add(url_name, "the demo")
    world.add("password_reset_confirm", "a link that is not valid", "MQ", "set-password")
    world.add("games:match-list", "a search", query="?player=Nino&preset=muggins")
    for status in (413, 429, 502, 504):
        world.add("proxy-refused", f"nginx refused ({status})", status)
    user = get_user_model().objects.get(username=ROLES["member"])
    world.add("competitions:unsubscribe", "a link", unsubscribe_token(user.pk, "all"))
    world.add("competitions:unsubscribe", "a link no longer valid", "nonce.signature")


def _clubs(world: World, first: Club, owner: Any) -> None:
    for club in Club.objects.all():
        state = "private" if club.is_private else "with matches"
        for url_name in (
            "competitions:club-detail",
            "games:club-manage",
            "games:club-settings",
            "games:club-audit",
            "recorder:club-live",
            "replays:ranking",
            "competitions:season-list",
            "competitions:event-list",
        ):
            world.add(url_name, state, club.slug)
    empty = club_create(owner=owner, name="Batumi newcomers", slug="batumi-newcomers")
    hidden = club_create(owner=owner, name="Closed circle", slug="closed-circle", is_private=True)
    for club in Club.objects.exclude(pk__in=[empty.pk, hidden.pk]):
        world.subject("club", "private" if club.is_private else "with matches", club.slug)
    for club, state in ((empty, "a new club"), (hidden, "private")):
        world.subject("club", state, club.slug)
        for url_name in (
            "competitions:club-detail",
            "games:club-manage",
            "replays:ranking",
            "recorder:club-live",
            "competitions:season-list",
            "competitions:event-list",
        ):
            world.add(url_name, state, club.slug)
    invitation = invitation_create(actor=owner, club=first)
    world.add("games:invitation", "an invitation", invitation.token)
    world.add("games:invitation", "an unknown invitation", "no-such-invitation")


def _matches_and_players(world: World, first: Club) -> None:
    analysed = Match.objects.filter(analysis__status=MatchAnalysis.Status.DONE).first()
    plain = Match.objects.filter(analysis__isnull=True, club=first).order_by("pk")
    queued, failed, partnership = plain[0], plain[1], plain.filter(seats__seat=3).first()
    MatchAnalysis.objects.create(
        match=queued, version="crawl", requested_at=timezone.now(), total=40
    )
    MatchAnalysis.objects.create(
        match=failed,
        version="crawl",
        requested_at=timezone.now(),
        status=MatchAnalysis.Status.FAILED,
        failure="The worker stopped.",
    )
    waiting = Match.objects.exclude(approval=Match.Approval.APPROVED).first()
    states = [
        ("analysed", analysed),
        ("analysis queued", queued),
        ("analysis failed", failed),
        ("not analysed", plain[2]),
        ("a partnership", partnership),
        ("waiting for approval", waiting),
    ]
    for state, match in states:
        if match is None:
            continue
        world.subject("match", state, match.pk)
        world.add("replays:match-detail", state, match.pk)
        world.add("replays:embed", state, match.pk)
    if analysed is not None:
        world.add("replays:match-detail", "at a move", analysed.pk, query="#h1m3")
        # The analysis board opened from a play of it (the replay's "Analyse from here").
        world.add(
            "recorder:board", "from a match's play", query=f"?match={analysed.pk}&hand=1&move=4"
        )
        marked = analysed.seats.first().player
        world.add("replays:player-detail", "with mistakes", marked.pk)
        world.add("replays:player-practice", "with mistakes", marked.pk)
    claimed = Player.objects.filter(claims__isnull=False).first()
    unclaimed = Player.objects.filter(club=first, claims__isnull=True).first()
    for state, player in (("claimed", claimed), ("not claimed", unclaimed)):
        if player is not None:
            world.subject("player", state, player.pk)
            world.add("replays:player-detail", state, player.pk)
            world.add("replays:player-practice", state, player.pk)


def _uploads(world: World) -> None:
    for upload in Upload.objects.order_by("pk"):
        state = upload.status
        done = {s for s, _ in world.addresses.get("games:upload-detail", [])}
        if state not in done:
            world.add("games:upload-detail", state, upload.pk)


def _live_tables(world: World, club: Club) -> None:
    """A table at each step of its life, each recorded by a member of the first club."""
    rng = random.Random(56)
    member = recorder = get_user_model().objects.get(username=ROLES["member"])
    doc = to_table_record(simulate_match("all-fives", 2, seed=rng.getrandbits(32)))
    setup, steps = live.steps_of(doc)
    over = next(
        n for n in range(1, len(steps)) if live.record_of(setup, steps[:n])["hands"][-1].get("left")
    )
    plan = [
        ("set up, no tile", 0, None),
        ("mid-hand", 5, None),
        ("a hand over", over, None),
        ("undone", 6, 4),
        ("abandoned", 3, None),
    ]
    for state, count, undo_to in plan:
        record_id = f"crawl-{state}"
        live.live_steps_put(
            user=recorder, club=club, record_id=record_id, setup=setup, start=0,
            steps=steps[:count],
        )  # fmt: skip
        if undo_to is not None:
            live.live_steps_put(
                user=recorder, club=club, record_id=record_id, setup=setup, start=undo_to,
                steps=[],
            )  # fmt: skip
        if state == "abandoned":
            live.live_abandon(user=recorder, record_id=record_id)
        table = LiveMatch.objects.get(recorder=recorder, record_id=record_id)
        world.add("recorder:live-match", state, table.pk)
    # Finished: stored (the pipeline runs in-process), then one shown as storing and one
    # whose upload was refused, as the club night sees them while a worker is at it.
    admin = get_user_model().objects.get(username=ROLES["club admin"])
    for state in ("stored", "stored, waiting for approval", "storing", "refused"):
        record_id = f"crawl-{state}"
        # An admin's match counts at once; a member's waits for an admin's approval.
        recorder = admin if state == "stored" else member
        # A match of its own each: the same tiles would be one stored match (one upload).
        doc = to_table_record(simulate_match("all-fives", 2, seed=rng.getrandbits(32)))
        setup, steps = live.steps_of(doc)
        live.live_steps_put(
            user=recorder, club=club, record_id=record_id, setup=setup, start=0, steps=steps
        )
        table = LiveMatch.objects.get(recorder=recorder, record_id=record_id)
        live.live_finish(live_id=table.pk)
        world.add("recorder:live-match", state, table.pk)
    world.add("recorder:club-live", "many tables", club.slug)


def _live_caught(world: World) -> None:
    """Two finished tables as the club night sees them while a worker is at their uploads:
    one still storing, one refused (set last: each later upload of the club settles every
    finished table again)."""
    for state, status in (("storing", Upload.Status.PENDING), ("refused", Upload.Status.FAILED)):
        table = LiveMatch.objects.get(record_id=f"crawl-{state}")
        Upload.objects.filter(pk=table.upload_id).update(status=status)
        LiveMatch.objects.filter(pk=table.pk).update(match=None, settled_at=None)


def _leagues(world: World) -> None:
    """The demo's league (confirmed, disputed, walkover, to play) and the states it lacks."""
    demo = League.objects.get()
    organiser = demo.organiser
    world.add("competitions:league-detail", "mid-season", demo.pk)
    for url_name in ("competitions:league-edit", "competitions:league-schedule"):
        world.add(url_name, "mid-season", demo.pk)
    fixtures = list(demo.fixtures.order_by("day"))
    for fixture in fixtures:
        world.add("competitions:league-fixture", fixture.status, demo.pk, fixture.pk)
        world.add("competitions:fixture-edit", fixture.status, demo.pk, fixture.pk)
    teams = list(demo.teams.order_by("pk"))
    for team in teams:
        world.add("competitions:league-team-edit", "a team", demo.pk, team.pk)
    for club in Club.objects.filter(league_places__league=demo)[:1]:
        world.add("competitions:league-team", "a club's team", demo.pk, club.slug)

    bare = league_make(actor=organiser, name="A league with no teams", legs=["singles"])
    world.add("competitions:league-detail", "no teams", bare.pk)
    world.subject("league", "mid-season", demo.pk)
    world.subject("league", "no teams", bare.pk)
    world.add("competitions:league-schedule", "no teams", bare.pk)

    spring = league_make(
        actor=organiser, name="Spring league", legs=["singles", "singles", "pairs"]
    )
    spring_teams = []
    for old in teams:
        club = old.club
        league_invite(actor=organiser, league=spring, club=club)
        league_accept(actor=club.owner, league=spring, club=club)
        spring_teams.append(
            team_make(
                actor=organiser,
                league=spring,
                club=club,
                name=f"{old.name} B",
                player_ids=list(old.roster.values_list("pk", flat=True)),
                captain_ids=list(old.captains.values_list("pk", flat=True)),
            )
        )
    world.add("competitions:league-detail", "no fixtures", spring.pk)
    world.add("competitions:league-schedule", "no fixtures", spring.pk)

    today = timezone.localdate()
    conceded = fixture_make(
        actor=organiser, league=spring, home=spring_teams[0], away=spring_teams[1],
        day=today + timedelta(days=7),
    )  # fmt: skip
    fixture_concede(actor=spring_teams[1].captains.first(), fixture=conceded)
    postponed = fixture_make(
        actor=organiser, league=spring, home=spring_teams[1], away=spring_teams[0],
        day=today + timedelta(days=14),
    )  # fmt: skip
    postponement_offer(
        actor=spring_teams[1].captains.first(),
        fixture=postponed,
        days=[today + timedelta(days=21), today + timedelta(days=28)],
    )
    withdrawn = fixture_make(
        actor=organiser, league=spring, home=spring_teams[2], away=spring_teams[0],
        day=today + timedelta(days=35),
    )  # fmt: skip
    team_withdraw(actor=organiser, team=spring_teams[2])
    # Submitted, waiting for the other captain: its legs played as the demo plays a
    # fixture's (demo_league.py), then chosen by the home captain.
    day = date(2026, 11, 29)
    submitted = fixture_make(
        actor=organiser, league=spring, home=spring_teams[0], away=spring_teams[1], day=day
    )
    player = DemoLeague()
    player.wait = 120.0
    rosters = [[p.handle for p in team.roster.order_by("pk")] for team in spring_teams[:2]]
    player._play(spring_teams[0], spring_teams[1], *rosters, day, random.Random(29))
    chosen: list[int] = []
    found = fixture_candidates(submitted)
    for kind in spring.legs:
        chosen.append(
            next(c for c in found if c.kind == kind and c.match_id not in chosen).match_id
        )
    fixture_submit(actor=spring_teams[0].captains.first(), fixture=submitted, match_ids=chosen)
    world.add("competitions:league-fixture", "submitted", spring.pk, submitted.pk)
    world.add("competitions:league-detail", "conceded, postponed, a team withdrawn", spring.pk)
    for state, fixture in (
        ("conceded", conceded),
        ("postponement offered", postponed),
        ("a withdrawn team's", withdrawn),
    ):
        world.add("competitions:league-fixture", state, spring.pk, fixture.pk)
    world.add("competitions:league-team-edit", "withdrawn", spring.pk, spring_teams[2].pk)


def _events_and_seasons(world: World, first: Club, owner: Any) -> None:
    """The demo's season and events, a cup after its final, and a season with no matches."""
    for season in Season.objects.filter(club=first):
        for url_name in ("competitions:season-detail", "competitions:season-print"):
            world.add(url_name, "with standings", first.slug, season.pk)
    for event in Tournament.objects.all():
        state = "a round-robin half played" if event.kind == "round-robin" else "before the final"
        world.add("competitions:event-detail", state, first.slug, event.pk)
        world.add("competitions:event-edit", state, first.slug, event.pk)
    quiet = season_open(
        actor=owner, club=first, name="Winter 2027", first_day=date(2027, 1, 1),
        last_day=date(2027, 2, 28), win_points=3, loss_points=0, place_points=[3, 2, 1, 0],
    )  # fmt: skip
    world.add("competitions:season-detail", "no matches", first.slug, quiet.pk)
    world.add("competitions:season-list", "two seasons", first.slug)
    autumn = Season.objects.filter(club=first).exclude(pk=quiet.pk).first()
    if autumn is None:
        return
    handles = ["Nino", "Giorgi"]
    players = [Player.objects.get_or_create(club=first, handle=h)[0].pk for h in handles]
    day = date(2026, 11, 23)
    final = tournament_make(
        actor=owner, season=autumn, name="Final night", kind=Tournament.Kind.KNOCKOUT,
        first_day=day, last_day=day, player_ids=players,
    )  # fmt: skip
    doc = simulate_match("muggins", 2, seed=5656, names=handles)
    doc.update(
        id="crawl-final", club=first.name, played_at=f"{day}T19:00:00+04:00", event=final.name
    )
    demo_upload(
        uploader=owner, data=json.dumps(doc, ensure_ascii=False).encode(), kind="json", club=first
    )
    world.add("competitions:event-detail", "after its final", first.slug, final.pk)


def _webhooks(world: World, first: Club) -> None:
    """A club's webhooks (issue 59): an endpoint that answers, its log holding a delivery of
    each state; one failing since the morning; one turned off after three days; and the list
    of every club's (the first club's with them, the others' with none)."""
    now = timezone.now()
    made = {}
    for state, url, more in (
        ("answering", "https://results.example.org/fives", {}),
        ("failing", "https://league.example.org/hooks", {"failing_since": now}),
        (
            "turned off",
            "https://old.example.org/hooks",
            {"active": False, "failing_since": now - timedelta(days=3), "disabled_at": now},
        ),
    ):
        made[state] = Endpoint.objects.create(
            club=first,
            url=url,
            events=["match.stored", "fixture.confirmed"],
            secret=secret_new(),
            **more,
        )
        world.names.add(url)
    body = json.dumps({"type": "match.stored", "timestamp": now.isoformat(), "data": {"id": 1}})
    for number, (status, answer_status, answer, attempts) in enumerate(
        (
            ("delivered", 204, "", 1),
            ("delivered", 200, '{"received": true}', 3),
            ("pending", 503, "<html>busy</html>", 2),
            ("pending", None, "ConnectionRefusedError: [Errno 111] Connection refused", 1),
            ("failed", 500, "Internal Server Error", 11),
        )
    ):
        Delivery.objects.create(
            endpoint=made["answering"],
            message_id=f"msg_crawl{number}",
            event="match.stored",
            body=body,
            status=status,
            attempts=attempts,
            answer_status=answer_status,
            answer=answer,
            last_at=now,
            next_at=now + timedelta(minutes=5) if status == "pending" else None,
        )
    world.names |= {"Internal Server Error", "busy", "Connection refused"}
    for state, endpoint in made.items():
        world.add(
            "webhooks:endpoint",
            state if state != "answering" else "with its log",
            FIRST,
            endpoint.pk,
        )
    for club in Club.objects.all():
        world.add(
            "webhooks:endpoints", "with endpoints" if club == first else "none yet", club.slug
        )


def _open_data(world: World) -> None:
    """The open data's page with the files of the month of the demo's latest public match
    (written under the crawl's own FIVES_DATA_ROOT: conftest.py)."""
    latest = Match.objects.visible_to(None).exclude(played_at=None).latest("played_at")
    month_write(latest.played_at.strftime("%Y-%m"))
    world.add("replays:open-data", "with a month's files")


def _puzzles(world: World) -> None:
    """The puzzles the demo's analyses made (demo_analysis runs puzzles_make): the page of
    the next one, in the streak mode, and one puzzle's own page."""
    from replays.models import Puzzle

    world.add("replays:puzzles", "with puzzles")
    world.add("replays:puzzles", "the streak mode", query="?mode=streak")
    puzzle = Puzzle.objects.order_by("pk").first()
    if puzzle is not None:
        world.add("replays:puzzle", "a puzzle", puzzle.pk)
