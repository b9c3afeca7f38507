"""Caching of read answers, keyed by the archive's version (``ArchiveState``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import F
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

from .models import ArchiveState

TIMEOUT = 600


def archive_version() -> int:
    """Return the archive's version (one primary-key read)."""
    state = ArchiveState.objects.filter(pk=1).values_list("version", flat=True).first()
    if state is None:
        ArchiveState.objects.get_or_create(pk=1)
        return 1
    return state


def archive_changed() -> None:
    """Note that stored matches changed (call it inside the transaction that changed them)."""
    if not ArchiveState.objects.filter(pk=1).update(version=F("version") + 1):
        ArchiveState.objects.get_or_create(pk=1, defaults={"version": 2})


def cached(key: str, compute: Callable[[], Any]) -> Any:
    """Return the cached answer of ``key`` for the current archive version, or compute it."""
    full_key = f"fives:{archive_version()}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = compute()
        cache.set(full_key, value, TIMEOUT)
    return value


def cached_json(key: str, compute: Callable[[], Any]) -> HttpResponse:
    """Return a JSON response of ``compute()``, its bytes cached for the archive version."""
    body = cached(key, lambda: JSONRenderer().render(compute()))
    return HttpResponse(body, content_type="application/json")
