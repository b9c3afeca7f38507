"""What waits on a person (issue 36): the kinds of waiting items, each given by the app that
owns its data, and the announcement that new ones exist.

A kind (``clubs.hooks.WaitingKind``) is a slug, its name (lazy, what the email settings call
it) and two functions of its app: ``waiting(user)``, the items that wait on ``user`` now (a
fixed number of queries), and ``of(ids)``, the items the objects of ``ids`` make, each with
the person it waits on (for the emails). Words are built in the language active when they are
called. The apps fill ``clubs.hooks.WAITING_KINDS`` with their kinds in their
``AppConfig.ready()``: matches awaiting approval and join requests in ``games.waiting`` (a
join request is the club's, but its page, the club's manage page, is the archive's: clubs
holds no page to link to), league invitations, fixtures to confirm and disputes in
``competitions.waiting``. The inbox that gathers them, and the emails, are
``competitions.inbox``'s: it listens (``clubs.hooks.WAITING_LISTENERS``) to what the apps
``announce`` once their change commits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.functional import Promise

from .hooks import WAITING_KINDS, WAITING_LISTENERS, Waiting, WaitingKind

__all__ = ["Kind", "Waiting", "announce", "kinds", "waiting_for"]


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of waiting item (``clubs.hooks.WaitingKind``)."""

    slug: str
    name: Promise | str
    waiting: Callable[[Any], list[Waiting]]
    of: Callable[[Iterable[int]], list[Waiting]]


def kinds() -> dict[str, WaitingKind]:
    """Return every kind the apps filled, by its slug, in their order."""
    return {kind.slug: kind for kind in WAITING_KINDS.fills}


def waiting_for(user: Any) -> list[Waiting]:
    """Return everything that waits on ``user``, the newest first (a fixed number of
    queries: each kind's own)."""
    if user is None or not user.is_authenticated:
        return []
    items = [item for kind in WAITING_KINDS.fills for item in kind.waiting(user)]
    return sorted(items, key=lambda item: (item.since, item.key), reverse=True)


def announce(kind: str, ids: Iterable[int]) -> None:
    """Say that the objects of ``ids`` now make items of ``kind`` wait, once the current
    transaction commits (a rolled-back change announces nothing)."""
    ids = tuple(ids)
    if WAITING_KINDS.get(kind) is None:
        raise LookupError(f"no app fills the waiting kind {kind!r} (clubs.hooks)")
    if not ids:
        return

    def send() -> None:
        for listener in WAITING_LISTENERS.fills:
            listener(kind, ids)

    transaction.on_commit(send)
