from django.urls import path

from . import views

app_name = "recorder"

urlpatterns = [
    path("record/", views.record, name="record"),
    path("record/sw.js", views.service_worker, name="service-worker"),
    path("record/engine.zip", views.engine_zip, name="engine"),
    path("record/send/", views.send, name="send"),
]
