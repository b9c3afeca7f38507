"""API v1 of a match's expected-value analysis: its status, progress and result (GET), and a
request to run it (POST, signed in, within a daily quota). Who may see the match may read its
analysis; a private club's match is 404 to outsiders. And a player's mistakes and blunders
across their analysed matches, each as the position they saw (``replays.practice``): whoever
may see the player reads those of the matches they may see; the player's own account also
reads its tries."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, Throttled, ValidationError
from rest_framework.fields import empty
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Match, Player
from games.numbering import index_of, shown
from replays.analysis import QuotaExceeded, analysis_request, analysis_state, quota_refusal
from replays.models import MatchAnalysis
from replays.practice import mistakes_served, practice_attempt

from .serializers import HAND_FROM_1, MOVE_FROM_1, OpenEndSerializer
from .views import ERROR, ReadThrottled

MARKS = ["inaccuracy", "mistake", "blunder"]


class NumberField(serializers.IntegerField):
    """A hand's or a move's number as it is read, from 1 (``games.numbering``), of the index
    from 0 the review stores: a play is the same pair in every answer, page and address."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return shown(super().to_representation(value))

    def run_validation(self, data: Any = empty) -> Any:
        # The number is checked as read (from 1), then turned into its index.
        value = super().run_validation(data)
        return value if value is None else index_of(value)


class PlacedRowField(serializers.ListField):
    """A row of the review that starts with a hand and a move (the move null between two
    hands), each read from 1 as ``NumberField``; the rest as stored."""

    def to_representation(self, data: Any) -> list[Any]:
        hand, move, *rest = data
        return [shown(hand), shown(move), *rest]

    def to_internal_value(self, data: Any) -> list[Any]:
        hand, move, *rest = super().to_internal_value(data)
        return [index_of(hand), None if move is None else index_of(move), *rest]


class PlayValueSerializer(serializers.Serializer):
    play = serializers.CharField(help_text="a legal play, as the log writes it")
    value = serializers.FloatField(help_text="its expected value, in points")
    stderr = serializers.FloatField(help_text="the standard error of the value (0 when exact)")
    chance = serializers.FloatField(
        allow_null=True,
        help_text="the chance, in percent, that its side wins the match after it (two sides)",
    )


class PlayReviewSerializer(serializers.Serializer):
    hand = NumberField(help_text=HAND_FROM_1)
    move = NumberField(help_text=MOVE_FROM_1)
    seat = serializers.IntegerField()
    played = serializers.CharField(help_text="the play made")
    value = serializers.FloatField(help_text="the expected value of the play made")
    stderr = serializers.FloatField()
    best = serializers.CharField(help_text="the play of the highest expected value")
    best_value = serializers.FloatField()
    loss = serializers.FloatField(help_text="the best play's value minus the play's")
    mark = serializers.ChoiceField(choices=MARKS, allow_null=True)
    exact = serializers.BooleanField(help_text="every layout of the unseen tiles counted")
    layouts = serializers.IntegerField(help_text="layouts of the unseen tiles averaged over")
    alternatives = PlayValueSerializer(many=True)
    loss_stderr = serializers.FloatField(
        allow_null=True, help_text="the standard error of the loss, over the same layouts"
    )
    chance = serializers.FloatField(
        allow_null=True, help_text="the winning chance, in percent, the play made kept"
    )
    chance_best = serializers.CharField(
        allow_null=True, help_text="the play of the highest winning chance"
    )
    best_chance = serializers.FloatField(allow_null=True, help_text="its winning chance")
    chance_loss = serializers.FloatField(
        allow_null=True, help_text="the winning chance given up, in percentage points"
    )
    chance_loss_stderr = serializers.FloatField(
        allow_null=True, help_text="its standard error, over the same layouts"
    )
    chance_before = serializers.FloatField(
        allow_null=True,
        help_text="the chance before the play (the best play's, free of the sample's luck)",
    )
    unit = serializers.CharField(
        allow_null=True, help_text="what the mark read: chance (winning chances) or points"
    )


class SideReviewSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text="the side (team), from 0")
    seats = serializers.ListField(child=serializers.IntegerField())
    result = serializers.FloatField(help_text="100 won, 0 lost (percent)")
    expected_start = serializers.FloatField(help_text="the chance to win at the start")
    luck = serializers.FloatField(help_text="the sum of the luck of every chance event")
    skill = serializers.FloatField(help_text="the sum of what its plays kept against the best")
    luck_adjusted = serializers.FloatField(help_text="the result less the luck")
    unreviewed = serializers.IntegerField(
        help_text="its plays a table record could not review: what they kept is in the luck"
    )
    events = serializers.ListField(
        child=PlacedRowField(),
        help_text="each luck event: hand and move, from 1 (the move null between hands), "
        "kind, percentage points",
    )


class SkippedPlaySerializer(serializers.Serializer):
    hand = NumberField(help_text=HAND_FROM_1)
    move = NumberField(help_text=MOVE_FROM_1)
    seat = serializers.IntegerField()
    reason = serializers.CharField(help_text="why it was not reviewed, e.g. hand-unknown")


class MatchReviewSerializer(serializers.Serializer):
    version = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    plays = PlayReviewSerializer(many=True)
    skipped = SkippedPlaySerializer(many=True)
    accuracy = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text="per seat, from 0 to 100"
    )
    mean_loss = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text="per seat, points per play"
    )
    loss_by_hand = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(allow_null=True)),
        help_text="each hand's expected loss by seat",
    )
    unit = serializers.CharField(
        allow_null=True,
        help_text="what the marks and the accuracy read: chance (winning chances, two sides) "
        "or points",
    )
    mean_chance_loss = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        required=False,
        help_text="per seat, winning chances lost per play with a choice",
    )
    sides = SideReviewSerializer(many=True, required=False)
    chances = serializers.ListField(
        child=PlacedRowField(),
        required=False,
        help_text="side 0's winning chance after each reviewed play: hand and move, from 1, "
        "percent",
    )


class MatchAnalysisSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    # "none": never asked for.
    status = serializers.ChoiceField(choices=["none", *MatchAnalysis.Status.values])
    version = serializers.CharField(allow_null=True)
    current_version = serializers.CharField()
    stale = serializers.BooleanField(
        help_text="made by an earlier version of the analysis: ask again to redo it"
    )
    done = serializers.IntegerField(help_text="plays reviewed so far")
    total = serializers.IntegerField(help_text="plays to review (0 until known)")
    requested_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    failure = serializers.CharField(allow_blank=True)
    result = MatchReviewSerializer(allow_null=True)


def visible_match(request, pk: int) -> Match:
    return get_object_or_404(Match.objects.visible_to(request.user), pk=pk)


