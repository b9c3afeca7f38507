"""The club pages' routes. Their names are those they had in ``games`` (``games:club-detail``
and so on: templates, tests and bookmarks use them), so fivesite/urls.py includes this list
in the "games" namespace, with the archive's."""

from django.urls import path

from . import views

urlpatterns = [
    path("matches/<int:pk>/review/", views.match_decide, name="match-decide"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<str:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<str:slug>/settings/", views.club_settings, name="club-settings"),
    path("clubs/<str:slug>/manage/", views.club_manage, name="club-manage"),
    path("clubs/<str:slug>/audit/", views.club_audit, name="club-audit"),
    path("clubs/<str:slug>/review/", views.club_review, name="club-review"),
    path("clubs/<str:slug>/join/", views.club_join, name="club-join"),
    path("clubs/<str:slug>/leave/", views.club_leave, name="club-leave"),
    path("clubs/<str:slug>/members/", views.club_member_action, name="club-member-action"),
    path(
        "clubs/<str:slug>/requests/<int:pk>/",
        views.join_request_decide,
        name="join-request-decide",
    ),
    path("clubs/<str:slug>/invitations/", views.invitation_create, name="invitation-create"),
    path(
        "clubs/<str:slug>/invitations/<int:pk>/revoke/",
        views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("clubs/<str:slug>/claims/<int:pk>/", views.claim_decide_view, name="claim-decide"),
    path("join/<str:token>/", views.invitation, name="invitation"),
    path("players/<int:pk>/claim/", views.player_claim, name="player-claim"),
    path("players/<int:pk>/rename/", views.player_rename_view, name="player-rename"),
    path("players/<int:pk>/merge/", views.player_merge_view, name="player-merge"),
]
