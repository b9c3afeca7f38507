"""Migration 0020 counts the head to head of the seat results already stored: taken back
to 0019 (the table dropped) and forward again, the rows equal what the archive kept."""

from __future__ import annotations

import pytest

from replays.head_to_head import head_to_head_differ
from replays.models import HeadToHead
from tests.migrations import migrate
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_migration_counts_what_was_stored(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for seed, names in enumerate([["Nino", "Levan"], ["Nino", "Levan", "Ana"], ["Ana", "Gio"]]):
            store_match(owner, names, seed=seed, played_at=f"2026-03-0{seed + 1}T19:00:00Z")
    kept = sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "matches", "wins"))
    assert len(kept) == 8  # Nino-Levan (twice), Nino-Ana, Levan-Ana, Ana-Gio: both ways
    migrate([("replays", "0019_rating_scope_dirty_players")])
    migrate(None)
    assert (
        sorted(HeadToHead.objects.values_list("player_id", "opponent_id", "matches", "wins"))
        == kept
    )
    assert head_to_head_differ() == []
