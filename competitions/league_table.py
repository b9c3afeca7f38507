"""A team league's table and its CSV (issue 28): a row a team, the fixtures that count only
(``league_selectors.fixture_counts``), scored by the league's points (``league_points``).

The table counts confirmed fixtures only: played, won, drawn, lost (a fixture is won by the
side that won more legs; a drawn leg counts for neither side), legs for and against, and
points. Ties are broken by points, then leg difference, then legs for, then the team's
name; a withdrawn team is at the foot."""

from __future__ import annotations

from typing import Any

from replays.csv_tables import csv_text

from .league_points import fixture_points
from .league_selectors import fixture_counts, fixture_score, league_fixtures
from .models import Fixture, League


def table_order(row: dict[str, Any]) -> tuple:
    """The table's order: a withdrawn team at the foot, then points, leg difference, legs
    for, name."""
    return (
        row["withdrawn"],
        -row["points"],
        -(row["legs_for"] - row["legs_against"]),
        -row["legs_for"],
        row["name"].casefold(),
        row["team_id"],
    )


def league_table(league: League, fixtures: list[Fixture] | None = None) -> list[dict[str, Any]]:
    """Return the league's table: a row a team, the fixtures that count only
    (``fixture_counts``), scored by the league's points (``league_points``), in the order of
    ``table_order``."""
    fixtures = league_fixtures(league) if fixtures is None else fixtures
    rows = {
        team.pk: {
            "team_id": team.pk,
            "club_id": team.club_id,
            "name": team.name,
            "club": team.club.name,
            "withdrawn": team.withdrawn_at is not None,
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "conceded": 0,
            "legs_for": 0,
            "legs_against": 0,
            "points": 0,
        }
        for team in league.teams.select_related("club")
    }
    withdrawn = {pk for pk, row in rows.items() if row["withdrawn"]}
    for fixture in fixtures:
        if not fixture_counts(fixture, withdrawn, league):
            continue
        home_legs, away_legs = fixture_score(fixture)
        for team_id, mine, theirs in (
            (fixture.home_id, home_legs, away_legs),
            (fixture.away_id, away_legs, home_legs),
        ):
            row = rows[team_id]
            conceded = fixture.conceded_by_id == team_id
            row["played"] += 1
            row["legs_for"] += mine
            row["legs_against"] += theirs
            row["conceded"] += conceded
            row["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
            row["points"] += fixture_points(league, mine, theirs, conceded=conceded)
    table = sorted(rows.values(), key=table_order)
    for position, row in enumerate(table, start=1):
        row["position"] = position
        row["difference"] = row["legs_for"] - row["legs_against"]
    return table


TABLE_COLUMNS = (
    "position",
    "team",
    "club",
    "played",
    "won",
    "drawn",
    "lost",
    "legs_for",
    "legs_against",
    "difference",
    "points",
    "conceded",
    "withdrawn",
)


def table_csv(table: list[dict[str, Any]]) -> str:
    """Return the league's table as CSV, a header row first."""
    return csv_text(
        TABLE_COLUMNS,
        (
            [
                row["position"],
                row["name"],
                row["club"],
                *(
                    int(row[key]) if isinstance(row[key], bool) else row[key]
                    for key in TABLE_COLUMNS[3:]
                ),
            ]
            for row in table
        ),
    )
