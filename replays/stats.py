"""Statistics: each stored match reviewed once into per-seat figures (``SeatResult``), and
the queries that add them up for the ranking table and the player page.

``STATISTICS`` is the one list of what a seat counts: each entry is a column of
``SeatResult`` and of ``PlayerTotals`` of the same name, kept added up as matches arrive by
``totals`` (what the pages read) and added up from the seat results by ``player_figures``
and ``players_figures`` (the count the totals are checked against). The player page shows
those marked ``shown``, the ranking (its page, its CSV and the API's rows, which it sorts
by) those marked ``ranked``, and ``GET /api/v1/players/{id}/stats/`` gives them all. A new
statistic is its column in both tables (with their migrations), its entry here and the
lines of ``seat_results`` that count it (README, "Where things live")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from fives_engine import missed_points
from games.cache import lists_changed
from games.db import insert_rows
from games.models import Match

from .head_to_head import head_to_head_apply
from .models import AllClubsRatingChange, ClubRatingChange, SeatResult
from .totals import totals_apply, with_rates


@dataclass(frozen=True)
class Statistic:
    """A figure a seat counts in a match and a player's figures add up."""

    words: str  # what the pages call it (a lazy translation)
    shown: bool = False  # a line of the player page
    ranked: bool = False  # a column of the ranking: its page, its CSV, the API's rows


# Each a column of SeatResult of the same name; in the order the API's figures give them.
STATISTICS = {
    "hands": Statistic(_("Hands")),
    "plays": Statistic(_("Plays")),
    "scoring_plays": Statistic(_("Plays that scored")),
    "points": Statistic(_("Points from plays")),
    "missed": Statistic(_("Points missed")),
    "dominoes": Statistic(_("Hands gone out"), shown=True),
    "blocked": Statistic(_("Blocked hands"), shown=True),
    "settlement_won": Statistic(_("Settlement points won")),
    "settlement_lost": Statistic(_("Settlement points lost")),
    "claims_differ": Statistic(_("Claimed points that differ")),
}
SHOWN = [name for name, statistic in STATISTICS.items() if statistic.shown]
RANKED = [name for name, statistic in STATISTICS.items() if statistic.ranked]


def _ranks(scores: list[int]) -> list[int]:
    """Return each team's rank by score: 1 for the best, equal scores sharing a rank."""
    return [1 + sum(other > score for other in scores) for score in scores]


