from django.urls import path

from . import views

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
]
