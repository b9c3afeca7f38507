from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from api.docs import DocsView
from competitions import urls as competitions
from fivesite.refusals import refused
from games import urls as archive
from games.forms import SignInForm
from games.views import healthz
from replays import urls as replays

urlpatterns = [
    # The archive's first: "clubs/new/" is not a club's page ("clubs/<slug>/", competitions').
    path("", include(archive)),
    path("", include(replays)),
    # The club list, a club's own page, its seasons, events, leagues and inbox.
    path("", include(competitions)),
    path("", include("recorder.urls")),
    path("", include("webhooks.urls")),  # a club's webhooks, for its admins
    path("accounts/login/", LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # The words of what nginx refuses itself (deploy/nginx-site.conf asks for them).
    path("proxy/refused/<id:status>/", refused, name="proxy-refused"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", DocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("api.urls")),
    path("healthz", healthz, name="healthz"),
]

# An unknown address under /api/ answers in the API's error shape (with DEBUG off).
handler404 = "api.errors.not_found"
# The database away answers 503 with Retry-After (a page, or the API's error shape).
handler500 = "api.errors.server_error"
