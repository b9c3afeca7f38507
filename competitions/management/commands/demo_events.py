"""The demo's events in its season (Autumn 2026 of the first demo club): a club night, a
round-robin of five half played (five of its ten matches in, a bye each round), and a small
knockout cup of three (the best seed through on a bye, the semi-final played, the final still
to play, and a match of the two finalists played before the semi-final, which the cup lists
as not counted, with why), so a newcomer sees a schedule fill in and a winner move on. The
demo command calls this after ``demo_season``; run again, it does nothing.

The matches are simulated for the pairs the draw gives and sent through the upload service
by the club's owner, like any of the club's matches; nothing is written into an event."""

from __future__ import annotations

import json
import random
from datetime import date

from django.core.management.base import BaseCommand

from clubs.models import Club
from competitions.models import Season, Tournament
from competitions.tournaments import tournament_make, tournament_schedule
from fives_engine.simulate import simulate_match
from games.models import Match, Player

from .demo import demo_upload, wait_argument
from .demo_season import CLUB_SLUG
from .demo_season import NAME as SEASON

NIGHT, CUP = "Club night", "Autumn cup"
NIGHT_PLAYERS = ["Nino", "Giorgi", "Tamar", "Levan", "Mariam"]
CUP_PLAYERS = ["Davit", "Levan", "Tamar"]
NIGHT_DAY, CUP_FIRST, CUP_LAST = date(2026, 11, 20), date(2026, 11, 21), date(2026, 11, 22)
PLAYED = 5  # of the night's ten fixtures, in the schedule's order


def _event(season: Season, name: str, kind: str, days: tuple[date, date], handles) -> Tournament:
    """Make the demo's event ``name`` of ``season``, its owner's, between ``handles``."""
    first_day, last_day = days
    return tournament_make(
        actor=season.club.owner,
        season=season,
        name=name,
        kind=kind,
        first_day=first_day,
        last_day=last_day,
        player_ids=_players(season.club, handles),
    )


class Command(BaseCommand):
    help = "Make the demo's events: a round-robin half played and a small knockout cup."

    def add_arguments(self, parser):
        wait_argument(parser)

    def handle(self, *args, wait: float, **options):
        self.wait = wait
        season = Season.objects.filter(club__slug=CLUB_SLUG, name=SEASON).first()
        if season is None or season.club.owner is None:
            self.stdout.write("No demo season: no event made.")
            return
        if season.events.exists():
            return
        club, owner = season.club, season.club.owner
        rng = random.Random(2026)
        night = _event(season, NIGHT, Tournament.Kind.ROUND_ROBIN, (NIGHT_DAY,) * 2, NIGHT_PLAYERS)
        fixtures = [f for r in tournament_schedule(night)["rounds"] for f in r["fixtures"]]
        pairs = [(f["a_name"], f["b_name"]) for f in fixtures[:PLAYED]]
        self._play(owner, club, pairs, NIGHT, NIGHT_DAY, rng)
        cup = _event(season, CUP, Tournament.Kind.KNOCKOUT, (CUP_FIRST, CUP_LAST), CUP_PLAYERS)
        semi = next(
            f for f in tournament_schedule(cup)["rounds"][0]["fixtures"] if f["state"] == "to-play"
        )
        self._play(owner, club, [(semi["a_name"], semi["b_name"])], CUP, CUP_FIRST, rng)
        # The two finalists also played at 18:00, before the semi-final, naming no event,
        # and sent it later: the cup passes it over and says why (a final is played after
        # its semi-finals), and the final stays to play.
        # (The semi-final's winner read from its match: its figures may still be on the way.)
        final = tournament_schedule(cup)["rounds"][-1]["fixtures"][0]
        semi_final = Match.objects.filter(club=club, event=CUP).latest("pk")
        winner = semi_final.seats.filter(team=semi_final.winner).get().player.handle
        early = [(final["a_name"] or final["b_name"], winner)]
        self._play(owner, club, early, "", CUP_FIRST, rng, start=18 * 60, key="friendly")
        self.stdout.write(
            f"Made the events {NIGHT} ({PLAYED} of {len(fixtures)} played) and {CUP} in "
            f"{season.name}."
        )

    def _play(
        self, owner, club: Club, pairs, event: str, day: date, rng, *, start=19 * 60, key=""
    ) -> None:
        """Simulate a match for each pair on ``day`` (from ``start``, minutes after midnight
        in the club's zone, 20 minutes apart), its log naming ``event``, and store them as
        one upload of the owner."""
        lines = []
        for number, names in enumerate(pairs):
            doc = simulate_match("muggins", 2, seed=rng.getrandbits(32), names=list(names))
            doc["id"] = f"demo-{(key or event).lower().replace(' ', '-')}-{number}"
            doc["club"] = club.name
            minutes = start + 20 * number
            doc["played_at"] = f"{day}T{minutes // 60:02d}:{minutes % 60:02d}:00+04:00"
            doc["event"] = event
            lines.append(json.dumps(doc, ensure_ascii=False).encode())
        # Stored before the command goes on, here or by the worker that took it first (its
        # matches are read next): demo.py's docstring says why.
        demo_upload(
            wait=self.wait, uploader=owner, data=b"\n".join(lines) + b"\n", kind="ndjson", club=club
        )


def _players(club: Club, handles: list[str]) -> list[int]:
    """The ids of the club's players of ``handles``, made if no match has made them yet
    (run alone, on clubs with fewer matches; a later match finds them by handle)."""
    return [Player.objects.get_or_create(club=club, handle=handle)[0].pk for handle in handles]
