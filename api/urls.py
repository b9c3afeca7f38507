"""The API's addresses: v1, and the first API's addresses kept as permanent redirects."""

from django.http import HttpResponsePermanentRedirect
from django.urls import include, path, re_path
from rest_framework import permissions
from rest_framework.views import APIView

from . import views

v1 = (
    [
        path("ping/", views.Ping.as_view(), name="ping"),
        path("clubs/", views.ClubList.as_view(), name="club-list"),
        path("clubs/<str:slug>/", views.ClubDetail.as_view(), name="club-detail"),
        path("clubs/<str:slug>/ranking/", views.ClubRanking.as_view(), name="club-ranking"),
        path("players/", views.PlayerList.as_view(), name="player-list"),
        path("players/<int:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
        path("players/<int:pk>/stats/", views.PlayerStats.as_view(), name="player-stats"),
        path("matches/", views.MatchList.as_view(), name="match-list"),
        path("matches/export", views.MatchExport.as_view(), name="match-export"),
        path("matches/<int:pk>/", views.MatchDetail.as_view(), name="match-detail"),
        path("matches/<int:pk>/hands/", views.MatchHands.as_view(), name="match-hands"),
        path("matches/<int:pk>/replay/", views.MatchReplay.as_view(), name="match-replay"),
        path("uploads/", views.UploadListCreate.as_view(), name="upload-list"),
        path("uploads/<int:pk>/", views.UploadDetail.as_view(), name="upload-detail"),
        path("uploads/<int:pk>/rerun/", views.UploadRerun.as_view(), name="upload-rerun"),
    ],
    "v1",
)


class FirstApi(APIView):
    """The first API (before v1) answered at /api/uploads/, /api/matches/...: its addresses
    now redirect permanently, keeping the method and the body (308), to the same under v1.
    Throttled like every other endpoint."""

    permission_classes = [permissions.AllowAny]
    parser_classes: list = []
    throttle_scope = "read"
    schema = None  # not part of the documented API

    def redirect(self, request, rest: str):
        query = request.META.get("QUERY_STRING", "")
        target = f"/api/v1/{rest}" + (f"?{query}" if query else "")
        return HttpResponsePermanentRedirect(target, preserve_request=True)

    get = head = post = put = patch = delete = redirect


urlpatterns = [
    path("v1/", include(v1)),
    re_path(r"^(?P<rest>(uploads|matches|clubs|players)/.*)$", FirstApi.as_view()),
]
