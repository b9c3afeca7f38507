from django.urls import path

from . import views

app_name = "replays"

urlpatterns = [
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("embed/matches/<int:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
]
