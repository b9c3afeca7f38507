"""Ratings: openskill's Plackett-Luce, per club and across all clubs, in playing order.

A match that changes the past (it arrives out of order, is deleted or rescored) marks its
scope dirty from its play time; ``ratings_recompute`` then replays every counted match from
that time on, starting from the ratings as they stood just before it: each subject's values
in the row of its last match before then (``models.RatingChange``). Only complete, valid
matches count (those with seat results, ``complete``). One recomputation of a scope runs at
a time: a PostgreSQL advisory lock (a process lock on SQLite, whose tasks run in-process).
"""

from __future__ import annotations

import struct
import threading
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Least
from django.utils import timezone
from openskill.models import PlackettLuce

from games.db import insert_rows
from games.events import MatchesRated, announce
from games.models import Player

from .models import (
    AllClubsRatingChange,
    ClubRatingChange,
    Rating,
    RatingChange,
    RatingScope,
    SeatResult,
)

MODEL = PlackettLuce()
# Fewer rated matches than this: provisional, listed apart.
PROVISIONAL_BELOW = 10
LOCK_NAMESPACE = 7301  # PostgreSQL advisory lock space of rating recomputations


def default_rating() -> tuple[float, float]:
    """Return (mu, sigma) of a player new to a scope."""
    rating = MODEL.rating()
    return rating.mu, rating.sigma


# The rating shown to people, with its range (issue 36): a linear map of openskill's belief
# about a player, its centre mu and its spread sigma. The value is 1500 + 48 * (mu - 25): a
# newcomer (mu 25) shows 1500, the number chess players know from lichess. 48 is 200 / beta
# (openskill's beta, the spread of one performance, is 25/6): two players one beta apart win
# about three games in four, as two chess players 200 Elo apart do, so the shown gaps read
# like chess gaps. Its range, "likely" in words, is the value less and plus two sigmas
# (about 95 in 100): "1954, likely 1760-2150". It was 1500 + 48 * ordinal (mu - 3 sigma)
# before: already the low end of the range, which a "± 189" after it misread, and a figure
# that grew as sigma shrank, by playing alone. Every page, CSV and API field that shows a
# rating to a person goes through shown_rating and shown_range (a change or a spread through
# shown_points); the API keeps the raw mu, sigma and ordinal beside it, and tables are still
# ranked by the ordinal, openskill's cautious figure, where the value ties.
SHOWN_BASE = 1500
SHOWN_PER_ORDINAL = 48  # shown points per unit of mu (or sigma, or ordinal)
NEWCOMER_MU = 25.0  # openskill's default mu
RANGE_SIGMAS = 2


def shown_rating(mu: float) -> int:
    """Return the rating shown for an openskill mu: 1500 + 48 * (mu - 25), rounded."""
    return round(SHOWN_BASE + SHOWN_PER_ORDINAL * (mu - NEWCOMER_MU))


def shown_range(mu: float, sigma: float) -> tuple[int, int]:
    """Return the likely range of the rating shown for (mu, sigma): the value less and plus
    two sigmas, in shown points."""
    return (
        shown_rating(mu - RANGE_SIGMAS * sigma),
        shown_rating(mu + RANGE_SIGMAS * sigma),
    )


