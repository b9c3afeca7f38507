"""Caching of read answers: per match under the match's own version, and lists under a
version kept in the cache store itself.

No database row is written to invalidate a cache: a match's entries are keyed by its
``cache_version`` (which a rescore changes), and the lists' version is a random token that
``lists_changed`` replaces after a commit, so concurrent ingest never queues on one row.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

TIMEOUT = 600
LISTS_KEY = "fives:lists-version"


def lists_version() -> str:
    """Return the current version of every list answer (made on first use)."""
    version = cache.get(LISTS_KEY)
    if version is None:
        cache.add(LISTS_KEY, uuid.uuid4().hex, None)
        version = cache.get(LISTS_KEY) or "0"
    return version


def lists_changed() -> None:
    """Retire every cached list once the current transaction commits."""
    transaction.on_commit(lambda: cache.set(LISTS_KEY, uuid.uuid4().hex, None))


def cached(key: str, compute: Callable[[], Any]) -> Any:
    """Return the cached value of ``key`` (a key that carries its own version), or compute
    and keep it."""
    full_key = f"fives:{key}"
    value = cache.get(full_key)
    if value is None:
        value = compute()
        cache.set(full_key, value, TIMEOUT)
    return value


def cached_list(key: str, compute: Callable[[], Any]) -> Any:
    """Return ``cached`` under the lists' current version (the key, a query string of any
    length, is hashed)."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    return cached(f"list:{lists_version()}:{digest}", compute)


def json_response(body: bytes) -> HttpResponse:
    """Return JSON bytes as a response."""
    return HttpResponse(body, content_type="application/json")


def render_json(data: Any) -> bytes:
    """Return ``data`` as JSON bytes (what the caches keep)."""
    return JSONRenderer().render(data)
