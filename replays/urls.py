from django.conf import settings
from django.conf.urls.static import static
from django.urls import path

from . import data_views, puzzle_views, views

app_name = "replays"

urlpatterns = [
    path("matches/<id:pk>/", views.match_detail, name="match-detail"),
    path("matches/<id:pk>/analyse/", views.match_analyse, name="match-analyse"),
    path("players/<id:pk>/", views.player_detail, name="player-detail"),
    path("embed/matches/<id:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
    path("clubs/<str:slug>/ranking.csv", views.ranking_download, name="ranking-csv"),
    path("players/<id:pk>/practice/", views.player_practice, name="player-practice"),
    path("puzzles/", puzzle_views.puzzles_page, name="puzzles"),
    path("puzzles/<id:pk>/", puzzle_views.puzzle_page, name="puzzle"),
    path("data/", data_views.open_data, name="open-data"),
]
# The open data's files are nginx's to serve (deploy/nginx.py --data-root); Django serves them
# only with DEBUG (`make run`), as it does static files (``static`` gives nothing otherwise).
urlpatterns += static(settings.FIVES_DATA_URL, document_root=settings.FIVES_DATA_ROOT)
