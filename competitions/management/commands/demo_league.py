"""The demo's team league: the three demo clubs' teams (two singles and a pairs leg a fixture,
scored as Leek scores: 2 for the match and 1 a leg won) and four fixtures: one confirmed, one
disputed (waiting for the organiser), a walkover (Kutaisi did not turn up) and one to play. The
demo user organises it, is a member of every demo club and captains the Tbilisi team, so a
newcomer signed in as ``demo`` sees the organiser's forms, a captain's buttons and a dispute
to resolve. The demo command calls this after ``demo_events``; run again, it does nothing.

The legs' matches are simulated and sent through the upload service by the home club's owner,
like any of the club's matches; the legs are chosen, submitted and decided through the
league's service, as captains would."""

from __future__ import annotations

import json
import random
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from clubs.models import Club, Membership
from competitions.league_forfeits import fixture_walkover
from competitions.league_points import SCHEME_BY_SLUG
from competitions.league_results import fixture_confirm, fixture_dispute, fixture_submit
from competitions.league_selectors import fixture_candidates
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from competitions.models import League
from fives_engine.simulate import simulate_match
from games.models import Player
from games.services.claims import claim_decide, handle_claim

from .demo import demo_upload, wait_argument

NAME = "Caucasus team league"
LEGS = ["singles", "singles", "pairs"]
# (club slug, team name, roster, captain's username); the demo user captains the first.
TEAMS = [
    ("tbilisi-fives-club", "Tbilisi Fives", ["Nino", "Giorgi", "Tamar"], "demo"),
    ("pyatyorochka", "Пятёрочка", ["Ольга", "Иван", "Мария"], "demo-ivan"),
    ("kutaisi-muggins-society", "Kutaisi Muggins", ["ნინო", "გიორგი", "თამარი"], "demo-nino"),
]
# (home, away, day, what becomes of it): by their index in TEAMS.
FIXTURES = [
    (0, 1, date(2026, 11, 7), "confirmed"),
    (2, 0, date(2026, 11, 14), "disputed"),
    (0, 2, date(2026, 11, 21), "walkover"),
    (1, 2, date(2026, 11, 28), "to-play"),
]


class Command(BaseCommand):
    help = (
        "Make the demo's team league: three teams, a fixture confirmed, one disputed, a "
        "walkover, one to play."
    )

    def add_arguments(self, parser):
        wait_argument(parser)

    def handle(self, *args, wait: float, **options):
        self.wait = wait
        demo = get_user_model().objects.filter(username="demo").first()
        clubs = {club.slug: club for club in Club.objects.filter(slug__in=[t[0] for t in TEAMS])}
        if demo is None or len(clubs) != len(TEAMS):
            self.stdout.write("No demo user or clubs: no league made.")
            return
        if League.objects.filter(name=NAME).exists():
            return
        rng = random.Random(28)
        league = league_make(actor=demo, name=NAME, legs=LEGS, **SCHEME_BY_SLUG["leek"].points)
        teams = []
        for slug, team_name, roster, captain_name in TEAMS:
            club = clubs[slug]
            Membership.objects.get_or_create(
                club=club, user=demo, defaults={"role": Membership.Role.MEMBER}
            )
            league_invite(actor=demo, league=league, club=club)
            league_accept(actor=club.owner, league=league, club=club)
            captain = get_user_model().objects.get(username=captain_name)
            players = [Player.objects.get_or_create(club=club, handle=h)[0].pk for h in roster]
            self._claim_first(captain, club, roster[0])
            teams.append(
                team_make(
                    actor=demo,
                    league=league,
                    club=club,
                    name=team_name,
                    player_ids=players,
                    captain_ids=[captain.pk],
                )
            )
        for home_index, away_index, day, becomes in FIXTURES:
            home, away = teams[home_index], teams[away_index]
            fixture = fixture_make(actor=demo, league=league, home=home, away=away, day=day)
            if becomes == "to-play":
                continue
            if becomes == "walkover":
                fixture_walkover(actor=demo, fixture=fixture, absent=away)
                continue
            self._play(home, away, TEAMS[home_index][2], TEAMS[away_index][2], day, rng)
            chosen, found = [], fixture_candidates(fixture)
            for kind in LEGS:
                match = next(c for c in found if c.kind == kind and c.match_id not in chosen)
                chosen.append(match.match_id)
            home_captain = home.captains.get()
            away_captain = away.captains.get()
            fixture = fixture_submit(actor=home_captain, fixture=fixture, match_ids=chosen)
            if becomes == "confirmed":
                fixture_confirm(actor=away_captain, fixture=fixture)
            else:
                fixture_dispute(
                    actor=away_captain,
                    fixture=fixture,
                    reason="The pairs leg was a friendly before the fixture began.",
                )
        self.stdout.write(
            f"Made the team league {NAME}: {len(teams)} teams, {len(FIXTURES)} fixtures "
            "(one confirmed, one disputed, a walkover, one to play)."
        )

    @staticmethod
    def _claim_first(captain, club, handle: str) -> None:
        """The captain claims the roster's first handle and the club's owner confirms it, as
        a club would: a league names its captains by the handle they claimed."""
        player = Player.objects.get(club=club, handle=handle)
        if player.user_id is None:
            claim = handle_claim(user=captain, player=player)
            claim_decide(actor=club.owner, claim=claim, confirm=True)

    def _play(self, home, away, home_roster, away_roster, day: date, rng) -> None:
        """Simulate the fixture's legs (two singles, then a pairs) at the home club on
        ``day`` (19:00 on, 30 minutes apart, in its zone) and store them as one upload of
        the club's owner, each log naming its leg in ``event`` (the visiting players sit as
        their own club's, docs/leagues.md)."""
        club = home.club
        seatings = [
            [home_roster[0], away_roster[0]],
            [away_roster[1], home_roster[1]],
            [home_roster[1], away_roster[1], home_roster[2], away_roster[2]],
        ]
        zone = ZoneInfo(club.time_zone)
        lines = []
        for number, names in enumerate(seatings):
            doc = simulate_match(
                "muggins", len(names), teams=len(names) == 4, seed=rng.getrandbits(32), names=names
            )
            doc["id"] = f"demo-league-{club.slug}-{day}-{number}"
            doc["club"] = club.name
            start = datetime(day.year, day.month, day.day, 19, tzinfo=zone)
            doc["played_at"] = (start + timedelta(minutes=30 * number)).isoformat()
            doc["event"] = f"{NAME}, {home.name} v {away.name}, leg {number + 1}"
            lines.append(json.dumps(doc, ensure_ascii=False).encode())
        # Stored before the command goes on, here or by the worker that took it first (its
        # matches are read next): demo.py's docstring says why.
        demo_upload(
            wait=self.wait,
            uploader=club.owner,
            data=b"\n".join(lines) + b"\n",
            kind="ndjson",
            club=club,
        )
