"""The club ranking table and the player profile, read from precomputed rows in a fixed
number of queries whatever the number of matches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Mod
from django.utils import timezone

from games.models import Club, Player

from .models import Rating, RatingEvent
from .ratings import EVENT_ORDINAL, PROVISIONAL_BELOW
from .stats import head_to_head, player_figures, players_figures, results_filter

INACTIVE_AFTER_DAYS = 180
CHANGE_DAYS = 30
SORTS = {
    "rating": lambda row: row["rating"],
    "matches": lambda row: row["matches"],
    "wins": lambda row: row["wins"],
    "win_rate": lambda row: row["win_rate"] or 0,
    "points_per_hand": lambda row: row["points_per_hand"] or 0,
    "last_played": lambda row: row["last_played"] or datetime.min.replace(tzinfo=UTC),
    "change": lambda row: row["change"],
}
HISTORY_POINTS = 300


def club_ranking(
    *,
    club: Club,
    ruleset: str = "",
    period: str = "",
    sort: str = "rating",
    order: str = "desc",
    now: datetime | None = None,
) -> dict[str, Any]:
    """Return the club's table: ranked players, provisional ones and inactive ones apart,
    sorted by ``sort``, highest first (``order`` "asc": lowest first)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=CHANGE_DAYS)
    before_cutoff = (
        RatingEvent.objects.filter(rating=OuterRef("pk"), played_at__lt=cutoff)
        .order_by("-played_at", "-matches")
        .annotate(ordinal=EVENT_ORDINAL)
    )
    ratings = (
        Rating.objects.filter(scope__club=club)
        .select_related("player")
        .annotate(ordinal_then=Subquery(before_cutoff.values("ordinal")[:1]))
    )
    figures = players_figures(
        condition=results_filter(club_id=club.pk, ruleset=ruleset, period=period, now=now)
    )
    filtered = bool(ruleset or period)
    groups: dict[str, list[dict[str, Any]]] = {"ranked": [], "provisional": [], "inactive": []}
    for rating in ratings:
        counted = figures.get(rating.player_id)
        if counted is None and filtered:
            continue
        row = {
            "player_id": rating.player_id,
            "player": rating.player.handle,
            "rating": round(rating.ordinal, 2),
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "rated_matches": rating.matches,
            "change": round(rating.ordinal - (rating.ordinal_then or 0.0), 2),
            **_figures_or_zero(counted),
        }
        row["last_played"] = rating.last_played
        if rating.matches < PROVISIONAL_BELOW:
            groups["provisional"].append(row)
        elif rating.last_played and rating.last_played < now - timedelta(days=INACTIVE_AFTER_DAYS):
            groups["inactive"].append(row)
        else:
            groups["ranked"].append(row)
    sort = sort if sort in SORTS else "rating"
    order = "asc" if order == "asc" else "desc"
    for rows in groups.values():
        rows.sort(key=lambda row: (SORTS[sort](row), row["rating"]), reverse=order == "desc")
    for place, row in enumerate(groups["ranked"], start=1):
        row["rank"] = place
    return {
        "club": club.name,
        "club_slug": club.slug,
        "ruleset": ruleset,
        "period": period,
        "sort": sort,
        "order": order,
        "provisional_below": PROVISIONAL_BELOW,
        "inactive_after_days": INACTIVE_AFTER_DAYS,
        **groups,
    }


def _figures_or_zero(figures: dict[str, Any] | None) -> dict[str, Any]:
    names = ("matches", "wins", "hands", "points", "win_rate", "points_per_hand")
    if figures is None:
        return dict.fromkeys(names, 0) | {"win_rate": None, "points_per_hand": None}
    return {name: figures[name] for name in names}


def player_profile(*, player: Player) -> dict[str, Any]:
    """Return a player's figures, rating and its history, and results against each opponent."""
    figures = player_figures(player_id=player.pk)
    rating = Rating.objects.filter(scope__club_id=player.club_id, player=player).first()
    history: list[dict[str, Any]] = []
    if rating is not None:
        events = RatingEvent.objects.filter(rating=rating)
        total = rating.matches
        step = max(1, -(-total // HISTORY_POINTS))
        if step > 1:  # a long history is thinned to about HISTORY_POINTS points
            events = events.annotate(nth=Mod("matches", step)).filter(Q(nth=0) | Q(matches=total))
        rows = (
            events.order_by("played_at", "matches")
            .annotate(ordinal=EVENT_ORDINAL)
            .values_list("matches", "played_at", "ordinal")
        )
        history = [
            {"matches": matches, "played_at": played_at, "rating": round(value, 2)}
            for matches, played_at, value in rows
        ]
    opponents = head_to_head(player_id=player.pk)
    names = dict(
        Player.objects.filter(pk__in=[row["opponent_id"] for row in opponents]).values_list(
            "id", "handle"
        )
    )
    for row in opponents:
        row["opponent"] = names.get(row["opponent_id"], "?")
    opponents.sort(key=lambda row: (-row["matches"], row["opponent"]))
    return {
        "player_id": player.pk,
        "player": player.handle,
        "club": player.club.name,
        "rating": None
        if rating is None
        else {
            "rating": round(rating.ordinal, 2),
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "matches": rating.matches,
            "provisional": rating.matches < PROVISIONAL_BELOW,
        },
        "figures": figures,
        "history": history,
        "head_to_head": opponents,
    }


def history_chart(
    history: list[dict[str, Any]], width: int = 640, height: int = 200
) -> dict[str, Any]:
    """Return the geometry of the rating history line."""
    if not history:
        return {}
    pad = 30
    values = [point["rating"] for point in history]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    last = max(history[-1]["matches"], 1)
    points = " ".join(
        f"{pad + (point['matches'] - 1) * (width - 2 * pad) / max(last - 1, 1):.1f},"
        f"{height - pad - (point['rating'] - low) * (height - 2 * pad) / span:.1f}"
        for point in history
    )
    return {"width": width, "height": height, "points": points, "low": low, "high": high}
