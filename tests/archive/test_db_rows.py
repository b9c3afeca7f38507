"""The services' row helpers (``games.db``) on the database the suite runs on: PostgreSQL's
COPY and ``UPDATE ... FROM (VALUES ...)`` where CI has it, Django's bulk operations on
SQLite."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.db import insert_rows, update_rows
from games.models import Player
from replays.models import Rating, RatingScope
from tests.conftest import home_club

pytestmark = pytest.mark.django_db


def test_update_rows_sets_only_the_columns_named_of_only_the_rows_given(owner):
    scope = RatingScope.objects.create(club=None)
    players = [Player.objects.create(club=home_club(), handle=f"P{n}") for n in range(3)]
    insert_rows(
        Rating,
        ("scope_id", "player_id", "mu", "sigma", "ordinal", "matches", "wins"),
        [(scope.pk, player.pk, 25.0, 8.0, 1.0, 0, 0) for player in players],
    )
    first, second, untouched = (Rating.objects.get(player=player) for player in players)
    when = datetime(2026, 12, 6, 20, 30, tzinfo=UTC)
    update_rows(
        Rating,
        ("mu", "matches", "last_played"),
        [(first.pk, 27.5, 3, when), (second.pk, 21.25, 1, None)],
    )
    got = {
        rating.player_id: (rating.mu, rating.sigma, rating.matches, rating.wins, rating.last_played)
        for rating in Rating.objects.all()
    }
    assert got == {
        first.player_id: (27.5, 8.0, 3, 0, when),
        second.player_id: (21.25, 8.0, 1, 0, None),
        untouched.player_id: (25.0, 8.0, 0, 0, None),
    }
    update_rows(Rating, ("mu",), [])  # nothing to set: no query, no error


def test_any_of_finds_the_rows_whose_field_is_one_of_a_list_of_any_length(owner):
    players = [Player.objects.create(club=home_club(), handle=f"Q{n}") for n in range(4)]
    ids = [player.pk for player in players]
    chosen = Player.objects.filter(handle__startswith="Q")
    assert sorted(chosen.filter(pk__any_of=ids[1:3]).values_list("handle", flat=True)) == [
        "Q1",
        "Q2",
    ]
    # A key (its own lookups), an empty list, many thousands of values, and a delete.
    scope = RatingScope.objects.create(club=None)
    insert_rows(
        Rating,
        ("scope_id", "player_id", "mu", "sigma", "ordinal", "matches", "wins"),
        [(scope.pk, pk, 25.0, 8.0, 1.0, 0, 0) for pk in ids],
    )
    assert Rating.objects.filter(player_id__any_of=[]).count() == 0
    many = [ids[0], *range(10**9, 10**9 + 100_000), ids[3]]
    assert sorted(
        Rating.objects.filter(player__any_of=many).values_list("player_id", flat=True)
    ) == [
        ids[0],
        ids[3],
    ]
    Rating.objects.filter(player_id__any_of=ids[:2]).delete()
    assert sorted(Rating.objects.values_list("player_id", flat=True)) == ids[2:]
