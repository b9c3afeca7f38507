"""API v1 of the open data (issue 59, item 4): the files of each month's public matches, as
the ``/data/`` page lists them (``replays.open_data``). The files are served by nginx."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from replays.open_data import LICENCE, months_listed


class DataFileSerializer(serializers.Serializer):
    month = serializers.CharField(help_text=_("the month of the matches, YYYY-MM (UTC)"))
    kind = serializers.ChoiceField(
        choices=["matches", "seats"],
        help_text=_(
            "matches: the match logs, fives/1 NDJSON compressed with zstd; seats: the seat "
            "results, Parquet"
        ),
    )
    url = serializers.URLField(help_text=_("where to download it"))
    sha256 = serializers.CharField(help_text=_("the SHA-256 of the file, in hex"))
    bytes = serializers.IntegerField(help_text=_("its size in bytes"))
    matches = serializers.IntegerField(help_text=_("the public matches of the month"))
    hands = serializers.IntegerField(help_text=_("their hands"))
    moves = serializers.IntegerField(help_text=_("their moves"))
    seats = serializers.IntegerField(help_text=_("their seats: the rows of the seat results"))
    made_at = serializers.DateTimeField(help_text=_("when the file was written"))


class DataListSerializer(serializers.Serializer):
    licence = serializers.DictField(
        child=serializers.CharField(), help_text=_("the licence of the data: its name and url")
    )
    results = DataFileSerializer(many=True, help_text=_("the latest month first"))


class DataFiles(APIView):
    throttle_scope = "read"

    @extend_schema(responses={200: DataListSerializer})
    def get(self, request):
        """The open data: each month's public matches (fives/1 NDJSON, zstd) and their seat
        results (Parquet), with sizes, SHA-256 and counts. Private clubs' matches never."""
        rows = [
            {
                "month": made.month,
                "kind": kind,
                "url": request.build_absolute_uri(made.url(file)),
                "sha256": file.sha256,
                "bytes": file.bytes,
                "matches": made.matches,
                "hands": made.hands,
                "moves": made.moves,
                "seats": made.seats,
                "made_at": made.made_at,
            }
            for made in months_listed()
            for kind, file in made.files()
        ]
        return Response(DataListSerializer({"licence": LICENCE, "results": rows}).data)
