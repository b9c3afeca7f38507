"""The club ranking table and the player profile, read from precomputed rows in a fixed
number of queries whatever the number of matches."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from operator import itemgetter
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.presets import RULESETS
from games.models import Player

from .analysis import RECENT_MATCHES, players_expected_loss
from .csv_tables import csv_text
from .head_to_head import head_to_head
from .models import Rating, RatingHistory
from .rating_history import HISTORY_POINTS, chart_points
from .ratings import (
    NEWCOMER_MU,
    PROVISIONAL_BELOW,
    seat_values,
    shown_points,
    shown_range,
    shown_rating,
    with_last_change,
)
from .stats import (
    PERIODS,
    RANKED,
    STATISTICS,
)
from .totals import club_totals, player_totals

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
    # The performance figure: the fewer chances lost the better, so "desc" puts it first;
    # players with no analysed match last.
    "performance": lambda row: -row["performance"] if row["performance"] is not None else -1e9,
    # And every statistic the ranking shows (replays.stats.STATISTICS marks them).
    **{name: itemgetter(name) for name in RANKED},
}


ORDERS = ("desc", "asc")
NO_ANALYSIS = {
    "expected_loss": None,
    "performance": None,
    "band": None,
    "luck": None,
    "skill": None,
    "analysed_matches": 0,
}


def ranking_args(query: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Return the ranking table's options asked for in the query string, and what was not
    understood (by option: the message to say; the table then uses the default). ``query``
    is the query string (``request.GET``): the HTML page and the API read the same options."""
    args = {
        "ruleset": query.get("ruleset", "")[:20],
        "period": query.get("period", "")[:10],
        "sort": query.get("sort", "rating")[:20],
        "order": query.get("order", "desc")[:4],
    }
    known = {
        "ruleset": ("", *(value for value, _name in RULESETS)),
        "period": ("", *PERIODS),
        "sort": tuple(SORTS),
        "order": ORDERS,
    }
    problems = {}
    for name, allowed in known.items():
        if args[name] not in allowed:
            problems[name] = _("“%(value)s” is not understood: one of %(allowed)s.") % {
                "value": args[name],
                "allowed": ", ".join(value for value in allowed if value),
            }
            args[name] = allowed[0] if name != "sort" else "rating"
    return args, problems


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
    # The rating then: what the player's last rated match before the cutoff left it at.
    ratings = with_last_change(
        Rating.objects.filter(scope__club=club).select_related("player"),
        player="player_id",
        club_id=club.pk,
        before=cutoff,
    )
    # Kept as matches arrive (``totals``): read by key, whatever the club's history.
    figures = club_totals(club=club, ruleset=ruleset, days=PERIODS.get(period), now=now)
    filtered = bool(ruleset or period)
    groups: dict[str, list[dict[str, Any]]] = {"ranked": [], "provisional": [], "inactive": []}
    for rating in ratings:
        counted = figures.get(rating.player_id)
        if counted is None and filtered:
            continue
        then = NEWCOMER_MU
        if rating.seats_then is not None:
            then = seat_values(rating.seats_then, rating.seat_then)[0]
        row = {
            "player_id": rating.player_id,
            "player": rating.player.handle,
            **rating_shown(rating.mu, rating.sigma),
            "ordinal": round(rating.ordinal, 2),
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "deviation": shown_points(rating.sigma),
            "rated_matches": rating.matches,
            "change": shown_points(rating.mu - then),
            **_figures_or_zero(counted),
        }
        row["last_played"] = rating.last_played
        if rating.matches < PROVISIONAL_BELOW:
            groups["provisional"].append(row)
        elif rating.last_played and rating.last_played < now - timedelta(days=INACTIVE_AFTER_DAYS):
            groups["inactive"].append(row)
        else:
            groups["ranked"].append(row)
        row["counted"] = [row[name] for name in RANKED]
    # Each player's average expected loss per play over their latest analysed matches (one
    # query for the whole table); None before any of their matches was analysed.
    losses = players_expected_loss(
        player_ids=[row["player_id"] for rows in groups.values() for row in rows]
    )
    for rows in groups.values():
        for row in rows:
            row.update(losses.get(row["player_id"], NO_ANALYSIS))
    sort = sort if sort in SORTS else "rating"
    order = "asc" if order == "asc" else "desc"
    for rows in groups.values():
        rows.sort(key=lambda row: (SORTS[sort](row), row["ordinal"]), reverse=order == "desc")
    for place, row in enumerate(groups["ranked"], start=1):
        row["rank"] = place
    return {
        "club": club.name,
        "club_slug": club.slug,
        # The statistics' columns (name and words), each row's values in ``counted``.
        "columns": [{"name": name, "words": STATISTICS[name].words} for name in RANKED],
        "ruleset": ruleset,
        "period": period,
        "sort": sort,
        "order": order,
        "provisional_below": PROVISIONAL_BELOW,
        "inactive_after_days": INACTIVE_AFTER_DAYS,
        **groups,
    }


