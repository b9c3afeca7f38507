"""API v1: clubs, players, matches (with hands and moves, replays, export), uploads,
rankings and statistics. Thin views: filters and permissions here, work in the services."""

from __future__ import annotations

import time
from urllib.parse import urlencode

from django.db.models import Q
from django.http import QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import filters, generics, permissions, status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club
from clubs.reads import pin_to_primary, primary_reads
from clubs.selectors import clubs_of
from fives_engine import PRESETS
from games import selectors
from games.cache import cached_for_match, cached_list
from games.export import export_lines, started
from games.forms import MatchFilterForm
from games.models import Match, Player, PlayerAlias, Upload
from games.services.uploads import sniff_kind, upload_create, upload_delete, upload_rerun
from replays.rankings import club_ranking, player_profile, ranking_args
from replays.replay_cache import match_replay_json

from .common import CanManageUpload, CanUpload, Cursor, json_response, render_json
from .parsers import RawBodyParser
from .serializers import (
    HandSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    PlayerSerializer,
    PlayerStatsSerializer,
    RankingSerializer,
    ReplaySerializer,
    UploadItemSerializer,
    UploadSerializer,
    UploadSummarySerializer,
)

ERROR = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description='An error: {"error": {"code", "message", "fields"?}}',
)
MATCH_FILTERS = [
    OpenApiParameter("club", str, description="club slug"),
    OpenApiParameter(
        "player",
        str,
        description="a player's id, handle or former handle (any case); "
        "no exact one: the handles that contain it",
    ),
    OpenApiParameter("ruleset", str, enum=PRESETS),
    OpenApiParameter("status", str, enum=["complete", "unfinished"], description="outcome"),
    OpenApiParameter("date_from", OpenApiTypes.DATE, description="played on or after"),
    OpenApiParameter("date_to", OpenApiTypes.DATE, description="played on or before"),
    OpenApiParameter("result", str, enum=["win", "loss"], description="the player's result"),
]
NOT_YOUR_CLUB = _(
    "You are not a member of a club with this slug: create the club, or ask its admins for an "
    "invitation or to join, then upload again."
)
# An accepted item's report is its match's (``UploadItem.full_report``).
NDJSON_TYPES = ("application/x-ndjson", "application/ndjson", "application/jsonl")


LIST_PARAMETERS = (
    "club",
    "player",
    "ruleset",
    "status",
    "outcome",
    "date_from",
    "date_to",
    "result",
    "cursor",
    "page_size",
    "ordering",
)


def known_query(params) -> str:
    """Return the match list's own parameters of a query, sorted, as a query string."""
    return urlencode(sorted((k, v) for k in LIST_PARAMETERS for v in params.getlist(k)))


def match_queryset(params, user) -> object:
    """Return the matches ``user`` may see that the query parameters ask for, or raise a
    validation error."""
    data = params.copy()
    as_status = "status" in data and "outcome" not in data
    if as_status:
        data["outcome"] = data["status"]
    form = MatchFilterForm(data)
    if not form.is_valid():
        errors = dict(form.errors)
        if as_status and "outcome" in errors:  # name the parameter the query wrote
            errors["status"] = errors.pop("outcome")
        raise ValidationError(errors)
    result = params.get("result")
    if result and (result not in ("win", "loss") or not form.cleaned_data.get("player")):
        raise ValidationError({"result": ["win or loss, with a player"]})
    return selectors.match_list(filters={**form.cleaned_data, "result": result}, user=user)


class ReadThrottled:
    throttle_scope = "read"


@extend_schema(
    parameters=[
        OpenApiParameter("ruleset", str, enum=PRESETS),
        OpenApiParameter("period", str, enum=["30d", "90d", "365d"]),
        OpenApiParameter("sort", str),
        OpenApiParameter("order", str, enum=["desc", "asc"], description="desc: highest first"),
    ],
    responses={200: RankingSerializer, 404: ERROR},
)
class ClubRanking(ReadThrottled, APIView):
    """A club's ranking table: ranked players, provisional and inactive ones apart."""

    def get(self, request, slug: str):
        club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
        args, problems = ranking_args(request.query_params)
        if problems:
            raise ValidationError({name: [message] for name, message in problems.items()})
        return Response(RankingSerializer(club_ranking(club=club, **args)).data)


