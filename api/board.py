"""API v1 of the analysis board (issue 60): every legal play of a position valued, given a
``fives/1`` position document (docs/format.md, "A position") or a play of a match the asker
may see (``{"from": {"match", "hand", "move"}}``, numbered from 1 as ``games.numbering``:
the position its seat saw just before that play). What a seat could not see is never an
input: the engine refuses a document naming a hidden tile (``hidden-tile``), and a match's
position holds only its seat's own tiles. The figures are the review's
(``fives_engine.position``), over at most ``MAX_LAYOUTS`` layouts per answer; its budget is
the door's (``fivesite/doors.py``, ``board``)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import APIView

from fives_engine.log import parse_log
from fives_engine.position import Analysis, PositionError, parse_position, position_document
from fives_engine.practice import PositionUnknown
from games.models import Match
from games.numbering import index_of
from games.services.matches import match_log

from .serializers import HAND_FROM_1
from .views import ERROR

# Layouts per answer: the default, and the most one request may ask for (a sampled answer
# over 384 layouts takes about a second of the server's time).
LAYOUTS = 96
MAX_LAYOUTS = 384


class PositionRefused(APIException):
    """A position the engine refuses: 400 with the engine's code and its words."""

    status_code = 400
    default_code = "position"


class AnalyseFromSerializer(serializers.Serializer):
    match = serializers.IntegerField(min_value=1)
    hand = serializers.IntegerField(min_value=1, max_value=32767, help_text=HAND_FROM_1)
    move = serializers.IntegerField(
        min_value=1,
        max_value=10000,
        help_text="the play, from 1 within its hand, as the API numbers plays",
    )


class AnalyseInput(serializers.Serializer):
    position = serializers.JSONField(
        required=False, help_text='a fives/1 position document ("kind": "position")'
    )
    # "from" is a Python keyword: the field is named in ``to_internal_value``.
    layouts = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_LAYOUTS, default=LAYOUTS
    )

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = AnalyseFromSerializer(
            required=False, help_text="a play of a match the asker may see"
        )
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("position" in attrs) == ("from" in attrs):
            raise serializers.ValidationError('give either "position" or "from"')
        return attrs


class BoardPlaySerializer(serializers.Serializer):
    play = serializers.CharField(help_text='"4-6 on W"; the lead: its tile')
    chance = serializers.FloatField(
        allow_null=True, help_text="the seat's side's chance to win the match after it, in percent"
    )
    chance_se = serializers.FloatField(allow_null=True)
    value = serializers.FloatField(help_text="expected points, the review's value")
    value_se = serializers.FloatField()


class AnalyseAnswer(serializers.Serializer):
    plays = BoardPlaySerializer(many=True)
    best = serializers.CharField()
    layouts = serializers.IntegerField()
    exact = serializers.BooleanField()
    unit = serializers.ChoiceField(choices=["chance", "points"])
    position = serializers.JSONField(help_text="the position analysed, as a document")


def _position_of(request, given: dict[str, Any]) -> Any:
    if "position" in given:
        return given["position"]
    where = given["from"]
    match = get_object_or_404(Match.objects.visible_to(request.user).with_log(), pk=where["match"])
    log = parse_log(match_log(match=match))
    hand, move = index_of(where["hand"]), index_of(where["move"])
    assert hand is not None and move is not None
    try:
        return position_document(log, hand, move)
    except PositionUnknown:
        raise PositionRefused(
            "no position there: the move is no play, or the record does not know its seat's tiles",
            "no-position",
        ) from None


@extend_schema(
    summary="Value every legal play of a position (the analysis board)",
    request=AnalyseInput,
    responses={200: AnalyseAnswer, 400: ERROR, 404: ERROR, 429: ERROR},
    examples=[
        OpenApiExample("from a match", value={"from": {"match": 12, "hand": 1, "move": 3}}),
    ],
)
class AnalyseView(APIView):
    """A position's legal plays, each with its winning chance and expected points and their
    standard errors, and the best: as the review values plays (docs/analysis.md)."""

    permission_classes = [permissions.AllowAny]

    def post(self, request):
        data = AnalyseInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        try:
            position = parse_position(_position_of(request, given))
        except PositionError as refused:
            raise PositionRefused(f"{refused.message} (at {refused.path})", refused.code) from None
        answer = Analysis(position).more(given["layouts"])
        answer["position"] = position.document
        return Response(AnalyseAnswer(answer).data)
