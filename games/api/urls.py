from django.urls import path

from replays.views import player_stats_api, ranking_api, replay_api

from . import views

app_name = "api"

urlpatterns = [
    path("uploads/", views.UploadCreateView.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", views.UploadDetailView.as_view(), name="upload-detail"),
    path("matches/", views.MatchListView.as_view(), name="match-list"),
    path("matches/<int:pk>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:pk>/replay/", replay_api, name="match-replay"),
    path("clubs/<str:slug>/ranking/", ranking_api, name="club-ranking"),
    path("players/<int:pk>/stats/", player_stats_api, name="player-stats"),
]