@extend_schema(
    parameters=[
        OpenApiParameter("club", str, description="club slug"),
        OpenApiParameter("q", str, description="a part of a handle or a former handle (any case)"),
    ]
)
class PlayerList(ReadThrottled, generics.ListAPIView):
    serializer_class = PlayerSerializer
    pagination_class = Cursor
    filter_backends = [filters.OrderingFilter]
    ordering_fields = ["id", "handle"]

    def get_queryset(self):
        players = Player.objects.visible_to(self.request.user).select_related("club")
        club = self.request.query_params.get("club")
        if club:
            players = players.filter(club__slug=club)
        text = self.request.query_params.get("q", "").strip()[:100]
        if text:
            aliased = PlayerAlias.objects.filter(handle__icontains=text).values("player_id")
            players = players.filter(Q(handle__icontains=text) | Q(pk__in=aliased))
        return players


class PlayerDetail(ReadThrottled, generics.RetrieveAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        return Player.objects.visible_to(self.request.user).select_related("club")


@extend_schema(responses={200: PlayerStatsSerializer, 404: ERROR})
class PlayerStats(ReadThrottled, APIView):
    """A player's figures, rating and its history, and results against each opponent."""

    def get(self, request, pk: int):
        players = Player.objects.visible_to(request.user).select_related("club")
        player = get_object_or_404(players, pk=pk)
        profile = player_profile(player=player, shown=players)
        return Response(PlayerStatsSerializer(profile).data)


@extend_schema(parameters=MATCH_FILTERS, responses={200: MatchSerializer(many=True), 400: ERROR})
class MatchList(ReadThrottled, generics.ListAPIView):
    serializer_class = MatchSerializer
    pagination_class = Cursor
    filter_backends = [filters.OrderingFilter]
    ordering_fields = ["id", "played_at"]
    ordering = ["-id"]

    def get_queryset(self):
        return match_queryset(self.request.query_params, self.request.user).order_by()

    def list(self, request, *args, **kwargs):
        # A page of matches only changes when stored matches change: cached per version.
        # Only the list's own parameters count, sorted: unknown ones can neither add cache
        # entries nor ride along in the cached page's links to other readers.
        query = known_query(request.query_params)
        request._request.GET = QueryDict(query)
        request._request.META["QUERY_STRING"] = query
        # What a person may see differs (private clubs, matches awaiting approval): each
        # signed-in reader has pages of their own; everyone signed out shares one.
        viewer = f"u{request.user.pk}" if request.user.is_authenticated else "anon"
        body = cached_list(
            f"v1:{request.get_host()}:{viewer}:{request.path}?{query}",
            lambda: render_json(super(MatchList, self).list(request, *args, **kwargs).data),
        )
        return json_response(body)


class MatchDetail(ReadThrottled, generics.RetrieveAPIView):
    serializer_class = MatchDetailSerializer

    def get_queryset(self):
        return Match.objects.visible_to(self.request.user).with_log()

    def retrieve(self, request, *args, **kwargs):
        visible = Match.objects.visible_to(request.user)
        match = get_object_or_404(visible.only("id", "rescored_at", "club_id"), pk=kwargs["pk"])
        body = cached_for_match(
            match,
            f"v1:match:{request.get_host()}:{request.LANGUAGE_CODE}",
            lambda: render_json(super(MatchDetail, self).retrieve(request, *args, **kwargs).data),
        )
        return json_response(body)


class MatchHands(ReadThrottled, generics.ListAPIView):
    """The hands of a match with every move: the count after it, the points it made, and
    the most any legal play could have made there."""

    serializer_class = HandSerializer
    pagination_class = None

    def get_queryset(self):
        match = get_object_or_404(Match.objects.visible_to(self.request.user), pk=self.kwargs["pk"])
        return match.hands  # decoded from the match's packed row, in order


@extend_schema(
    summary="The engine's state of the table at each hand start and after every move",
    responses={200: ReplaySerializer, 404: ERROR},
)
class MatchReplay(ReadThrottled, APIView):
    def get(self, request, pk: int):
        started = time.perf_counter()
        visible = Match.objects.visible_to(request.user)
        match = get_object_or_404(visible.only("id", "rescored_at", "club_id"), pk=pk)

        # A replay changes when its match is rescored or a handle renamed: cached per both,
        # under the one key the pages read too.
        response = json_response(match_replay_json(match=match))
        elapsed = (time.perf_counter() - started) * 1000
        response["Server-Timing"] = f"replay;dur={elapsed:.1f}"
        return response


# The most matches one export may be asked to stop after (?limit=); without it, all of them.
EXPORT_MAX = 1_000_000


# The furthest an export may start into its matches (``offset``).
EXPORT_OFFSET_MAX = 1_000_000_000


def _whole_number(params, name: str, low: int, high: int) -> int | None:
    """The query parameter ``name`` as a whole number from ``low`` to ``high``, or None when
    it is not given; anything else is a 400 naming it (a string of thousands of digits too,
    which ``int`` itself refuses past 4,300)."""
    value = params.get(name)
    if value is None:
        return None
    if (
        not value.isascii()
        or not value.isdigit()
        or len(value) > len(str(high))
        or not low <= int(value) <= high
    ):
        raise ValidationError({name: [f"a whole number from {low} to {high}"]})
    return int(value)


class MatchExport(APIView):
    """The matching matches as fives/1 NDJSON, streamed, in the order they were stored;
    ``limit`` stops after that many (with ``date_from`` it reads an archive in parts), and
    ``offset`` starts past that many (a broken download resumes where it stopped:
    ``fives export`` asks again from its last line written, which it checks)."""

    throttle_scope = "export"

    @extend_schema(
        parameters=[
            *MATCH_FILTERS,
            OpenApiParameter("limit", int, description=f"at most this many (1 to {EXPORT_MAX})"),
            OpenApiParameter(
                "offset",
                int,
                description="start past this many of the matching matches, in the order "
                f"stored (0 to {EXPORT_OFFSET_MAX}): where a broken download resumes",
            ),
        ],
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                response=OpenApiTypes.STR, description="one fives/1 log per line"
            ),
            400: ERROR,
        },
    )
    def get(self, request):
        matches = match_queryset(request.query_params, request.user).order_by("id")
        limit = _whole_number(request.query_params, "limit", 1, EXPORT_MAX)
        offset = _whole_number(request.query_params, "offset", 0, EXPORT_OFFSET_MAX) or 0
        if limit is not None or offset:
            matches = matches[offset : None if limit is None else offset + limit]
        lines = started(export_lines(matches))  # the database away: a 503, not the server's 500
        response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
        response["Content-Disposition"] = 'attachment; filename="matches.ndjson"'
        return response


