"""Replays of stored matches: the engine's states after every move, and the score chart."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _

from games.cache import cached
from games.engine.replay import replay_log
from games.models import Match
from games.presentation import team_names

from .models import RatingScope, SeatResult
from .ratings import ratings_mark_dirty, ratings_recompute
from .stats import match_results_store


def matches_review(*, match_ids: list[int]) -> list[int]:
    """Store the figures of these matches and mark the ratings of their clubs (and of all
    clubs) dirty from the earliest of them; return the rating scopes to recompute."""
    previous = dict(
        SeatResult.objects.filter(match_id__in=match_ids)
        .values("club_id")
        .annotate(first=Min("played_at"))
        .values_list("club_id", "first")
    )
    match_results_store(match_ids=match_ids)
    changed = dict(
        SeatResult.objects.filter(match_id__in=match_ids)
        .values("club_id")
        .annotate(first=Min("played_at"))
        .values_list("club_id", "first")
    )
    scopes: set[int] = set()
    for club_id in set(previous) | set(changed):
        times = [t for t in (previous.get(club_id), changed.get(club_id)) if t is not None]
        scopes.update(ratings_mark_dirty(club_id=club_id, since=min(times)))
    return sorted(scopes)


def matches_forget(*, club_id: int, since: datetime) -> list[int]:
    """Mark a club's ratings dirty after its matches from ``since`` went away; return the
    rating scopes to recompute."""
    return ratings_mark_dirty(club_id=club_id, since=since)


def matches_unreviewed(*, limit: int = 2000) -> list[int]:
    """Return valid stored matches, older than the periodic job's interval, that have no
    figures yet: their review was lost."""
    cutoff = timezone.now() - timedelta(seconds=settings.FIVES_REQUEUE_AFTER)
    return list(
        Match.objects.filter(seat_results=None, errors=[], created_at__lt=cutoff)
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


def match_replay_cached(*, match: Match) -> dict[str, Any]:
    """Return ``match_replay``, computed once per version of the match (pages ask it often)."""
    return cached(f"replay-data:{match.cache_version}", lambda: match_replay(match=match))


def match_replay(*, match: Match) -> dict[str, Any]:
    """Return what a replay page draws: the players and the engine's state after each move.

    ``match`` must come with its seats, hands and moves loaded (``Match.objects.with_log()``).
    """
    replay = replay_log(match.log().as_json(), review=True)
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    return {
        "match": match.pk,
        "players": [seat.player.handle for seat in seats],
        "teams": match.teams,
        "team_names": team_names(match),
        "team_of": [seat.team for seat in seats],
        "rules": match.rules,
        "valid": replay.report.valid,
        "states": replay.states,
    }


def replay_text() -> dict[str, str]:
    """Return the words the replay script shows, in the language of the request."""
    return {
        "empty_table": _("The table is empty"),
        "hand_start": _("Hand %(hand)s: the tiles are dealt"),
        "position_start": _("Hand %(hand)s, start"),
        "position": _("Hand %(hand)s, move %(move)s"),
        "plays": _("%(player)s plays %(tile)s %(where)s"),
        "leads": _("to lead"),
        "on_end": _("on %(end)s"),
        "count_points": _("count %(count)s: +%(points)s"),
        "count_only": _("count %(count)s"),
        "draws": _("%(player)s draws %(tile)s"),
        "passes": _("%(player)s passes"),
        "hand_heading": _("Hand %(hand)s"),
        "draw": _("draws"),
        "pass": _("passes"),
        "pips_left": _("%(pips)s pips left"),
        "hidden_tiles": _("%(count)s hidden tiles"),
        "hand_ended": _("The hand ends: %(how)s."),
        "end_domino": _("domino, a player went out"),
        "end_block": _("blocked, nobody can play"),
        "end_target": _("the target is reached"),
        "settlement": _("Settlement: %(list)s."),
        "missed": _("%(play)s would have scored %(best)s"),
        "missed_short": _("missed %(missed)s"),
        "claimed": _("claimed %(claimed)s"),
        "play": _("Play"),
        "pause": _("Pause"),
    }


CHART_WIDTH = 640
CHART_HEIGHT = 240
CHART_PAD = 36


def score_chart(*, match: Match) -> dict[str, Any]:
    """Return the geometry of an SVG line chart of each team's score after every hand."""
    names = team_names(match)
    hands = sorted(match.hands.all(), key=lambda hand: hand.index)
    series = [[0] + [hand.scores[team] for hand in hands] for team in range(len(names))]
    values = [value for line in series for value in line]
    top = max([*values, match.rules.get("target", 0), 1])
    bottom = min([*values, 0])
    span = max(top - bottom, 1)
    steps = max(len(hands), 1)

    def x(index: int) -> float:
        return round(CHART_PAD + index * (CHART_WIDTH - 2 * CHART_PAD) / steps, 1)

    def y(value: float) -> float:
        return round(
            CHART_HEIGHT - CHART_PAD - (value - bottom) * (CHART_HEIGHT - 2 * CHART_PAD) / span, 1
        )

    lines = [
        {
            "name": name,
            "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series[team])),
            "last_x": x(len(series[team]) - 1),
            "last_y": y(series[team][-1]),
            "last": series[team][-1],
            "colour": f"team-{team}",
        }
        for team, name in enumerate(names)
    ]
    target = match.rules.get("target")
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "lines": lines,
        "target_y": y(target) if target else None,
        "target": target,
        "zero_y": y(0),
        "left": CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "hand_ticks": [{"x": x(i), "label": i} for i in range(1, steps + 1)] if hands else [],
        "bottom": CHART_HEIGHT - CHART_PAD,
    }
