"""Sliding-window counts of requests: the API's throttles and the sign-up page count with them.

The count lives in the cache (Redis in production), with its atomic ``add`` and ``incr``, so
every web process shares it. A window is a fixed period, but the count a request is judged by
slides (as Cloudflare's limiter does): the requests of the current period plus those of the
previous one weighted by how much of it still lies within the last ``period`` seconds. A
client can therefore never get twice the limit through across a window's edge, as a plain
fixed window lets it (the limit at the end of one window and again at the start of the next).

When the cache cannot be reached, each process counts on its own in memory (a warning is
logged): a limit still holds, at worst once per web process, instead of none at all.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

from .clients import client_ident

logger = logging.getLogger(__name__)


def parse_rate(rate: str) -> tuple[int, int]:
    """Return (requests, seconds) of a rate such as ``1200/min``, or over several units as
    django-ratelimit writes it (``1/10s``, ``100/5m``)."""
    number, period = rate.split("/")
    units = re.fullmatch(r"(\d*)([smhd])\w*", period)
    if units is None:
        raise ValueError(f"not a rate: {rate!r}")
    count, unit = units.groups()
    return int(number), int(count or 1) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit]


def count_hit(key: str, period: int) -> int:
    """Count one more request in the window ``key`` and return the count, atomically. The
    key outlives its window by one more, for the next window's sliding count."""
    for _attempt in range(2):
        cache.add(key, 0, 2 * period + 1)
        try:
            return cache.incr(key)
        except ValueError:  # the window expired between add and incr: start it again
            continue
    return cache.incr(key)


class LocalCounts:
    """The counts of this process, used while the shared cache is away."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.window: dict[int, set[str]] = {}  # period -> keys, to forget old windows

    def hit(self, key: str) -> int:
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            return self.counts[key]

    def get(self, key: str) -> int:
        with self.lock:
            return self.counts.get(key, 0)

    def forget_before(self, period: int, window: int) -> None:
        """Drop the counts of this period's windows older than the previous one."""
        with self.lock:
            keep = (f":{period}:{window}", f":{period}:{window - 1}")
            for key in [k for k in self.counts if f":{period}:" in k]:
                if not key.endswith(keep):
                    del self.counts[key]


local_counts = LocalCounts()


class Window(NamedTuple):
    """A request counted: its sliding count, how many the rate allows, when the current
    window ends (seconds since the epoch) and how long until a request would pass again."""

    count: int
    limit: int
    reset: int
    retry_after: float


def _wait(current: int, previous: int, limit: int, period: int, into: float) -> float:
    """Seconds from now until one more request's sliding count stays within ``limit``: the
    previous window's weight falls as time passes, and at this window's end the current one
    becomes the previous. ``into`` is how far into the window now is, 0 to 1."""
    room = limit - current - 1  # what the previous window's weighted count may still be
    if room >= 0:
        if previous <= room:
            return 0.0
        # ceil(previous * (1 - f)) <= room  <=>  f >= 1 - room / previous
        return max(0.0, 1 - room / previous - into) * period
    # In the next window this one is the previous: 1 + ceil(current * (1 - f)) <= limit.
    return (1 - into) * period + max(0.0, 1 - (limit - 1) / current) * period


