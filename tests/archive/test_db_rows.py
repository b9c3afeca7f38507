"""The services' row helpers (``games.db``) on the database the suite runs on: PostgreSQL's
COPY and ``UPDATE ... FROM (VALUES ...)`` where CI has it, Django's bulk operations on
SQLite."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.models import BigIntegerField, DateTimeField

from games.db import insert_rows, rows_table, update_rows
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


def test_rows_table_joins_thousands_of_keys_each_with_a_time_of_its_own(owner):
    """Each player's latest rating that was last played before a time of its own, as the
    all-clubs re-rating asks it of the players it reaches: through ``rows_table``."""
    scope = RatingScope.objects.create(club=None)
    players = [Player.objects.create(club=home_club(), handle=f"T{n}") for n in range(3)]
    noon = datetime(2026, 12, 6, 12, 0, 0, 250_000, tzinfo=UTC)
    insert_rows(
        Rating,
        ("scope_id", "player_id", "mu", "sigma", "ordinal", "matches", "wins", "last_played"),
        [(scope.pk, p.pk, 25.0, 8.0, 1.0, n, 0, noon) for n, p in enumerate(players)],
    )
    given, params = rows_table(
        # A time just after noon and one at noon exactly (not before it), many unknown keys.
        [(players[0].pk, noon.replace(microsecond=250_001), 7), (players[1].pk, noon, 8)]
        + [(10**9 + n, noon, n) for n in range(5000)],
        [BigIntegerField(), DateTimeField(), BigIntegerField()],
        ["player", "at_time", "tag"],
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT given.player, given.tag, (SELECT r.matches FROM replays_rating r"
            " WHERE r.player_id = given.player AND r.last_played < given.at_time)"
            f" FROM {given} ORDER BY given.tag",
            params,
        )
        found = cursor.fetchall()
    assert len(found) == 5002
    assert (players[0].pk, 7, 0) in found
    assert (players[1].pk, 8, None) in found
    assert not [row for row in found if row[0] >= 10**9 and row[2] is not None]
    given, params = rows_table([], [BigIntegerField()], ["player"])
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {given}", params)
        assert cursor.fetchone() == (0,)  # no rows: an empty table


def test_the_archives_postgresql_connections_compile_no_query():
    """PostgreSQL's JIT is off for the archive's connections (``fivesite/settings.py``): at a
    million matches the planner's estimate of a ranking's subqueries crossed
    ``jit_above_cost``, and compiling cost 22 ms of a query that ran in 1."""
    if connection.vendor != "postgresql":
        pytest.skip("JIT is PostgreSQL's (this run is on SQLite)")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)
