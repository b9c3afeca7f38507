"""Running totals (issue 39): each player's figures kept as matches arrive, so a ranking, a
season's table and a player page read a few rows by key, whatever the archive's size.

``PlayerTotals`` holds, per player, club, "counts in the club" and ruleset, the sums of
their seat results on each day of the club's calendar and over all time (``ALL_TIME``).
``totals_apply`` adds the seat results stored and takes away those removed, in the
transaction that changes them (``stats.match_results_store``, ``match_deleting``); a
deleted player's or club's rows go with them (a merge's moved matches are then reviewed
again under the surviving handle, which adds them there). ``totals_rebuild`` counts them
again from the seat results: ``manage.py totals_rebuild``, for a club whose time zone
changed (its days move) or to check them.

A rolling period (the last 30 days) reads the whole days after its first moment from these
rows, and the seat results of its first, partial day from their own index: exact to the
moment, and at most a day of seat results read.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, IntegerField, Max, Q, Sum
from django.utils import timezone

from clubs.models import Club
from clubs.zones import club_days, zone_of
from games.db import insert_rows

from .models import PlayerTotals, SeatResult

ALL_TIME = date(1, 1, 1)  # the ``day`` of a player's all-time row
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
KEY = ("player_id", "day", "club_id", "in_club", "preset")

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
    """Return the keys of the rows a seat result counts in: its day's and the all-time one."""
    day = result.played_at.astimezone(zone).date()
    rest = (result.club_id, result.in_club, result.preset)
    return (result.player_id, day, *rest), (result.player_id, ALL_TIME, *rest)


def _add_up(
    results: Iterable[SeatResult], zones: dict[int, Any], sign: int, sums: dict, last: dict
) -> None:
    for result in results:
        values = _contribution(result)
        for key in _keys(result, zones[result.club_id]):
            row = sums[key]
            for index, value in enumerate(values):
                row[index] += sign * value
            if sign > 0 and (key not in last or result.played_at > last[key]):
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
    _add_up(removed, zones, -1, sums, last)
    _add_up(added, zones, +1, sums, last)
    removed_keys = {key for result in removed for key in _keys(result, zones[result.club_id])}
    changed = sorted(key for key, row in sums.items() if any(row) or key in last)
    if not changed:
        return
    # Keys in order: two transactions adding to the same rows lock them in the same order.
    _upsert([(key, sums[key], last.get(key)) for key in changed])
    lessened = [key for key in changed if key in removed_keys and any(sums[key])]
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
            ops.adapt_datefield_value(day),
            club_id,
            in_club,
            preset,
            ops.adapt_datetimefield_value(played or epoch),
            *sums,
        )
        for (player_id, day, club_id, in_club, preset), sums, played in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _lessened(keys: list[Key], zones: dict[int, Any]) -> None:
    """Put right the rows some results were taken from: gone when nothing is left, else
    their last play read again from the seat results."""
    for player_id, day, club_id, in_club, preset in keys:
        row = PlayerTotals.objects.filter(
            player_id=player_id, day=day, club_id=club_id, in_club=in_club, preset=preset
        )
        results = SeatResult.objects.filter(
            player_id=player_id, club_id=club_id, in_club=in_club, preset=preset
        )
        if day != ALL_TIME:
            start, end = club_days(day, day, str(zones[club_id]))
            results = results.filter(played_at__gte=start, played_at__lt=end)
        latest = results.aggregate(latest=Max("played_at"))["latest"]
        if latest is None:
            row.delete()
        else:
            row.update(last_played=latest)


