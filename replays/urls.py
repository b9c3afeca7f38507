from django.urls import path

from . import views

# The seasons, events and leagues share this namespace (their pages kept their names): the site's
# urls.py joins competitions' routes to these (replays does not import competitions).
app_name = "replays"

urlpatterns = [
    path("matches/<id:pk>/", views.match_detail, name="match-detail"),
    path("matches/<id:pk>/analyse/", views.match_analyse, name="match-analyse"),
    path("players/<id:pk>/", views.player_detail, name="player-detail"),
    path("embed/matches/<id:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
    path("clubs/<str:slug>/ranking.csv", views.ranking_download, name="ranking-csv"),
    path("players/<id:pk>/practice/", views.player_practice, name="player-practice"),
]
