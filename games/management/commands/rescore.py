"""Rescore stored matches with the current engine (after an engine or ruleset change)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from games.models import Match
from games.services.matches import match_rescore


class Command(BaseCommand):
    help = "Validate stored matches again and update the points, settlements and scores."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="match ids (default: all)")

    def handle(self, *args, ids: list[int], **options):
        matches = Match.objects.order_by("id")
        if ids:
            matches = matches.filter(id__in=ids)
        match_ids = list(matches.values_list("id", flat=True))
        total = len(match_ids)
        changed = 0
        for done, match_id in enumerate(match_ids, start=1):
            before = Match.objects.values_list("scores", "winner").get(pk=match_id)
            match = match_rescore(match_id=match_id)
            changed += (match.scores, match.winner) != tuple(before)
            self._progress(done, total)
        self.stderr.write("")
        self.stdout.write(f"Rescored {total} matches; {changed} changed their scores or winner.")

    def _progress(self, done: int, total: int) -> None:
        width = 40
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        self.stderr.write(f"\r[{bar}] {done}/{total}", ending="")
        sys.stderr.flush()