class UploadListCreate(generics.ListAPIView):
    """Your uploads (GET), or a new one (POST: a JSON log or NDJSON, up to the limits)."""

    serializer_class = UploadSummarySerializer
    pagination_class = Cursor
    parser_classes = [RawBodyParser]

    def get_permissions(self):
        if self.request.method == "POST":
            return [CanUpload()]
        return [permissions.IsAuthenticated()]

    def get_throttles(self):
        self.throttle_scope = "upload" if self.request.method == "POST" else "read"
        return super().get_throttles()

    def get_queryset(self):
        uploads = Upload.objects.filter(uploader=self.request.user)
        wanted = self.request.query_params.get("status")
        if wanted:
            if wanted not in Upload.Status.values:
                raise ValidationError({"status": [f"one of {', '.join(Upload.Status.values)}"]})
            uploads = uploads.filter(status=wanted)
        return uploads

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=list(Upload.Status.values))],
        responses={200: UploadSummarySerializer(many=True), 400: ERROR, 401: ERROR},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @staticmethod
    def chosen_club(request) -> Club | None:
        """Return the club of ``?club=slug``: one the uploader is a member of (else 400)."""
        slug = request.query_params.get("club")
        if not slug:
            return None
        club = clubs_of(request.user).filter(slug=slug[:200]).first()
        if club is None:
            raise ValidationError({"club": [str(NOT_YOUR_CLUB)]})
        return club

    @extend_schema(
        summary="Upload one fives/1 log (JSON) or many (NDJSON, one log per line)",
        parameters=[
            OpenApiParameter(
                "club",
                str,
                description="the slug of one of your clubs; without it, each log's club field",
            ),
            OpenApiParameter(
                "event",
                str,
                description=(
                    "what the logs that name no event count for, as a log's event names it "
                    "(docs/format.md): an event, a cup tie, a league leg; at most 1,000 "
                    "characters"
                ),
            ),
        ],
        request={
            "application/json": OpenApiTypes.OBJECT,
            "application/x-ndjson": OpenApiTypes.STR,
        },
        responses={202: UploadSerializer, 401: ERROR, 403: ERROR},
    )
    def post(self, request):
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise ParseError("bad Content-Length") from None
        data = request.data if isinstance(request.data, bytes) else b""
        content_type = (request.content_type or "").split(";")[0].strip().lower()
        if content_type in NDJSON_TYPES:
            kind = Upload.Kind.NDJSON
        elif content_type == "application/json":
            kind = Upload.Kind.JSON
        else:
            kind = sniff_kind(data)
        club = self.chosen_club(request)
        event = request.query_params.get("event", "")
        if len(event) > 1000:
            raise ValidationError({"event": [str(_("At most 1,000 characters."))]})
        upload = upload_create(
            uploader=request.user, data=data, kind=kind, size=size, club=club, event=event
        )
        # With tasks in-process (no Redis) the upload was processed once its row committed:
        # its counts and status as they are now, agreeing with its items.
        upload.refresh_from_db()
        body = UploadSerializer(upload, context={"request": request}).data
        # str(): the serializer's url is a Hyperlink (a str subclass), which Django's own
        # development server (make run) refuses as a header value, answering 500.
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": str(body["url"])}
        )


