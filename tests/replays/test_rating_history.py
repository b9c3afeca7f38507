"""A rating's history keeps only the points its chart shows (issue 39: each re-rating rewrites
a history whole, so a long career's row must stay short), and a career that shrinks gets the
points it shows again counted from its rows."""

from __future__ import annotations

import pytest

from games.models import Player
from games.services.matches import match_delete
from replays import rankings, rating_history
from replays.models import RatingHistory
from replays.rankings import player_profile
from replays.rating_history import POINT, histories_differ, step_of, thinned
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_point_charts(monkeypatch):
    """Charts of at most two points: thinning starts at the third match."""
    monkeypatch.setattr(rating_history, "HISTORY_POINTS", 2)
    monkeypatch.setattr(rankings, "HISTORY_POINTS", 2)


def _kept_numbers(handle: str) -> list[int]:
    player = Player.objects.get(handle=handle)
    packed = bytes(RatingHistory.objects.get(rating__player=player).points)
    return [number for number, *_rest in POINT.iter_unpack(packed)]


def _store(owner, count, *, first_day=1):
    return [
        store_match(
            owner, ["Nino", "Levan"], seed=seed, played_at=f"2026-03-{first_day + seed:02}T19:00Z"
        )
        for seed in range(count)
    ]


def test_a_history_keeps_only_the_points_its_chart_shows(
    owner, two_point_charts, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _store(owner, 9)
    # Nine matches, charts of two points: every 8th match's point, then the last (the
    # rating's own values); the 2nd, 4th and 6th were kept while the career was shorter.
    assert step_of(9, 2) == 8
    assert _kept_numbers("Nino") == [8]
    chart = player_profile(player=Player.objects.get(handle="Nino"))["history"]
    assert [point["matches"] for point in chart] == [8, 9]
    assert histories_differ() == []


def test_a_career_whose_step_halves_gets_its_points_counted_again(
    owner, two_point_charts, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        matches = _store(owner, 5)
    assert _kept_numbers("Nino") == [4]
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=matches[-1].pk)
    # Four matches: every 2nd match's point again, the 2nd among them (dropped at the 5th).
    assert _kept_numbers("Nino") == [2, 4]
    assert histories_differ() == []
    chart = player_profile(player=Player.objects.get(handle="Nino"))["history"]
    assert [point["matches"] for point in chart] == [2, 4]


def test_a_match_before_the_others_renumbers_the_kept_points(
    owner, two_point_charts, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _store(owner, 3, first_day=10)
        store_match(owner, ["Nino", "Levan"], seed=40, played_at="2026-03-01T19:00Z")
    assert _kept_numbers("Nino") == [2, 4]
    assert histories_differ() == []


def test_thinned_keeps_the_multiples_of_the_career_s_step():
    packed = b"".join(POINT.pack(number, number * 1000, 25.0, 8.0) for number in range(1, 601))
    kept = [number for number, *_rest in POINT.iter_unpack(thinned(packed, 601))]
    assert kept == list(range(4, 601, 4))
    assert thinned(packed, 300) == packed