def shown_points(difference: float) -> int:
    """Return a difference of mus (a change) or a spread of sigma in shown points."""
    return round(SHOWN_PER_ORDINAL * difference)


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative rating shown in tables (openskill's ordinal: mu - 3 sigma)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


# One seat of a ``RatingChange``: its subject's mu and sigma after the match (float8, exact:
# a recomputation starts from them and must give the floats a full one gives), then the
# subject's rated matches and wins so far.
SEAT = struct.Struct("<ddII")


def seat_values(packed: bytes | memoryview, seat: int) -> tuple[float, float, int, int]:
    """Return (mu, sigma, matches, wins) of one seat of a ``RatingChange.seats``."""
    return SEAT.unpack_from(packed, seat * SEAT.size)


def seat_ordinal(packed: bytes | memoryview, seat: int) -> float:
    """Return the ordinal of one seat of a ``RatingChange.seats``: openskill's ordinal
    with its defaults, 1 * ((mu - 3.0 * sigma) + 0 / 1), the very same float as
    mu - 3.0 * sigma."""
    mu, sigma, _, _ = seat_values(packed, seat)
    return mu - 3.0 * sigma


def changes_of(club_id: int | None) -> type[RatingChange]:
    """Return the table of the rows of a club's scope (None: of the all-clubs scope)."""
    return AllClubsRatingChange if club_id is None else ClubRatingChange


def with_last_change(
    queryset: QuerySet, *, player: str, club_id: int | None, before: datetime
) -> QuerySet:
    """Annotate each row of ``queryset`` (its player in the field ``player``) with the
    player's last rated match of the club's scope (None: all clubs') played before
    ``before``: ``match_then``, ``seat_then``, ``played_then`` and that match's packed
    ratings ``seats_then`` (all None if there is none).

    Correlated subqueries, each on an index (the seat results' (player, played_at), the
    changes' key): one query that reads each player's own matches, not the whole scope's.
    """
    last = SeatResult.objects.filter(
        player=OuterRef(player), complete=True, played_at__lt=before
    ).order_by("-played_at", "-match_id", "-seat")
    if club_id is not None:
        last = last.filter(club_id=club_id, in_club=True)
    return queryset.annotate(
        match_then=Subquery(last.values("match_id")[:1]),
        seat_then=Subquery(last.values("seat")[:1]),
        played_then=Subquery(last.values("played_at")[:1]),
    ).annotate(
        seats_then=Subquery(
            changes_of(club_id).objects.filter(match_id=OuterRef("match_then")).values("seats")[:1]
        )
    )


def match_ratings(match: Any) -> list[dict[str, Any]]:
    """Return each seat's club rating after ``match`` and its change by the match, as shown
    to people (empty until the match is rated, or if it does not count)."""
    packed = (
        ClubRatingChange.objects.filter(match_id=match.pk).values_list("seats", flat=True).first()
    )
    if packed is None:
        return []
    results = SeatResult.objects.filter(match_id=match.pk)
    # The time the ratings place the match at (a log may give none: its arrival then).
    played = results.values_list("played_at", flat=True).first()
    seats = with_last_change(
        results.select_related("player").order_by("seat"),
        player="player",
        club_id=match.club_id,
        before=played,
    )
    rows = []
    for seat in seats:
        mu = seat_values(packed, seat.seat)[0]
        if seat.seats_then is not None:
            before = seat_values(seat.seats_then, seat.seat_then)[0]
        else:
            before = default_rating()[0]
        rows.append(
            {
                "seat": seat.seat,
                "player": seat.player,
                "rating": shown_rating(mu),
                "change": shown_points(mu - before),
            }
        )
    return rows


def scope_for(club_id: int | None) -> RatingScope:
    """Return the rating scope of a club (None: all clubs), made on first use."""
    scope, _ = RatingScope.objects.get_or_create(club_id=club_id)
    return scope


def ratings_mark_dirty(*, club_id: int, since: datetime) -> list[int]:
    """Mark the club's scope and the all-clubs scope dirty from ``since``; return their ids."""
    ids = []
    for scope in (scope_for(club_id), scope_for(None)):
        RatingScope.objects.filter(pk=scope.pk).update(
            dirty_from=Least(Coalesce(F("dirty_from"), since), since)
        )
        ids.append(scope.pk)
    return ids


_local_locks: dict[int, threading.Lock] = defaultdict(threading.Lock)


@contextmanager
def _scope_lock(scope_id: int):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_NAMESPACE, scope_id])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, scope_id])
    else:
        with _local_locks[scope_id]:
            yield


def ratings_recompute(*, scope_id: int, full: bool = False) -> int:
    """Bring a scope's ratings up to date; return how many matches were (re)rated."""
    with _scope_lock(scope_id):
        scope = RatingScope.objects.get(pk=scope_id)
        since = None if full else scope.dirty_from
        if since is None and not full:
            return 0
        with transaction.atomic():
            count = _recompute(scope, since)
            # Clear the mark only if nothing marked it again meanwhile; if something did,
            # the task queued with that mark recomputes after this one.
            RatingScope.objects.filter(pk=scope_id, dirty_from=scope.dirty_from).update(
                dirty_from=None, computed_at=timezone.now()
            )
            if scope.club_id is not None:
                # What waits on a club's ratings (a live match's watchers) hears it after
                # the commit.
                announce(MatchesRated(club_id=scope.club_id))
        return count


@dataclass
class _State:
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    last_played: datetime | None = None


def _subjects(scope: RatingScope) -> dict[int, int]:
    """Return who a player is rated as: themselves, or across clubs their user's first player."""
    if scope.club_id is not None:
        return {}
    first_of_user: dict[int, int] = {}
    subject: dict[int, int] = {}
    for player_id, user_id in (
        Player.objects.filter(user__isnull=False).order_by("id").values_list("id", "user_id")
    ):
        first_of_user.setdefault(user_id, player_id)
        subject[player_id] = first_of_user[user_id]
    return subject


def _states_before(
    scope: RatingScope, subject: dict[int, int], since: datetime
) -> dict[int, _State] | None:
    """Return the state of every subject of the scope just before ``since``: the values of
    its seat in its last rated match before then (None if such a match has no row, which a
    recomputation from the start mends).

    Across clubs a subject's players are looked at together, and of two seats of theirs in
    one match, the later rated (more matches) holds the state the match left.
    """
    players = Player.objects.filter(
        pk__in=Rating.objects.filter(scope=scope).values("player_id")
    ).order_by()
    if subject:  # across clubs, a user's other players have no rating of their own
        players = Player.objects.filter(
            Q(pk__in=Rating.objects.filter(scope=scope).values("player_id")) | Q(user__isnull=False)
        ).order_by()
    found = with_last_change(players, player="pk", club_id=scope.club_id, before=since).values_list(
        "pk", "match_then", "seat_then", "played_then", "seats_then"
    )
    best: dict[int, tuple[tuple[Any, ...], _State]] = {}
    for player_id, match_id, seat, played_at, packed in found:
        if match_id is None:
            continue
        if packed is None:
            return None
        mu, sigma, matches, wins = seat_values(packed, seat)
        order = (played_at, match_id, matches)
        who = subject.get(player_id, player_id)
        if who not in best or order > best[who][0]:
            best[who] = (order, _State(mu, sigma, matches, wins, played_at))
    return {who: state for who, (_, state) in best.items()}


