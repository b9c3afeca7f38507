"""A club rating's history, kept as it is rated (issue 39): a player page reads a few
hundred points by key, not every match of a long career.

The chart shows the rating after every ``step``-th rated match and after the last, ``step``
the smallest power of two that leaves at most ``HISTORY_POINTS`` points (``step_of``). A
history keeps just those points: the n-th match's when n is a multiple of the step of the
whole career. As a career grows its step doubles and every other point goes; while it is
rated, a point is noted when it may be kept at any later length (``is_kept``: n a multiple
of ``step_of(n)``), and what the career's final step does not keep is dropped when stored
(``thinned``). So a history holds at most ``HISTORY_POINTS`` points, is the one counted
again from the rows (``histories_counted``), and a re-rating from a time keeps the points
before it and adds the rest (``histories_store``); when a career shrinks so that its step
halves (a match deleted or moved), the points it now shows are counted again from its rows.
Each re-rating of a busy player rewrites their row whole: kept to the chart's own points,
a career of 16,000 matches has 254 of them, not the 1,164 that keeping every step's did
(``bench.ingest --mix``: 3.2 bytes a move of rewritten histories).

One row per club rating (``RatingHistory``): its points packed, each its match's number in
the rating's career, its time and the mu and sigma after it (``POINT``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from games.db import insert_rows

from .models import (
    ClubRatingChange,
    Rating,
    RatingHistory,
    RatingScope,
    SeatResult,
    seat_values,
)

HISTORY_POINTS = 300
# One point: the match's number in the career (uint32), its time (microseconds since the
# epoch), then mu and sigma after it (float8, as rated).
POINT = struct.Struct("<Iqdd")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def step_of(matches: int, most: int | None = None) -> int:
    """Return the chart's step for a career of ``matches``: the smallest power of two that
    leaves at most ``most`` points (default ``HISTORY_POINTS``)."""
    most = HISTORY_POINTS if most is None else most
    step = 1
    while -(-matches // step) > most:
        step *= 2
    return step


def is_kept(number: int) -> bool:
    """Whether the point after a career's ``number``-th match is kept at some length of the
    career (see above): a multiple of ``step_of(number)``."""
    return number % step_of(number) == 0


def thinned(packed: bytes, matches: int) -> bytes:
    """Return the points of ``packed`` that a career of ``matches`` keeps: those after every
    ``step_of(matches)``-th match."""
    step = step_of(matches)
    if step == 1:
        return packed
    size = POINT.size
    return b"".join(
        packed[at : at + size]
        for at in range(0, len(packed), size)
        if POINT.unpack_from(packed, at)[0] % step == 0
    )


def point(number: int, played_at: datetime, mu: float, sigma: float) -> bytes:
    """Return one packed point."""
    return POINT.pack(number, (played_at - EPOCH) // timedelta(microseconds=1), mu, sigma)


def points_of(packed: bytes | memoryview) -> list[tuple[int, datetime, float, float]]:
    """Return the points packed in a history: (number, played at, mu, sigma)."""
    return [
        (number, EPOCH + timedelta(microseconds=at), mu, sigma)
        for number, at, mu, sigma in POINT.iter_unpack(packed)
    ]


def chart_points(
    packed: bytes | memoryview, rating: Rating, most: int | None = None
) -> list[tuple[int, datetime, float, float]]:
    """Return the points a chart of the rating shows: every ``step_of``-th match's, then the
    last match's (the rating's own values)."""
    total = rating.matches
    step = step_of(total, most)
    chosen = [p for p in points_of(packed) if p[0] % step == 0 and p[0] < total]
    if total and rating.last_played is not None:
        chosen.append((total, rating.last_played, rating.mu, rating.sigma))
    return chosen


def histories_store(
    since: datetime | None,
    added: dict[int, list[bytes]],
    ratings: dict[int, Rating],
    totals: dict[int, int],
    club_id: int,
) -> None:
    """Bring the histories of a club scope's ratings up to date after a re-rating from
    ``since`` (None: from the first match), once its rows are stored: ``added`` holds, by
    player, the points noted of the matches re-rated (``is_kept``; a player rated again
    with no point noted: an empty list), ``ratings`` the scope's ratings as they were
    before it (by player; made ones included) and ``totals`` each player's rated matches
    after it.

    A history changes if its player played from ``since`` on, before the re-rating or
    after it: its points before ``since`` stay, the re-rated ones follow, and what the
    career's step no longer keeps goes. A career whose step halved is counted again from
    its rows (the points it shows again were dropped). Only a history that comes out
    different is written: a row is rewritten whole, and most matches stored in order
    leave a busy player's history as it was (and its old row not to vacuum).
    """
    if since is None:
        affected = set(ratings)
    else:
        affected = set(added) | {
            player_id
            for player_id, rating in ratings.items()
            if rating.last_played is not None and rating.last_played >= since
        }
    rating_ids = {ratings[player_id].pk: player_id for player_id in affected}
    kept: dict[int, bytes] = {}
    stored: dict[int, bytes] = {}  # by rating id, as read
    shrunk: set[int] = set()  # players whose step halved
    if since is not None:
        cut = (since - EPOCH) // timedelta(microseconds=1)
        for rating_id, packed in RatingHistory.objects.filter(
            rating_id__any_of=list(rating_ids)
        ).values_list("rating_id", "points"):
            player_id = rating_ids[rating_id]
            whole = stored[rating_id] = bytes(packed)
            if step_of(totals.get(player_id, 0)) < step_of(ratings[player_id].matches):
                shrunk.add(player_id)
                continue
            # Points are in playing order: keep those before the re-rating's start, found
            # from the end (a match stored in order cuts none).
            end = len(whole)
            while end and POINT.unpack_from(whole, end - POINT.size)[1] >= cut:
                end -= POINT.size
            kept[player_id] = whole[:end]
    recounted = _counted_again(club_id, {p: ratings[p].pk for p in shrunk})
    rows = [
        (
            rating_id,
            recounted[rating_id]
            if rating_id in recounted
            else thinned(
                kept.get(player_id, b"") + b"".join(added.get(player_id, ())),
                totals.get(player_id, 0),
            ),
        )
        for rating_id, player_id in sorted(rating_ids.items())
    ]
    rows = [(rating_id, points) for rating_id, points in rows if stored.get(rating_id) != points]
    RatingHistory.objects.filter(rating_id__any_of=[rating_id for rating_id, _ in rows]).delete()
    insert_rows(RatingHistory, ("rating_id", "points"), rows)


def _counted_again(club_id: int, ratings: dict[int, int]) -> dict[int, bytes]:
    """Return the histories of a club's ``ratings`` (rating id by player) counted again
    from their players' rated seat results and the club's rows (by rating id)."""
    if not ratings:
        return {}
    results = _rated_results(club_id).filter(player_id__in=list(ratings))
    changes = ClubRatingChange.objects.filter(match_id__in=results.values("match_id"))
    return points_counted(results, changes, ratings)


def _rated_results(club_id: int) -> Any:
    """The seat results a club's ratings rate: its own players' seats in complete matches."""
    return SeatResult.objects.filter(club_id=club_id, in_club=True, complete=True)


def histories_counted(scope: RatingScope) -> dict[int, bytes]:
    """Return the histories of a club scope's ratings counted again from its seat results
    and the rows its re-ratings left (by rating id; a rating with no match: empty)."""
    return points_counted(
        _rated_results(scope.club_id),
        ClubRatingChange.objects.filter(match__club_id=scope.club_id),
        dict(Rating.objects.filter(scope=scope).values_list("player_id", "pk")),
    )


def points_counted(results: Any, changes: Any, ratings: dict[int, int]) -> dict[int, bytes]:
    """Return, by rating id, the points kept, counted from a club's rated seat ``results``
    and its re-ratings' rows ``changes`` (querysets, of this code's models or of a
    migration's), for its ``ratings`` (rating id by player)."""
    packed_by_match = dict(changes.values_list("match_id", "seats"))
    numbers: dict[int, int] = {}
    histories: dict[int, list[bytes]] = {rating_id: [] for rating_id in ratings.values()}
    rows = results.order_by("played_at", "match_id", "seat").values_list(
        "player_id", "match_id", "seat", "played_at"
    )
    for player_id, match_id, seat, played_at in rows.iterator(chunk_size=5000):
        number = numbers[player_id] = numbers.get(player_id, 0) + 1
        packed = packed_by_match.get(match_id)
        if is_kept(number) and packed is not None and player_id in ratings:
            mu, sigma, _matches, _wins = seat_values(packed, seat)
            histories[ratings[player_id]].append(point(number, played_at, mu, sigma))
    matches = {ratings[p]: count for p, count in numbers.items() if p in ratings}
    return {
        rating_id: thinned(b"".join(points), matches.get(rating_id, 0))
        for rating_id, points in histories.items()
    }


