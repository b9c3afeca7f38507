"""Ratings: openskill's Plackett-Luce, per club and across all clubs, in playing order.

A match that changes the past (it arrives out of order, is deleted or rescored) marks its
scope dirty from its play time; ``ratings_recompute`` then replays every counted match from
that time on, starting from the ratings as they stood just before it. Only complete, valid
matches count (those with seat results, ``complete``). One recomputation of a scope runs at
a time: a PostgreSQL advisory lock (a process lock on SQLite, whose tasks run in-process).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import ExpressionWrapper, F, FloatField
from django.db.models.functions import Coalesce, Least
from django.utils import timezone
from openskill.models import PlackettLuce

from games.db import insert_rows
from games.models import Player

from .models import Rating, RatingEvent, RatingScope, SeatResult

MODEL = PlackettLuce()
# Fewer rated matches than this: provisional, listed apart.
PROVISIONAL_BELOW = 10
LOCK_NAMESPACE = 7301  # PostgreSQL advisory lock space of rating recomputations


def default_rating() -> tuple[float, float]:
    """Return (mu, sigma) of a player new to a scope."""
    rating = MODEL.rating()
    return rating.mu, rating.sigma


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative rating shown in tables (openskill's ordinal: mu - 3 sigma)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


# ``ordinal`` of a rating event, computed by the database: openskill's ordinal with its
# defaults is 1 * ((mu - 3.0 * sigma) + 0 / 1), the very same float as mu - 3.0 * sigma.
EVENT_ORDINAL = ExpressionWrapper(F("mu") - 3.0 * F("sigma"), output_field=FloatField())


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


def _recompute(scope: RatingScope, since: datetime | None) -> int:
    ratings = {rating.player_id: rating for rating in Rating.objects.filter(scope=scope)}
    states: dict[int, _State] = {}
    # By the key (rating, played_at, matches): the scope's ratings, with no join.
    events = RatingEvent.objects.filter(rating__in=Rating.objects.filter(scope=scope))
    if since is not None:
        events.filter(played_at__gte=since).delete()
        last_before = (
            events.filter(played_at__lt=since)
            .order_by("rating_id", "-played_at", "-matches")
            .values_list("rating__player_id", "mu", "sigma", "matches", "wins", "played_at")
        )
        if connection.vendor == "postgresql":
            last_before = last_before.distinct("rating_id")
        for player_id, mu, sigma, matches, wins, played_at in last_before:
            states.setdefault(player_id, _State(mu, sigma, matches, wins, played_at))
    else:
        events.delete()

    results = SeatResult.objects.filter(complete=True)
    if scope.club_id is not None:
        results = results.filter(club_id=scope.club_id)
    if since is not None:
        results = results.filter(played_at__gte=since)
    rows = results.order_by("played_at", "match_id", "seat").values_list(
        "match_id", "played_at", "player_id", "team", "won", "rank"
    )
    subject = _subjects(scope)
    fresh = default_rating()
    new_events: list[tuple[Any, ...]] = []  # (player, match, played_at, mu, sigma, ...)
    rated = 0

    def rate(match_rows: list[tuple[Any, ...]]) -> None:
        nonlocal rated
        teams: dict[int, list[int]] = defaultdict(list)
        ranks: dict[int, int] = {}
        won: dict[int, bool] = {}
        for _, _, player_id, team, did_win, rank in match_rows:
            teams[team].append(subject.get(player_id, player_id))
            ranks[team] = rank
            won[team] = did_win
        order = sorted(teams)
        before = [
            [
                MODEL.rating(mu=states[p].mu, sigma=states[p].sigma)
                if p in states
                else MODEL.rating(mu=fresh[0], sigma=fresh[1])
                for p in teams[team]
            ]
            for team in order
        ]
        after = MODEL.rate(before, ranks=[ranks[team] for team in order])
        match_id, played_at = match_rows[0][0], match_rows[0][1]
        for team, new_ratings in zip(order, after, strict=True):
            for player_id, new in zip(teams[team], new_ratings, strict=True):
                state = states.setdefault(player_id, _State(*fresh))
                state.mu, state.sigma = new.mu, new.sigma
                state.matches += 1
                state.wins += won[team]
                state.last_played = played_at
                new_events.append(
                    (
                        player_id,
                        match_id,
                        played_at,
                        new.mu,
                        new.sigma,
                        state.matches,
                        state.wins,
                    )
                )
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
    # In the order of the key (rating, played_at, matches), not of play: a recomputation
    # from the start fills the key's index pages in order (in the order of play, the
    # ratings' events interleave and every page splits in halves).
    insert_rows(
        RatingEvent,
        ("rating_id", "played_at", "mu", "sigma", "matches", "wins"),
        sorted(
            ((ratings[row[0]].pk, *row[2:]) for row in new_events),
            key=lambda row: (row[0], row[1], row[4]),
        ),
    )
    return rated
