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

from games.cache import cached_json
from games.models import Club, Player
from games.services import match_queryset_for_log

from .rankings import SORTS, club_ranking, history_chart, player_profile
from .services import match_replay, match_replay_cached, replay_text
from .stats import PERIODS


@extend_schema(
    summary="The engine's state of the table at each hand start and after every move",
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def replay_api(request, pk: int):
    started = time.perf_counter()

    def compute() -> dict:
        return match_replay(match=get_object_or_404(match_queryset_for_log(), pk=pk))

    # A replay only changes with the archive's version (a rescore): cached.
    response = cached_json(f"replay:{pk}", compute)
    elapsed = (time.perf_counter() - started) * 1000
    response["Server-Timing"] = f"replay;dur={elapsed:.1f}"
    return response


@xframe_options_exempt
def embed(request, pk: int):
    """The replay alone, for an iframe on a club's site."""
    match = get_object_or_404(match_queryset_for_log(), pk=pk)
    return render(
        request,
        "replays/embed.html",
        {"match": match, "replay": match_replay_cached(match=match), "replay_text": replay_text()},
    )


def _ranking_args(request) -> dict[str, str]:
    return {
        "ruleset": request.GET.get("ruleset", "")[:20],
        "period": request.GET.get("period", "")[:10],
        "sort": request.GET.get("sort", "rating")[:20],
    }


def ranking(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    table = club_ranking(club=club, **_ranking_args(request))
    return render(
        request,
        "replays/ranking.html",
        {"club": club, "table": table, "periods": PERIODS, "sorts": list(SORTS)},
    )


@extend_schema(summary="A club's ranking table", responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
@permission_classes([AllowAny])
def ranking_api(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    return Response(club_ranking(club=club, **_ranking_args(request)))


@extend_schema(summary="A player's statistics and rating", responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
@permission_classes([AllowAny])
def player_stats_api(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    return Response(player_profile(player=player))


def player_profile_context(player: Player) -> dict:
    """Return what the player page shows of statistics and rating."""
    profile = player_profile(player=player)
    return {"profile": profile, "history_chart": history_chart(profile["history"])}
