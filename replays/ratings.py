"""Ratings: openskill's Plackett-Luce, per club and across all clubs, in playing order.

A match that changes the past (it arrives out of order, is deleted or rescored) marks its
scope dirty from its play time; ``ratings_recompute`` then replays every counted match from
that time on, starting from the ratings as they stood just before it: each subject's values
in the row of its last match before then (``models.RatingChange``). Only complete, valid
matches count (those with seat results, ``complete``). One recomputation of a scope runs at
a time: a PostgreSQL advisory lock (a process lock on SQLite, whose tasks run in-process).
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import (
    BigIntegerField,
    DateTimeField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.utils import timezone
from openskill.models import PlackettLuce

from fives_engine import plackett_luce
from games.db import insert_rows, rows_table, update_rows
from games.events import MatchesRated, announce
from games.models import Player

from .models import (
    SEAT,
    AllClubsRatingChange,
    ClubRatingChange,
    Rating,
    RatingChange,
    RatingScope,
    SeatResult,
    seat_values,
)
from .rating_history import histories_store, is_kept, point

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


def changes_of(club_id: int | None) -> type[RatingChange]:
    """Return the table of the rows of a club's scope (None: of the all-clubs scope)."""
    return AllClubsRatingChange if club_id is None else ClubRatingChange


def with_last_change(
    queryset: QuerySet,
    *,
    player: str,
    club_id: int | None,
    before: datetime,
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


# Past this many players named, a mark names anyone: the list is rewritten at every mark, and
# a change that reaches this many players reaches most of a scope anyway.
DIRTY_PLAYERS_MAX = 1000


def ratings_mark_dirty(
    *, club_id: int | None, since: datetime, players: Iterable[int] | None = None
) -> list[int]:
    """Mark the club's scope and the all-clubs scope dirty from ``since``; return their ids.
    ``club_id`` None: only the all-clubs scope (a claim changes who a handle is across
    clubs, not what its club's matches were).

    ``players``: every player whose matches changed from ``since`` on (in them before the
    change or after it), if known; a recomputation then re-rates only what reaches them.
    """
    ids = []
    scopes = [scope_for(None)] if club_id is None else [scope_for(club_id), scope_for(None)]
    for scope in scopes:
        # Only the all-clubs scope reads the players named (``ratings_recompute``): a club's
        # replays from the change's time, so its mark is not rewritten with them.
        named = None if players is None or scope.club_id is not None else set(players)
        with transaction.atomic():
            scope = RatingScope.objects.select_for_update().get(pk=scope.pk)
            dirty = scope.dirty_from is not None
            seeds = None
            if named is not None and not (dirty and scope.dirty_players is None):
                seeds = named | set(scope.dirty_players or ()) if dirty else named
                seeds = sorted(seeds) if len(seeds) <= DIRTY_PLAYERS_MAX else None
            scope.dirty_from = min(scope.dirty_from, since) if dirty else since
            scope.dirty_players = seeds
            scope.dirty_marks += 1
            scope.save(update_fields=["dirty_from", "dirty_players", "dirty_marks"])
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
        # Only across clubs is what a change reaches worth finding first: a club's players
        # meet each other within weeks, so a change there reaches its whole club from its
        # time on, and replaying all of it is the cheaper way (measured: 0.27 s against
        # 0.55 s for 7,500 matches of a busy club, bench.scale).
        seeds = None if full or scope.club_id is not None else scope.dirty_players
        with transaction.atomic():
            if seeds is None or since is None:
                count = _recompute(scope, since)
            else:
                count = _recompute_reached(scope, since, seeds)
            # Clear the mark only if nothing marked it again meanwhile; if something did,
            # the task queued with that mark recomputes after this one.
            RatingScope.objects.filter(pk=scope_id, dirty_marks=scope.dirty_marks).update(
                dirty_from=None, dirty_players=None, computed_at=timezone.now()
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
    recomputation from the start mends)."""
    chosen = Player.objects.filter(pk__in=Rating.objects.filter(scope=scope).values("player_id"))
    if subject:  # across clubs, a user's other players have no rating of their own
        chosen = Player.objects.filter(
            Q(pk__in=Rating.objects.filter(scope=scope).values("player_id")) | Q(user__isnull=False)
        )
    found = with_last_change(chosen.order_by(), player="pk", club_id=scope.club_id, before=since)
    rows = found.values_list("pk", "match_then", "seat_then", "played_then", "seats_then")
    return _last_states(rows, subject)


def _states_at(
    scope: RatingScope, subject: dict[int, int], bounds: dict[int, _Key]
) -> dict[int, _State] | None:
    """Return the state of each player's subject just before the match ``bounds`` gives the
    player (every player of a subject given the same): each player's last rated match before
    then, found in one query from a table of the bounds (``rows_table``), then its seat and
    the match's row read by key."""
    given, given_params = rows_table(
        [(player, at, match) for player, (at, match) in bounds.items()],
        [BigIntegerField(), DateTimeField(), BigIntegerField()],
        ["player", "at_time", "at_match"],
    )
    club, club_params = "", []
    if scope.club_id is not None:
        club, club_params = "AND s.club_id = %s AND s.in_club", [scope.club_id]
    # The first bound alone lets the index (player, played_at) be read backwards from it;
    # the rest breaks the tie at that moment (one player's matches at one time).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT given.player, (SELECT s.match_id FROM "
            f"{connection.ops.quote_name(SeatResult._meta.db_table)} s"
            " WHERE s.player_id = given.player AND s.complete AND s.played_at <= given.at_time"
            " AND (s.played_at < given.at_time OR s.match_id < given.at_match)"
            f" {club} ORDER BY s.played_at DESC, s.match_id DESC, s.seat DESC LIMIT 1)"
            f" FROM {given}",
            [*club_params, *given_params],
        )
        last = {player: match for player, match in cursor.fetchall() if match is not None}
    matches = sorted(set(last.values()))
    seats = {
        (match, player): (seat, played_at)
        for match, player, seat, played_at in SeatResult.objects.filter(
            match_id__any_of=matches, player_id__any_of=list(last)
        ).values_list("match_id", "player_id", "seat", "played_at")
    }
    packed = dict(
        changes_of(scope.club_id)
        .objects.filter(match_id__any_of=matches)
        .values_list("match_id", "seats")
    )
    rows = [
        (player, match, *seats[match, player], packed.get(match)) for player, match in last.items()
    ]
    return _last_states(rows, subject)


