"""The club pages' routes. Their names are those they had in ``games`` (``games:club-list``
and so on: templates, tests and bookmarks use them), so fivesite/urls.py includes this list
in the "games" namespace, with the archive's (which has the club's own page and its admins',
``games.club_views``: this list goes first, so ``clubs/new/`` is not taken for a club)."""

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<str:slug>/settings/", views.club_settings, name="club-settings"),
    path("clubs/<str:slug>/audit/", views.club_audit, name="club-audit"),
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
    path("join/<str:token>/", views.invitation, name="invitation"),
]