class MatchAnalysisView(ReadThrottled, APIView):
    """A match's expected-value analysis: every play's value, the best play and the loss,
    each player's accuracy; its status and progress while it runs."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    @extend_schema(responses={200: MatchAnalysisSerializer, 404: ERROR})
    def get(self, request, pk: int):
        match = visible_match(request, pk)
        return Response(MatchAnalysisSerializer(analysis_state(match=match)).data)

    @extend_schema(
        summary="Ask for the match's analysis (a daily quota per person)",
        request=None,
        responses={
            200: MatchAnalysisSerializer,
            202: MatchAnalysisSerializer,
            401: ERROR,
            404: ERROR,
            429: ERROR,
        },
    )
    def post(self, request, pk: int):
        match = visible_match(request, pk)
        try:
            analysis_request(match=match, user=request.user)
        except QuotaExceeded as refused:
            # The wait is said in words and in retry_after: not again in DRF's "Expected
            # available in 86307 seconds.", which it adds to the message given a wait.
            throttled = Throttled(
                detail=quota_refusal(limit=refused.limit, retry_after=refused.retry_after)
            )
            throttled.wait = refused.retry_after
            raise throttled from None
        state = analysis_state(match=match)
        # Done already (or at once, with tasks in-process): 200; else under way: 202.
        code = status.HTTP_200_OK if state["status"] == "done" else status.HTTP_202_ACCEPTED
        return Response(MatchAnalysisSerializer(state).data, status=code)


# --- a player's mistakes as a drill (replays.practice; docs/api.md, "Practice") -----------


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
    hand = serializers.IntegerField(help_text=HAND_FROM_1)
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
    unit = serializers.CharField(
        help_text="the mark's unit: chance (winning chances, two sides) or points"
    )
    best = serializers.CharField(help_text="the best play the mark compared against")
    best_value = serializers.FloatField()
    loss = serializers.FloatField(help_text="what the play made lost against the best")
    points_loss = serializers.FloatField(help_text="the loss in points")
    chance = serializers.FloatField(
        allow_null=True, help_text="the winning chance after the play made, in percent"
    )
    best_chance = serializers.FloatField(
        allow_null=True, help_text="the winning chance after the best play, in percent"
    )
    played = serializers.CharField(help_text="the play made in the match")
    played_value = serializers.FloatField()
    played_points = serializers.IntegerField(help_text="the points the play made scored")
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
        data = mistakes_served(player=player, user=request.user, now=timezone.now())
        return Response(MistakesSerializer(data).data)


class MistakeAttemptInput(serializers.Serializer):
    match = serializers.IntegerField(min_value=1)
    hand = serializers.IntegerField(min_value=1, help_text=HAND_FROM_1)
    move = serializers.IntegerField(min_value=1, help_text=MOVE_FROM_1)
    choice = serializers.CharField(max_length=40, help_text='a legal play, "5-3 on E"')


class MistakeVerdictSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    hand = serializers.IntegerField(help_text=HAND_FROM_1)
    move = serializers.IntegerField(help_text=MOVE_FROM_1)
    choice = serializers.CharField()
    value = serializers.FloatField(help_text="the choice's expected points")
    chance = serializers.FloatField(allow_null=True, help_text="its winning chance, in percent")
    unit = serializers.CharField(help_text="chance or points, as the position's mark")
    loss = serializers.FloatField(help_text="what the choice loses against the best, in the unit")
    points_loss = serializers.FloatField()
    solved = serializers.BooleanField(help_text="the choice loses less than an inaccuracy")
    hand_end = serializers.CharField(help_text="how the hand ended: domino, block or target")
    hand_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="what the hand gave each team, settled"
    )
    tries = TriesSerializer(allow_null=True, help_text="the player's own tries (theirs only)")


@extend_schema(
    summary="Answer a position of the drill: the verdict, then the hand's outcome",
    request=MistakeAttemptInput,
    responses={200: MistakeVerdictSerializer, 400: ERROR, 404: ERROR, 429: ERROR},
)
class PlayerMistakeAttempt(APIView):
    """A pick at one of the player's positions (``hand`` and ``move`` as the mistakes number
    them, from 1): its verdict, and only now how the hand ended. The player's own account
    has the try remembered; anyone who may see the player may answer."""

    permission_classes = [permissions.AllowAny]

    def post(self, request, pk: int):
        player = get_object_or_404(Player.objects.visible_to(request.user), pk=pk)
        data = MistakeAttemptInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        key = (given["match"], index_of(given["hand"]), index_of(given["move"]))
        answer = practice_attempt(
            player=player, user=request.user, key=key, choice=given["choice"], now=timezone.now()
        )
        if answer is None:
            raise NotFound("no such position among the player's mistakes")
        if answer["choice"] is None:
            raise ValidationError({"choice": ["not a legal play of the position"]})
        return Response(MistakeVerdictSerializer(answer).data)
