"""The archive's extension points, each declared once, here (issue 57, item 4).

An app below asks and the apps above answer, with no import up the layers: the asking app
reads a hook declared here, and each app that answers fills it in its ``AppConfig.ready()``,
once every model is loaded. A hook says what a filler is (its protocol: a function of these
arguments, or an object of these fields) and whether it takes one filler or one and more;
``tests/test_hooks.py`` holds every hook filled as declared, each from an ``ready()``.

The hooks sit in clubs, the lowest app, so that any app may fill one (clubs fills the audit
trail with its own actions). A type of an app above clubs is ``Any`` here, named in words,
since clubs may not import it. The values a filler gives (``Waiting``, ``EventName``) are
declared with its protocol.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from django.utils.functional import Promise

if TYPE_CHECKING:
    from .models import Club


class Hook[F]:
    """One extension point: its name, the protocol of its fillers, whether it takes one
    filler or one and more (``many``), and what makes two fillers the same (``key``: the
    filler itself unless said)."""

    def __init__(
        self,
        name: str,
        protocol: type,
        *,
        many: bool,
        key: Callable[[Any], Hashable] | None = None,
    ) -> None:
        self.name = name
        self.protocol = protocol
        self.many = many
        self._key = key
        self._fills: dict[Hashable, F] = {}
        # Where each filler was filled from ("<module>.<qualified name>"), for the test that
        # holds every fill to an ``AppConfig.ready()``.
        self.sites: dict[Hashable, str] = {}

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._fills)} filled>"

    def key(self, filler: F) -> Hashable:
        return self._key(filler) if self._key is not None else filler

    def fill(self, *fillers: F) -> None:
        """Add ``fillers``, from an app's ``AppConfig.ready()``. A filler already there, or
        a second one of a hook that takes one, is refused: two apps answering one question
        (or one app answering twice) is a mistake to see when the site starts, not a choice
        the order the apps load in would make."""
        frame = sys._getframe(1)  # who fills: the test checks it is an AppConfig.ready()
        site = f"{frame.f_globals.get('__name__')}.{frame.f_code.co_qualname}"
        for filler in fillers:
            if not isinstance(filler, self.protocol):
                raise TypeError(f"{self.name} takes a {self.protocol.__name__}: {filler!r}")
            key = self.key(filler)
            if key in self._fills or (self._fills and not self.many):
                raise ValueError(f"{self.name} is filled twice ({key!r}, from {site})")
            self._fills[key] = filler
            self.sites[key] = site

    @property
    def fills(self) -> tuple[F, ...]:
        """Every filler, in the order filled (the order of ``INSTALLED_APPS``)."""
        return tuple(self._fills.values())

    def get(self, key: Hashable) -> F | None:
        """Return the filler of ``key``, or None."""
        return self._fills.get(key)

    @property
    def filler(self) -> F:
        """The one filler of a hook that takes one."""
        if self.many or not self._fills:
            raise LookupError(f"{self.name} has no one filler")
        return next(iter(self._fills.values()))


# --- what the hooks take -------------------------------------------------------------------


@runtime_checkable
class AuditAction(Protocol):
    """An action of a club's audit trail (``clubs.audit``): its slug, as
    ``AuditEntry.action`` stores it; its name alone ("removed a member", lazy: said in the
    reader's language); and its words, ``(the entry's details, the person it was done to or
    "") -> a sentence``, or None to say the name alone."""

    slug: str
    name: Promise | str
    words: Callable[[dict[str, Any], str], str | None] | None


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


@runtime_checkable
class WaitingKind(Protocol):
    """A kind of item that waits on a person (``clubs.waiting``): its slug, its name (lazy,
    what the email settings call it); ``waiting(user)``, the items that wait on ``user`` now
    (a fixed number of queries); and ``of(ids)``, the items the objects of ``ids`` make, each
    with the person it waits on (for the emails)."""

    slug: str
    name: Promise | str

    def waiting(self, user: Any) -> list[Waiting]: ...

    def of(self, ids: Iterable[int]) -> list[Waiting]: ...


@runtime_checkable
class WaitingListener(Protocol):
    """Told ``(kind, ids)`` once a change that made items of ``kind`` wait commits
    (``clubs.waiting.announce``)."""

    def __call__(self, kind: str, ids: tuple[int, ...]) -> None: ...


@dataclass(frozen=True, slots=True)
class EventName:
    """A name a log's ``event`` may take (``value``) and how it is offered (``label``)."""

    value: str
    label: str


@runtime_checkable
class CountsFor(Protocol):
    """What a match of ``club`` sent by ``user`` around ``today`` may count for, named as a
    log's ``event`` names it, soonest first (``games.event_names``: the upload form and the
    recorder's set-up offer them)."""

    def __call__(self, club: Club, user: Any, today: date) -> list[EventName]: ...


