"""Make puzzles from the analysed matches of public clubs (``replays.puzzles``): each
analysis looked through once (again when redone); prints how many matches and puzzles."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from replays.puzzles import puzzles_make


class Command(BaseCommand):
    help = "Make puzzles from the analysed matches of public clubs."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None, help="at most this many matches")

    def handle(self, *args, limit: int | None, **options):
        made = puzzles_make(limit=limit)
        matches, puzzles = made["matches"], made["puzzles"]
        self.stdout.write(f"{matches} analyses looked through, {puzzles} puzzles made")
