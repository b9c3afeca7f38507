"""API v1 of team leagues: the serializers, what the league, team and fixture endpoints
answer (``League*``, ``Team*``, ``Leg*``) and what their writes take (``*Write*``, the
forms' twins, and the other inputs)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from competitions import (
    league_services,
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
from competitions.league_points import POINT_FIELDS, scheme_choices, scheme_of
from competitions.league_shown import LeagueSight
from competitions.models import Fixture, League

from .inputs import FormInput


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
