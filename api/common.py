"""What every API endpoint shares: token authentication with scopes, throttles, the error
shape and cursor pagination."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, pagination, permissions, throttling
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from games.models import ApiToken
from games.tokens import token_find


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
        if upload.uploader_id == request.user.pk:
            return True
        return upload.club is not None and upload.club.admins.filter(pk=request.user.pk).exists()


class ClientThrottle(throttling.ScopedRateThrottle):
    """Limits per token, else per signed-in user, else per address, for the view's scope."""

    def get_cache_key(self, request, view):
        if isinstance(request.auth, ApiToken):
            ident = f"token-{request.auth.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class Cursor(pagination.CursorPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "-id"
