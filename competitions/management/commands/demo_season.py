"""Open the demo's season: "Autumn 2026" in the first demo club, opened by its owner, so a
newcomer finds standings (the demo command calls this at its end; run again, it does
nothing)."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand

from clubs.models import Club
from competitions.models import Season
from competitions.seasons import season_open

CLUB_SLUG = "tbilisi-fives-club"
NAME = "Autumn 2026"


class Command(BaseCommand):
    help = "Open the demo season (Autumn 2026) in the first demo club."

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is None or club.owner is None:
            self.stdout.write("No demo club: no season opened.")
            return
        if Season.objects.filter(club=club, name=NAME).exists():
            return
        season = season_open(
            actor=club.owner,
            club=club,
            name=NAME,
            first_day=date(2026, 9, 1),
            last_day=date(2026, 11, 30),
            win_points=3,
            loss_points=0,
            place_points=[3, 2, 1, 0],
        )
        self.stdout.write(f"Opened the season {season.name} in {club.name}.")