def _recompute(scope: RatingScope, since: datetime | None) -> int:
    ratings = {rating.player_id: rating for rating in Rating.objects.filter(scope=scope)}
    subject = _subjects(scope)
    states: dict[int, _State] = {}
    if since is not None:
        restored = _states_before(scope, subject, since)
        if restored is None:  # a rated match lost its row: start again from the first
            since = None
        else:
            states = restored

    results = SeatResult.objects.all()
    table = changes_of(scope.club_id)
    if scope.club_id is not None:
        # A club rates the matches that count in it: no league leg between two clubs.
        results = results.filter(club_id=scope.club_id, in_club=True)
    if since is not None:
        results = results.filter(played_at__gte=since)
        # Every match from ``since`` on, counted or not (one rescored into an incomplete
        # match keeps no row); a deleted match's rows went with it.
        table.objects.filter(match_id__in=results.values("match_id")).delete()
    elif scope.club_id is not None:
        table.objects.filter(match__club_id=scope.club_id).delete()
    else:
        table.objects.all().delete()
    rows = (
        results.filter(complete=True)
        .order_by("played_at", "match_id", "seat")
        .values_list("match_id", "played_at", "player_id", "team", "won", "rank", "seat")
    )
    fresh = default_rating()
    new_rows: list[tuple[int, bytes]] = []  # (match, seats)
    rated = 0

    def rate(match_rows: list[tuple[Any, ...]]) -> None:
        nonlocal rated
        teams: dict[int, list[tuple[int, int]]] = defaultdict(list)  # (subject, seat)
        ranks: dict[int, int] = {}
        won: dict[int, bool] = {}
        for _, _, player_id, team, did_win, rank, seat in match_rows:
            teams[team].append((subject.get(player_id, player_id), seat))
            ranks[team] = rank
            won[team] = did_win
        order = sorted(teams)
        before = [
            [
                MODEL.rating(mu=states[p].mu, sigma=states[p].sigma)
                if p in states
                else MODEL.rating(mu=fresh[0], sigma=fresh[1])
                for p, _ in teams[team]
            ]
            for team in order
        ]
        after = MODEL.rate(before, ranks=[ranks[team] for team in order])
        match_id, played_at = match_rows[0][0], match_rows[0][1]
        packed = bytearray(SEAT.size * (1 + max(row[6] for row in match_rows)))
        for team, new_ratings in zip(order, after, strict=True):
            for (player_id, seat), new in zip(teams[team], new_ratings, strict=True):
                state = states.setdefault(player_id, _State(*fresh))
                state.mu, state.sigma = new.mu, new.sigma
                state.matches += 1
                state.wins += won[team]
                state.last_played = played_at
                SEAT.pack_into(
                    packed, seat * SEAT.size, new.mu, new.sigma, state.matches, state.wins
                )
        new_rows.append((match_id, bytes(packed)))
        rated += 1

    current: list[tuple[Any, ...]] = []
    for row in rows.iterator(chunk_size=5000):
        if current and row[0] != current[0][0]:
            rate(current)
            current = []
        current.append(row)
    if current:
        rate(current)

    # Every rating of the scope takes its state now; ratings with no match left go.
    missing = [player_id for player_id in states if player_id not in ratings]
    if missing:
        Rating.objects.bulk_create(
            [
                Rating(scope=scope, player_id=p, mu=fresh[0], sigma=fresh[1], ordinal=0.0)
                for p in missing
            ],
            batch_size=1000,
        )
        ratings = {rating.player_id: rating for rating in Rating.objects.filter(scope=scope)}
    gone = [rating.pk for player_id, rating in ratings.items() if player_id not in states]
    Rating.objects.filter(pk__in=gone).delete()
    kept = []
    for player_id, state in states.items():
        rating = ratings[player_id]
        rating.mu, rating.sigma = state.mu, state.sigma
        rating.ordinal = ordinal(state.mu, state.sigma)
        rating.matches, rating.wins, rating.last_played = (
            state.matches,
            state.wins,
            state.last_played,
        )
        kept.append(rating)
    Rating.objects.bulk_update(
        kept, ["mu", "sigma", "ordinal", "matches", "wins", "last_played"], batch_size=1000
    )
    # In the key's order: matches are numbered as they arrive, so the rows of new matches
    # go at the index's end and fill its pages.
    new_rows.sort()
    insert_rows(table, ("match_id", "seats"), new_rows)
    return rated
