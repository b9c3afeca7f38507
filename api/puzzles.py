"""Puzzles (issue 60; docs/api.md, "Puzzles"): ``GET /api/v1/puzzles/next/`` serves a
puzzle near the reader's rating (``?mode=streak``: the streak mode's next), as its seat saw
it and nothing after; ``POST /api/v1/puzzles/{id}/attempt/`` answers it (the ``practice``
budget): the verdict, every play's values, the themes, the play made in the match, the
match's replay at that move and "Analyse from here"; a signed-in reader's first answer rates
them and the puzzle (Glicko-2)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from replays.puzzles import public_puzzles, puzzle_attempt, puzzle_next, question

from .views import ERROR, ReadThrottled


class PuzzleQuestionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rating = serializers.IntegerField(help_text="the puzzle's rating (Glicko-2)")
    themes_count = serializers.IntegerField(help_text="how many themes it has (named after)")
    players = serializers.ListField(child=serializers.CharField(), help_text="by seat")
    seat = serializers.IntegerField(help_text="the seat to play: the solver's")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="by team")
    hand_tiles = serializers.ListField(child=serializers.CharField(), help_text="the seat's tiles")
    table = serializers.JSONField(help_text="layout, open_ends and count, as the drill's")
    counts = serializers.ListField(child=serializers.IntegerField())
    boneyard = serializers.IntegerField()
    seen = serializers.JSONField(help_text="the hand's moves so far as the seat saw them")
    choices = serializers.ListField(child=serializers.CharField(), help_text="the legal plays")


class PuzzleAttemptInput(serializers.Serializer):
    choice = serializers.CharField(max_length=40, help_text='a legal play, "5-3 on E"')
    mode = serializers.ChoiceField(choices=["rated", "streak"], default="rated", required=False)


class PuzzleVerdictSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    choice = serializers.CharField()
    solved = serializers.BooleanField(help_text="the choice is the best play")
    best = serializers.CharField()
    played = serializers.CharField(help_text="the play made in the match")
    unit = serializers.CharField(help_text="chance (two sides) or points")
    gap = serializers.FloatField(help_text="the best play's lead over the next, in the unit")
    gap_se = serializers.FloatField(help_text="its standard error")
    layouts = serializers.IntegerField()
    plays = serializers.JSONField(help_text="each play: play, chance, chance_se, value, value_se")
    themes = serializers.ListField(child=serializers.CharField())
    rated = serializers.BooleanField(help_text="this answer rated you and the puzzle")
    rating = serializers.IntegerField(allow_null=True, help_text="your rating now (signed in)")
    puzzle_rating = serializers.IntegerField()
    streak = serializers.IntegerField(allow_null=True, help_text="solved in a row (streak mode)")
    match = serializers.IntegerField()
    hand = serializers.IntegerField()
    move = serializers.IntegerField()
    replay = serializers.CharField(help_text="the match's replay at the puzzle's move")
    analyse = serializers.CharField(help_text="the analysis board from this position")


class PuzzleNext(ReadThrottled, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("mode", str, enum=["rated", "streak"], required=False)],
        responses={200: PuzzleQuestionSerializer, 404: ERROR},
    )
    def get(self, request):
        """A puzzle near your rating that you have not tried, as its seat saw it."""
        puzzle = puzzle_next(user=request.user, streak=request.query_params.get("mode") == "streak")
        if puzzle is None:
            raise NotFound("no puzzle left to serve")
        return Response(PuzzleQuestionSerializer(question(puzzle)).data)


class PuzzleAttemptView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=PuzzleAttemptInput,
        responses={200: PuzzleVerdictSerializer, 400: ERROR, 404: ERROR, 429: ERROR},
    )
    def post(self, request, pk: int):
        """Answer a puzzle: the verdict, every play's values, the links; rated when first."""
        puzzle = get_object_or_404(public_puzzles(), pk=pk)
        data = PuzzleAttemptInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        verdict = puzzle_attempt(
            puzzle=puzzle,
            user=request.user,
            choice=given["choice"],
            streak=given.get("mode") == "streak",
        )
        if verdict is None:
            raise ValidationError({"choice": ["not a legal play of the puzzle"]})
        return Response(PuzzleVerdictSerializer(verdict).data)
