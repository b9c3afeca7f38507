"""Running totals (issue 39): each player's figures kept as matches arrive, so a ranking, a
season's table and a player page read a few rows by key, whatever the archive's size.

``PlayerTotals`` holds, per player, club, "counts in the club" and ruleset, the sums of
their seat results in each month of the club's calendar and over all time (``ALL_TIME``).
``totals_apply`` adds the seat results stored and takes away those removed, in the
transaction that changes them (``stats.match_results_store``, ``match_deleting``, a merge's
``pipeline.handles_merged``, which takes them away under one handle and adds them under the
other); a deleted player's or club's rows go with them. ``totals_rebuild`` counts them
again from the seat results: ``manage.py totals_rebuild``, for a club whose time zone
changed (its months move) or to check them.

A rolling period (the last 30 days) or a season reads the whole months it covers from these
rows, and the seat results of the parts of months at its ends from their own index: exact
to the moment, and at most two months of one club's seat results read. Months, not days:
most players play a few days a month, and a row a day cost more bytes than the figures it
saved reading (issue 39: 4.7 bytes a move at 100,000 matches).
"""

from __future__ import annotations

from calendar import monthrange
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, IntegerField, Max, Q, QuerySet, Sum
from django.utils import timezone

from clubs.models import Club
from clubs.zones import club_days, day_in, zone_of
from fives_engine import PRESETS
from games.db import insert_rows

from .models import PlayerTotals, SeatResult

ALL_TIME = date(1, 1, 1)  # the ``month`` of a player's all-time row
PLACES = 4  # a match has at most four sides
# The columns added up, in the order of ``_contribution``: every result's, then the
# complete results' a season's table counts.
# The statistics (``stats.STATISTICS``): each a whole-number column of both tables.
STATISTICS = tuple(
    field.name
    for field in PlayerTotals._meta.concrete_fields
    if isinstance(field, IntegerField)
    and field.name in {field.name for field in SeatResult._meta.concrete_fields}
)
EVERY = ("matches", "wins", *STATISTICS)
RATED = (
    "rated",
    "rated_won",
    "rated_score",
    "rated_against",
    "rated_two_sided",
    "rated_two_sided_won",
    *(f"rated_place_{place}" for place in range(1, PLACES + 1)),
)
SUMMED = (*EVERY, *RATED)
KEY = ("player_id", "month", "club_id", "in_club", "preset")

Key = tuple[int, date, int, bool, str]


def _contribution(result: SeatResult) -> list[int]:
    """Return what one seat result adds to each of ``SUMMED``."""
    complete = result.complete
    multi = complete and result.sides >= 3
    return [
        1,
        int(result.won),
        *(getattr(result, name) for name in STATISTICS),
        int(complete),
        int(complete and result.won),
        result.score if complete else 0,
        result.scored_against if complete else 0,
        int(complete and result.sides < 3),
        int(complete and result.sides < 3 and result.won),
        *(int(multi and result.rank == place) for place in range(1, PLACES + 1)),
    ]


def _zones(club_ids: Iterable[int]) -> dict[int, Any]:
    """Return each club's time zone (UTC for an unknown one)."""
    names = dict(Club.objects.filter(pk__in=set(club_ids)).values_list("pk", "time_zone"))
    return {pk: zone_of(name) or zone_of("UTC") for pk, name in names.items()}


def _keys(result: SeatResult, zone: Any) -> tuple[Key, Key]:
    """Return the keys of the rows a seat result counts in: its month's and the all-time one."""
    month = day_in(result.played_at, zone).replace(day=1)
    rest = (result.club_id, result.in_club, result.preset)
    return (result.player_id, month, *rest), (result.player_id, ALL_TIME, *rest)


def _next_month(month: date) -> date:
    """Return the first day of the month after ``month`` (a month's first day)."""
    return (month + timedelta(days=32)).replace(day=1)


def _months_bounds(first: date, last: date, zone: Any) -> tuple[datetime, datetime]:
    """Return the first moment of the month ``first`` and the moment after the month
    ``last`` ends, in the club's time zone."""
    # The month's last day by the calendar: the day before the next month is none for
    # December 9999.
    ends = last.replace(day=monthrange(last.year, last.month)[1])
    return club_days(first, ends, str(zone))