@runtime_checkable
class ArchiveReceiver(Protocol):
    """Told each event the archive announces (``games.events.Event``), once its change
    commits."""

    def __call__(self, event: Any) -> None: ...


@runtime_checkable
class ToolEventReceiver(Protocol):
    """Told ``(type, ids)`` once a change that a tool may be told of commits
    (``clubs.tool_events.publish``): an event's type as webhooks name it
    (``"upload.finished"``) and the ids of its objects (uploads, matches, fixtures, live
    tables). Matches stored are the archive's events, fixtures submitted and disputed
    what waits on a person: those are not told here again."""

    def __call__(self, type: str, ids: tuple[int, ...]) -> None: ...


@runtime_checkable
class PlayerMerging(Protocol):
    """Told inside a merge's transaction that handle ``source`` merges into ``target`` (two
    ``games.models.Player``), after their matches moved and before ``source`` is deleted:
    what an app keeps of a player moves to ``target`` here."""

    def __call__(self, *, source: Any, target: Any) -> None: ...


@runtime_checkable
class PlayerClaimed(Protocol):
    """Told inside a claim's transaction that ``player`` (a ``games.models.Player``, its
    user set) became a person's."""

    def __call__(self, *, player: Any) -> None: ...


@runtime_checkable
class MatchDeleting(Protocol):
    """Told inside a deletion's transaction that match ``match_id`` is about to go, before
    it and what points at it are deleted."""

    def __call__(self, *, match_id: int) -> None: ...


@runtime_checkable
class PlayerCalendar(Protocol):
    """The link to a player's calendar feed as the player's page shows it (``url``,
    ``webcal``, ``id``, ``secret``), for this reader (a request, a ``games.models.Player``),
    or None."""

    def __call__(self, request: Any, player: Any) -> dict[str, Any] | None: ...


@runtime_checkable
class HomeNote(Protocol):
    """A line a higher app adds to the archive's home page (the match list unfiltered) for
    this reader (a request): safe HTML, or "" (replays: the day's puzzle)."""

    def __call__(self, request: Any) -> str: ...


# --- the hooks -----------------------------------------------------------------------------

# Each app registers the actions of the trail it writes: clubs', the archive's, then those of
# events and leagues (the API's schema lists them so).
AUDIT_ACTIONS: Hook[AuditAction] = Hook(
    "audit_actions", AuditAction, many=True, key=lambda action: action.slug
)
# Each app registers the kinds of waiting item its data makes; the inbox listens.
WAITING_KINDS: Hook[WaitingKind] = Hook(
    "waiting_kinds", WaitingKind, many=True, key=lambda kind: kind.slug
)
WAITING_LISTENERS: Hook[WaitingListener] = Hook("waiting_listeners", WaitingListener, many=True)
# What a match may count for: the apps that know what clubs play for answer.
COUNTS_FOR: Hook[CountsFor] = Hook("counts_for", CountsFor, many=True)
# What derives from stored matches follows the archive's events (``games.events``), and
# what is kept of a player or a match follows it inside the change's transaction.
ARCHIVE_EVENTS: Hook[ArchiveReceiver] = Hook("archive_events", ArchiveReceiver, many=True)
# What tools are told of besides (webhooks): an upload finished, a match rejected, an
# analysis done, a fixture confirmed, a live table started and finished.
TOOL_EVENTS: Hook[ToolEventReceiver] = Hook("tool_events", ToolEventReceiver, many=True)
PLAYER_MERGING: Hook[PlayerMerging] = Hook("player_merging", PlayerMerging, many=True)
PLAYER_CLAIMED: Hook[PlayerClaimed] = Hook("player_claimed", PlayerClaimed, many=True)
MATCH_DELETING: Hook[MatchDeleting] = Hook("match_deleting", MatchDeleting, many=True)
# The player's page (replays) links to the player's calendar feed (competitions).
PLAYER_CALENDAR: Hook[PlayerCalendar] = Hook("player_calendar", PlayerCalendar, many=False)
# The home page (games) shows what the apps above it have to say there (replays: a puzzle).
HOME_NOTES: Hook[HomeNote] = Hook("home_notes", HomeNote, many=True)

HOOKS: tuple[Hook[Any], ...] = (
    AUDIT_ACTIONS,
    WAITING_KINDS,
    WAITING_LISTENERS,
    COUNTS_FOR,
    ARCHIVE_EVENTS,
    TOOL_EVENTS,
    PLAYER_MERGING,
    PLAYER_CLAIMED,
    MATCH_DELETING,
    PLAYER_CALENDAR,
    HOME_NOTES,
)
