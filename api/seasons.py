"""API v1 of a club's seasons: the list and each season's standings, read by whoever may see
the club (a private club is 404 to outsiders); opened and closed by its owner and admins
(signed in, or a token with the manage scope), with the page's input (``SeasonForm``) and
the same refusals (``competitions.seasons``)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from clubs.models import Club
from competitions.forms import SeasonForm
from competitions.models import Season
from competitions.seasons import season_close, season_open, season_table

from .access import ReadOrManage
from .inputs import FormInput
from .views import ERROR


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = [
            "id",
            "name",
            "first_day",
            "last_day",
            "presets",
            "win_points",
            "loss_points",
            "place_points",
            "created_at",
            "closed_at",
        ]


class PlayerRowSerializer(serializers.Serializer):
    # What every table of players starts a row with: a season's, a round-robin's (no
    # docstring: the schema would give it as each row's description).

    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class StandingSerializer(PlayerRowSerializer):
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    difference = serializers.IntegerField()
    league_points = serializers.IntegerField()
    last = serializers.ListField(child=serializers.ChoiceField(choices=["W", "L"]))
    rating_start = serializers.IntegerField(
        help_text="the club rating shown before the season's first day (a newcomer: 1500)"
    )
    rating_end = serializers.IntegerField(
        help_text="the club rating shown after the season's last day (or now)"
    )
    ordinal_start = serializers.FloatField(help_text="openskill's ordinal at the start")
    ordinal_end = serializers.FloatField(help_text="openskill's ordinal at the end")


class SeasonStandingsSerializer(serializers.Serializer):
    season = SeasonSerializer()
    closed = serializers.BooleanField()
    changed_since_closed = serializers.BooleanField()
    rows = StandingSerializer(many=True)


def _club(request, slug: str) -> Club:
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


class SeasonWriteSerializer(FormInput):
    form_class = SeasonForm
    help_texts = {
        "presets": _("the rulesets it counts; none: all"),
        "place_points": _("three or four players alone: points by place, such as 3/2/1/0"),
    }


def _standings(season: Season) -> dict:
    return SeasonStandingsSerializer({"season": season, **season_table(season)}).data


class ClubSeasons(ReadOrManage):
    @extend_schema(responses={200: SeasonSerializer(many=True), 404: ERROR})
    def get(self, request, slug: str):
        """A club's seasons, the newest first."""
        club = _club(request, slug)
        return Response(SeasonSerializer(club.seasons.all(), many=True).data)

    @extend_schema(
        request=SeasonWriteSerializer,
        responses={201: SeasonStandingsSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, slug: str):
        """Open a season of the club (owner and admins): its days, the rulesets it counts
        and how a match scores in its table; ``409`` ``season-invalid`` says what the rules
        refuse."""
        club = _club(request, slug)
        data = SeasonWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_open(
            actor=request.user, club=club, **SeasonForm.arguments(data.validated_data)
        )
        return Response(_standings(season), status=status.HTTP_201_CREATED)


class ClubSeason(ReadOrManage):
    @extend_schema(responses={200: SeasonStandingsSerializer, 404: ERROR})
    def get(self, request, slug: str, pk: int):
        """A season's standings: the table kept when it was closed, or as counted now."""
        club = _club(request, slug)
        season = get_object_or_404(Season.objects.select_related("club"), club=club, pk=pk)
        return Response(_standings(season))


class ClubSeasonClose(ReadOrManage):
    @extend_schema(
        request=None, responses={200: SeasonStandingsSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, slug: str, pk: int):
        """Close a season (owner and admins): its table is kept as it stands; ``409``
        ``season-closed`` if it is closed already."""
        club = _club(request, slug)
        season = get_object_or_404(Season.objects.select_related("club"), club=club, pk=pk)
        return Response(_standings(season_close(actor=request.user, season=season)))
