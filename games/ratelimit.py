"""Fixed-window counts of requests in the cache (Redis in production): the API's throttles
and the sign-up page count with them."""

from __future__ import annotations

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
