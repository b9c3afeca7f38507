"""A private club stays private in every competition (issue 34): every address of a league,
its fixtures, teams and table (pages, API, CSV), and of a private club's seasons and events,
read by every role. Those who may see the club (its members and admin, staff, and in a league
its organiser) read its name, slug, handles and player ids; everyone else (signed out, an
outsider, a member of the league's public club, the other team's captain) reads none of them,
and no one reads a captain's username: a captain is named by a claimed handle.

A failure names the address and the role; its message lists what leaked (or was missing)."""

from __future__ import annotations

import json
import re
from datetime import date
from urllib.parse import quote

import pytest
from django.test import Client

from clubs.models import AuditEntry, Club
from clubs.services import club_create
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from competitions.models import Fixture, Leg
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from games.models import Player
from tests.competitions.test_leagues import players
from tests.conftest import join
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db

NAME, SLUG = "Secret Sixes", "secret-sixes"
PUBLIC = "tbilisi-fives-club"
DAY = date(2026, 10, 3)
ROLES = (
    "anonymous",
    "outsider",
    "public-member",
    "private-member",
    "private-admin",
    "organiser",
    "other-captain",
    "staff",
)
SEE_CLUB = {"private-member", "private-admin", "staff"}
SEE_LEAGUE = SEE_CLUB | {"organiser"}

# (address, who may see the private club there, what they then read of it: "name", "slug",
# "handles", "ids"). Every other role reads none of it; no role reads a captain's username.
ADDRESSES = {
    "/leagues/": (SEE_LEAGUE, ()),
    "/leagues/{league}/": (SEE_LEAGUE, ("name", "slug", "handles")),
    "/leagues/{league}/table.csv": (SEE_LEAGUE, ("name",)),
    "/leagues/{league}/fixtures/{played}/": (SEE_LEAGUE, ("handles",)),
    "/leagues/{league}/fixtures/{disputed}/": (SEE_LEAGUE, ()),
    "/leagues/{league}/fixtures/{to_play}/": (SEE_LEAGUE, ()),
    "/leagues/{league}/edit/": ({"organiser"}, ()),
    # The organiser's form picks captains among the club's members: one who claimed no handle
    # by their username.
    "/leagues/{league}/teams/{private_team}/edit/": (
        {"organiser"},
        ("name", "handles", "usernames"),
    ),
    "/leagues/{league}/teams/{public_team}/edit/": ({"organiser"}, ()),
    "/leagues/{league}/fixtures/{to_play}/edit/": ({"organiser"}, ()),
    "/api/v1/leagues/": (SEE_LEAGUE, ("name", "slug")),
    "/api/v1/leagues/{league}/": (SEE_LEAGUE, ("name", "slug", "handles", "ids")),
    "/api/v1/leagues/{league}/teams/{private_team}/": (SEE_LEAGUE, ("slug", "handles", "ids")),
    "/api/v1/leagues/{league}/teams/{public_team}/": (SEE_LEAGUE, ()),
    "/api/v1/leagues/{league}/fixtures/{played}/": (SEE_LEAGUE, ("handles",)),
    "/api/v1/leagues/{league}/fixtures/{disputed}/": (SEE_LEAGUE, ()),
    "/api/v1/leagues/{league}/fixtures/{to_play}/": (SEE_LEAGUE, ()),
    f"/clubs/{SLUG}/events/": (SEE_CLUB, ("name",)),
    f"/clubs/{SLUG}/events/{{event}}/": (SEE_CLUB, ("name", "handles")),
    f"/clubs/{SLUG}/events/{{event}}/schedule.csv": (SEE_CLUB, ("handles",)),
    f"/clubs/{SLUG}/seasons/": (SEE_CLUB, ("name",)),
    f"/clubs/{SLUG}/seasons/{{season}}/": (SEE_CLUB, ("name",)),
    f"/clubs/{SLUG}/seasons/{{season}}/standings.csv": (SEE_CLUB, ()),
    f"/clubs/{SLUG}/seasons/{{season}}/print/": (SEE_CLUB, ("name",)),
    f"/api/v1/clubs/{SLUG}/events/": (SEE_CLUB, ()),
    f"/api/v1/clubs/{SLUG}/events/{{event}}/": (SEE_CLUB, ("ids",)),
    f"/api/v1/clubs/{SLUG}/seasons/": (SEE_CLUB, ()),
    f"/api/v1/clubs/{SLUG}/seasons/{{season}}/": (SEE_CLUB, ()),
}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The archive every test of this module reads (``_world``), made once: inside a
    transaction that each test's own rolls back to, and that is rolled back after the last
    (some 200 addresses and roles read it; making it for each took most of their time)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tests.conftest import TEST_CLUBS

    with django_db_blocker.unblock(), transaction.atomic():
        owner = get_user_model().objects.create_user("nino", password="a-long-password-1")
        for name, slug in TEST_CLUBS.items():
            club_create(owner=owner, name=name, slug=slug)
        yield _world(get_user_model(), owner)
        transaction.set_rollback(True)