def rating_shown(mu: float, sigma: float) -> dict[str, int]:
    """The rating as people read it: its value and its likely range (``ratings``)."""
    low, high = shown_range(mu, sigma)
    return {"rating": shown_rating(mu), "rating_low": low, "rating_high": high}


def _figures_or_zero(figures: dict[str, Any] | None) -> dict[str, Any]:
    names = ("matches", "wins", "hands", "points", "win_rate", "points_per_hand", *RANKED)
    if figures is None:
        return dict.fromkeys(names, 0) | {"win_rate": None, "points_per_hand": None}
    return {name: figures[name] for name in names}


def player_profile(*, player: Player, shown: QuerySet[Player] | None = None) -> dict[str, Any]:
    """Return a player's figures, rating and its history, and results against each opponent
    (``shown``: the players the reader may see, when given; an opponent of a league leg
    stored in a private club, say, is left out of the head-to-head for anyone else)."""
    figures = player_totals(player_id=player.pk)
    rating = Rating.objects.filter(scope__club_id=player.club_id, player=player).first()
    history: list[dict[str, Any]] = []
    if rating is not None:
        history = _history(rating)
    opponents = head_to_head(player_id=player.pk)
    names = dict(
        (Player.objects if shown is None else shown)
        .filter(pk__in=[row["opponent_id"] for row in opponents])
        .values_list("id", "handle")
    )
    if shown is not None:
        opponents = [row for row in opponents if row["opponent_id"] in names]
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
            **rating_shown(rating.mu, rating.sigma),
            "ordinal": round(rating.ordinal, 2),
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "deviation": shown_points(rating.sigma),
            "matches": rating.matches,
            "provisional": rating.matches < PROVISIONAL_BELOW,
        },
        "figures": figures,
        "analysis": players_expected_loss(player_ids=[player.pk]).get(player.pk, NO_ANALYSIS)
        | {"recent": RECENT_MATCHES},
        "history": history,
        "head_to_head": opponents,
    }


def _history(rating: Rating) -> list[dict[str, Any]]:
    """Return a rating's history: its value after every ``step``-th match and after the
    last, a few hundred points at most, read from the points kept as it was rated
    (``rating_history``)."""
    packed = RatingHistory.objects.filter(rating=rating).values_list("points", flat=True)
    return [
        {
            "matches": matches,
            "played_at": played_at,
            **rating_shown(mu, sigma),
            # openskill's ordinal with its defaults: the very float mu - 3.0 * sigma
            "ordinal": round(mu - 3.0 * sigma, 2),
        }
        for matches, played_at, mu, sigma in chart_points(
            packed.first() or b"", rating, HISTORY_POINTS
        )
    ]


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


RANKING_CSV_COLUMNS = (
    "group",
    "rank",
    "player",
    "rating",
    "rating_low",
    "rating_high",
    "deviation",
    "change",
    "ordinal",
    "mu",
    "sigma",
    "rated_matches",
    "matches",
    "wins",
    "win_rate",
    "points_per_hand",
    *RANKED,
    "last_played",
)


def ranking_csv(table: dict[str, Any]) -> str:
    """Return the ranking table as CSV, a header row first: the ranked, then the provisional,
    then the inactive players, each row's shown rating beside its raw figures."""
    rows = []
    for group in ("ranked", "provisional", "inactive"):
        for row in table[group]:
            cells = {
                **row,
                "group": group,
                "rank": row.get("rank", ""),
                "last_played": row["last_played"].isoformat() if row["last_played"] else "",
            }
            rows.append([cells[column] for column in RANKING_CSV_COLUMNS])
    return csv_text(RANKING_CSV_COLUMNS, rows)
