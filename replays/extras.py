"""What a player's page shows that an app above replays knows (the player's calendar feed,
``competitions.calendars``): the app registers a function in its ``AppConfig.ready()``, as
``clubs.audit`` takes the actions of the apps above it, and the page asks here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (the request, the player) -> the link to the player's calendar feed as the page shows it
# (``url``, ``webcal``, ``id``, ``secret``), or None.
PlayerCalendar = Callable[[Any, Any], dict[str, Any] | None]

_player_calendar: list[PlayerCalendar] = []


def register_player_calendar(link: PlayerCalendar) -> None:
    """Register the function that gives a player's calendar link (once; again replaces it)."""
    _player_calendar[:] = [link]


def player_calendar(request: Any, player: Any) -> dict[str, Any] | None:
    """Return the link to ``player``'s calendar feed for this reader, or None."""
    return _player_calendar[0](request, player) if _player_calendar else None