def _add_up(
    results: Iterable[SeatResult], zones: dict[int, Any], sign: int, sums: dict, last: dict
) -> None:
    """Add (``sign`` 1) or take away (-1) the results' contributions to ``sums``, and keep
    each key's last play among them in ``last``."""
    for result in results:
        values = _contribution(result)
        for key in _keys(result, zones[result.club_id]):
            row = sums[key]
            for index, value in enumerate(values):
                row[index] += sign * value
            if key not in last or result.played_at > last[key]:
                last[key] = result.played_at


def totals_apply(*, added: list[SeatResult], removed: list[SeatResult]) -> None:
    """Add the seat results ``added`` to the totals and take away those ``removed`` (the
    same match's rows before and after a review cancel out); call it inside the
    transaction that stores or deletes them, once the seat results are as they will stay."""
    if not added and not removed:
        return
    zones = _zones(result.club_id for result in (*added, *removed))
    sums: dict[Key, list[int]] = defaultdict(lambda: [0] * len(SUMMED))
    last: dict[Key, datetime] = {}
    last_removed: dict[Key, datetime] = {}
    _add_up(removed, zones, -1, sums, last_removed)
    _add_up(added, zones, +1, sums, last)
    removed_keys = set(last_removed)
    # A row whose results were taken away and added back alike (a match reviewed again, the
    # other players of a merge) is left as it is: its sums do not move, and its last play was
    # already at least the one added back.
    changed = sorted(
        key for key, row in sums.items() if any(row) or last.get(key) != last_removed.get(key)
    )
    if not changed:
        return
    # Keys in order: two transactions adding to the same rows lock them in the same order.
    _upsert([(key, sums[key], last.get(key)) for key in changed])
    lessened = [key for key in changed if key in removed_keys]
    if lessened:
        _lessened(lessened, zones)


