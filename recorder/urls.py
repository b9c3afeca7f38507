from django.urls import path

from . import board_views, live_stream, live_views, views

app_name = "recorder"

urlpatterns = [
    path("record/", views.record, name="record"),
    path("record/sw.js", views.service_worker, name="service-worker"),
    path("record/engine.zip", views.engine_zip, name="engine"),
    path("record/engine-worker.js", views.engine_worker, name="engine-worker"),
    path("record/send/", views.send, name="send"),
    # The analysis board (board_views.py): the position, valued in the browser's engine.
    path("analyse/", board_views.board, name="board"),
    path("analyse/equity/<str:name>.json", board_views.board_equity, name="board-equity"),
    # Live tables (live_views.py; the streams, live_stream.py, are an ASGI server's).
    path("record/live/", live_views.live_steps, name="live-steps"),
    path("record/live/abandon/", live_views.live_abandon, name="live-abandon"),
    path("clubs/<str:slug>/live/", live_views.club_live, name="club-live"),
    path("clubs/<str:slug>/live/tables/", live_views.club_live_tables, name="club-live-tables"),
    path("live/<id:pk>/", live_views.live_match, name="live-match"),
    path("live/<id:pk>/steps/", live_views.live_steps_since, name="live-steps-since"),
    path("live/stream/<id:pk>/", live_stream.live_stream, name="live-stream"),
    path("live/stream/clubs/<str:slug>/", live_stream.club_live_stream, name="club-live-stream"),
]
