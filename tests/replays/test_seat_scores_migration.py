"""Migration 0010 of replays gives each seat result its side's final score, the other sides'
added up and the number of sides; rows stored before it are filled from their match's
scores, to the same figures ingest now stores."""

from __future__ import annotations

import pytest
from django.apps import apps as current_apps

from games.models import Match
from replays.models import SeatResult
from tests.migrations import migrate, table_rows
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

FIELDS = ("match_id", "seat", "team", "score", "scored_against", "sides")


def test_old_seat_results_are_filled_from_their_match_scores(
    owner, django_capture_on_commit_callbacks
):
    tables = [
        (["Nino", "Giorgi"], False),
        (["Giorgi", "Tamar", "Levan"], False),
        (["Nino", "Tamar", "Levan", "Giorgi"], True),
        (["Tamar", "Giorgi", "Nino", "Levan"], False),
    ]
    for day, (names, teams) in enumerate(tables):
        with django_capture_on_commit_callbacks(execute=True):
            store_match(owner, names, seed=day, played_at=f"2026-10-{day + 1:02d}", teams=teams)
    # What ingest stores: each seat's side's score and the rest of the match's.
    for result in SeatResult.objects.select_related("match"):
        scores = result.match.scores
        assert result.score == scores[result.team]
        assert result.score + result.scored_against == sum(scores)
        assert result.sides == len(scores)
    assert sorted(SeatResult.objects.values_list("sides", flat=True).distinct()) == [2, 3, 4]
    assert Match.objects.count() == 4
    stored = table_rows(current_apps, "replays", "SeatResult", FIELDS)

    old = migrate([("replays", "0009_stored_replays")])
    assert "score" not in {f.name for f in old.get_model("replays", "SeatResult")._meta.fields}
    new = migrate(None)
    assert table_rows(new, "replays", "SeatResult", FIELDS) == stored
