"""Migration 0021 keeps the chart of every club rating already stored: taken back to 0020
(the table dropped) and forward again, the points equal what the re-ratings kept, and a
player page draws the same chart."""

from __future__ import annotations

import pytest

from games.models import Player
from replays.models import RatingHistory
from replays.rankings import player_profile
from replays.rating_history import histories_differ
from tests.migrations import migrate
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_migration_keeps_the_charts_the_ratings_left(owner, django_capture_on_commit_callbacks):
    tables = [["Nino", "Levan"], ["Nino", "Levan", "Ana"], ["Ana", "Gio"], ["Nino", "Gio"]]
    with django_capture_on_commit_callbacks(execute=True):
        for seed, names in enumerate(tables):
            store_match(owner, names, seed=seed, played_at=f"2026-03-0{seed + 1}T19:00:00Z")
    kept = sorted(
        (rating_id, bytes(points))
        for rating_id, points in RatingHistory.objects.values_list("rating_id", "points")
    )
    nino = Player.objects.get(handle="Nino")
    chart = player_profile(player=nino)["history"]
    assert [point["matches"] for point in chart] == [1, 2, 3]
    migrate([("replays", "0020_head_to_head")])
    migrate(None)
    again = sorted(
        (rating_id, bytes(points))
        for rating_id, points in RatingHistory.objects.values_list("rating_id", "points")
    )
    assert again == kept
    assert len(kept) == 4 and all(points for _, points in kept)
    assert histories_differ() == []
    assert player_profile(player=nino)["history"] == chart