def _upsert(rows: list[tuple[Key, list[int], datetime | None]]) -> None:
    """Add each row's sums to its stored row (made when missing), its last play the later."""
    table = connection.ops.quote_name(PlayerTotals._meta.db_table)
    columns = [*KEY, "last_played", *SUMMED]
    names = ", ".join(connection.ops.quote_name(name) for name in columns)
    greatest = "GREATEST" if connection.vendor == "postgresql" else "MAX"
    # A row only taken from keeps its last play here (``_lessened`` reads it again).
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    ops = connection.ops
    updates = ", ".join(
        [f"{name} = {table}.{name} + EXCLUDED.{name}" for name in SUMMED]
        + [f"last_played = {greatest}({table}.last_played, EXCLUDED.last_played)"]
    )
    marks = ", ".join(["%s"] * len(columns))
    sql = (
        f"INSERT INTO {table} ({names}) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {updates}"
    )
    params = [
        (
            player_id,
            ops.adapt_datefield_value(month),
            club_id,
            in_club,
            preset,
            ops.adapt_datetimefield_value(played or epoch),
            *sums,
        )
        for (player_id, month, club_id, in_club, preset), sums, played in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _lessened(keys: list[Key], zones: dict[int, Any]) -> None:
    """Put right the rows some results were taken from: gone when nothing is left, else
    their last play read again from the seat results."""
    # Every result counts in ``matches``: a row at 0 holds nothing. Those go in one
    # statement (a merge empties every row of the merged handle: a query or two a row
    # took 0.35 s of a merge's 0.57 s with 147 rows), the others are read again.
    near = PlayerTotals.objects.filter(
        player_id__in={key[0] for key in keys}, month__in={key[1] for key in keys}
    )
    near.filter(matches=0).delete()
    left = set(near.values_list(*KEY))
    for player_id, month, club_id, in_club, preset in keys:
        if (player_id, month, club_id, in_club, preset) not in left:
            continue
        row = PlayerTotals.objects.filter(
            player_id=player_id, month=month, club_id=club_id, in_club=in_club, preset=preset
        )
        results = SeatResult.objects.filter(
            player_id=player_id, club_id=club_id, in_club=in_club, preset=preset
        )
        if month != ALL_TIME:
            start, end = _months_bounds(month, month, zones[club_id])
            results = results.filter(played_at__gte=start, played_at__lt=end)
        latest = results.aggregate(latest=Max("played_at"))["latest"]
        if latest is None:
            row.delete()
        else:
            row.update(last_played=latest)


def _recount(club_id: int | None) -> tuple[dict[Key, list[int]], dict[Key, datetime]]:
    """Return the totals (sums and last plays by key) counted again from the seat results
    (of one club's matches, or all)."""
    results = SeatResult.objects.all()
    if club_id is not None:
        results = results.filter(club_id=club_id)
    sums: dict[Key, list[int]] = defaultdict(lambda: [0] * len(SUMMED))
    last: dict[Key, datetime] = {}
    zones = _zones(results.values_list("club_id", flat=True).distinct())
    _add_up(results.order_by().iterator(chunk_size=5000), zones, +1, sums, last)
    return sums, last


def _kept(club_id: int | None) -> QuerySet:
    """Return the kept totals of one club's matches, or all."""
    rows = PlayerTotals.objects.all()
    return rows if club_id is None else rows.filter(club_id=club_id)


def totals_rebuild(*, club_id: int | None = None) -> int:
    """Count the totals again from the seat results (of one club's matches, or all); return
    the rows written."""
    with transaction.atomic():
        _kept(club_id).delete()
        sums, last = _recount(club_id)
        insert_rows(
            PlayerTotals,
            [*KEY, "last_played", *SUMMED],
            ((*key, last[key], *sums[key]) for key in sorted(sums)),
        )
    return len(sums)


# --- reading -------------------------------------------------------------------------------


def with_rates(row: dict[str, Any]) -> dict[str, Any]:
    """Return ``row`` (sums of figures) with its rates: per hand, per play, per match."""
    hands = row.get("hands") or 0
    plays = row.get("plays") or 0
    scoring = row.get("scoring_plays") or 0
    matches = row.get("matches") or 0
    return row | {
        "win_rate": row["wins"] / matches if matches else None,
        "points_per_hand": row["points"] / hands if hands else None,
        "scoring_share": scoring / plays if plays else None,
        "points_per_scoring_play": row["points"] / scoring if scoring else None,
        "missed_per_hand": row["missed"] / hands if hands else None,
    }


FIGURES = {**{name: Sum(name) for name in EVERY}, "last_played": Max("last_played")}
# The same figures added up from seat results (the part of a month at a period's start).
RESULTS_FIGURES = {
    "matches": Count("pk"),
    "wins": Count("pk", filter=Q(won=True)),
    **{name: Sum(name) for name in STATISTICS},
    "last_played": Max("played_at"),
}


def _merged(rows: Iterable[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Return the figures of each player from rows of partial sums, by player id."""
    merged: dict[int, dict[str, Any]] = {}
    for row in rows:
        player_id = row.pop("player_id")
        mine = merged.get(player_id)
        if mine is None:
            merged[player_id] = row
            continue
        for name, value in row.items():
            if name == "last_played":
                mine[name] = max(filter(None, (mine[name], value)), default=None)
            else:
                mine[name] = (mine[name] or 0) + (value or 0)
    return merged


def club_totals(
    *, club: Club, ruleset: str = "", days: int | None = None, now: datetime | None = None
) -> dict[int, dict[str, Any]]:
    """Return the figures of every player with results that count in ``club`` (of one
    ruleset, over the last ``days`` days when given), by player id, with their rates."""
    rows = PlayerTotals.objects.filter(club_id=club.pk, in_club=True)
    if ruleset:
        rows = rows.filter(preset=ruleset)
    if days is None:
        totals = rows.filter(month=ALL_TIME).values("player_id").annotate(**FIGURES)
        return {player: with_rates(row) for player, row in _merged(totals).items()}
    zone = _zone(club)
    since = (now or timezone.now()) - timedelta(days=days)
    first_month = since.astimezone(zone).date().replace(day=1)
    _, first_month_ends = _months_bounds(first_month, first_month, zone)
    whole = rows.filter(month__gt=first_month).values("player_id").annotate(**FIGURES)
    partial = _club_results(club, [ruleset] if ruleset else [], since, first_month_ends)
    merged = _merged([*whole, *partial.values("player_id").annotate(**RESULTS_FIGURES)])
    return {player: with_rates(row) for player, row in merged.items()}


def _zone(club: Club) -> Any:
    return zone_of(club.time_zone) or zone_of("UTC")


def _club_results(club: Club, presets: list[str], start: datetime, end: datetime) -> QuerySet:
    """Return the seat results that count in ``club`` played from ``start`` to ``end``, of
    ``presets`` (all when empty): every ruleset named, so that the index on (club, ruleset,
    play time) is read over the time range of each, not over the club's whole history."""
    return SeatResult.objects.filter(
        club_id=club.pk,
        in_club=True,
        preset__in=presets or list(PRESETS),
        played_at__gte=start,
        played_at__lt=end,
    ).order_by()


def player_totals(*, player_id: int) -> dict[str, Any]:
    """Return one player's figures over all their results, with their rates."""
    row = PlayerTotals.objects.filter(player_id=player_id, month=ALL_TIME).aggregate(**FIGURES)
    return with_rates(
        {
            name: (0 if value is None and name != "last_played" else value)
            for name, value in row.items()
        }
    )


# What a season's table sums, from seat results (its complete ones).
RATED_FROM_RESULTS = {
    "sum_rated": Count("pk"),
    "sum_rated_won": Count("pk", filter=Q(won=True)),
    "sum_rated_score": Sum("score"),
    "sum_rated_against": Sum("scored_against"),
    "sum_rated_two_sided": Count("pk", filter=Q(sides__lt=3)),
    "sum_rated_two_sided_won": Count("pk", filter=Q(sides__lt=3, won=True)),
    **{
        f"sum_rated_place_{place}": Count("pk", filter=Q(sides__gte=3, rank=place))
        for place in range(1, PLACES + 1)
    },
}


def season_totals(
    *, club: Club, first_day: date, last_day: date, presets: list[str]
) -> list[dict[str, Any]]:
    """Return each player's sums over the complete results of a season's days that count in
    its club (of its rulesets when it names any): played, won, points for and against,
    two-sided matches and wins, and places. The whole months from the totals, the days
    before the first and after the last from the seat results."""
    zone = _zone(club)
    start, end = club_days(first_day, last_day, str(zone))
    # The whole months inside the season: from the first that begins on or after its first
    # day to the last that ends on or before its last day.
    try:
        first_whole = first_day if first_day.day == 1 else _next_month(first_day.replace(day=1))
        last_whole = (last_day + timedelta(days=1)).replace(day=1) - timedelta(days=1)
        last_whole = last_whole.replace(day=1)
    except OverflowError:
        # A season stored at the calendar's ends (issue 55: 9999-12-31): no whole month, all
        # its results counted from the seat results, as a short season's are.
        first_whole, last_whole = date.max, date.min
    parts: list[dict[str, Any]] = []
    if first_whole <= last_whole:
        rows = PlayerTotals.objects.filter(
            club_id=club.pk, in_club=True, month__gte=first_whole, month__lte=last_whole
        )
        if presets:
            rows = rows.filter(preset__in=presets)
        parts += (
            rows.values("player_id")
            .annotate(**{f"sum_{name}": Sum(name) for name in RATED})
            .order_by()
        )
        whole_start, whole_end = _months_bounds(first_whole, last_whole, zone)
        results = [(start, whole_start), (whole_end, end)]
    else:
        results = [(start, end)]
    for part_start, part_end in results:
        if part_start < part_end:
            parts += (
                _club_results(club, presets, part_start, part_end)
                .filter(complete=True)
                .values("player_id")
                .annotate(**RATED_FROM_RESULTS)
            )
    sums: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(RATED_FROM_RESULTS, 0))
    for part in parts:
        mine = sums[part["player_id"]]
        for name in RATED_FROM_RESULTS:
            mine[name] += part[name] or 0
    return [{"player_id": player_id, **row} for player_id, row in sums.items() if row["sum_rated"]]


def totals_differ(*, club_id: int | None = None) -> list[tuple[Key, Any, Any]]:
    """Return the rows whose kept totals differ from a count made again from the seat
    results (empty when they agree): what ``manage.py totals_rebuild --check`` says."""
    stored = {
        tuple(row[name] for name in KEY): {name: row[name] for name in ("last_played", *SUMMED)}
        for row in _kept(club_id).values(*KEY, "last_played", *SUMMED)
    }
    sums, last = _recount(club_id)
    counted = {
        key: {"last_played": last[key], **dict(zip(SUMMED, row, strict=True))}
        for key, row in sums.items()
    }
    return [
        (key, stored.get(key), counted.get(key))
        for key in sorted(set(stored) | set(counted), key=str)
        if stored.get(key) != counted.get(key)
    ]