@extend_schema(responses={200: UploadSerializer, 404: ERROR})
class UploadDetail(ReadThrottled, generics.RetrieveDestroyAPIView):
    """An upload's status and report per log, for its uploader, the admins of its club and
    staff (404 to anyone else); the uploader (or a club admin) may delete it."""

    serializer_class = UploadSerializer

    def initial(self, request, *args, **kwargs):
        # From the primary, as the upload's page (games.views.upload_detail, which says why).
        primary_reads()
        super().initial(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.uploads_visible_to(self.request.user).select_related("club")

    def retrieve(self, request, *args, **kwargs):
        upload = self.get_object()
        if not upload.is_done:
            pin_to_primary(request._request)  # a client that keeps cookies: as the page
        return Response(self.get_serializer(upload).data)

    def get_permissions(self):
        if self.request.method == "DELETE":
            return [CanManageUpload()]
        return [permissions.AllowAny()]  # others' uploads are not in the queryset: 404

    def perform_destroy(self, upload):
        upload_delete(upload_id=upload.pk, actor=self.request.user)


class ItemsInOrder(Cursor):
    ordering = "index"
    page_size = 100


class UploadItems(ReadThrottled, generics.ListAPIView):
    """The report of each log of an upload, in the document's order, 100 a page; for whoever
    may see the upload (404 to anyone else)."""

    serializer_class = UploadItemSerializer
    pagination_class = ItemsInOrder
    permission_classes = [permissions.AllowAny]  # others' uploads are not found: 404

    def initial(self, request, *args, **kwargs):
        primary_reads()  # as UploadDetail
        super().initial(request, *args, **kwargs)

    def get_queryset(self):
        visible = selectors.uploads_visible_to(self.request.user)
        upload = get_object_or_404(visible, pk=self.kwargs["pk"])
        return upload.items.select_related("match")


class UploadRerun(APIView):
    """Process an upload's rejected logs again (after an engine change, or once a member of
    the club they name); with ``club``, into that club of yours."""

    permission_classes = [CanManageUpload]
    throttle_scope = "upload"

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "club",
                str,
                description="the slug of one of your clubs: its logs go there from now on",
            )
        ],
        responses={202: UploadSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def post(self, request, pk: int):
        visible = selectors.uploads_visible_to(request.user)
        upload = get_object_or_404(visible.select_related("club"), pk=pk)
        self.check_object_permissions(request, upload)
        club = UploadListCreate.chosen_club(request)
        upload = upload_rerun(upload_id=upload.pk, actor=request.user, club=club)
        upload.refresh_from_db()  # processed already when tasks run in-process
        return Response(
            UploadSerializer(upload, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )


class Ping(ReadThrottled, APIView):
    """A trivial answer: the process's liveness (readiness is ``/healthz``), and the ceiling
    of benchmarks. It goes through the same authentication and throttling as every other
    endpoint, and asks the database nothing when no one signs in: it answers while the
    database is away, and while Redis is (its count then kept in the process)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response({"ok": True})
