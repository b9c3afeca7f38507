"""Replay views: the embeddable replay page and the replay API."""

from __future__ import annotations

import time

from django.shortcuts import get_object_or_404, render
from django.views.decorators.clickjacking import xframe_options_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from games.services import match_queryset_for_log

from .services import match_replay, replay_text


@extend_schema(
    summary="The engine's state of the table at each hand start and after every move",
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def replay_api(request, pk: int):
    started = time.perf_counter()
    match = get_object_or_404(match_queryset_for_log(), pk=pk)
    data = match_replay(match=match)
    elapsed = (time.perf_counter() - started) * 1000
    return Response(data, headers={"Server-Timing": f"replay;dur={elapsed:.1f}"})


@xframe_options_exempt
def embed(request, pk: int):
    """The replay alone, for an iframe on a club's site."""
    match = get_object_or_404(match_queryset_for_log(), pk=pk)
    return render(
        request,
        "replays/embed.html",
        {"match": match, "replay": match_replay(match=match), "replay_text": replay_text()},
    )