# A player's last rated match as ``_last_states`` reads it: (player, that match, its seat,
# played_at, the match's packed row); the match and what follows None if there is none.
LastRow = tuple[int, int | None, int | None, datetime | None, bytes | None]
# Which of a subject's seats holds its state: (played_at, match id, matches rated).
_SeatOrder = tuple[datetime, int, int]


def _last_states(rows: Iterable[LastRow], subject: dict[int, int]) -> dict[int, _State] | None:
    """Return each subject's state from rows of (player, its last match, seat, played_at,
    the match's packed row) (None if a match named has no row).

    Across clubs a subject's players are looked at together, and of two seats of theirs in
    one match, the later rated (more matches) holds the state the match left.
    """
    best: dict[int, tuple[_SeatOrder, _State]] = {}
    for player_id, match_id, seat, played_at, packed in rows:
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


def _scope_results(scope: RatingScope) -> QuerySet:
    """Return the seat results a scope rates (complete or not)."""
    results = SeatResult.objects.all()
    if scope.club_id is not None:
        # A club rates the matches that count in it: no league leg between two clubs.
        results = results.filter(club_id=scope.club_id, in_club=True)
    return results


# One seat result as the rating reads it.
RATED_FIELDS = ("match_id", "played_at", "player_id", "team", "won", "rank", "seat", "complete")
# Such a row, as ``values_list(*RATED_FIELDS)`` gives it: a plain tuple, read in the hot
# loops by place (a named tuple a seat would be built for every seat a re-rating reads).
RatedRow = tuple[int, datetime, int, int, bool, int, int, bool]
_BY_SEAT = itemgetter(RATED_FIELDS.index("seat"))
_COMPLETE = RATED_FIELDS.index("complete")


