"""Move the seats of handles a club got from another club's league legs to that club's
players (``competitions.leg_seats.legs_rehome``): a dry run unless ``--apply``."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from competitions.leg_seats import legs_rehome


class Command(BaseCommand):
    help = (
        "Find the handles a club got from the visiting players of its league legs; with "
        "--apply, seat those players as their own club's and delete the handles emptied."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--apply", action="store_true", help="Move the seats (else only say what would)."
        )

    def handle(self, *args, apply: bool = False, **options) -> None:
        entries = legs_rehome(apply=apply)
        for entry in entries:
            source, target = entry.source, entry.target
            said = (
                f"{source.club.slug}: {source.handle!r} (player {entry.source_id}, "
                f"{len(entry.match_ids)} legs) -> {target.club.slug}: {target.handle!r} "
                f"(player {target.pk})"
            )
            if entry.why:
                self.stdout.write(f"{said}: left alone, {entry.why}")
            else:
                self.stdout.write(f"{said}: {'moved' if apply else 'would move'}")
        moving = sum(not entry.why for entry in entries)
        verb = "moved" if apply else "to move (run again with --apply)"
        self.stdout.write(f"{moving} of {len(entries)} handles {verb}.")
