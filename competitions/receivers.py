"""What competitions do when the archive merges a player, and when a person leaves a club
(connected in ``apps.py``)."""

from .leagues import rosters_move
from .models import CalendarKey
from .tournaments import entries_move


def on_player_merging(*, source, target) -> None:
    """A handle merged into another: its event entries and league rosters move to the
    surviving handle, in the merge's transaction (without it they would go with the old
    handle)."""
    entries_move(source_id=source.pk, target_id=target.pk)
    rosters_move(source_id=source.pk, target_id=target.pk)


def on_membership_deleted(sender, *, instance, **kwargs) -> None:
    """A person left a club (or was removed): their secret calendar link to it is gone, so
    it stays dead should they join again."""
    CalendarKey.objects.filter(club_id=instance.club_id, user_id=instance.user_id).delete()