def _recompute(scope: RatingScope, since: datetime | None) -> int:
    """Re-rate every match of the scope from ``since`` on (None: from the first)."""
    subject = _subjects(scope)
    states: dict[int, _State] = {}
    if since is not None:
        restored = _states_before(scope, subject, since)
        if restored is None:  # a rated match lost its row: start again from the first
            since = None
        else:
            states = restored

    results = _scope_results(scope)
    table = changes_of(scope.club_id)
    replayed: list[int] | None = None
    if since is not None:
        results = results.filter(played_at__gte=since)
        # Every match from ``since`` on loses its row, counted or not (one rescored into an
        # incomplete match keeps none; a deleted match's rows went with it): their ids are
        # taken from the same read, and the rows deleted by key (a join with the seat
        # results read the whole table of rows, every club's, at each re-rating).
        replayed = []
    elif scope.club_id is not None:
        table.objects.filter(match__club_id=scope.club_id).delete()
    else:
        table.objects.all().delete()
    rows = _complete_rows(
        results.order_by("played_at", "match_id", "seat")
        .values_list(*RATED_FIELDS)
        .iterator(chunk_size=5000),
        replayed,
    )
    # A club's ratings keep their charts' points as they go (``rating_history``).
    points: dict[int, list[bytes]] | None = {} if scope.club_id is not None else None
    new_rows = _rate_in_order(rows, states, subject, points)
    ratings = _ratings_store(scope, states, Rating.objects.filter(scope=scope))
    if replayed is not None:
        table.objects.filter(match_id__any_of=replayed).delete()
    # In the key's order: matches are numbered as they arrive, so the rows of new matches
    # go at the index's end and fill its pages.
    new_rows.sort()
    insert_rows(table, ("match_id", "seats"), new_rows)
    if points is not None:  # after the rows: a history counted again reads them
        totals = {player_id: state.matches for player_id, state in states.items()}
        histories_store(since, points, ratings, totals, scope.club_id)
    return len(new_rows)


def _complete_rows(rows: Iterable[RatedRow], matches: list[int] | None) -> Iterator[RatedRow]:
    """Yield the seat results ``rows`` (``RATED_FIELDS``, a match's seats together) of
    complete matches; add every match's id to ``matches`` if given."""
    last = None
    for row in rows:
        if matches is not None and row[0] != last:
            last = row[0]
            matches.append(last)
        if row[_COMPLETE]:
            yield row


def _rate_in_order(
    rows: Iterable[RatedRow],
    states: dict[int, _State],
    subject: dict[int, int],
    points: dict[int, list[bytes]] | None = None,
) -> list[tuple[int, bytes]]:
    """Rate the complete matches whose seat results ``rows`` are (``RATED_FIELDS``, in
    playing order, a match's seats together), moving ``states`` on; return each match's
    row: (match, every seat's values after it, packed). ``points``, if given, gets by
    subject rated the points its history may keep (``rating_history.is_kept``), in order."""
    fresh = default_rating()
    new_rows: list[tuple[int, bytes]] = []

    def rate(match_rows: list[RatedRow]) -> None:
        teams: dict[int, list[tuple[int, int]]] = defaultdict(list)  # (subject, seat)
        ranks: dict[int, int] = {}
        won: dict[int, bool] = {}
        for _, _, player_id, team, did_win, rank, seat, _ in match_rows:
            teams[team].append((subject.get(player_id, player_id), seat))
            ranks[team] = rank
            won[team] = did_win
        order = sorted(teams)
        before = [
            [(states[p].mu, states[p].sigma) if p in states else fresh for p, _ in teams[team]]
            for team in order
        ]
        after = plackett_luce.rate(before, [ranks[team] for team in order])
        match_id, played_at = match_rows[0][0], match_rows[0][1]
        packed = bytearray(SEAT.size * (1 + max(row[6] for row in match_rows)))
        for team, new_ratings in zip(order, after, strict=True):
            for (player_id, seat), (mu, sigma) in zip(teams[team], new_ratings, strict=True):
                state = states.setdefault(player_id, _State(*fresh))
                state.mu, state.sigma = mu, sigma
                state.matches += 1
                state.wins += won[team]
                state.last_played = played_at
                SEAT.pack_into(packed, seat * SEAT.size, mu, sigma, state.matches, state.wins)
                if points is not None:
                    kept = points.setdefault(player_id, [])
                    if is_kept(state.matches):
                        kept.append(point(state.matches, played_at, mu, sigma))
        new_rows.append((match_id, bytes(packed)))

    current: list[RatedRow] = []
    for row in rows:
        if current and row[0] != current[0][0]:
            rate(current)
            current = []
        current.append(row)
    if current:
        rate(current)
    return new_rows


