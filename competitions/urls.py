"""The pages of seasons, events (tournaments) and team leagues. Their URL names are those they
had in ``replays`` (``replays:season-list``...): fivesite/urls.py joins these routes to replays'
under that one namespace."""

from django.urls import path

from . import (
    calendar_views,
    club_views,
    inbox_views,
    league_views,
    season_views,
    tournament_views,
)

urlpatterns = [
    path("clubs/<str:slug>/seasons/", season_views.season_list, name="season-list"),
    path("clubs/<str:slug>/seasons/<int:pk>/", season_views.season_detail, name="season-detail"),
    path(
        "clubs/<str:slug>/seasons/<int:pk>/standings.csv",
        season_views.season_csv,
        name="season-csv",
    ),
    path(
        "clubs/<str:slug>/seasons/<int:pk>/print/",
        season_views.season_print,
        name="season-print",
    ),
    path("clubs/<str:slug>/events/", tournament_views.tournament_list, name="event-list"),
    path(
        "clubs/<str:slug>/events/<int:pk>/", tournament_views.tournament_detail, name="event-detail"
    ),
    path(
        "clubs/<str:slug>/events/<int:pk>/edit/",
        tournament_views.tournament_edit,
        name="event-edit",
    ),
    path(
        "clubs/<str:slug>/events/<int:pk>/delete/",
        tournament_views.tournament_delete_view,
        name="event-delete",
    ),
    path(
        "clubs/<str:slug>/events/<int:pk>/schedule.csv",
        tournament_views.tournament_csv,
        name="event-csv",
    ),
    path("leagues/", league_views.league_list, name="league-list"),
    path("leagues/<int:pk>/", league_views.league_detail, name="league-detail"),
    path("leagues/<int:pk>/table.csv", league_views.league_csv, name="league-csv"),
    path("leagues/<int:pk>/edit/", league_views.league_edit, name="league-edit"),
    path("leagues/<int:pk>/schedule/", league_views.league_schedule, name="league-schedule"),
    path("leagues/<int:pk>/delete/", league_views.league_delete_view, name="league-delete"),
    path(
        "leagues/<int:pk>/teams/<int:team>/edit/",
        league_views.team_edit,
        name="league-team-edit",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/delete/",
        league_views.team_delete_view,
        name="league-team-delete",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/edit/",
        league_views.fixture_edit,
        name="fixture-edit",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/reset/",
        league_views.fixture_reset_view,
        name="fixture-reset",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/delete/",
        league_views.fixture_delete_view,
        name="fixture-delete",
    ),
    path(
        "leagues/<int:pk>/clubs/<str:slug>/accept/",
        league_views.league_accept_view,
        name="league-accept",
    ),
    path("leagues/<int:pk>/clubs/<str:slug>/team/", league_views.team_new, name="league-team"),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/",
        league_views.fixture_detail,
        name="league-fixture",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/submit/",
        league_views.fixture_submit_view,
        name="fixture-submit",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/confirm/",
        league_views.fixture_confirm_view,
        name="fixture-confirm",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/dispute/",
        league_views.fixture_dispute_view,
        name="fixture-dispute",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/resolve/",
        league_views.fixture_resolve_view,
        name="fixture-resolve",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/concede/",
        league_views.fixture_concede_view,
        name="fixture-concede",
    ),
    path(
        "leagues/<int:pk>/fixtures/<int:fixture>/walkover/",
        league_views.fixture_walkover_view,
        name="fixture-walkover",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/withdraw/",
        league_views.team_withdraw_view,
        name="league-team-withdraw",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/reinstate/",
        league_views.team_reinstate_view,
        name="league-team-reinstate",
    ),
    path(
        "leagues/<int:pk>/clubs/<str:slug>/decline/",
        league_views.league_decline_view,
        name="league-decline",
    ),
    path("inbox/", inbox_views.inbox_page, name="inbox"),
    path("settings/emails/", inbox_views.email_settings, name="email-settings"),
    path("emails/unsubscribe/<str:token>/", inbox_views.unsubscribe_page, name="unsubscribe"),
    path(
        "clubs/<str:slug>/seasons/<int:pk>/close/",
        season_views.season_close_view,
        name="season-close",
    ),
    # The calendar feeds (competitions.calendars).
    path("leagues/<int:pk>/calendar.ics", calendar_views.league_calendar, name="league-calendar"),
    path(
        "leagues/<int:pk>/match-time/",
        calendar_views.league_match_time,
        name="league-match-time",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/calendar.ics",
        calendar_views.team_calendar,
        name="team-calendar",
    ),
    path("players/<int:pk>/calendar.ics", calendar_views.player_calendar, name="player-calendar"),
]

# The club list and a club's own page, in the "games" namespace (games:club-list,
# games:club-detail), after the archive's routes (fivesite/urls.py).
club_urlpatterns = [
    path("clubs/", club_views.club_list, name="club-list"),
    path("clubs/<str:slug>/", club_views.club_detail, name="club-detail"),
    path("clubs/<str:slug>/leave/", club_views.club_leave, name="club-leave"),
    path("clubs/<str:slug>/calendar.ics", calendar_views.club_calendar, name="club-calendar"),
    path(
        "clubs/<str:slug>/calendar/reset/",
        calendar_views.calendar_key_reset,
        name="club-calendar-reset",
    ),
]