def _club_scopes(club_id: int | None) -> Iterable[RatingScope]:
    scopes = RatingScope.objects.filter(club__isnull=False).order_by("pk")
    return scopes if club_id is None else scopes.filter(club_id=club_id)


def histories_rebuild(*, club_id: int | None = None) -> int:
    """Count the histories of a club's ratings (None: every club's) again
    (``histories_counted``); return how many."""
    count = 0
    for scope in _club_scopes(club_id):
        counted = histories_counted(scope)
        RatingHistory.objects.filter(rating__scope=scope).delete()
        insert_rows(RatingHistory, ("rating_id", "points"), sorted(counted.items()))
        count += len(counted)
    return count


def histories_differ(*, club_id: int | None = None) -> list[tuple[Any, Any, Any]]:
    """Return the histories of a club's ratings (None: every club's) that differ from a
    count made again: (rating, kept points, counted points), each point as (match number,
    rating shown)."""
    differences = []
    for scope in _club_scopes(club_id):
        counted = histories_counted(scope)
        kept = dict(
            RatingHistory.objects.filter(rating__scope=scope).values_list("rating_id", "points")
        )
        for rating_id in sorted(set(counted) | set(kept)):
            mine = bytes(kept.get(rating_id, b""))
            theirs = counted.get(rating_id, b"")
            if mine != theirs:
                differences.append(
                    (
                        f"rating history {rating_id}",
                        _shown(mine),
                        _shown(theirs),
                    )
                )
    return differences


def _shown(packed: bytes) -> list[tuple[int, float, float]]:
    """The points of a history as a difference names them."""
    return [(number, mu, sigma) for number, _at, mu, sigma in points_of(packed)]
