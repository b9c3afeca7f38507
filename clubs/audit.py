"""The audit trail of a club: what its owner and admins did, written by a direct call in the
transaction of the change (``record``), and said in words by a lookup of its action.

An action is a slug (``AuditEntry.action``) that the app taking it declares once, with its
name (what it is called alone: "removed a member") and, if it can say more, a function of
the entry's details and the person it was done to that says it in a sentence ("removed
Levan from the club"), or None when the entry is short of what it names; the app fills the
hook ``clubs.hooks.AUDIT_ACTIONS`` with them in its ``AppConfig.ready()``. A new kind of
entry is one ``Actions.add`` in its app: no migration of clubs. The club's own actions are
declared in ``clubs.audit_words``, the archive's in ``games.audit_words``, those of events
and leagues in ``competitions.audit_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from .hooks import AUDIT_ACTIONS, AuditAction
from .models import AuditEntry, Club

# The words of an entry: (its details, the person it was done to or "") -> a sentence, or
# None to say the action by its name alone.
Words = Callable[[dict[str, Any], str], str | None]


@dataclass(frozen=True, slots=True)
class Action:
    """An action of the trail (``clubs.hooks.AuditAction``)."""

    slug: str
    name: Promise | str  # lazy: said in the reader's language
    words: Words | None = None


class Actions(list[Action]):
    """The actions an app declares, in order, for its ``ready()`` to fill the trail with."""

    def add(self, slug: str, name: Promise | str, words: Words | None = None) -> str:
        """Declare an action, its name and its words; return its slug (what ``record``
        takes)."""
        self.append(Action(slug, name, words))
        return slug


def registered() -> dict[str, AuditAction]:
    """Return every action the apps filled the trail with, by its slug, in their order."""
    return {action.slug: action for action in AUDIT_ACTIONS.fills}


def record(
    *, club: Club, actor: Any, action: str, subject: Any = None, **detail: Any
) -> AuditEntry:
    """Write one entry of the club's audit trail (call it inside the change's transaction:
    the entry commits and rolls back with it)."""
    if AUDIT_ACTIONS.get(action) is None:
        raise LookupError(f"no app fills the audit trail with {action!r} (clubs.hooks)")
    return AuditEntry.objects.create(
        club=club, actor=actor, action=action, subject=subject, detail=detail
    )


def person(entry: AuditEntry) -> str:
    """Return the name of the person an entry's action was done to ("" if none, or gone)."""
    return entry.subject.get_username() if entry.subject_id and entry.subject else ""


def number(value: Any) -> int | None:
    """Return a detail that is a whole number, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def audit_sentence(entry: AuditEntry) -> str:
    """Return what an audit entry says, as a sentence whose subject is its actor: its
    action's words, else its name (an entry short of details), else its slug (an action
    no app registers any more)."""
    action = AUDIT_ACTIONS.get(entry.action)
    if action is None:
        return entry.action
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    said = action.words(detail, person(entry)) if action.words is not None else None
    return said if said is not None else str(action.name)
