from django.urls import path

from replays.views import player_stats_api, ranking_api, replay_api

from . import v1

app_name = "v1"

urlpatterns = [
    path("ping/", v1.Ping.as_view(), name="ping"),
    path("clubs/", v1.ClubList.as_view(), name="club-list"),
    path("clubs/<str:slug>/", v1.ClubDetail.as_view(), name="club-detail"),
    path("clubs/<str:slug>/ranking/", ranking_api, name="club-ranking"),
    path("players/", v1.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>/", v1.PlayerDetail.as_view(), name="player-detail"),
    path("players/<int:pk>/stats/", player_stats_api, name="player-stats"),
    path("matches/", v1.MatchList.as_view(), name="match-list"),
    path("matches/export", v1.MatchExport.as_view(), name="match-export"),
    path("matches/<int:pk>/", v1.MatchDetail.as_view(), name="match-detail"),
    path("matches/<int:pk>/hands/", v1.MatchHands.as_view(), name="match-hands"),
    path("matches/<int:pk>/replay/", replay_api, name="match-replay"),
    path("uploads/", v1.UploadListCreate.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", v1.UploadDetail.as_view(), name="upload-detail"),
    path("uploads/<int:pk>/rerun/", v1.UploadRerun.as_view(), name="upload-rerun"),
]
