"""Fixed-window counts of requests in the cache (Redis in production): the API's throttles
and the sign-up page count with them."""

from __future__ import annotations

from typing import NamedTuple

from django.core.cache import cache


def parse_rate(rate: str) -> tuple[int, int]:
    """Return (requests, seconds) of a rate such as ``1200/min``."""
    number, unit = rate.split("/")
    return int(number), {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit[0]]


def count_hit(key: str, period: int) -> int:
    """Count one more request in the window ``key`` and return the count, atomically."""
    for _attempt in range(2):
        cache.add(key, 0, period + 1)
        try:
            return cache.incr(key)
        except ValueError:  # the window expired between add and incr: start it again
            continue
    return cache.incr(key)


class Window(NamedTuple):
    """A request counted: how many so far in its window, how many the rate allows, and
    when the window ends (seconds since the epoch)."""

    count: int
    limit: int
    reset: int


def window_hit(key: str, rate: str, now: float) -> Window:
    """Count one more request under ``key`` in the window of ``rate`` that holds ``now``.
    Raises whatever the cache raises: each caller decides what an unreachable cache means."""
    limit, period = parse_rate(rate)
    window = int(now // period)
    count = count_hit(f"{key}:{period}:{window}", period)
    return Window(count, limit, (window + 1) * period)
