"""What competitions do when the archive merges a player (connected in ``apps.py``)."""

from .leagues import rosters_move
from .tournaments import entries_move


def on_player_merging(sender, *, source, target, **kwargs) -> None:
    """A handle merged into another: its event entries and league rosters move to the
    surviving handle, in the merge's transaction (without it they would go with the old
    handle)."""
    entries_move(source_id=source.pk, target_id=target.pk)
    rosters_move(source_id=source.pk, target_id=target.pk)
