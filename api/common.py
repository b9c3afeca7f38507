"""What every API endpoint shares: token authentication with scopes, throttles, the error
shape and cursor pagination."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, pagination, permissions, throttling
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

from games.models import ApiToken
from games.ratelimit import Spent, budget_spend
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
    all of them), else the address (``games.clients.client_address``). The count is
    ``games.ratelimit.budget_spend``, the one every way in spends (the upload form and the
    recorder's send the upload budget); what it says is kept on the request for
    ``RateLimitHeadersMiddleware``. When the cache cannot be reached, each web process counts
    on its own: a limit still holds.
    """

    THROTTLE_RATES: dict[str, str] | None = None  # None: REST_FRAMEWORK's rates
    default_scope = "read"
    clock = staticmethod(time.time)

    def rates(self) -> dict[str, str]:
        return self.THROTTLE_RATES or api_settings.DEFAULT_THROTTLE_RATES or {}

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None) or self.default_scope
        rate = self.rates().get(scope)
        if not rate:
            return True
        self.spent: Spent = budget_spend(request, scope, rate=rate, now=self.clock())
        return self.spent.allowed

    def wait(self) -> int:
        """Whole seconds, as ``Retry-After`` and the body's ``retry_after`` both say them."""
        return self.spent.retry_after


class RateLimitHeadersMiddleware:
    """Put the budget's ``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (as GitHub
    does) on every answer of a view that spent one (``games.ratelimit.budget_spend``): the
    API's, the upload form's and the recorder's send."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        spent = getattr(request, "fives_rate_limit", None)
        if spent is not None:
            for name, value in spent.headers().items():
                response[name] = value
        return response


class InvalidCursor(exceptions.APIException):
    """A ``cursor`` the archive did not give: not base64, or a position that is no value of
    the list's ordering field (a word where an id goes, a number past any id)."""

    status_code = 400
    default_code = "invalid-cursor"
    default_detail = _(
        "The cursor is not one this list gave: follow the next and previous links, or start "
        "again without a cursor."
    )


def _ordering_field(model, path: str):
    """Return the model field a (possibly related, ``club__name``) ordering path ends at."""
    field = None
    for name in path.split("__"):
        field = model._meta.get_field(name)
        model = field.related_model if field.is_relation else model
    if field is not None and field.is_relation and field.target_field is not None:
        field = field.target_field  # a foreign key orders by the key it holds
    return field


class Cursor(pagination.CursorPagination):
    """Cursor pages of every list. A cursor that is not one the list gave is a 400
    ``invalid-cursor`` in the one error shape, whatever the ordering field's type: the REST
    framework answered an unreadable one 404 and passed any position to the database, so a
    word where a number goes was a 500 (issue 34, item 6)."""

    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "-id"

    def paginate_queryset(self, queryset, request, view=None):
        self.model = getattr(queryset, "model", None)
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request):
        try:
            cursor = super().decode_cursor(request)
        except exceptions.NotFound:
            raise InvalidCursor() from None
        if cursor is not None and cursor.position is not None:
            self.check_position(cursor.position)
        return cursor

    def check_position(self, position: str) -> None:
        """Refuse a position that is no value of the ordering's first field (the one the
        page is filtered by): it would reach the database as a bad value."""
        if "\x00" in position:  # decoded from base64: no text of the archive holds one
            raise InvalidCursor()
        if self.model is None:
            return
        try:
            field = _ordering_field(self.model, self.ordering[0].lstrip("-"))
        except (FieldDoesNotExist, AttributeError):
            return
        if field is None:
            return
        try:
            value = field.to_python(position)
            field.run_validators(value)  # an integer's range, a text's length
            field.get_prep_value(value)
        except (DjangoValidationError, ValueError, TypeError, OverflowError):
            raise InvalidCursor() from None


def json_response(body: bytes) -> HttpResponse:
    """Return JSON bytes (a cached answer) as a response."""
    return HttpResponse(body, content_type="application/json")


def render_json(data: Any) -> bytes:
    """Return ``data`` as JSON bytes (what the caches keep)."""
    return JSONRenderer().render(data)