def _ratings_store(
    scope: RatingScope, states: dict[int, _State], held: QuerySet
) -> dict[int, Rating]:
    """Give the ratings ``held`` (of the scope) and those of the subjects in ``states`` their
    state: a rating is made for a subject that has none, and goes where its subject has no
    state (no match left). Return the ratings left, by subject, as they were before (made
    ones as made)."""
    ratings = {rating.player_id: rating for rating in held}
    fresh = default_rating()
    missing = [player_id for player_id in states if player_id not in ratings]
    if missing:
        made = Rating.objects.bulk_create(
            [
                Rating(scope=scope, player_id=p, mu=fresh[0], sigma=fresh[1], ordinal=0.0)
                for p in missing
            ],
            batch_size=1000,
        )
        # Made rows are read back for their ids (SQLite's bulk_create sets none).
        if any(rating.pk is None for rating in made):
            made = Rating.objects.filter(scope=scope, player_id__in=missing)
        ratings.update((rating.player_id, rating) for rating in made)
    gone = [player_id for player_id in ratings if player_id not in states]
    Rating.objects.filter(pk__in=[ratings.pop(player_id).pk for player_id in gone]).delete()
    update_rows(
        Rating,
        ("mu", "sigma", "ordinal", "matches", "wins", "last_played"),
        (
            (
                ratings[player_id].pk,
                state.mu,
                state.sigma,
                ordinal(state.mu, state.sigma),
                state.matches,
                state.wins,
                state.last_played,
            )
            for player_id, state in states.items()
        ),
    )
    return ratings


# --- re-rating only what a change reaches ----------------------------------------------
#
# Why: a match that arrives late, a rescore or a merge changes the ratings of its players from
# its time on, then of whoever those players meet afterwards, and so on; the rest of the scope
# (across clubs: every other club, until a league or a person's handles join them) rates as
# it did. A full replay from the change re-rates the whole scope from that time; this finds
# what the change reaches and re-rates only that, with the same floats a full replay gives.
#
# A subject is "reached" from the first match (in playing order) at which its rating may
# differ from the stored one: the players the mark names, from ``since``; then everyone at a
# table with a reached subject, from that match. A match is re-rated if a subject at its table
# is reached at or before it. Any other match has the same players, result and ratings going
# in as when it was rated, so its stored row stands; and a reached subject's rating just
# before it was reached is the one its last match before then left (a stored row, unchanged).

_Key = tuple[datetime, int]  # a match's place in playing order: (played_at, match id)
# The queries for the matches of newly reached subjects: at most this many, each for the
# subjects reached at about one time (from the earliest of them).
_FETCH_GROUPS = 16
# The matches whose seats are read in one query.
_READ_AT_ONCE = 20000


@dataclass
class _Reach:
    """What a change reaches: each reached subject's first reached match, and the seat
    results read of the matches of reached subjects (complete or not: a match rescored into
    an incomplete one loses its row), by match (``RATED_FIELDS``; a match's seats are read
    together), with the subjects at each match's table and the matches in playing order."""

    reached: dict[int, _Key]
    seats: dict[_Key, list[RatedRow]] = field(default_factory=dict)
    at_table: dict[_Key, frozenset[int]] = field(default_factory=dict)
    order: list[_Key] = field(default_factory=list)

    def touched(self, key: _Key) -> bool:
        """Whether a subject at the match's table is reached at or before it."""
        reached = self.reached
        return any(who in reached and reached[who] <= key for who in self.at_table[key])

    def matches(self) -> list[_Key]:
        """Return the matches to re-rate (or whose row to drop), in playing order."""
        return [key for key in self.order if self.touched(key)]

    def rows(self, keys: list[_Key]) -> Iterator[RatedRow]:
        """Yield the complete matches' seat results (``RATED_FIELDS``), seat by seat."""
        for key in keys:
            rows = self.seats[key]
            if rows[0][_COMPLETE]:
                yield from sorted(rows, key=_BY_SEAT)


def _recompute_reached(scope: RatingScope, since: datetime, seeds: list[int]) -> int:
    """Re-rate the matches of the scope that the players ``seeds``' changes from ``since``
    reach, as ``_recompute(scope, since)`` would (see above)."""
    subject = _subjects(scope)
    players_of: dict[int, list[int]] = defaultdict(list)
    for player_id, who in subject.items():
        players_of[who].append(player_id)
    results = _scope_results(scope)
    reach = _reach(results, subject, players_of, since, {subject.get(p, p) for p in seeds})
    states = _states_reached(scope, subject, players_of, reach)
    if states is None:  # a rated match lost its row: start again from the first
        return _recompute(scope, None)
    keys = reach.matches()
    table = changes_of(scope.club_id)
    table.objects.filter(match_id__any_of=[match_id for _, match_id in keys]).delete()
    new_rows = _rate_in_order(reach.rows(keys), states, subject)
    held = [p for who in reach.reached for p in players_of.get(who, [who])]
    held += seeds  # a named player rated as another subject now (claimed) loses its own
    _ratings_store(scope, states, Rating.objects.filter(scope=scope, player_id__in=held))
    new_rows.sort()
    insert_rows(table, ("match_id", "seats"), new_rows)
    return len(new_rows)


