"""Analyse a few demo matches (the expected value of every play), so a newcomer finds the
analysis on a match page, the player pages and the ranking without waiting for a worker
(the demo command calls this at its end; run again, it does nothing more)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from games.models import Match
from replays.analysis import analysis_request, analysis_run
from replays.puzzles import puzzles_make

# Two-player matches of the first demo club (clubs' demo command makes it; competitions'
# demo_season opens its season): a few seconds each, run here in-process.
CLUB_SLUG = "tbilisi-fives-club"
COUNT = 4


class Command(BaseCommand):
    help = "Analyse a few matches of the first demo club (expected value of every play)."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=COUNT)

    def handle(self, *args, count: int, **options):
        matches = (
            Match.objects.counted()
            .filter(club__slug=CLUB_SLUG, player_count=2, errors=[], teams__isnull=True)
            .order_by("-played_at", "-pk")[:count]
        )
        for match in matches:
            started = time.perf_counter()
            # Asked by the club, counted in no one's quota; run here whether or not a broker
            # took the prompt (a run that finds it done does nothing).
            analysis = analysis_request(match=match, user=None)
            analysis = analysis_run(analysis_id=analysis.pk) or analysis
            analysis.refresh_from_db()
            seconds = time.perf_counter() - started
            self.stdout.write(f"Match {match.pk}: analysis {analysis.status} in {seconds:.1f} s")
        # Puzzles from the demo's analyses (the periodic job's work, done here at once), so a
        # newcomer finds /puzzles/ and the day's puzzle on the home page.
        made = puzzles_make()
        self.stdout.write(f"Puzzles: {made['puzzles']} from {made['matches']} analyses")
