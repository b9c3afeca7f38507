"""Each player's league averages (issue 36): legs played and won, and points per hand, from
the legs of the fixtures the table counts.

A player's legs are those of the counted fixtures (``league_selectors.fixture_counts``: confirmed,
not expunged) whose stored match seats them; a leg is won when their team's side won it.
Points per hand are their own plays' points over the hands they played in those matches,
as the player page counts them (``SeatResult.points`` / ``hands``: what ingest stored, no
second walk); a seat is a roster's player itself, or their handle in a leg stored without
its name. A conceded fixture has no matches, so it gives nobody a leg. The rows are in
order of legs won, then the share won, then points per hand, then the name.
"""

from __future__ import annotations

from typing import Any

from replays.models import SeatResult

from .league_selectors import fixture_counts, league_fixtures
from .models import Fixture, League, Leg, Team


def _rows(teams: list[Team]) -> dict[int, dict[str, Any]]:
    return {
        player.pk: {
            "player_id": player.pk,
            "name": player.handle,
            "team_id": team.pk,
            "team": team.name,
            "club_id": team.club_id,
            "legs": 0,
            "legs_won": 0,
            "hands": 0,
            "points": 0,
        }
        for team in teams
        for player in team.roster.all()
    }


def _counted_legs(league: League, fixtures: list[Fixture], withdrawn: set[int]) -> dict:
    """The legs of the counted fixtures that have a match: match id -> (leg, fixture)."""
    return {
        leg.match_id: (leg, fixture)
        for fixture in fixtures
        if fixture_counts(fixture, withdrawn, league)
        for leg in fixture.legs.all()
        if leg.match_id is not None
    }


def _order(row: dict[str, Any]) -> tuple:
    return (
        -row["legs_won"],
        -(row["win_share"] or 0),
        -(row["points_per_hand"] or 0),
        row["name"].casefold(),
        row["player_id"],
    )


def league_averages(league: League, fixtures: list[Fixture] | None = None) -> list[dict[str, Any]]:
    """Return a row for each rostered player of the league (two queries beyond the
    fixtures'): ``player_id``, ``name``, ``team_id``, ``team``, ``legs``, ``legs_won``,
    ``win_share`` (None before a leg), ``hands``, ``points``, ``points_per_hand``."""
    fixtures = league_fixtures(league) if fixtures is None else fixtures
    teams = list(league.teams.prefetch_related("roster"))
    withdrawn = {team.pk for team in teams if team.withdrawn_at is not None}
    team_of = {player.pk: team for team in teams for player in team.roster.all()}
    rows = _rows(teams)
    legs = _counted_legs(league, fixtures, withdrawn)
    # A leg stored without its name seats the visiting players as the storing club's
    # handles: a roster's player is then known by their handle, in any case (as
    # league_selectors.py reads a leg's names).
    by_handle = {
        (team.pk, player.handle.casefold()): player.pk
        for team in teams
        for player in team.roster.all()
    }
    seats = SeatResult.objects.filter(match_id__in=legs).values_list(
        "match_id", "player_id", "player__handle", "points", "hands"
    )
    for match_id, seated, handle, points, hands in seats:
        leg, fixture = legs[match_id]
        sides = {fixture.home_id: Leg.Side.HOME, fixture.away_id: Leg.Side.AWAY}
        player_id = seated if seated in rows else None
        for team_id in sides:
            player_id = player_id or by_handle.get((team_id, handle.casefold()))
        team = team_of.get(player_id)
        if team is None or team.pk not in sides:
            continue
        row = rows[player_id]
        row["legs"] += 1
        row["legs_won"] += leg.winner == sides[team.pk]
        row["hands"] += hands
        row["points"] += points
    for row in rows.values():
        row["win_share"] = row["legs_won"] / row["legs"] if row["legs"] else None
        row["points_per_hand"] = row["points"] / row["hands"] if row["hands"] else None
    return sorted(rows.values(), key=_order)
