"""Head to head (issue 39): what each player did against each opponent, kept as matches
arrive so a player page reads a player's rows by key (``HeadToHead``).

Two players met when they sat in one match on different sides. Each meeting adds a match
to the row (player, opponent) and to (opponent, player), a win to the row of the one whose
side won (``SeatResult.won``) and a loss to the other's; in a match of three or four sides
won by someone else, neither. ``head_to_head_apply`` adds the seat results stored and takes
away those removed, whole matches at a time, in the transaction that changes them
(``stats.match_results_store``, ``match_deleting``, a merge's ``pipeline.handles_merged``);
``head_to_head_rebuild`` counts them again from the seat results, and
``head_to_head_differ`` compares (``manage.py totals_rebuild``, with or without
``--check``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction

from .models import HeadToHead, SeatResult

Pair = tuple[int, int]
COLUMNS = ("matches", "wins", "losses")


def _add_up(results: Iterable[SeatResult], sign: int, sums: dict[Pair, list[int]]) -> None:
    """Add (``sign`` 1) or take away (-1) what each match's seats give each pair of them."""
    by_match: dict[int, list[SeatResult]] = defaultdict(list)
    for result in results:
        by_match[result.match_id].append(result)
    for seats in by_match.values():
        for me in seats:
            for them in seats:
                if them.team != me.team:
                    row = sums[(me.player_id, them.player_id)]
                    row[0] += sign
                    row[1] += sign * int(me.won)
                    row[2] += sign * int(them.won)


def head_to_head_apply(*, added: list[SeatResult], removed: list[SeatResult]) -> None:
    """Add the seat results ``added`` and take away those ``removed``, each list every seat
    of its matches; call it inside the transaction that stores or deletes them."""
    sums: dict[Pair, list[int]] = defaultdict(lambda: [0, 0, 0])
    _add_up(removed, -1, sums)
    _add_up(added, +1, sums)
    # Pairs added back alike (a match reviewed again, the other players of a merge) stay.
    changed = sorted(pair for pair, row in sums.items() if any(row))
    if not changed:
        return
    table = connection.ops.quote_name(HeadToHead._meta.db_table)
    updates = ", ".join(f"{name} = {table}.{name} + EXCLUDED.{name}" for name in COLUMNS)
    sql = (
        f"INSERT INTO {table} (player_id, opponent_id, {', '.join(COLUMNS)}) "
        f"VALUES (%s, %s, %s, %s, %s) ON CONFLICT (player_id, opponent_id) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        # Pairs in order: two transactions adding to the same rows lock them in one order.
        cursor.executemany(sql, [(*pair, *sums[pair]) for pair in changed])
    if removed:  # a pair that no longer met has nothing left
        players = {player for player, _ in changed}
        HeadToHead.objects.filter(player_id__in=players, matches__lte=0).delete()


def head_to_head(*, player_id: int) -> list[dict[str, Any]]:
    """Return, per opponent, the matches played against them and how many were won and
    lost."""
    rows = HeadToHead.objects.filter(player_id=player_id).values_list("opponent_id", *COLUMNS)
    return [
        {"opponent_id": opponent, "matches": matches, "wins": wins, "losses": losses}
        for opponent, matches, wins, losses in rows
    ]


# The rows counted from the seat results: every pair of seats of one match on two sides.
COUNTED = """
SELECT me.player_id, them.player_id, COUNT(*),
       SUM(CASE WHEN me.won THEN 1 ELSE 0 END), SUM(CASE WHEN them.won THEN 1 ELSE 0 END)
FROM {results} me JOIN {results} them ON them.match_id = me.match_id AND them.team <> me.team
GROUP BY me.player_id, them.player_id
"""


def _counted_sql() -> str:
    return COUNTED.format(results=connection.ops.quote_name(SeatResult._meta.db_table))


def head_to_head_rebuild() -> int:
    """Count every row again from the seat results; return how many there are."""
    table = connection.ops.quote_name(HeadToHead._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table}")
        cursor.execute(
            f"INSERT INTO {table} (player_id, opponent_id, {', '.join(COLUMNS)}) " + _counted_sql()
        )
    return HeadToHead.objects.count()


def head_to_head_differ() -> list[tuple[Pair, Any, Any]]:
    """Return the rows whose kept figures differ from a count made again from the seat
    results (empty when they agree)."""
    kept = {
        (player, opponent): tuple(row)
        for player, opponent, *row in HeadToHead.objects.values_list(
            "player_id", "opponent_id", *COLUMNS
        )
    }
    with connection.cursor() as cursor:
        cursor.execute(_counted_sql())
        counted = {(player, opponent): tuple(row) for player, opponent, *row in cursor.fetchall()}
    return [
        (pair, kept.get(pair), counted.get(pair))
        for pair in sorted(set(kept) | set(counted))
        if kept.get(pair) != counted.get(pair)
    ]
