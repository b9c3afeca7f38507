"""API v1 of team leagues: read by anyone; made by whoever is signed in (its organiser), who
invites clubs and makes teams and fixtures; a club's owner and admins accept or decline an
invitation; a team's captain submits a fixture's legs, the other side's captain confirms or
disputes them, and the organiser resolves a dispute. The organiser also changes and deletes
the league, its teams and its fixtures, and resets a fixture's legs. Writes need an account,
and a token with the manage scope. The league's own endpoints are here, its teams' in
``league_teams``, its fixtures' in ``league_fixtures``, their serializers in
``league_serializers``. Thin views: the rules are in ``competitions.league_services``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from clubs.models import Club
from competitions import (
    league_selectors,
    league_services,
)
from competitions.forms import (
    LeagueInput,
)
from competitions.league_averages import league_averages
from competitions.league_shown import LeagueSight, hidden_clubs
from competitions.models import League
from competitions.schedule import schedule_make

from .access import ReadOrManage
from .league_answers import (
    league_answer,
    league_found,
    valid_data,
)
from .league_serializers import (
    InviteSerializer,
    LeagueAverageSerializer,
    LeagueDetailSerializer,
    LeagueFixtureSerializer,
    LeagueSerializer,
    LeagueWriteSerializer,
    ScheduleSerializer,
)
from .views import ERROR


class Leagues(ReadOrManage):
    @extend_schema(responses={200: LeagueSerializer(many=True)})
    def get(self, request):
        """The team leagues, the latest first."""
        leagues = League.objects.select_related("organiser").prefetch_related("clubs__club")
        context = {"user": request.user, "hidden": hidden_clubs(request.user)}
        return Response(LeagueSerializer(leagues, many=True, context=context).data)

    @extend_schema(
        request=LeagueWriteSerializer,
        responses={201: LeagueDetailSerializer, 400: ERROR, 403: ERROR, 409: ERROR},
    )
    def post(self, request):
        """Make a team league: whoever makes it is its organiser."""
        given = valid_data(LeagueWriteSerializer, request)
        league = league_services.league_make(actor=request.user, **LeagueInput.arguments(given))
        return Response(league_answer(league, request.user), status=status.HTTP_201_CREATED)


class LeagueDetail(ReadOrManage):
    @extend_schema(responses={200: LeagueDetailSerializer, 404: ERROR})
    def get(self, request, pk: int):
        """A league: its clubs, teams with rosters and captains, table and fixtures."""
        return Response(league_answer(league_found(pk), request.user))

    @extend_schema(
        request=LeagueWriteSerializer,
        responses={200: LeagueDetailSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int):
        """Change a league's name, legs and points (its organiser); its legs stay as they
        are once a fixture has its legs submitted."""
        league = league_found(pk)
        given = valid_data(LeagueWriteSerializer, request)
        league = league_services.league_change(
            actor=request.user, league=league, **LeagueInput.arguments(given)
        )
        return Response(league_answer(league, request.user))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, pk: int):
        """Delete a league with its teams and fixtures (its organiser); the matches of its
        legs stay in the archive."""
        league_services.league_delete(actor=request.user, league=league_found(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueClubs(ReadOrManage):
    @extend_schema(
        request=InviteSerializer,
        responses={200: LeagueDetailSerializer, 403: ERROR, 404: ERROR},
    )
    def post(self, request, pk: int):
        """Invite a club to the league (its organiser); accepted at once when the organiser
        is one of the club's owner and admins."""
        league = league_found(pk)
        given = valid_data(InviteSerializer, request)
        club = get_object_or_404(Club.objects.visible_to(request.user), slug=given["club"])
        league_services.league_invite(actor=request.user, league=league, club=club)
        return Response(league_answer(league, request.user))


def _invitation_answered(request, pk: int, slug: str, answer) -> Response:
    """Answer a league's invitation of a club (``answer``: the service accepting or
    declining it) and return the league as the person sees it now."""
    league = league_found(pk)
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    answer(actor=request.user, league=league, club=club)
    return Response(league_answer(league, request.user))


class LeagueAccept(ReadOrManage):
    @extend_schema(request=None, responses={200: LeagueDetailSerializer, 403: ERROR, 404: ERROR})
    def post(self, request, pk: int, slug: str):
        """Accept a league's invitation of a club (the club's owner and admins)."""
        return _invitation_answered(request, pk, slug, league_services.league_accept)


class LeagueDecline(ReadOrManage):
    @extend_schema(
        request=None, responses={200: LeagueDetailSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, pk: int, slug: str):
        """Decline a league's invitation of a club (the club's owner and admins): the club is
        no longer invited."""
        return _invitation_answered(request, pk, slug, league_services.league_decline)


class LeagueSchedule(ReadOrManage):
    @extend_schema(
        request=ScheduleSerializer,
        responses={
            201: LeagueFixtureSerializer(many=True),
            400: ERROR,
            403: ERROR,
            404: ERROR,
            409: ERROR,
        },
    )
    def post(self, request, pk: int):
        """Make every fixture of a league with none at once (its organiser): a double round
        robin, a round a week on the weekday of first_day."""
        league = league_found(pk)
        given = valid_data(ScheduleSerializer, request)
        schedule_make(actor=request.user, league=league, first_day=given["first_day"])
        # A schedule is made for a league with no fixture: its fixtures are those just made.
        sight = LeagueSight(league, request.user)
        fixtures = league_selectors.league_fixtures(league)
        return Response(
            LeagueFixtureSerializer(sight.fixtures(fixtures), many=True).data,
            status=status.HTTP_201_CREATED,
        )


class LeagueAverages(ReadOrManage):
    @extend_schema(responses={200: LeagueAverageSerializer(many=True), 404: ERROR})
    def get(self, request, pk: int):
        """Each rostered player's league averages: legs played and won, points per hand (a
        private club's players for those who may see its rosters only)."""
        league = league_found(pk)
        rows = LeagueSight(league, request.user).averages(league_averages(league))
        return Response(LeagueAverageSerializer(rows, many=True).data)
