"""What every API endpoint shares: token authentication with scopes, throttles, the error
shape and cursor pagination."""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, pagination, permissions, throttling
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

from games.clients import client_ident
from games.models import ApiToken
from games.ratelimit import throttle_key, window_hit
from games.services.uploads import upload_may_manage
from games.tokens import token_find

logger = logging.getLogger(__name__)


class ApiTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer fives_...`` (or ``Token fives_...``): a personal API token."""

    keywords = (b"bearer", b"token")

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in self.keywords:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("The Authorization header takes one token."))
        token = token_find(parts[1].decode("latin-1"))
        if token is None:
            raise exceptions.AuthenticationFailed(_("Unknown or revoked token."))
        return token.user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.common.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "A personal API token."}


def has_scope(request, scope: str) -> bool:
    """Return whether the request may act with ``scope``: a token needs it, a signed-in
    browser session has every scope."""
    if isinstance(request.auth, ApiToken):
        return scope in request.auth.scopes
    return bool(request.user and request.user.is_authenticated)


class CanUpload(permissions.BasePermission):
    message = _("Uploading needs an account, and a token with the upload scope.")

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated) and has_scope(request, "upload")


class CanManageUpload(permissions.BasePermission):
    """The uploader or an admin of the upload's club, with the manage scope."""

    message = _("Only the uploader or an admin of its club may do this, with the manage scope.")

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, upload):
        if not has_scope(request, "manage"):
            return False
        return upload_may_manage(upload=upload, user=request.user)


class ClientThrottle(throttling.BaseThrottle):
    """A sliding-window counter per client and per scope of endpoint (``read`` when a view
    names none), kept in the cache with its atomic ``add`` and ``incr`` (Redis ``INCR``), so
    concurrent requests can never get past the limit together (``games.ratelimit``).

    The client is the signed-in person, whichever token or session they use (one bucket for
    all of them), else the address (``games.clients.client_address``). What the counter says
    is kept on the request for ``RateLimitHeadersMiddleware``. When the cache cannot be
    reached, each web process counts on its own: a limit still holds.
    """

    THROTTLE_RATES: dict[str, str] | None = None  # None: REST_FRAMEWORK's rates
    default_scope = "read"
    clock = staticmethod(time.time)

    def rates(self) -> dict[str, str]:
        return self.THROTTLE_RATES or api_settings.DEFAULT_THROTTLE_RATES or {}

    ident = staticmethod(client_ident)

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None) or self.default_scope
        rate = self.rates().get(scope)
        if not rate:
            return True
        self.now = self.clock()
        hit = window_hit(throttle_key(scope, self.ident(request)), rate, self.now)
        self.retry_after = hit.retry_after
        request._request.fives_rate_limit = RateLimit(
            limit=hit.limit, remaining=max(0, hit.limit - hit.count), reset=hit.reset
        )
        return hit.count <= hit.limit

    def wait(self) -> float:
        return max(1, math.ceil(round(self.retry_after, 6)))  # 79.00000001 s is 79


@dataclass(frozen=True)
class RateLimit:
    limit: int
    remaining: int
    reset: int  # when the window ends, in seconds since the epoch

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


class RateLimitHeadersMiddleware:
    """Put the throttle's ``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (as GitHub
    does) on every answer of a throttled view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        rate_limit = getattr(request, "fives_rate_limit", None)
        if rate_limit is not None:
            for name, value in rate_limit.headers().items():
                response[name] = value
        return response


class Cursor(pagination.CursorPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "-id"


def json_response(body: bytes) -> HttpResponse:
    """Return JSON bytes (a cached answer) as a response."""
    return HttpResponse(body, content_type="application/json")


def render_json(data: Any) -> bytes:
    """Return ``data`` as JSON bytes (what the caches keep)."""
    return JSONRenderer().render(data)
