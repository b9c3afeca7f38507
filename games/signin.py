"""The per-address limit on wrong passwords, beside django-axes' lock of a name at an address.

django-axes locks a name at one address after ``FIVES_SIGNIN_FAILURES`` wrong passwords
(``AXES_LOCKOUT_PARAMETERS``): a stranger's guesses can no longer lock the real person out
from everywhere. One address guessing at many names meets this slower limit instead: after
``FIVES_SIGNIN_ADDRESS_FAILURES`` wrong passwords (any names) in the window, every sign-in
from it is refused, counted in the cache as the API's throttles are (``games.ratelimit``).
"""

from __future__ import annotations

import time

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.dispatch import receiver
from django.utils import timezone

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


def signin_lock_left(request, credentials=None) -> float:
    """Seconds until axes' lock of a name at an address lifts: its cool-off from the latest
    failure it counted (a try refused during the lock is not counted, so the lock does not
    grow). The whole cool-off when that cannot be told (a request axes has not read)."""
    cool_off = get_cool_off(request)
    if cool_off is None:
        return 0.0
    try:
        attempts = AxesProxyHandler.get_implementation().get_user_attempts(request, credentials)
    except (AttributeError, NotImplementedError):
        return cool_off.total_seconds()
    times = [found.aggregate(latest=Max("attempt_time"))["latest"] for found in attempts]
    latest = max((moment for moment in times if moment is not None), default=None)
    if latest is None:
        return cool_off.total_seconds()
    return max(0.0, (latest + cool_off - timezone.now()).total_seconds())


# The longest name a person may have (Django's ``User.username``); axes keeps the names it
# counts in a column of 255, which a longer guess would overflow (a 500 on PostgreSQL).
NAME_LONGEST = 150


def signin_name(request, credentials=None) -> str | None:
    """The name axes counts a sign-in against (``AXES_USERNAME_CALLABLE``): as typed, cut to
    the longest a person's name may be: no longer guess is anyone's name, so cut they count
    as one."""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "data", request.POST).get("username")
    return name[:NAME_LONGEST] if isinstance(name, str) else name
