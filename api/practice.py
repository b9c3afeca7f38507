"""API v1 of a player's practice drill: their mistakes and blunders across their analysed
matches, each as the position they saw (``replays.practice``). Whoever may see the player
reads the positions of the matches they may see (a private club's are 404 or left out, as
everywhere); the player's own account also reads its tries."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Player
from replays.practice import (
    attempts_of,
    mistake_positions,
    player_mistakes,
    practice_is_own,
    practice_summary,
)

from .analysis import PlayValueSerializer
from .views import ERROR, ReadThrottled


class OpenEndSerializer(serializers.Serializer):
    end = serializers.CharField(help_text="W, E, N or S")
    pip = serializers.IntegerField()


class TableSerializer(serializers.Serializer):
    layout = serializers.JSONField(
        help_text="the lead, each arm's tiles outwards (inner pip first) and the spinner, "
        "as the replay's states write it"
    )
    open_ends = OpenEndSerializer(many=True)
    count = serializers.IntegerField(help_text="the count of the open ends")


class SeenMoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["play", "draw", "pass"])
    tile = serializers.CharField(
        allow_null=True, help_text="null for a pass, or a draw the seat did not see"
    )
    end = serializers.CharField(allow_null=True)


class TriesSerializer(serializers.Serializer):
    tries = serializers.IntegerField()
    solved = serializers.BooleanField(help_text="whether the last try found a good play")
    due_at = serializers.DateTimeField(help_text="when the position is due again")


class MistakePositionSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    played_at = serializers.DateTimeField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="by seat")
    teams = serializers.ListField(child=serializers.IntegerField(), help_text="each seat's team")
    hand = serializers.IntegerField(help_text="the hand, from 1, as the replay counts it")
    move = serializers.IntegerField(
        help_text="the play's move in the hand, from 1, as the replay counts it: #h{hand}m{move} "
        "is the table just after it, the position is the one before"
    )
    seat = serializers.IntegerField(help_text="the player's seat")
    mark = serializers.ChoiceField(choices=["mistake", "blunder"])
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="by team, before")
    hand_tiles = serializers.ListField(child=serializers.CharField(), help_text="the seat's tiles")
    table = TableSerializer()
    counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="how many tiles each seat holds"
    )
    boneyard = serializers.IntegerField(help_text="how many tiles are left to draw")
    seen = SeenMoveSerializer(many=True, help_text="the hand's moves so far, as the seat saw them")
    choices = serializers.ListField(child=serializers.CharField(), help_text="the legal plays")
    values = PlayValueSerializer(many=True, help_text="each legal play's expected value")
    best = serializers.CharField()
    best_value = serializers.FloatField()
    loss = serializers.FloatField(help_text="what the play made lost against the best")
    played = serializers.CharField(help_text="the play made in the match")
    played_value = serializers.FloatField()
    played_points = serializers.IntegerField(help_text="the points the play made scored")
    hand_end = serializers.CharField(help_text="how the hand ended: domino, block or target")
    hand_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="what the hand gave each team, settled"
    )
    replay = serializers.CharField(help_text="the replay just after the play")
    tries = TriesSerializer(allow_null=True, help_text="the player's own tries (theirs only)")


class MistakesSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    own = serializers.BooleanField(help_text="the reader is the player: their tries are kept")
    positions_count = serializers.IntegerField()
    solved = serializers.IntegerField(help_text="positions solved at their last try")
    due = serializers.IntegerField(help_text="positions due now (never tried, or due again)")
    positions = MistakePositionSerializer(many=True)


@extend_schema(responses={200: MistakesSerializer, 404: ERROR})
class PlayerMistakes(ReadThrottled, APIView):
    """A player's mistakes and blunders in their latest 100 analysed matches, newest first,
    each as the position they saw just before it."""

    def get(self, request, pk: int):
        player = get_object_or_404(Player.objects.visible_to(request.user), pk=pk)
        mistakes = player_mistakes(player=player, user=request.user)
        own = practice_is_own(player=player, user=request.user)
        attempts = attempts_of(user=request.user) if own else {}
        summary = practice_summary(mistakes=mistakes, attempts=attempts, now=timezone.now())
        positions = mistake_positions(mistakes=mistakes)
        for position in positions:
            attempt = attempts.get((position["match"], position["hand"] - 1, position["move"] - 1))
            position["tries"] = (
                {"tries": attempt.tries, "solved": attempt.solved, "due_at": attempt.due_at}
                if attempt is not None
                else None
            )
        data = {
            "player": player.pk,
            "own": own,
            "positions_count": len(positions),
            "solved": summary["solved"],
            "due": summary["due"],
            "positions": positions,
        }
        return Response(MistakesSerializer(data).data)
