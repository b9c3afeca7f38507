"""What a club's match may count for, named as its log's ``event`` names it (docs/format.md,
"The event a match counts for"): the upload form and the recorder's set-up offer these, so an
uploader says where a match counts instead of leaving it to the day it was played.

The archive does not know what clubs play for: the app that does (``competitions``: its
tournaments, cup ties and league legs) registers a source here in its ``AppConfig.ready()``,
so that ``games`` and ``recorder`` offer the names without importing what is above them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from clubs.models import Club


@dataclass(frozen=True, slots=True)
class EventName:
    """A name a log's ``event`` may take (``value``) and how it is offered (``label``)."""

    value: str
    label: str


# A source: (the club, the person uploading, today) -> the names it offers, soonest first.
Source = Callable[[Club, Any, date], list[EventName]]

_sources: dict[str, Source] = {}


def register(key: str, source: Source) -> None:
    """Register a source of names under ``key`` (registering a key again replaces it)."""
    _sources[key] = source


def event_names(club: Club, user: Any, today: date) -> list[EventName]:
    """Return what a match of ``club`` sent by ``user`` around ``today`` may count for."""
    return [name for source in _sources.values() for name in source(club, user, today)]
