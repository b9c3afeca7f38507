"""The statistics pipeline: a stored match's figures (its seat results), the rating scopes
they make dirty, and the periodic job's look for what was missed."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, Min, OuterRef, Q
from django.utils import timezone

from games.models import Match

from .head_to_head import head_to_head_apply
from .models import RatingScope, SeatAnalysis, SeatResult
from .ratings import ratings_mark_dirty, ratings_recompute
from .stats import match_results_store
from .totals import totals_apply


def matches_review(*, match_ids: list[int]) -> list[int]:
    """Store the figures of these matches and mark the ratings of their clubs (and of all
    clubs) dirty from the earliest of them, naming their players (before and after); return
    the rating scopes to recompute."""
    previous = _clubs_reached(match_ids)
    match_results_store(match_ids=match_ids)
    changed = _clubs_reached(match_ids)
    scopes: set[int] = set()
    for club_id in set(previous) | set(changed):
        reached = [found for found in (previous.get(club_id), changed.get(club_id)) if found]
        since = min(first for first, _ in reached)
        players = {player for _, players in reached for player in players}
        scopes.update(ratings_mark_dirty(club_id=club_id, since=since, players=players))
    return sorted(scopes)


def handles_merged(*, source_id: int, target_id: int) -> list[int]:
    """Move what was derived from ``source_id``'s seats to ``target_id``, in the merge's
    transaction (``games.services.players.players_merge``): their seat results (and the
    running totals and head to head, taken away under one handle and added under the
    other) and their seats' analysis summaries; mark the ratings dirty from the earliest
    match moved, naming the surviving handle. Return the rating scopes to recompute.

    A merge changes who sat, not what was played, so no match is reviewed again: a review
    unpacks every hand, about 1 ms a match (issue 39: 6.1 s of a merge that moved 5,686
    matches at 1,000,000)."""
    moved = list(SeatResult.objects.filter(player_id=source_id))
    # Every seat of their matches, as it was and as it will be: who met whom changes.
    met = list(SeatResult.objects.filter(match_id__any_of=sorted({r.match_id for r in moved})))
    SeatResult.objects.filter(player_id=source_id).update(player_id=target_id)
    totals_apply(added=[_seated(result, target_id) for result in moved], removed=moved)
    head_to_head_apply(
        added=[_seated(r, target_id) if r.player_id == source_id else r for r in met], removed=met
    )
    SeatAnalysis.objects.filter(player_id=source_id).update(player_id=target_id)
    earliest: dict[int, datetime] = {}
    for result in moved:
        earliest[result.club_id] = min(
            earliest.get(result.club_id, result.played_at), result.played_at
        )
    scopes: set[int] = set()
    for club_id, since in earliest.items():
        scopes.update(ratings_mark_dirty(club_id=club_id, since=since, players={target_id}))
    return sorted(scopes)


def handle_claimed(*, player_id: int) -> list[int]:
    """Mark the all-clubs ratings dirty from the first match of a handle that became a
    person's, naming it (in the claim's transaction); return the scopes to recompute.

    Only across clubs does a handle's person count (it is rated as the person's first
    handle there); its club's ratings and every figure of its matches stand."""
    first = SeatResult.objects.filter(player_id=player_id).aggregate(first=Min("played_at"))
    if first["first"] is None:
        return []
    return ratings_mark_dirty(club_id=None, since=first["first"], players={player_id})


def _seated(result: SeatResult, player_id: int) -> SeatResult:
    """Return a copy of a seat result under another player."""
    moved = copy.copy(result)
    moved.player_id = player_id
    return moved


def scopes_dirty_of(*, club_id: int) -> list[int]:
    """Return the dirty rating scopes a club's change reaches: its own and the all-clubs."""
    scopes = RatingScope.objects.filter(Q(club_id=club_id) | Q(club__isnull=True))
    return list(scopes.filter(dirty_from__isnull=False).order_by("id").values_list("id", flat=True))


def _clubs_reached(match_ids: list[int]) -> dict[int, tuple[datetime, set[int]]]:
    """Return, for each club of these matches' seat results, the earliest of their play times
    and the players in them."""
    reached: dict[int, tuple[datetime, set[int]]] = {}
    rows = SeatResult.objects.filter(match_id__in=match_ids).values_list(
        "club_id", "played_at", "player_id"
    )
    for club_id, played_at, player_id in rows:
        first, players = reached.get(club_id, (played_at, set()))
        players.add(player_id)
        reached[club_id] = (min(first, played_at), players)
    return reached


def matches_forget(*, club_id: int, since: datetime) -> list[int]:
    """Mark a club's ratings dirty after its matches from ``since`` went away; return the
    rating scopes to recompute."""
    return ratings_mark_dirty(club_id=club_id, since=since)


def matches_unreviewed(*, limit: int = 2000) -> list[int]:
    """Return valid stored matches, older than the periodic job's interval, that have no
    figures yet: their review was lost."""
    cutoff = timezone.now() - timedelta(seconds=settings.FIVES_REQUEUE_AFTER)
    return list(
        Match.objects.counted()
        # An anti-join on the seat results' key (match, seat), not a join and a filter.
        .filter(~Exists(SeatResult.objects.filter(match=OuterRef("pk"))))
        .filter(errors=[], created_at__lt=cutoff)
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )


def scopes_dirty() -> list[int]:
    """Return the rating scopes marked dirty: a recomputation is owed to them."""
    return list(
        RatingScope.objects.filter(dirty_from__isnull=False)
        .order_by("id")
        .values_list("id", flat=True)
    )


def ratings_update(*, scope_id: int) -> int:
    """Bring a scope's ratings up to date; return how many matches were rated."""
    return ratings_recompute(scope_id=scope_id)


def match_seat_results(*, match_id: int) -> list[SeatResult]:
    """Return the per-seat figures of a match, seat by seat (empty before its review)."""
    return list(
        SeatResult.objects.filter(match_id=match_id).select_related("player").order_by("seat")
    )
