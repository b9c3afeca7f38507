from django.urls import path

from . import club_admin_views, club_views, views

# The club list and a club's own page are competitions' (competitions:club-list...): the site
# includes them after these routes ("clubs/new/" is not a club's page).
app_name = "games"

urlpatterns = [
    # A club's membership and its admins' settings (club_admin_views.py), first: "clubs/new/"
    # is not a club's address.
    path("clubs/new/", club_admin_views.club_create, name="club-create"),
    path("clubs/<str:slug>/settings/", club_admin_views.club_settings, name="club-settings"),
    path("clubs/<str:slug>/audit/", club_admin_views.club_audit, name="club-audit"),
    path("clubs/<str:slug>/join/", club_admin_views.club_join, name="club-join"),
    path(
        "clubs/<str:slug>/members/", club_admin_views.club_member_action, name="club-member-action"
    ),
    path(
        "clubs/<str:slug>/requests/<id:pk>/",
        club_admin_views.join_request_decide,
        name="join-request-decide",
    ),
    path(
        "clubs/<str:slug>/invitations/",
        club_admin_views.invitation_create,
        name="invitation-create",
    ),
    path(
        "clubs/<str:slug>/invitations/<id:pk>/revoke/",
        club_admin_views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("join/<str:token>/", club_admin_views.invitation, name="invitation"),
    path("", views.match_list, name="match-list"),
    path("matches/", views.match_list),
    path("players/names/", views.player_names, name="player-names"),
    path("accounts/signup/", views.signup, name="signup"),
    path("matches/<id:pk>/fives.json", views.match_download, name="match-download"),
    path("uploads/", views.my_uploads, name="my-uploads"),
    path("uploads/new/", views.upload_create, name="upload-create"),
    path("uploads/<id:pk>/", views.upload_detail, name="upload-detail"),
    path("uploads/<id:pk>/delete/", views.upload_delete_view, name="upload-delete"),
    path("uploads/<id:pk>/rerun/", views.upload_rerun_view, name="upload-rerun"),
    path("settings/tokens/", views.token_settings, name="token-settings"),
    # A club's page and its admins' page (the archive's matches and players in them), and
    # an admin's decisions on matches and handles (games/club_views.py).
    path("matches/<id:pk>/review/", club_views.match_decide, name="match-decide"),
    path("clubs/<str:slug>/manage/", club_views.club_manage, name="club-manage"),
    path("clubs/<str:slug>/review/", club_views.club_review, name="club-review"),
    path("clubs/<str:slug>/claims/<id:pk>/", club_views.claim_decide_view, name="claim-decide"),
    path("players/<id:pk>/claim/", club_views.player_claim, name="player-claim"),
    path("players/<id:pk>/rename/", club_views.player_rename_view, name="player-rename"),
    path("players/<id:pk>/merge/", club_views.player_merge_view, name="player-merge"),
]