def seat_results(match: Match) -> list[SeatResult]:
    """Return the per-seat figures of a stored match from what its ingest stored: the points
    and the review of every play, each hand's end and settlement, the warnings (seats,
    hands loaded: ``Match.objects.with_log()``). Nothing is walked again."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    hands = match.hands
    counted = (
        "plays",
        "scoring_plays",
        "points",
        "missed",
        "dominoes",
        "claims_differ",
        "settlement_won",
        "settlement_lost",
    )
    figures = {seat.seat: dict.fromkeys(counted, 0) for seat in seats}
    team_of = {seat.seat: seat.team for seat in seats}
    for hand in hands:
        logged, facts = hand.log, hand.facts
        for move, fact in zip(logged.moves, facts, strict=True):
            if move.kind != "play":
                continue
            mine = figures[move.seat]
            mine["plays"] += 1
            mine["points"] += fact.points
            mine["scoring_plays"] += fact.points > 0
            mine["missed"] += missed_points(fact.points, fact.best)
        if hand.end == "domino":
            figures[logged.moves[-1].seat]["dominoes"] += 1
        for seat, mine in figures.items():
            amount = hand.settlement[team_of[seat]]
            if amount > 0:
                mine["settlement_won"] += amount
            else:
                mine["settlement_lost"] -= amount
    for warning in match.warnings:
        if warning["code"] == "points-mismatch" and warning.get("seat") is not None:
            figures[warning["seat"]]["claims_differ"] += 1
    blocked = sum(hand.end == "block" for hand in hands)
    ranks = _ranks(match.scores)
    # A league's leg between two clubs (a visiting player's seat) counts in no club.
    in_club = all(seat.player.club_id == match.club_id for seat in seats)
    played_at = match.played_at or match.created_at
    return [
        SeatResult(
            match=match,
            seat=seat.seat,
            team=seat.team,
            player_id=seat.player_id,
            club_id=match.club_id,
            preset=match.preset,
            played_at=played_at,
            complete=match.outcome == Match.Outcome.COMPLETE,
            won=match.winner == seat.team,
            in_club=in_club,
            rank=ranks[seat.team],
            score=match.scores[seat.team],
            scored_against=sum(match.scores) - match.scores[seat.team],
            sides=len(match.scores),
            hands=len(hands),
            blocked=blocked,
            **figures[seat.seat],
        )
        for seat in seats
    ]


def match_results_store(*, match_ids: list[int]) -> list[SeatResult]:
    """Add up stored matches into per-seat figures, stored anew; return them.

    A match the engine no longer finds valid gets no figures (it counts nowhere), nor does a
    match awaiting a club admin's approval or rejected by one (``Match.counted``).
    """
    matches = list(Match.objects.with_log().filter(pk__in=match_ids))
    results = [
        result
        for match in matches
        if not match.errors and match.counted
        for result in seat_results(match)
    ]
    rated = {result.match_id for result in results if result.complete}
    rated_in_club = {result.match_id for result in results if result.complete and result.in_club}
    with transaction.atomic():
        # What the matches counted before, taken from the running totals below.
        previous = list(SeatResult.objects.filter(match_id__in=match_ids))
        SeatResult.objects.filter(match_id__in=match_ids).delete()
        # A match no longer rated (rescored invalid or unfinished) loses its ratings rows
        # here: the recomputation finds the matches it rewrites through their seat results,
        # and this one has none left.
        # So does a match that no longer counts in its club (a leg whose visiting players
        # were moved to their own club), from its club's ratings.
        unrated = [match_id for match_id in match_ids if match_id not in rated]
        AllClubsRatingChange.objects.filter(match_id__in=unrated).delete()
        ClubRatingChange.objects.filter(match_id__in=match_ids).exclude(
            match_id__in=rated_in_club
        ).delete()
        # In the order of the key (match, seat), not the matches' newest first: the indexes
        # fill their pages instead of splitting them in halves. With COPY on PostgreSQL, as
        # ingest writes its rows: bulk_create spent more time preparing each value than
        # the statistics took to add up.
        columns = [field.attname for field in SeatResult._meta.concrete_fields]
        insert_rows(
            SeatResult,
            columns,
            (
                tuple(getattr(result, name) for name in columns)
                for result in sorted(results, key=lambda result: (result.match_id, result.seat))
            ),
        )
        totals_apply(added=results, removed=previous)
        head_to_head_apply(added=results, removed=previous)
        lists_changed()  # results decide the "result" filter of match lists
    return results


# --- adding up ------------------------------------------------------------------------------

PERIODS = {"30d": 30, "90d": 90, "365d": 365}


def results_filter(
    *, club_id: int | None = None, ruleset: str = "", period: str = "", now: datetime | None = None
) -> Q:
    """Return the filter of the seat results a table counts (a club's: the matches that
    count in it, no leg between two clubs)."""
    condition = Q()
    if club_id is not None:
        condition &= Q(club_id=club_id, in_club=True)
    if ruleset:
        condition &= Q(preset=ruleset)
    if period in PERIODS:
        condition &= Q(played_at__gte=(now or timezone.now()) - timedelta(days=PERIODS[period]))
    return condition


FIGURES = {
    "matches": Count("pk"),
    "wins": Count("pk", filter=Q(won=True)),
    **{name: Sum(name) for name in STATISTICS},
    "last_played": Max("played_at"),
}


def shown_lines(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the player page's lines of the statistics it shows: name, words, value."""
    return [
        {"name": name, "words": STATISTICS[name].words, "value": figures[name]} for name in SHOWN
    ]


def player_figures(*, player_id: int, condition: Q | None = None) -> dict[str, Any]:
    """Return one player's figures, added up over their seat results."""
    results = SeatResult.objects.filter(player_id=player_id)
    if condition is not None:
        results = results.filter(condition)
    row = results.aggregate(**FIGURES)
    for name in FIGURES:
        if row[name] is None and name != "last_played":
            row[name] = 0
    return with_rates(row)


def players_figures(*, condition: Q) -> dict[int, dict[str, Any]]:
    """Return the figures of every player with results under ``condition``, by player id."""
    rows = SeatResult.objects.filter(condition).values("player_id").annotate(**FIGURES)
    return {row["player_id"]: with_rates(row) for row in rows}


def recent_match_ids(*, player_id: int, count: int) -> list[int]:
    """Return the ids of a player's latest matches (the index on player and play time)."""
    return list(
        SeatResult.objects.filter(player_id=player_id)
        .order_by("-played_at")
        .values_list("match_id", flat=True)[:count]
    )
