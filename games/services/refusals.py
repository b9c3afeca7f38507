"""What the rules of clubs refuse, said the same wherever it is refused: by the archive's
services (a match reviewed, a handle renamed or merged) and by the clubs app's, which
raises the same exception (``clubs.services`` imports it from here: games never imports
the clubs app above it)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _


class ClubRefusal(Exception):
    """What the rules of clubs do not allow (not a question of who asks): says why, with a
    stable code for the API."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def require_admin(*, club: Any, user: Any) -> None:
    """Raise ``PermissionDenied`` unless ``user`` owns or administers the club."""
    if not club.is_admin(user):
        raise PermissionDenied(_("Only the club's owner and admins may do this."))
