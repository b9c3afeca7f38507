"""API v1 of team leagues: read by anyone; made by whoever is signed in (its organiser), who
invites clubs and makes teams and fixtures; a club's owner and admins accept or decline an
invitation; a team's captain submits a fixture's legs, the other side's captain confirms or
disputes them, and the organiser resolves a dispute. The organiser also changes and deletes
the league, its teams and its fixtures, and resets a fixture's legs. Writes need an account,
and a token with the manage scope. Thin views: the rules are in ``competitions.leagues``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from clubs.models import Club
from competitions import (
    league_forfeits,
    league_permissions,
    league_results,
    league_selectors,
    league_services,
    league_table,
)
from competitions.forms import (
    AcceptDayForm,
    DisputeForm,
    FixtureForm,
    InviteForm,
    LeagueInput,
    PostponeForm,
    ScheduleForm,
    TeamForm,
    WalkoverForm,
)
from competitions.league_averages import league_averages
from competitions.league_points import POINT_FIELDS, scheme_choices, scheme_of
from competitions.league_shown import LeagueSight, hidden_clubs
from competitions.models import Fixture, League, Team
from competitions.postponements import (
    postponement_accept,
    postponement_offer,
    postponement_withdraw,
)
from competitions.schedule import schedule_make

from .access import ReadOrManage
from .inputs import FormInput
from .views import ERROR


class LeagueClubSerializer(serializers.Serializer):
    club = serializers.CharField(
        source="slug", allow_null=True, help_text=_("the club's slug; null: a private club")
    )
    name = serializers.CharField(help_text=_("the club's name, or “a private club”"))
    accepted = serializers.BooleanField(help_text=_("whether the club accepted"))
    hidden = serializers.BooleanField(
        help_text=_("a private club the reader may not see: no slug, name, roster or captains")
    )


class LeagueSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username")
    legs = serializers.ListField(
        child=serializers.ChoiceField(choices=League.LegKind.choices),
        help_text=_("the kinds of a fixture's legs, in order"),
    )
    clubs = serializers.SerializerMethodField()
    scheme = serializers.SerializerMethodField(
        help_text=_("the preset whose points the league has, else custom")
    )

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "organiser",
            "legs",
            "scheme",
            *POINT_FIELDS,
            "withdrawn_results",
            "clubs",
        ]

    @extend_schema_field(serializers.ChoiceField(choices=scheme_choices()))
    def get_scheme(self, league) -> str:
        return scheme_of(league)

    @extend_schema_field(LeagueClubSerializer(many=True))
    def get_clubs(self, league) -> list:
        sight = LeagueSight(league, self.context["user"], self.context.get("hidden"))
        return LeagueClubSerializer(sight.places(), many=True).data


class RosterPlayerSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="handle")


class CaptainSerializer(serializers.Serializer):
    handle = serializers.CharField(
        allow_null=True, help_text=_("the handle claimed in the club; null: none claimed")
    )
    player_id = serializers.IntegerField(allow_null=True)
    user_id = serializers.IntegerField(
        allow_null=True, help_text=_("given to the league's organiser and staff only")
    )


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    club = serializers.CharField(
        source="club.slug", allow_null=True, help_text=_("the club's slug; null: a private club")
    )
    hidden = serializers.BooleanField(
        help_text=_("a private club's team the reader may not see: no roster, no captains")
    )
    roster = RosterPlayerSerializer(many=True)
    captains = CaptainSerializer(many=True)
    withdrawn = serializers.BooleanField(help_text=_("withdrawn from the league"))


class LegSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=League.LegKind.choices)
    match_id = serializers.IntegerField(
        allow_null=True, help_text=_("null: the match is deleted, or a hidden club's")
    )
    winner = serializers.ChoiceField(choices=["home", "away", "draw"])
    home_score = serializers.IntegerField()
    away_score = serializers.IntegerField()
    home_names = serializers.CharField()
    away_names = serializers.CharField()


class LeagueFixtureSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    day = serializers.DateField()
    home = serializers.IntegerField(source="home_id", help_text=_("the home team's id"))
    away = serializers.IntegerField(source="away_id", help_text=_("the away team's id"))
    home_name = serializers.CharField()
    away_name = serializers.CharField()
    status = serializers.ChoiceField(choices=Fixture.Status.choices)
    score = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=_("legs won by the home side, then the away side; null: not submitted"),
    )
    submitted_for = serializers.IntegerField(
        source="submitted_for_id", allow_null=True, help_text=_("the submitting side's team id")
    )
    dispute_reason = serializers.CharField(allow_blank=True)
    offered_days = serializers.ListField(
        child=serializers.DateField(),
        help_text=_("a postponement: the days the home side offers, waiting for an answer"),
    )
    conceded_by = serializers.CharField(
        allow_blank=True, help_text=_("a conceded fixture: the name of the side that conceded")
    )
    walkover = serializers.BooleanField(
        help_text=_("a conceded fixture the organiser recorded as a walkover")
    )
    legs = LegSerializer(many=True)


class LeagueTableRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(help_text=_("the club's name"))
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    legs_for = serializers.IntegerField()
    legs_against = serializers.IntegerField()
    difference = serializers.IntegerField()
    points = serializers.IntegerField()
    conceded = serializers.IntegerField(help_text=_("fixtures this team conceded"))
    withdrawn = serializers.BooleanField()


class LeagueAverageSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    legs = serializers.IntegerField(help_text=_("legs played in the fixtures the table counts"))
    legs_won = serializers.IntegerField()
    win_share = serializers.FloatField(allow_null=True)
    hands = serializers.IntegerField()
    points = serializers.IntegerField(help_text=_("points of the player's own plays"))
    points_per_hand = serializers.FloatField(allow_null=True)


class LeagueDetailSerializer(serializers.Serializer):
    league = LeagueSerializer()
    teams = TeamSerializer(many=True)
    table = LeagueTableRowSerializer(
        many=True, help_text=_("confirmed fixtures only, in the documented order")
    )
    fixtures = LeagueFixtureSerializer(many=True)


class LeagueWriteSerializer(FormInput):
    form_class = LeagueInput


class InviteSerializer(FormInput):
    form_class = InviteForm
    help_texts = {"club": _("the club's slug")}


class TeamChangeSerializer(FormInput):
    form_class = TeamForm
    help_texts = {"roster": _("the players' ids"), "captains": _("the captains' user ids")}


class TeamWriteSerializer(TeamChangeSerializer):
    # A new team: its club, and what a change gives.
    club = serializers.CharField(max_length=200, help_text=_("the club's slug"))


class FixtureWriteSerializer(FormInput):
    form_class = FixtureForm
    help_texts = {"home": _("the home team's id"), "away": _("the away team's id")}


class SubmitSerializer(serializers.Serializer):
    matches = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=1,
        max_length=league_services.MAX_LEGS,
        help_text=_("a match id a leg, in the order of the league's legs"),
    )


class DisputeSerializer(FormInput):
    form_class = DisputeForm


class PostponeSerializer(FormInput):
    form_class = PostponeForm


class AcceptDaySerializer(FormInput):
    form_class = AcceptDayForm


class ScheduleSerializer(FormInput):
    form_class = ScheduleForm


class WalkoverSerializer(FormInput):
    form_class = WalkoverForm


class ResolveSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(
        help_text=_("true: count it as submitted; false: reset it to be played")
    )


def _league(pk: int) -> League:
    return get_object_or_404(League.objects.select_related("organiser"), pk=pk)


def _detail(league: League, user) -> dict:
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


def _team(team: Team, user) -> dict:
    return TeamSerializer(LeagueSight(team.league, user).teams([team])[0]).data


def _fixture(fixture: Fixture, user) -> dict:
    legs = list(league_selectors.legs_in_order().filter(fixture=fixture))
    shown = LeagueSight(fixture.league, user).fixture(
        fixture, legs, party=league_permissions.is_party(fixture, user)
    )
    return LeagueFixtureSerializer(shown).data


def _given(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _fixture_given(league: League, request) -> dict:
    """Return what a fixture is made or changed with: its teams (404 unless the league's)
    and its day."""
    given = _given(FixtureWriteSerializer, request)
    teams = league.teams.all()
    home = get_object_or_404(teams, pk=given["home"])
    return {"home": home, "away": get_object_or_404(teams, pk=given["away"]), "day": given["day"]}


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
        given = _given(LeagueWriteSerializer, request)
        league = league_services.league_make(actor=request.user, **LeagueInput.arguments(given))
        return Response(_detail(league, request.user), status=status.HTTP_201_CREATED)


class LeagueDetail(ReadOrManage):
    @extend_schema(responses={200: LeagueDetailSerializer, 404: ERROR})
    def get(self, request, pk: int):
        """A league: its clubs, teams with rosters and captains, table and fixtures."""
        return Response(_detail(_league(pk), request.user))

    @extend_schema(
        request=LeagueWriteSerializer,
        responses={200: LeagueDetailSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int):
        """Change a league's name, legs and points (its organiser); its legs stay as they
        are once a fixture has its legs submitted."""
        league = _league(pk)
        given = _given(LeagueWriteSerializer, request)
        league = league_services.league_change(
            actor=request.user, league=league, **LeagueInput.arguments(given)
        )
        return Response(_detail(league, request.user))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, pk: int):
        """Delete a league with its teams and fixtures (its organiser); the matches of its
        legs stay in the archive."""
        league_services.league_delete(actor=request.user, league=_league(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueClubs(ReadOrManage):
    @extend_schema(
        request=InviteSerializer,
        responses={200: LeagueDetailSerializer, 403: ERROR, 404: ERROR},
    )
    def post(self, request, pk: int):
        """Invite a club to the league (its organiser); accepted at once when the organiser
        is one of the club's owner and admins."""
        league = _league(pk)
        given = _given(InviteSerializer, request)
        club = get_object_or_404(Club.objects.visible_to(request.user), slug=given["club"])
        league_services.league_invite(actor=request.user, league=league, club=club)
        return Response(_detail(league, request.user))


def _invitation_answered(request, pk: int, slug: str, answer) -> Response:
    """Answer a league's invitation of a club (``answer``: the service accepting or
    declining it) and return the league as the person sees it now."""
    league = _league(pk)
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    answer(actor=request.user, league=league, club=club)
    return Response(_detail(league, request.user))


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


class LeagueTeams(ReadOrManage):
    @extend_schema(
        request=TeamWriteSerializer,
        responses={201: TeamSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Make a team of a club that accepted the league (its organiser)."""
        league = _league(pk)
        given = _given(TeamWriteSerializer, request)
        club = get_object_or_404(Club.objects.all(), slug=given["club"])
        team = league_services.team_make(
            actor=request.user, league=league, club=club, **TeamForm.arguments(given)
        )
        return Response(_team(team, request.user), status=status.HTTP_201_CREATED)


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
        return Response(_team(self.team(), request.user))

    @extend_schema(
        request=TeamChangeSerializer,
        responses={200: TeamSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int, team: int):
        """Change a team's name, roster and captains (the league's organiser); its club
        stays."""
        found = self.team()
        given = _given(TeamChangeSerializer, request)
        done = league_services.team_change(
            actor=request.user, team=found, **TeamForm.arguments(given)
        )
        return Response(_team(done, request.user))

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR, 409: ERROR})
    def delete(self, request, pk: int, team: int):
        """Delete a team and its fixtures (the league's organiser); refused while one of
        its fixtures has a confirmed result."""
        league_services.team_delete(actor=request.user, team=self.team())
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueFixtures(ReadOrManage):
    @extend_schema(
        request=FixtureWriteSerializer,
        responses={201: LeagueFixtureSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Make a fixture between two of the league's teams on a day (its organiser)."""
        league = _league(pk)
        fixture = league_services.fixture_make(
            actor=request.user, league=league, **_fixture_given(league, request)
        )
        return Response(_fixture(fixture, request.user), status=status.HTTP_201_CREATED)


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
        return Response(_fixture(self.fixture(), request.user))

    @extend_schema(
        request=FixtureWriteSerializer,
        responses={200: LeagueFixtureSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def put(self, request, pk: int, fixture: int):
        """Change a fixture's home and away teams and day (the league's organiser), while it
        is to play."""
        found = self.fixture()
        given = _fixture_given(found.league, request)
        done = league_services.fixture_change(actor=request.user, fixture=found, **given)
        return Response(_fixture(done, request.user))

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
        given = {} if input_class is None else _given(input_class, request)
        done = act(request.user, self.fixture(), given)
        return Response(_fixture(done, request.user))

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


def _team_post(doc: str, act):
    """Return the ``post`` of an action on a team (``act(user, team)``, its service): 200
    with the team as it is then."""

    def post(self, request, pk: int, team: int):
        return Response(_team(act(request.user, self.team()), request.user))

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
        league = _league(pk)
        given = _given(ScheduleSerializer, request)
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
        league = _league(pk)
        rows = LeagueSight(league, request.user).averages(league_averages(league))
        return Response(LeagueAverageSerializer(rows, many=True).data)


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
