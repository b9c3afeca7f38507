from django.urls import path

from . import event_views, season_views, views

app_name = "replays"

urlpatterns = [
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/analyse/", views.match_analyse, name="match-analyse"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("embed/matches/<int:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
    path("clubs/<str:slug>/ranking.csv", views.ranking_download, name="ranking-csv"),
    path("clubs/<str:slug>/seasons/", season_views.season_list, name="season-list"),
    path("clubs/<str:slug>/seasons/<int:pk>/", season_views.season_detail, name="season-detail"),
    path(
        "clubs/<str:slug>/seasons/<int:pk>/standings.csv",
        season_views.season_csv,
        name="season-csv",
    ),
    path("clubs/<str:slug>/events/", event_views.event_list, name="event-list"),
    path("clubs/<str:slug>/events/<int:pk>/", event_views.event_detail, name="event-detail"),
    path("clubs/<str:slug>/events/<int:pk>/edit/", event_views.event_edit, name="event-edit"),
    path(
        "clubs/<str:slug>/events/<int:pk>/delete/",
        event_views.event_delete_view,
        name="event-delete",
    ),
    path("clubs/<str:slug>/events/<int:pk>/schedule.csv", event_views.event_csv, name="event-csv"),
    path(
        "clubs/<str:slug>/seasons/<int:pk>/close/",
        season_views.season_close_view,
        name="season-close",
    ),
]
