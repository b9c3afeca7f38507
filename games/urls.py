from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.match_list, name="match-list"),
    path("matches/", views.match_list),
    path("clubs/<str:slug>/", views.club_detail, name="club-detail"),
    path("uploads/new/", views.upload_create, name="upload-create"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    path("settings/tokens/", views.token_settings, name="token-settings"),
]
