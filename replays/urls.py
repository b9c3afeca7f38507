from django.urls import path

from . import views

app_name = "replays"

urlpatterns = [
    path("embed/matches/<int:pk>/", views.embed, name="embed"),
    path("clubs/<str:slug>/ranking/", views.ranking, name="ranking"),
]
