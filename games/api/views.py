"""API views: authenticate, limit, hand over to services and selectors."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.forms import MatchFilterForm
from games.models import Upload

from .common import CanUpload
from .serializers import MatchDetailSerializer, MatchSerializer, UploadSerializer


class RawBodyParser(BaseParser):
    """Hands the body over as bytes (a JSON log or NDJSON lines), read up to the limit."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return b""
        return stream.read(settings.FIVES_UPLOAD_MAX_BYTES + 1)


class UploadCreateView(APIView):
    parser_classes = [RawBodyParser]
    permission_classes = [CanUpload]
    throttle_scope = "upload"

    @extend_schema(
        summary="Upload one fives/1 log (JSON) or many (NDJSON, one log per line)",
        request={
            "application/json": OpenApiTypes.OBJECT,
            "application/x-ndjson": OpenApiTypes.STR,
        },
        responses={202: UploadSerializer},
    )
    def post(self, request):
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise ParseError("bad Content-Length") from None
        data = request.data if isinstance(request.data, bytes) else b""
        content_type = request.content_type or ""
        filename = "upload.ndjson" if "ndjson" in content_type else ""
        upload = services.upload_create(
            uploader=request.user, data=data, filename=filename, size=size
        )
        body = UploadSerializer(upload, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class UploadDetailView(generics.RetrieveAPIView):
    throttle_scope = "read"
    queryset = Upload.objects.prefetch_related("items")
    serializer_class = UploadSerializer


@extend_schema(
    parameters=[
        OpenApiParameter("club", str, description="club slug"),
        OpenApiParameter("player", int, description="player id"),
        OpenApiParameter("ruleset", str, description="preset name"),
        OpenApiParameter("outcome", str, enum=["complete", "unfinished"]),
        OpenApiParameter("date_from", OpenApiTypes.DATE),
        OpenApiParameter("date_to", OpenApiTypes.DATE),
    ],
    responses={200: MatchSerializer(many=True), 400: OpenApiResponse(description="bad filter")},
)
class MatchListView(generics.ListAPIView):
    throttle_scope = "read"
    serializer_class = MatchSerializer

    def get_queryset(self):
        form = MatchFilterForm(self.request.query_params)
        if not form.is_valid():
            raise ValidationError(form.errors)
        return selectors.match_list(filters=form.cleaned_data)


class MatchDetailView(generics.RetrieveAPIView):
    throttle_scope = "read"
    serializer_class = MatchDetailSerializer

    def get_queryset(self):
        return services.match_queryset_for_log()
