"""Caching of read answers: per match under the match's own version, and lists under a
version kept in the cache store itself.

No database row is written to invalidate a cache: a match's entries are keyed by its
``cache_version`` (which a rescore changes) and by its club's names version (which renaming
or merging a handle changes: the answers show handles), and the lists' version is a random
token that ``lists_changed`` replaces after a commit, so concurrent ingest never queues on
one row.

The cache is a help, never a need: when its store (Redis) is unreachable, answers are
computed from the database and the failure is logged, not raised.

With a replica (``fivesite/db_router.py``) an answer made from it may miss the change that
retired the version it would be kept under: the replica had not replayed it yet, and the
stale answer would be served under the new version until the next change. A token says when
it was made, and an answer read from the replica within ``FIVES_REPLICA_PIN_SECONDS`` of
that (what a lag may last) is given but not kept.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from clubs.reads import reading_replica

logger = logging.getLogger(__name__)

TIMEOUT = 600
LISTS_KEY = "fives:lists-version"
NAMES_KEY = "fives:names-version"


def _safely(operation: Callable[[], Any], default: Any = None) -> Any:
    """Return ``operation()``, or ``default`` when the cache store cannot be reached."""
    try:
        return operation()
    except Exception as exc:  # the store's own errors differ by backend (Redis, memcached)
        logger.warning("cache unreachable, answering without it: %s", exc)
        return default


def _token(made_at: float) -> str:
    """Return a new token that says when the change it follows was made (0: none), to the
    millisecond, rounded down: a time rounded up would lie a moment in the future."""
    return f"{math.floor(made_at * 1000) / 1000:.3f}:{uuid.uuid4().hex}"


def _keep(token: str) -> bool:
    """Whether an answer made under ``token`` may be kept: not when it was read from a
    replica that may still lag behind the change that made the token."""
    made_at, _, rest = token.partition(":")
    recent = bool(rest) and time.time() - float(made_at) < settings.FIVES_REPLICA_PIN_SECONDS
    return not (recent and reading_replica())


def _version(key: str) -> str | None:
    """Return the token kept under ``key`` (made on first use), or None when the cache
    cannot be reached."""
    version = _safely(lambda: cache.get(key))
    if version is None:
        _safely(lambda: cache.add(key, _token(0), None))  # no change to wait for
        version = _safely(lambda: cache.get(key))
    return version


def _retire(key: str) -> None:
    """Replace the token under ``key`` once the current transaction commits."""
    transaction.on_commit(lambda: _safely(lambda: cache.set(key, _token(time.time()), None)))


def lists_version() -> str | None:
    """Return the current version of every list answer (made on first use), or None when
    the cache cannot be reached."""
    return _version(LISTS_KEY)


def lists_changed() -> None:
    """Retire every cached list once the current transaction commits."""
    _retire(LISTS_KEY)


def names_changed(club_id: int) -> None:
    """Retire every cached answer about the club's matches once the current transaction
    commits: a handle was renamed or merged, and those answers show handles."""
    _retire(f"{NAMES_KEY}:{club_id}")


def cached_for_match(match: Any, key: str, compute: Callable[[], Any]) -> Any:
    """Return the cached answer ``key`` about ``match``, or compute and keep it.

    It is kept under the match's own version (a rescore changes it) with the club's names
    token it was made under (a rename replaces the token): one round trip to the cache
    reads both, and an answer made under another token is made again.
    """
    names_key = f"{NAMES_KEY}:{match.club_id}"
    full_key = f"fives:{key}:{match.cache_version}"
    found = _safely(lambda: cache.get_many([names_key, full_key]), {}) or {}
    token = found.get(names_key) or _version(names_key)
    kept = found.get(full_key)
    if kept is not None and token is not None and kept[0] == token:
        return kept[1]
    value = compute()
    if token is not None and _keep(token):
        _safely(lambda: cache.set(full_key, (token, value), TIMEOUT))
    return value


def cached(key: str, compute: Callable[[], Any]) -> Any:
    """Return the cached value of ``key`` (a key that carries its own version), or compute
    and keep it."""
    full_key = f"fives:{key}"
    value = _safely(lambda: cache.get(full_key))
    if value is None:
        value = compute()
        _safely(lambda: cache.set(full_key, value, TIMEOUT))
    return value


def cached_list(key: str, compute: Callable[[], Any]) -> Any:
    """Return ``cached`` under the lists' current version (the key, a query string of any
    length, is hashed)."""
    version = lists_version()
    if version is None or not _keep(version):
        return compute()
    digest = hashlib.sha256(key.encode()).hexdigest()
    return cached(f"list:{version}:{digest}", compute)
