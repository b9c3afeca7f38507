"""Serializers of the API: they shape rows into JSON and hold no logic."""

from __future__ import annotations

from rest_framework import serializers

from games import services
from games.models import Match, Upload, UploadItem
from games.presentation import team_names


class UploadItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = UploadItem
        fields = ["index", "status", "match", "report"]


class UploadSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:upload-detail")
    items = UploadItemSerializer(many=True, read_only=True)

    class Meta:
        model = Upload
        fields = [
            "id",
            "url",
            "status",
            "kind",
            "filename",
            "size",
            "problem",
            "item_count",
            "accepted_count",
            "rejected_count",
            "created_at",
            "processed_at",
            "items",
        ]


class HandResultSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    end = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    settlement = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())


class MatchSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:match-detail")
    club = serializers.CharField(source="club.name")
    club_slug = serializers.CharField(source="club.slug")
    players = serializers.SerializerMethodField()
    team_names = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "url",
            "external_id",
            "club",
            "club_slug",
            "preset",
            "player_count",
            "players",
            "teams",
            "team_names",
            "event",
            "played_at",
            "outcome",
            "scores",
            "winner",
            "move_count",
            "warning_count",
        ]

    def get_players(self, match: Match) -> list[str]:
        return [seat.player.handle for seat in sorted(match.seats.all(), key=lambda s: s.seat)]

    def get_team_names(self, match: Match) -> list[str]:
        return team_names(match)


class MatchDetailSerializer(MatchSerializer):
    log = serializers.SerializerMethodField()
    hands = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "rules", "warnings", "hands", "log"]

    def get_log(self, match: Match) -> dict:
        return services.match_log(match=match)

    def get_hands(self, match: Match) -> list[dict]:
        hands = sorted(match.hands.all(), key=lambda hand: hand.index)
        return HandResultSerializer(hands, many=True).data
