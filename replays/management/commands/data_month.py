"""Write one month's open data by hand: ``python manage.py data_month 2026-11`` (the job writes
last month's on the 1st, and a month's again when its public matches change)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from replays.open_data import month_parse, month_write


class Command(BaseCommand):
    help = "Write a month's public matches (fives/1 NDJSON, zstd) and seat results (Parquet)."

    def add_arguments(self, parser):
        parser.add_argument("month", help="YYYY-MM")

    def handle(self, *args, month: str, **options):
        try:
            month_parse(month)
        except ValueError as error:
            raise CommandError(str(error)) from None
        started = time.perf_counter()
        made = month_write(month)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"{made.month}: {made.matches} matches, {made.hands} hands, {made.moves} moves, "
            f"{made.seats} seats in {seconds:.1f} s"
        )
        for _kind, file in made.files():
            self.stdout.write(f"  {file.name}  {file.bytes} bytes  sha256 {file.sha256}")
