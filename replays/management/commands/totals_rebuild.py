"""Count the running totals (rankings, season tables, player figures, the rating charts'
points) again from the seat results: after a club's time zone changed (its days moved), or
to check them (``--check`` says which rows differ and changes nothing). Without ``--club``,
the head to head of every player too (``replays.head_to_head``)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from replays.head_to_head import head_to_head_differ, head_to_head_rebuild
from replays.rating_history import histories_differ, histories_rebuild
from replays.totals import totals_differ, totals_rebuild


class Command(BaseCommand):
    help = "Count the running totals again from the seat results (--check: only compare)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the slug of one club (default: every club)")
        parser.add_argument("--check", action="store_true", help="compare, change nothing")

    def handle(self, *args, club: str | None, check: bool, **options):
        club_id = None
        if club:
            found = Club.objects.filter(slug=club).first()
            if found is None:
                raise CommandError(f"No club with the slug {club!r}.")
            club_id = found.pk
        if check:
            differences: list = totals_differ(club_id=club_id)
            differences += histories_differ(club_id=club_id)
            if club_id is None:
                differences += head_to_head_differ()
            for key, kept, counted in differences[:20]:
                self.stdout.write(f"{key}: kept {kept}, counted {counted}")
            if differences:
                raise CommandError(f"{len(differences)} rows differ from a count made again.")
            self.stdout.write("The running totals equal a count made again.")
            return
        rows = totals_rebuild(club_id=club_id)
        self.stdout.write(f"{rows} rows of running totals counted again.")
        histories = histories_rebuild(club_id=club_id)
        self.stdout.write(f"{histories} rating histories counted again.")
        if club_id is None:
            pairs = head_to_head_rebuild()
            self.stdout.write(f"{pairs} rows of head to head counted again.")
