"""API v1 of a club's seasons: the list and each season's standings (read only; seasons
are opened and closed on the club's pages). A private club is 404 to outsiders."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club
from competitions.models import Season
from competitions.seasons import season_table

from .views import ERROR, ReadThrottled


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


class ClubSeasons(ReadThrottled, APIView):
    """A club's seasons, the newest first."""

    @extend_schema(responses={200: SeasonSerializer(many=True), 404: ERROR})
    def get(self, request, slug: str):
        club = _club(request, slug)
        return Response(SeasonSerializer(club.seasons.all(), many=True).data)


class ClubSeason(ReadThrottled, APIView):
    """A season's standings: the table kept when it was closed, or as counted now."""

    @extend_schema(responses={200: SeasonStandingsSerializer, 404: ERROR})
    def get(self, request, slug: str, pk: int):
        club = _club(request, slug)
        season = get_object_or_404(Season.objects.select_related("club"), club=club, pk=pk)
        table = season_table(season)
        return Response(SeasonStandingsSerializer({"season": season, **table}).data)
