from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("clubs/<str:slug>/webhooks/", views.endpoints, name="endpoints"),
    path("clubs/<str:slug>/webhooks/<id:pk>/", views.endpoint, name="endpoint"),
    path(
        "clubs/<str:slug>/webhooks/<id:pk>/change/", views.endpoint_action, name="endpoint-action"
    ),
    path(
        "clubs/<str:slug>/webhooks/<id:pk>/deliveries/<id:delivery>/resend/",
        views.delivery_resend,
        name="delivery-resend",
    ),
]