@pytest.fixture
def owner(world, django_user_model):
    """Nino, who owns the public club: the module's own (``world``), not another."""
    return django_user_model.objects.get(username="nino")


def _world(django_user_model, owner):
    """A league of Tbilisi (public) and Secret Sixes (private), the organiser in neither;
    the private team's captains: one who claimed the handle Zurab, the club's owner who
    claimed none. A fixture confirmed with legs, one disputed, one to play; a season and an
    event of the private club."""

    def person(name, **extra):
        return django_user_model.objects.create_user(name, password="a-long-password-7", **extra)

    people = {
        "outsider": person("outsider-acct"),
        "public-member": person("pubmember-acct"),
        "other-captain": person("pubcaptain-acct"),
        "private-member": person("privmember-acct"),
        "private-admin": person("privadmin-acct"),
        "organiser": person("organiser-acct"),
        "staff": person("staff-acct", is_staff=True),
    }
    private_owner, private_captain = person("privowner-acct"), person("privcaptain-acct")
    club_create(owner=private_owner, name=NAME, slug=SLUG)
    Club.objects.filter(slug=SLUG).update(is_private=True, time_zone="UTC")
    private = Club.objects.get(slug=SLUG)
    for who, slug, role in (
        ("public-member", PUBLIC, "member"),
        ("other-captain", PUBLIC, "member"),
        ("private-member", SLUG, "member"),
        ("private-admin", SLUG, "admin"),
    ):
        join(people[who], slug, role)
    join(private_captain, SLUG)
    zurab, ketevan = players(private_owner, SLUG, ["Zurab", "Ketevan"])
    Player.objects.filter(pk=zurab).update(user=private_captain)  # the handle claimed
    public_roster = players(owner, PUBLIC, ["Nino", "Tamar"])
    organiser = people["organiser"]
    league = league_make(actor=organiser, name="City league", legs=["singles", "singles"])
    for club, admin in ((Club.objects.get(slug=PUBLIC), owner), (private, private_owner)):
        league_invite(actor=organiser, league=league, club=club)
        league_accept(actor=admin, league=league, club=club)
    public_team = team_make(
        actor=organiser,
        league=league,
        club=Club.objects.get(slug=PUBLIC),
        name="Tbilisi",
        player_ids=public_roster,
        captain_ids=[people["other-captain"].pk],
    )
    # Its name, typed by the organiser, names the club.
    private_team = team_make(
        actor=organiser,
        league=league,
        club=private,
        name=f"{NAME} A",
        player_ids=[zurab, ketevan],
        captain_ids=[private_captain.pk, private_owner.pk],
    )
    fixtures = {}
    for key, status in (
        ("played", Fixture.Status.CONFIRMED),
        ("disputed", Fixture.Status.DISPUTED),
        ("to_play", Fixture.Status.TO_PLAY),
    ):
        fixture = fixture_make(
            actor=organiser, league=league, home=public_team, away=private_team, day=DAY
        )
        fixtures[key] = fixture.pk
        if status != Fixture.Status.TO_PLAY:
            for number, (home, away) in enumerate((("Nino", "Zurab"), ("Tamar", "Ketevan")), 1):
                Leg.objects.create(
                    fixture=fixture,
                    number=number,
                    kind="singles",
                    winner="away",
                    home_score=30,
                    away_score=61,
                    home_names=home,
                    away_names=away,
                )
            Fixture.objects.filter(pk=fixture.pk).update(
                status=status,
                submitted_for=private_team,
                dispute_reason="The second leg was a friendly" if key == "disputed" else "",
            )
    season = season_open(
        actor=private_owner,
        club=private,
        name="Winter",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    event = tournament_make(
        actor=private_owner,
        season=season,
        name="Secret night",
        kind="round-robin",
        first_day=DAY,
        last_day=DAY,
        player_ids=[zurab, ketevan],
    )
    ids = {
        "league": league.pk,
        "private_team": private_team.pk,
        "public_team": public_team.pk,
        "season": season.pk,
        "event": event.pk,
        **fixtures,
    }
    private_players = Player.objects.filter(club=private)
    secrets = {
        "name": [NAME],
        "slug": [SLUG],
        "handles": sorted(set(private_players.values_list("handle", flat=True))),
        "ids": sorted(private_players.values_list("pk", flat=True)),
        "usernames": [private_owner.username, private_captain.username],
    }
    return people, ids, secrets


def _ids_in(body: str, content_type: str) -> set[int]:
    """The player ids an answer gives: a JSON answer's ``player_id``, ``a``, ``b`` and
    ``champion`` values, a page's links to players' pages."""
    if "json" in content_type:
        found: set[int] = set()

        def walk(value, key=None):
            if isinstance(value, dict):
                for name, inner in value.items():
                    walk(inner, name)
            elif isinstance(value, list):
                for inner in value:
                    walk(inner, key)
            elif isinstance(value, int) and key in {"player_id", "a", "b", "champion", "player"}:
                found.add(value)

        walk(json.loads(body))
        return found
    return {int(pk) for pk in re.findall(r"/players/(\d+)/", body)}


def read(world, address: str, role: str) -> tuple[int, str, str]:
    people, ids, _ = world
    client = Client()
    if role != "anonymous":
        client.force_login(people[role])
    path = address.format(**ids)
    answer = client.get(path)
    # A page that says it is not found (or asks to sign in) may repeat the address asked.
    body = answer.content.decode().replace(path, "").replace(quote(path, safe=""), "")
    return answer.status_code, body, answer.get("Content-Type", "")


def leaks(world, address: str, role: str) -> tuple[list[str], list[str]]:
    """Return what ``role`` read at ``address`` that it should not, and what it should have
    read and did not."""
    *_, secrets = world
    allowed, shown = ADDRESSES[address]
    status, body, content_type = read(world, address, role)
    ids = _ids_in(body, content_type) if status == 200 else set()
    present = {
        kind: [s for s in values if s in body] for kind, values in secrets.items() if kind != "ids"
    }
    present["ids"] = [pk for pk in secrets["ids"] if pk in ids]
    wrong = [] if "usernames" in shown else [f"username {n}" for n in present["usernames"]]
    missing = []
    if role in allowed:
        if status != 200:
            missing.append(f"answered {status}")
        for kind in shown:
            if not present[kind]:
                missing.append(kind)
    else:
        wrong += [f"{kind} {value}" for kind in secrets for value in present[kind]]
        wrong = sorted(set(wrong))
    return wrong, missing


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("address", list(ADDRESSES))
def test_a_private_club_is_read_only_by_those_who_may_see_it(world, address, role):
    wrong, missing = leaks(world, address, role)
    assert (wrong, missing) == ([], []), f"{address} as {role}: {len(wrong)} leaks"


def test_outsiders_read_a_private_club_and_its_team_without_names(world):
    """What a signed-out reader reads instead: its club, its team, its legs' players."""
    *_, ids = world[:2]
    league = ids["league"]
    body = Client().get(f"/api/v1/leagues/{league}/").json()
    private = next(club for club in body["league"]["clubs"] if club["hidden"])
    assert private == {"club": None, "name": "a private club", "accepted": True, "hidden": True}
    team = next(team for team in body["teams"] if team["hidden"])
    assert team == {
        "id": ids["private_team"],
        "name": "Team 2 (a private club)",
        "club": None,
        "hidden": True,
        "roster": [],
        "captains": [],
        "withdrawn": False,
    }
    row = next(row for row in body["table"] if row["team_id"] == ids["private_team"])
    assert (row["name"], row["club"], row["won"], row["legs_for"]) == (
        "Team 2 (a private club)",
        "a private club",
        1,
        2,
    )
    played = next(f for f in body["fixtures"] if f["id"] == ids["played"])
    assert played["away_name"] == "Team 2 (a private club)"
    assert [leg["away_names"] for leg in played["legs"]] == ["Team 2 (a private club)"] * 2
    assert [leg["home_names"] for leg in played["legs"]] == ["Nino", "Tamar"]
    csv = Client().get(f"/leagues/{league}/table.csv").content.decode()
    assert "Team 2 (a private club),a private club,1,1,0,0,2,0,2,2" in csv
    page = Client(headers={"accept-language": "ru"}).get(f"/leagues/{league}/")
    assert "закрытый клуб" in page.content.decode()


def test_a_hidden_team_is_placed_by_its_number_and_named_once(world):
    """Its own name ("Secret Sixes A") sorts before "Tbilisi": placed by it, the hidden team
    would tell where that name falls. Its heading names it once, without its club again."""
    *_, ids = world[:2]
    league = ids["league"]
    body = Client().get(f"/api/v1/leagues/{league}/").json()
    assert [team["name"] for team in body["teams"]] == ["Tbilisi", "Team 2 (a private club)"]
    page = Client().get(f"/leagues/{league}/").content.decode()
    headings = [
        re.sub(r"<[^>]+>", "", h).split() for h in re.findall(r"<h3>(.*?)</h3>", page, re.S)
    ]
    assert [" ".join(words) for words in headings] == [
        "Tbilisi Tbilisi Fives Club",
        "Team 2 (a private club)",
    ]
    # Those who may see the club read its team by its name, in the order of names.
    organiser = Client()
    organiser.force_login(world[0]["organiser"])
    body = organiser.get(f"/api/v1/leagues/{league}/").json()
    assert [team["name"] for team in body["teams"]] == ["Secret Sixes A", "Tbilisi"]


def test_captains_are_named_by_their_claimed_handle_to_those_who_may_see(world):
    people, ids, _ = world
    client = Client()
    client.force_login(people["private-member"])
    team = client.get(f"/api/v1/leagues/{ids['league']}/teams/{ids['private_team']}/").json()
    zurab = Player.objects.get(club__slug=SLUG, handle="Zurab").pk
    assert team["captains"] == [
        {"handle": "Zurab", "player_id": zurab, "user_id": None},
        {"handle": None, "player_id": None, "user_id": None},
    ]
    page = client.get(f"/leagues/{ids['league']}/").content.decode()
    assert "Captains: Zurab, a captain with no claimed handle" in page
    # The organiser reads the user ids a team's captains are given by.
    client.force_login(people["organiser"])
    team = client.get(f"/api/v1/leagues/{ids['league']}/teams/{ids['private_team']}/").json()
    assert [c["user_id"] for c in team["captains"]] == [
        Player.objects.get(pk=zurab).user_id,
        Club.objects.get(slug=SLUG).owner.pk,
    ]


def test_a_disputes_reason_is_read_by_the_fixtures_captains_only(world):
    people, ids, _ = world
    where = f"/api/v1/leagues/{ids['league']}/fixtures/{ids['disputed']}/"
    reasons = {}
    for role in ("anonymous", "public-member", "other-captain", "organiser"):
        client = Client()
        if role != "anonymous":
            client.force_login(people[role])
        reasons[role] = client.get(where).json()["dispute_reason"]
    assert reasons == {
        "anonymous": "",
        "public-member": "",
        "other-captain": "The second leg was a friendly",
        "organiser": "The second leg was a friendly",
    }


@pytest.mark.usefixtures("world")
def test_the_other_clubs_audit_trail_names_a_private_clubs_team_by_its_private_name():
    """A fixture's making is written in both clubs' trails: the public club's admins read the
    private club's team as outsiders do; the private club's own trail names it."""
    words = {
        slug: list(
            AuditEntry.objects.filter(club__slug=slug, action="fixture-created").values_list(
                "detail__fixture", flat=True
            )
        )
        for slug in (PUBLIC, SLUG)
    }
    assert words == {
        PUBLIC: ["Tbilisi – Team 2 (a private club)"] * 3,
        SLUG: [f"Tbilisi – {NAME} A"] * 3,
    }


def test_the_other_captain_chooses_a_leg_without_reading_the_private_sides_names(
    world, owner, django_capture_on_commit_callbacks
):
    """A match of the day stored by the public club, the private club's player known there by
    the handle: the public team's captain reads it by time and score, the private side as
    its team."""
    people, ids, _ = world
    with django_capture_on_commit_callbacks(execute=True):
        store_match(owner, ["Nino", "Zurab"], seed=31, played_at="2026-10-03T18:00:00Z")
    client = Client()
    client.force_login(people["other-captain"])
    page = client.get(f"/leagues/{ids['league']}/fixtures/{ids['to_play']}/").content.decode()
    options = re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', page)
    assert options and all("Team 2 (a private club)" in option for option in options)
    assert "Zurab" not in page
