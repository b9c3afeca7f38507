"""API v1 of a team league's teams: made, changed and deleted by the organiser, withdrawn
and reinstated (``league_forfeits``). Thin views: the rules are in
``competitions.league_services``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from clubs.models import Club
from competitions import (
    league_forfeits,
    league_services,
)
from competitions.forms import (
    TeamForm,
)
from competitions.models import Team

from .access import ReadOrManage
from .league_answers import (
    league_found,
    team_answer,
    valid_data,
)
from .league_serializers import (
    TeamChangeSerializer,
    TeamSerializer,
    TeamWriteSerializer,
)
from .views import ERROR


class LeagueTeams(ReadOrManage):
    @extend_schema(
        request=TeamWriteSerializer,
        responses={201: TeamSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Make a team of a club that accepted the league (its organiser)."""
        league = league_found(pk)
        given = valid_data(TeamWriteSerializer, request)
        club = get_object_or_404(Club.objects.all(), slug=given["club"])
        team = league_services.team_make(
            actor=request.user, league=league, club=club, **TeamForm.arguments(given)
        )
        return Response(team_answer(team, request.user), status=status.HTTP_201_CREATED)


class LeagueTeam(ReadOrManage):
    def team(self) -> Team:
        return get_object_or_404(
            Team.objects.select_related("league__organiser", "club"),
            league_id=self.kwargs["pk"],
            pk=self.kwargs["team"],
        )

    @extend_schema(responses={200: TeamSerializer, 404: ERROR})
    def get(self, request, pk: int, team: int):
        """A team of the league: its club, roster and captains."""
        return Response(team_answer(self.team(), request.user))

    @extend_schema(
        request=TeamChangeSerializer,
        responses={200: TeamSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int, team: int):
        """Change a team's name, roster and captains (the league's organiser); its club
        stays."""
        found = self.team()
        given = valid_data(TeamChangeSerializer, request)
        done = league_services.team_change(
            actor=request.user, team=found, **TeamForm.arguments(given)
        )
        return Response(team_answer(done, request.user))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR, 409: ERROR})
    def delete(self, request, pk: int, team: int):
        """Delete a team and its fixtures (the league's organiser); refused while one of
        its fixtures has a confirmed result."""
        league_services.team_delete(actor=request.user, team=self.team())
        return Response(status=status.HTTP_204_NO_CONTENT)


def _team_post(doc: str, act):
    """Return the ``post`` of an action on a team (``act(user, team)``, its service): 200
    with the team as it is then."""

    def post(self, request, pk: int, team: int):
        return Response(team_answer(act(request.user, self.team()), request.user))

    post.__doc__ = doc
    return extend_schema(
        request=None, responses={200: TeamSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )(post)


class TeamWithdraw(LeagueTeam):
    http_method_names = ["post", "options"]
    post = _team_post(
        """Withdraw a team from the league (its organiser): it plays no more, and its
        results count as the league's withdrawn_results says.""",
        lambda user, team: league_forfeits.team_withdraw(actor=user, team=team),
    )


class TeamReinstate(LeagueTeam):
    http_method_names = ["post", "options"]
    post = _team_post(
        """Reinstate a withdrawn team (the league's organiser).""",
        lambda user, team: league_forfeits.team_reinstate(actor=user, team=team),
    )