def _reach(
    results: QuerySet,
    subject: dict[int, int],
    players_of: dict[int, list[int]],
    since: datetime,
    seeds: set[int],
) -> _Reach:
    """Find what changes of the subjects ``seeds`` from ``since`` reach: read the matches of
    newly reached subjects from when they were reached, spread the reach through every
    match read, in playing order, and again until no subject is reached earlier."""
    reach = _Reach(reached={who: (since, 0) for who in seeds})
    read_from: dict[int, _Key] = {}
    read: set[int] = set()  # the matches read
    pending = set(seeds)
    while pending:
        wanted = _wanted(pending, reach, read_from, players_of)
        read_from.update((who, reach.reached[who]) for who in pending)
        # The matches first, then the seats of those not read yet: a round's subjects
        # share most of their matches with the rounds before (at 100,000 matches, a merge's
        # 58,692 seats read for 33,000).
        unread = sorted(set(results.filter(wanted).values_list("match_id", flat=True)) - read)
        read.update(unread)
        new: set[_Key] = set()
        # Each part's rows fetched at once (a server-side cursor's fetches cost more).
        parts = (
            unread[start : start + _READ_AT_ONCE] for start in range(0, len(unread), _READ_AT_ONCE)
        )
        rows = (
            row
            for part in parts
            for row in results.filter(match_id__any_of=part).values_list(*RATED_FIELDS)
        )
        seats = reach.seats
        for row in rows:
            key = (row[1], row[0])
            found = seats.get(key)
            if found is None:
                seats[key] = [row]
                new.add(key)
            else:
                found.append(row)
        for key in new:
            reach.at_table[key] = frozenset(subject.get(row[2], row[2]) for row in seats[key])
        if new:
            reach.order = sorted(seats)
            _spread(reach, min(new))
        pending = {
            who
            for who, key in reach.reached.items()
            if who not in read_from or key < read_from[who]
        }
    return reach


def _wanted(
    pending: set[int], reach: _Reach, read_from: dict[int, _Key], players_of: dict[int, list[int]]
) -> Q:
    """Return the condition on seat results that reads the matches of the ``pending``
    subjects: grouped by when they were reached, each group read from the earliest of its own
    (not every subject from the earliest of all), and a subject read before only up to where
    it was read from then."""
    ordered = sorted(pending, key=lambda who: (who in read_from, reach.reached[who]))
    size = -(-len(ordered) // _FETCH_GROUPS)
    wanted = Q()
    for start in range(0, len(ordered), size):
        group = ordered[start : start + size]
        players = [p for who in group for p in players_of.get(who, [who])]
        part = Q(player_id__in=players, played_at__gte=min(reach.reached[w] for w in group)[0])
        if all(who in read_from for who in group):
            part &= Q(played_at__lt=max(read_from[who] for who in group)[0])
        wanted |= part
    return wanted


def _spread(reach: _Reach, start: _Key) -> None:
    """Spread the reach through the matches read, in playing order, from ``start`` (the
    first match read last: the ones before it were spread through already)."""
    reached = reach.reached
    order = reach.order
    for key in order[bisect_left(order, start) :]:
        # An incomplete match is not rated: it carries nothing from one player to another.
        if reach.seats[key][0][_COMPLETE] and reach.touched(key):
            for who in reach.at_table[key]:
                if who not in reached or key < reached[who]:
                    reached[who] = key


def _states_reached(
    scope: RatingScope, subject: dict[int, int], players_of: dict[int, list[int]], reach: _Reach
) -> dict[int, _State] | None:
    """Return each reached subject's state just before it was reached: from its last rated
    match before then (None if such a match has no row)."""
    bounds = {
        player: key for who, key in reach.reached.items() for player in players_of.get(who, [who])
    }
    return _states_at(scope, subject, bounds)
