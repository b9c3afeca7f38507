"""What the rules of clubs refuse, said the same wherever it is refused: by the clubs'
services and by the archive's above them (a match reviewed, a handle renamed, merged or
claimed), which raise the same exception."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from .models import Club


class ClubRefusal(Exception):
    """What the rules of clubs do not allow (not a question of who asks): says why, with a
    stable code for the API."""

    # The API's status: a conflict with what is stored (409), or a value out of its bounds
    # (400, ``clubs.dates.DateOutOfRange``).
    status = 409

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def require_admin(*, club: Club, user: Any) -> None:
    """Raise ``PermissionDenied`` unless ``user`` owns or administers the club."""
    if not club.is_admin(user):
        raise PermissionDenied(_("Only the club's owner and admins may do this."))


def require_owner(*, club: Club, user: Any) -> None:
    """Raise ``PermissionDenied`` unless ``user`` owns the club."""
    if not club.is_owner(user):
        raise PermissionDenied(_("Only the club's owner may do this."))
