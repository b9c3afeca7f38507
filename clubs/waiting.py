"""What waits on a person (issue 36): the registry of the kinds of waiting items, each
provided by the app that owns its data, and the announcement that new ones exist.

A kind (``register``) is a slug, its name (lazy, what the email settings call it) and two
functions of its app: ``waiting(user)``, the items that wait on ``user`` now (a fixed number
of queries), and ``of(ids)``, the items the objects of ``ids`` make, each with the person it
waits on (for the emails). Words are built in the language active when they are called.
The kinds register in their apps' ``AppConfig.ready()``: matches awaiting approval and
join requests in ``games.waiting`` (a join request is the club's, but its page, the club's
manage page, is the archive's: clubs holds no page to link to), league invitations, fixtures
to confirm and disputes in ``competitions.waiting``. The inbox that gathers them,
and the emails, are ``competitions.inbox``'s: it listens (``listen``) to what the apps
``announce`` once their change commits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.functional import Promise


@dataclass(frozen=True, slots=True)
class Waiting:
    """One item waiting on one person: what it is, where it is done, since when."""

    kind: str
    # Unique for the item and the occasion (a fixture submitted again is a new one): an email
    # is sent once per person and key.
    key: str
    user_id: int
    title: str
    where: str  # the club or league it belongs to, as words
    url: str  # the page that does it (a path)
    since: datetime


@dataclass(frozen=True, slots=True)
class Kind:
    slug: str
    name: Promise | str
    waiting: Callable[[Any], list[Waiting]]
    of: Callable[[Iterable[int]], list[Waiting]]


_kinds: dict[str, Kind] = {}
_listeners: list[Callable[[str, tuple[int, ...]], None]] = []


def register(
    slug: str,
    name: Promise | str,
    waiting: Callable[[Any], list[Waiting]],
    of: Callable[[Iterable[int]], list[Waiting]],
) -> str:
    """Register a kind of waiting item; return its slug (registering again replaces it)."""
    _kinds[slug] = Kind(slug, name, waiting, of)
    return slug


def kinds() -> dict[str, Kind]:
    """Return every registered kind by its slug, in the order registered."""
    return dict(_kinds)


def waiting_for(user: Any) -> list[Waiting]:
    """Return everything that waits on ``user``, the newest first (a fixed number of
    queries: each kind's own)."""
    if user is None or not user.is_authenticated:
        return []
    items = [item for kind in _kinds.values() for item in kind.waiting(user)]
    return sorted(items, key=lambda item: (item.since, item.key), reverse=True)


def listen(listener: Callable[[str, tuple[int, ...]], None]) -> None:
    """Call ``listener(kind, ids)`` with every announcement from now on (once)."""
    if listener not in _listeners:
        _listeners.append(listener)


def announce(kind: str, ids: Iterable[int]) -> None:
    """Say that the objects of ``ids`` now make items of ``kind`` wait, once the current
    transaction commits (a rolled-back change announces nothing)."""
    ids = tuple(ids)
    if kind not in _kinds:
        raise LookupError(f"no waiting kind {kind!r} is registered (clubs.waiting.register)")
    if not ids:
        return

    def send() -> None:
        for listener in list(_listeners):
            listener(kind, ids)

    transaction.on_commit(send)
