"""A merge of two handles moves what was derived from the merged handle's seats, in the
merge's transaction, without reviewing any match again (issue 39): its seat results, the
running totals and its seats' analysis summaries end as a review from scratch and a count
of the totals from the seat results make them, and the ratings as a recomputation from the
start does."""

from __future__ import annotations

import pytest
from django.db.models import Q

from games.models import Match, Player
from games.services.matches import match_delete
from games.services.players import players_merge
from replays import pipeline, stats
from replays.head_to_head import head_to_head_differ
from replays.models import HeadToHead, PlayerTotals, SeatAnalysis, SeatResult
from replays.totals import totals_differ
from tests.replays.test_rating_reach import (  # noqa: F401 (fixtures)
    KUTAISI,
    rated_as_from_the_start,
    recompute_all_from_the_start,
    three_clubs,
)

pytestmark = pytest.mark.django_db

FIELDS = [field.attname for field in SeatResult._meta.concrete_fields]


def _results() -> list[tuple]:
    return sorted(SeatResult.objects.values_list(*FIELDS))


def _summary(match_id: int, seat: int, player: Player) -> SeatAnalysis:
    """A seat's analysis summary as a finished analysis leaves it (its figures made up: the
    merge moves the row, whatever it holds)."""
    return SeatAnalysis.objects.create(
        match_id=match_id,
        seat=seat,
        player=player,
        club_id=player.club_id,
        loss=1.5 + seat,
        plays=10,
        accuracy=90.0,
        decisions=4,
        version="test",
    )


@pytest.fixture
def twins(three_clubs, django_capture_on_commit_callbacks):  # noqa: F811
    """Kutaisi's two handles of one person, never at one table, each with a summary."""
    capture = django_capture_on_commit_callbacks
    source = Player.objects.get(club__name=KUTAISI, handle="Zaza K.")
    target = Player.objects.get(club__name=KUTAISI, handle="Zaza")
    theirs = {
        player: set(player.seats.values_list("match_id", flat=True)) for player in (source, target)
    }
    with capture(execute=True):
        for match_id in theirs[source] & theirs[target]:
            match_delete(match_id=match_id)
    recompute_all_from_the_start()
    assert totals_differ() == []
    assert head_to_head_differ() == []
    for player in (source, target):
        seat = player.seats.order_by("match_id").first()
        _summary(seat.match_id, seat.seat, player)
    assert SeatResult.objects.filter(player=source).exists()
    return source, target


def test_a_merge_moves_the_figures_and_reviews_no_match(
    owner, twins, monkeypatch, django_capture_on_commit_callbacks
):
    source, target = twins
    source_id = source.pk
    moved = set(source.seats.values_list("match_id", flat=True))
    reviewed = []
    kept = stats.seat_results
    monkeypatch.setattr(stats, "seat_results", lambda match: reviewed.append(match) or kept(match))
    with django_capture_on_commit_callbacks(execute=True):
        players_merge(actor=owner, source=source, target=target)
    assert reviewed == []
    assert not SeatResult.objects.filter(player_id=source_id).exists()
    assert (
        set(
            SeatResult.objects.filter(player=target, match_id__in=moved).values_list(
                "match_id", flat=True
            )
        )
        == moved
    )
    # The totals and head to head, counted again from the seat results, equal the kept.
    assert totals_differ() == []
    assert head_to_head_differ() == []
    assert HeadToHead.objects.filter(player=target).exists()
    assert not HeadToHead.objects.filter(Q(player_id=source_id) | Q(opponent_id=source_id)).exists()
    rated_as_from_the_start()
    # Counted another way: every match reviewed from scratch gives the same rows, and the
    # totals counted again from them equal the running ones.
    after = _results()
    pipeline.matches_review(match_ids=list(Match.objects.values_list("pk", flat=True)))
    assert len(reviewed) == Match.objects.count()
    assert _results() == after
    assert totals_differ() == []
    assert head_to_head_differ() == []
    assert not PlayerTotals.objects.filter(player_id=source_id).exists()
    # Both summaries are the surviving handle's now (they went with the old one before).
    assert SeatAnalysis.objects.filter(player=target).count() == 2
