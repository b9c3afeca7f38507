"""API v1 of a team league's fixtures: made, changed, reset and deleted by the organiser;
their legs submitted, confirmed, disputed and resolved (``competitions.league_results``);
conceded, walked over (``league_forfeits``) and postponed (``postponements``). Thin views."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from competitions import (
    league_forfeits,
    league_results,
    league_services,
)
from competitions.forms import (
    PostponeForm,
    WalkoverForm,
)
from competitions.models import Fixture
from competitions.postponements import (
    postponement_accept,
    postponement_offer,
    postponement_withdraw,
)

from .access import ReadOrManage
from .league_answers import (
    fixture_answer,
    fixture_given,
    league_found,
    valid_data,
)
from .league_serializers import (
    AcceptDaySerializer,
    DisputeSerializer,
    FixtureWriteSerializer,
    LeagueFixtureSerializer,
    PostponeSerializer,
    ResolveSerializer,
    SubmitSerializer,
    WalkoverSerializer,
)
from .views import ERROR


class LeagueFixtures(ReadOrManage):
    @extend_schema(
        request=FixtureWriteSerializer,
        responses={201: LeagueFixtureSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Make a fixture between two of the league's teams on a day (its organiser)."""
        league = league_found(pk)
        fixture = league_services.fixture_make(
            actor=request.user, league=league, **fixture_given(league, request)
        )
        return Response(fixture_answer(fixture, request.user), status=status.HTTP_201_CREATED)


class FixtureView(ReadOrManage):
    def fixture(self) -> Fixture:
        return get_object_or_404(
            Fixture.objects.select_related("league__organiser", "home", "away"),
            league_id=self.kwargs["pk"],
            pk=self.kwargs["fixture"],
        )


class LeagueFixture(FixtureView):
    @extend_schema(responses={200: LeagueFixtureSerializer, 404: ERROR})
    def get(self, request, pk: int, fixture: int):
        """A fixture: its teams, day, status, legs and score in legs."""
        return Response(fixture_answer(self.fixture(), request.user))

    @extend_schema(
        request=FixtureWriteSerializer,
        responses={200: LeagueFixtureSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int, fixture: int):
        """Change a fixture's home and away teams and day (the league's organiser), while it
        is to play."""
        found = self.fixture()
        given = fixture_given(found.league, request)
        done = league_services.fixture_change(actor=request.user, fixture=found, **given)
        return Response(fixture_answer(done, request.user))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR, 409: ERROR})
    def delete(self, request, pk: int, fixture: int):
        """Delete a fixture (the league's organiser); refused once its result is
        confirmed (reset it first)."""
        league_services.fixture_delete(actor=request.user, fixture=self.fixture())
        return Response(status=status.HTTP_204_NO_CONTENT)


def _fixture_post(doc: str, act, input_class=None):
    """Return the ``post`` of an action on a fixture, said by ``doc``: what it takes
    (``input_class``; None: nothing), then ``act(user, fixture, given)``, its service; 200
    with the fixture as it is then."""
    responses = {200: LeagueFixtureSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    if input_class is not None:
        responses = {200: LeagueFixtureSerializer, 400: ERROR} | responses

    def post(self, request, pk: int, fixture: int):
        given = {} if input_class is None else valid_data(input_class, request)
        done = act(request.user, self.fixture(), given)
        return Response(fixture_answer(done, request.user))

    post.__doc__ = doc
    return extend_schema(request=input_class, responses=responses)(post)


class FixtureReset(FixtureView):
    post = _fixture_post(
        """Reset a fixture with legs, whatever its status (the league's organiser): its legs
        are forgotten and it is to be played again.""",
        lambda user, fixture, given: league_services.fixture_reset(actor=user, fixture=fixture),
    )


class FixtureSubmit(FixtureView):
    post = _fixture_post(
        """Submit a fixture's legs (a captain of either team): a stored match a leg.""",
        lambda user, fixture, given: league_results.fixture_submit(
            actor=user, fixture=fixture, match_ids=given["matches"]
        ),
        SubmitSerializer,
    )


class FixtureConfirm(FixtureView):
    post = _fixture_post(
        """Confirm the submitted legs (a captain of the other team): the fixture counts.""",
        lambda user, fixture, given: league_results.fixture_confirm(actor=user, fixture=fixture),
    )


class FixtureDispute(FixtureView):
    post = _fixture_post(
        """Dispute the submitted legs, saying why (a captain of the other team): the fixture
        counts for nothing until the organiser resolves it.""",
        lambda user, fixture, given: league_results.fixture_dispute(
            actor=user, fixture=fixture, reason=given["reason"]
        ),
        DisputeSerializer,
    )


class FixtureResolve(FixtureView):
    post = _fixture_post(
        """Resolve a disputed fixture (the organiser): confirm it as submitted, or reset it.""",
        lambda user, fixture, given: league_results.fixture_resolve(
            actor=user, fixture=fixture, confirm=given["confirm"]
        ),
        ResolveSerializer,
    )


class FixtureConcede(FixtureView):
    post = _fixture_post(
        """Concede a fixture still to play for one's own team (a captain of either team):
        every leg is the other side's, and the conceding team gets no point.""",
        lambda user, fixture, given: league_forfeits.fixture_concede(actor=user, fixture=fixture),
    )


class FixtureWalkover(FixtureView):
    post = _fixture_post(
        """Record a walkover (the organiser): the side that did not turn up concedes every
        leg.""",
        lambda user, fixture, given: league_forfeits.fixture_walkover(
            actor=user, fixture=fixture, **WalkoverForm.arguments(given, fixture)
        ),
        WalkoverSerializer,
    )


class FixturePostpone(FixtureView):
    post = _fixture_post(
        """Offer one to three other days for a fixture still to play (a captain of the home
        team): day_1, and day_2 and day_3 if you like.""",
        lambda user, fixture, given: postponement_offer(
            actor=user, fixture=fixture, **PostponeForm.arguments(given)
        ),
        PostponeSerializer,
    )


class FixturePostponeAccept(FixtureView):
    post = _fixture_post(
        """Accept one of the days offered (a captain of the away team, or the organiser): it
        becomes the fixture's day.""",
        lambda user, fixture, given: postponement_accept(
            actor=user, fixture=fixture, day=given["day"]
        ),
        AcceptDaySerializer,
    )


class FixturePostponeWithdraw(FixtureView):
    post = _fixture_post(
        """Withdraw the days offered (a captain of the home team, or the organiser).""",
        lambda user, fixture, given: postponement_withdraw(actor=user, fixture=fixture),
    )
