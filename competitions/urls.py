"""The pages of clubs, seasons, events (tournaments), team leagues and the inbox, in the
``competitions:`` namespace (``competitions:season-list``...). Their addresses are those they
had when they were named in ``replays:`` and ``games:``."""

from django.urls import path

from . import (
    calendar_views,
    club_views,
    inbox_views,
    league_views,
    season_views,
    tournament_views,
)

app_name = "competitions"

urlpatterns = [
    # The club list, a club's own page, leaving it, its calendar.
    path("clubs/", club_views.club_list, name="club-list"),
    path("clubs/<str:slug>/", club_views.club_detail, name="club-detail"),
    path("clubs/<str:slug>/leave/", club_views.club_leave, name="club-leave"),
    path("clubs/<str:slug>/calendar.ics", calendar_views.club_calendar, name="club-calendar"),
    path(
        "clubs/<str:slug>/calendar/reset/",
        calendar_views.calendar_key_reset,
        name="club-calendar-reset",
    ),
    path("clubs/<str:slug>/seasons/", season_views.season_list, name="season-list"),
    path("clubs/<str:slug>/seasons/<id:pk>/", season_views.season_detail, name="season-detail"),
    path(
        "clubs/<str:slug>/seasons/<id:pk>/standings.csv",
        season_views.season_csv,
        name="season-csv",
    ),
    path(
        "clubs/<str:slug>/seasons/<id:pk>/print/",
        season_views.season_print,
        name="season-print",
    ),
    path("clubs/<str:slug>/events/", tournament_views.tournament_list, name="event-list"),
    path(
        "clubs/<str:slug>/events/<id:pk>/", tournament_views.tournament_detail, name="event-detail"
    ),
    path(
        "clubs/<str:slug>/events/<id:pk>/edit/",
        tournament_views.tournament_edit,
        name="event-edit",
    ),
    path(
        "clubs/<str:slug>/events/<id:pk>/delete/",
        tournament_views.tournament_delete_view,
        name="event-delete",
    ),
    path(
        "clubs/<str:slug>/events/<id:pk>/schedule.csv",
        tournament_views.tournament_csv,
        name="event-csv",
    ),
    path("leagues/", league_views.league_list, name="league-list"),
    path("leagues/<id:pk>/", league_views.league_detail, name="league-detail"),
    path("leagues/<id:pk>/table.csv", league_views.league_csv, name="league-csv"),
    path("leagues/<id:pk>/edit/", league_views.league_edit, name="league-edit"),
    path("leagues/<id:pk>/schedule/", league_views.league_schedule, name="league-schedule"),
    path("leagues/<id:pk>/delete/", league_views.league_delete_view, name="league-delete"),
    path(
        "leagues/<id:pk>/teams/<id:team>/edit/",
        league_views.team_edit,
        name="league-team-edit",
    ),
    path(
        "leagues/<id:pk>/teams/<id:team>/delete/",
        league_views.team_delete_view,
        name="league-team-delete",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/edit/",
        league_views.fixture_edit,
        name="fixture-edit",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/reset/",
        league_views.fixture_reset_view,
        name="fixture-reset",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/delete/",
        league_views.fixture_delete_view,
        name="fixture-delete",
    ),
    path(
        "leagues/<id:pk>/clubs/<str:slug>/accept/",
        league_views.league_accept_view,
        name="league-accept",
    ),
    path("leagues/<id:pk>/clubs/<str:slug>/team/", league_views.team_new, name="league-team"),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/",
        league_views.fixture_detail,
        name="league-fixture",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/submit/",
        league_views.fixture_submit_view,
        name="fixture-submit",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/confirm/",
        league_views.fixture_confirm_view,
        name="fixture-confirm",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/dispute/",
        league_views.fixture_dispute_view,
        name="fixture-dispute",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/resolve/",
        league_views.fixture_resolve_view,
        name="fixture-resolve",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/postpone/",
        league_views.postpone_view,
        name="fixture-postpone",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/postpone/accept/",
        league_views.postpone_accept_view,
        name="fixture-postpone-accept",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/postpone/withdraw/",
        league_views.postpone_withdraw_view,
        name="fixture-postpone-withdraw",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/concede/",
        league_views.fixture_concede_view,
        name="fixture-concede",
    ),
    path(
        "leagues/<id:pk>/fixtures/<id:fixture>/walkover/",
        league_views.fixture_walkover_view,
        name="fixture-walkover",
    ),
    path(
        "leagues/<id:pk>/teams/<id:team>/withdraw/",
        league_views.team_withdraw_view,
        name="league-team-withdraw",
    ),
    path(
        "leagues/<id:pk>/teams/<id:team>/reinstate/",
        league_views.team_reinstate_view,
        name="league-team-reinstate",
    ),
    path(
        "leagues/<id:pk>/clubs/<str:slug>/decline/",
        league_views.league_decline_view,
        name="league-decline",
    ),
    path("inbox/", inbox_views.inbox_page, name="inbox"),
    path("settings/emails/", inbox_views.email_settings, name="email-settings"),
    path("emails/unsubscribe/<str:token>/", inbox_views.unsubscribe_page, name="unsubscribe"),
    path(
        "clubs/<str:slug>/seasons/<id:pk>/close/",
        season_views.season_close_view,
        name="season-close",
    ),
    # The calendar feeds (competitions.calendars).
    path("leagues/<id:pk>/calendar.ics", calendar_views.league_calendar, name="league-calendar"),
    path(
        "leagues/<id:pk>/match-time/",
        calendar_views.league_match_time,
        name="league-match-time",
    ),
    path(
        "leagues/<id:pk>/teams/<id:team>/calendar.ics",
        calendar_views.team_calendar,
        name="team-calendar",
    ),
    path("players/<id:pk>/calendar.ics", calendar_views.player_calendar, name="player-calendar"),
]