def totals_rebuild(*, club_id: int | None = None) -> int:
    """Count the totals again from the seat results (of one club's matches, or all); return
    the rows written."""
    with transaction.atomic():
        rows = PlayerTotals.objects.all()
        results = SeatResult.objects.all()
        if club_id is not None:
            rows = rows.filter(club_id=club_id)
            results = results.filter(club_id=club_id)
        rows.delete()
        sums: dict[Key, list[int]] = defaultdict(lambda: [0] * len(SUMMED))
        last: dict[Key, datetime] = {}
        zones = _zones(results.values_list("club_id", flat=True).distinct())
        _add_up(results.order_by().iterator(chunk_size=5000), zones, +1, sums, last)
        columns = [*KEY, "last_played", *SUMMED]
        insert_rows(
            PlayerTotals,
            columns,
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
# The same figures added up from seat results (a period's first, partial day).
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
        totals = rows.filter(day=ALL_TIME).values("player_id").annotate(**FIGURES)
        return {player: with_rates(row) for player, row in _merged(totals).items()}
    zone = zone_of(club.time_zone) or zone_of("UTC")
    since = (now or timezone.now()) - timedelta(days=days)
    first_day = since.astimezone(zone).date()
    _, first_day_ends = club_days(first_day, first_day, str(zone))
    whole_days = rows.filter(day__gt=first_day).values("player_id").annotate(**FIGURES)
    partial = SeatResult.objects.filter(
        club_id=club.pk, in_club=True, played_at__gte=since, played_at__lt=first_day_ends
    )
    if ruleset:
        partial = partial.filter(preset=ruleset)
    partial_rows = partial.values("player_id").annotate(**RESULTS_FIGURES)
    merged = _merged([*whole_days, *partial_rows])
    return {player: with_rates(row) for player, row in merged.items()}


def player_totals(*, player_id: int) -> dict[str, Any]:
    """Return one player's figures over all their results, with their rates."""
    row = PlayerTotals.objects.filter(player_id=player_id, day=ALL_TIME).aggregate(**FIGURES)
    return with_rates(
        {
            name: (0 if value is None and name != "last_played" else value)
            for name, value in row.items()
        }
    )


def season_totals(
    *, club_id: int, first_day: date, last_day: date, presets: list[str]
) -> list[dict[str, Any]]:
    """Return each player's sums over the complete results of a season's days that count in
    its club (of its rulesets when it names any): played, won, points for and against,
    two-sided matches and wins, and places."""
    rows = PlayerTotals.objects.filter(
        club_id=club_id, in_club=True, day__gte=first_day, day__lte=last_day
    )
    if presets:
        rows = rows.filter(preset__in=presets)
    names = RATED
    return list(
        rows.values("player_id")
        .annotate(**{f"sum_{name}": Sum(name) for name in names})
        .filter(sum_rated__gt=0)
        .order_by()
    )


def totals_differ(*, club_id: int | None = None) -> list[tuple[Key, Any, Any]]:
    """Return the rows whose kept totals differ from a count made again from the seat
    results (empty when they agree): what ``manage.py totals_rebuild --check`` says."""
    kept = (
        PlayerTotals.objects.all()
        if club_id is None
        else PlayerTotals.objects.filter(club_id=club_id)
    )
    stored = {
        tuple(row[name] for name in KEY): row for row in kept.values(*KEY, "last_played", *SUMMED)
    }
    results = (
        SeatResult.objects.all() if club_id is None else SeatResult.objects.filter(club_id=club_id)
    )
    sums: dict[Key, list[int]] = defaultdict(lambda: [0] * len(SUMMED))
    last: dict[Key, datetime] = {}
    zones = _zones(results.values_list("club_id", flat=True).distinct())
    _add_up(results.order_by().iterator(chunk_size=5000), zones, +1, sums, last)
    counted = {
        key: {"last_played": last[key], **dict(zip(SUMMED, row, strict=True))}
        for key, row in sums.items()
    }
    differences = []
    for key in sorted(set(stored) | set(counted), key=str):
        mine = stored.get(key)
        if mine is not None:
            mine = {name: mine[name] for name in ("last_played", *SUMMED)}
        if mine != counted.get(key):
            differences.append((key, mine, counted.get(key)))
    return differences
