"""Who may read and who may change what an endpoint shows: anyone who may see it reads, a
signed-in person with a token of the manage scope may ask for a change, which the services
then allow or refuse (their own owner and admin rules)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.views import APIView

from .common import has_scope


class ReadsOrManages(permissions.BasePermission):
    """Anyone reads (as the club is visible to them); changing needs an account, and a
    token with the manage scope."""

    message = _("Managing clubs needs an account, and a token with the manage scope.")

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated) and has_scope(request, "manage")


class ReadOrManage(APIView):
    # An endpoint read by anyone who may see what it shows, changed by those the services
    # allow (``ReadsOrManages``). No docstring: the schema would say it of any method
    # without its own.

    permission_classes = [ReadsOrManages]
    throttle_scope = "read"
