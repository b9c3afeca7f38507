"""The per-address limit on wrong passwords, beside django-axes' lock of a name at an address.

django-axes locks a name at one address after ``FIVES_SIGNIN_FAILURES`` wrong passwords
(``AXES_LOCKOUT_PARAMETERS``): a stranger's guesses can no longer lock the real person out
from everywhere. One address guessing at many names meets this slower limit instead: after
``FIVES_SIGNIN_ADDRESS_FAILURES`` wrong passwords (any names) in the window, every sign-in
from it is refused, counted in the cache as the API's throttles are (``games.ratelimit``).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from .clients import client_address
from .ratelimit import window_count, window_hit


def _key(request) -> str:
    return f"fives:signin-failures:{client_address(request)}"


class AddressLimitBackend:
    """Before ModelBackend: refuse every sign-in from an address past its limit. Raising
    PermissionDenied stops Django trying the other backends; axes' middleware then answers
    with the lock-out page (``games.views.signin_locked_out``). No ``get_user``: it signs
    nobody in, so Django never records it as the backend of a session (nor does the test
    client's ``force_login`` pick it)."""

    def authenticate(self, request, **credentials):
        if request is None:
            return None
        count = window_count(_key(request), settings.FIVES_SIGNIN_ADDRESS_FAILURES, time.time())
        if count.count >= count.limit:
            request.axes_locked_out = True
            request.fives_signin_wait = count.retry_after
            raise PermissionDenied
        return None


@receiver(user_login_failed)
def count_a_wrong_password(sender, credentials, request=None, **kwargs):
    """Every refused sign-in counts against its address, a refused locked one too."""
    if request is not None:
        window_hit(_key(request), settings.FIVES_SIGNIN_ADDRESS_FAILURES, time.time())
