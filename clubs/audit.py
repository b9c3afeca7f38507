"""The audit trail of a club: what its owner and admins did, written by a direct call in the
transaction of the change (``record``), and said in words by a lookup of its action.

An action is a slug (``AuditEntry.action``) that the app taking it registers once, with its
name (what it is called alone: "removed a member") and, if it can say more, a function of
the entry's details and the person it was done to that says it in a sentence ("removed
Levan from the club"), or None when the entry is short of what it names. A new kind of
entry is a ``register`` call in its app: no migration of clubs. The club's own actions are
registered in ``clubs.audit_words``, the archive's in ``games.audit_words``, those of events
and leagues in ``competitions.audit_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from .models import AuditEntry, Club

# The words of an entry: (its details, the person it was done to or "") -> a sentence, or
# None to say the action by its name alone.
Words = Callable[[dict[str, Any], str], str | None]


@dataclass(frozen=True, slots=True)
class Action:
    slug: str
    name: Promise | str  # lazy: said in the reader's language
    words: Words | None = None


_actions: dict[str, Action] = {}


def register(slug: str, name: Promise | str, words: Words | None = None) -> str:
    """Register an action of the audit trail, its name and its words; return its slug.
    Registering the same slug again replaces it (a module imported twice)."""
    _actions[slug] = Action(slug, name, words)
    return slug


def registered() -> dict[str, Action]:
    """Return every registered action by its slug."""
    return dict(_actions)


def record(
    *, club: Club, actor: Any, action: str, subject: Any = None, **detail: Any
) -> AuditEntry:
    """Write one entry of the club's audit trail (call it inside the change's transaction:
    the entry commits and rolls back with it)."""
    if action not in _actions:
        raise LookupError(f"no audit action {action!r} is registered (clubs.audit.register)")
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
    action = _actions.get(entry.action)
    if action is None:
        return entry.action
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    said = action.words(detail, person(entry)) if action.words is not None else None
    return said if said is not None else str(action.name)


# The club's own actions come with the registry, first, whoever imports it first: the
# trail's actions are listed (the API's schema) clubs', then the archive's, then the rest.
from . import audit_words  # noqa: E402, F401
