from django.urls import path

from . import views

# The seasons, events and leagues share this namespace (their pages kept their names): the site's
# urls.py joins competitions' routes to these (replays does not import competitions).
app_name = "replays"

urlpatterns = [
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/analyse/", views.match_analyse, name="match-analyse"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("embed/matches/<int:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
    path("clubs/<str:slug>/ranking.csv", views.ranking_download, name="ranking-csv"),
    path("players/<int:pk>/practice/", views.player_practice, name="player-practice"),
]