def window_hit(key: str, rate: str, now: float) -> Window:
    """Count one more request under ``key`` with ``rate`` at ``now`` (seconds since the
    epoch) and return its sliding count. An unreachable cache is counted in this process."""
    limit, period = parse_rate(rate)
    window = int(now // period)
    into = (now - window * period) / period
    current_key, previous_key = f"{key}:{period}:{window}", f"{key}:{period}:{window - 1}"
    try:
        current = count_hit(current_key, period)
        previous = cache.get(previous_key) or 0
    except Exception:
        logger.warning(
            "The cache failed: this request is counted in this process only", exc_info=True
        )
        local_counts.forget_before(period, window)
        current = local_counts.hit(current_key)
        previous = local_counts.get(previous_key)
    count = current + math.ceil(previous * (1 - into) - 1e-9)  # 2.0000000001 requests are 2
    return Window(
        count=count,
        limit=limit,
        reset=(window + 1) * period,
        retry_after=_wait(current, previous, limit, period, into),
    )


def window_count(key: str, rate: str, now: float) -> Window:
    """The sliding count under ``key`` at ``now`` without counting a request: what the next
    ``window_hit`` would be judged by, less itself."""
    limit, period = parse_rate(rate)
    window = int(now // period)
    into = (now - window * period) / period
    current_key, previous_key = f"{key}:{period}:{window}", f"{key}:{period}:{window - 1}"
    try:
        current = cache.get(current_key) or 0
        previous = cache.get(previous_key) or 0
    except Exception:
        logger.warning("The cache failed: this count is this process's only", exc_info=True)
        current, previous = local_counts.get(current_key), local_counts.get(previous_key)
    count = current + math.ceil(previous * (1 - into) - 1e-9)
    return Window(
        count=count,
        limit=limit,
        reset=(window + 1) * period,
        retry_after=_wait(current, previous, limit, period, into),
    )


def throttle_key(scope: str, ident: str) -> str:
    """The counter of a scope's budget (``read``, ``upload``, ``export``) for one client: the
    API's throttles and every page that spends the same budget share it (``budget_spend``)."""
    return f"fives:throttle:{scope}:{ident}"


def throttle_rate(scope: str) -> str | None:
    """The rate of a scope, as the REST framework's settings name it."""
    return settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)


def retry_seconds(wait: float) -> int:
    """The one way the site says how long to wait, in a ``Retry-After`` header and in a body
    alike: whole seconds, rounded up (79.00000001 s is 79: a float's dust is no second), and
    at least 1."""
    return max(1, math.ceil(round(wait, 6)))


@dataclass(frozen=True)
class Spent:
    """One request counted against a budget: whether it passes, the ``X-RateLimit-*``
    figures, and past the budget the whole seconds until one more would pass."""

    allowed: bool
    limit: int
    remaining: int
    reset: int  # when the window ends, in seconds since the epoch
    retry_after: int  # retry_seconds of the wait (0 while allowed)

    def headers(self) -> dict[str, str]:
        """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset``, as GitHub's API says them."""
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


def budget_spend(
    request,
    scope: str,
    *,
    rate: str | None = None,
    now: float | None = None,
    ident: str | None = None,
) -> Spent | None:
    """Count ``request`` against its sender's budget of ``scope`` and return what it spent,
    or None when the scope has no rate. Every way in calls this one function with the same
    key per person (``client_ident``: the signed-in person, whichever token or session, else
    the address): the API's throttles (``api.common.ClientThrottle``), and for uploads the
    upload form, its re-run and the recorder's send. The figures are kept on the request
    (``fives_rate_limit``), where ``api.common.RateLimitHeadersMiddleware`` puts them on the
    answer, whichever way in it was. ``ident`` counts for another than the sender (a
    calendar feed's address, fetched by calendar services for many people)."""
    rate = rate if rate is not None else throttle_rate(scope)
    if not rate:
        return None
    hit = window_hit(
        throttle_key(scope, ident or client_ident(request)),
        rate,
        time.time() if now is None else now,
    )
    allowed = hit.count <= hit.limit
    spent = Spent(
        allowed=allowed,
        limit=hit.limit,
        remaining=max(0, hit.limit - hit.count),
        reset=hit.reset,
        retry_after=0 if allowed else retry_seconds(hit.retry_after),
    )
    # A REST framework request wraps Django's: the middleware sees Django's.
    getattr(request, "_request", request).fives_rate_limit = spent
    return spent


def uploads_wait_message(seconds: int) -> str:
    """What a person reads past the upload budget, on the form, a re-run or the recorder."""
    return ngettext(
        "You have sent as many uploads as a minute allows. Try again in %(seconds)d second.",
        "You have sent as many uploads as a minute allows. Try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}
