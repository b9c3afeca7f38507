"""What a club's match may count for, named as its log's ``event`` names it (docs/format.md,
"The event a match counts for"): the upload form and the recorder's set-up offer these, so an
uploader says where a match counts instead of leaving it to the day it was played.

The archive does not know what clubs play for: the app that does (``competitions``: its
tournaments, cup ties and league legs) fills ``clubs.hooks.COUNTS_FOR`` in its
``AppConfig.ready()``, so that ``games`` and ``recorder`` offer the names without importing
what is above them."""

from __future__ import annotations

from datetime import date
from typing import Any

from clubs.hooks import COUNTS_FOR, EventName
from clubs.models import Club


def event_names(club: Club, user: Any, today: date) -> list[EventName]:
    """Return what a match of ``club`` sent by ``user`` around ``today`` may count for."""
    return [name for source in COUNTS_FOR.fills for name in source(club, user, today)]
