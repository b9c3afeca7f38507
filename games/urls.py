from django.urls import path

from . import club_views, views

# The namespace "games" is shared with the club pages (clubs/urls.py), which kept their names
# when they moved: fivesite/urls.py includes the two lists as one.
app_name = "games"

urlpatterns = [
    path("", views.match_list, name="match-list"),
    path("matches/", views.match_list),
    path("players/names/", views.player_names, name="player-names"),
    path("accounts/signup/", views.signup, name="signup"),
    path("matches/<int:pk>/fives.json", views.match_download, name="match-download"),
    path("uploads/", views.my_uploads, name="my-uploads"),
    path("uploads/new/", views.upload_create, name="upload-create"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/delete/", views.upload_delete_view, name="upload-delete"),
    path("uploads/<int:pk>/rerun/", views.upload_rerun_view, name="upload-rerun"),
    path("settings/tokens/", views.token_settings, name="token-settings"),
    # A club's page and its admins' page (the archive's matches and players in them), and
    # an admin's decisions on matches and handles (games/club_views.py).
    path("matches/<int:pk>/review/", club_views.match_decide, name="match-decide"),
    path("clubs/<str:slug>/", club_views.club_detail, name="club-detail"),
    path("clubs/<str:slug>/manage/", club_views.club_manage, name="club-manage"),
    path("clubs/<str:slug>/review/", club_views.club_review, name="club-review"),
    path("clubs/<str:slug>/claims/<int:pk>/", club_views.claim_decide_view, name="claim-decide"),
    path("players/<int:pk>/claim/", club_views.player_claim, name="player-claim"),
    path("players/<int:pk>/rename/", club_views.player_rename_view, name="player-rename"),
    path("players/<int:pk>/merge/", club_views.player_merge_view, name="player-merge"),
]
