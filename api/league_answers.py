"""API v1 of team leagues: what the league, team and fixture views share: a league found
(404 otherwise), the answer for a league, a team and a fixture as one reader may see them
(``league_shown``), and a request's valid input."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from competitions import (
    league_permissions,
    league_selectors,
    league_table,
)
from competitions.league_shown import LeagueSight
from competitions.models import Fixture, League, Team

from .league_serializers import (
    FixtureWriteSerializer,
    LeagueDetailSerializer,
    LeagueFixtureSerializer,
    TeamSerializer,
)


def league_found(pk: int) -> League:
    return get_object_or_404(League.objects.select_related("organiser"), pk=pk)


def league_answer(league: League, user) -> dict:
    sight = LeagueSight(league, user)
    fixtures = league_selectors.league_fixtures(league)
    return LeagueDetailSerializer(
        {
            "league": league,
            "teams": sight.teams(),
            "table": sight.table(league_table.league_table(league, fixtures)),
            "fixtures": sight.fixtures(fixtures),
        },
        context={"user": user, "hidden": sight.hidden},
    ).data


def team_answer(team: Team, user) -> dict:
    return TeamSerializer(LeagueSight(team.league, user).teams([team])[0]).data


def fixture_answer(fixture: Fixture, user) -> dict:
    legs = list(league_selectors.legs_in_order().filter(fixture=fixture))
    shown = LeagueSight(fixture.league, user).fixture(
        fixture, legs, party=league_permissions.is_party(fixture, user)
    )
    return LeagueFixtureSerializer(shown).data


def valid_data(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def fixture_given(league: League, request) -> dict:
    """Return what a fixture is made or changed with: its teams (404 unless the league's)
    and its day."""
    given = valid_data(FixtureWriteSerializer, request)
    teams = league.teams.all()
    home = get_object_or_404(teams, pk=given["home"])
    return {"home": home, "away": get_object_or_404(teams, pk=given["away"]), "day": given["day"]}
