"""The statistics pipeline: a stored match's figures (its seat results), the rating scopes
they make dirty, and the periodic job's look for what was missed."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Match

from .models import RatingScope, SeatResult
from .ratings import ratings_mark_dirty, ratings_recompute
from .stats import match_results_store


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
