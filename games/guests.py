"""Seats of a log filled by players of another club: the guests of a match.

A log is stored in one club, and each name it writes is that club's player, made by the
name when the club has none. A league's leg is the exception: a match between teams of two
clubs, stored in one of them, whose visiting players are players of their own club. Which
names are such guests only the league knows, and ``competitions`` is above ``games``: it
registers a finder here in its app config (as ``clubs.audit`` takes actions), and ingest
asks ``seat_guests`` before it makes any handle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# (the club a log is stored in, the log's ``event``, its names) -> the existing players of
# other clubs some of the names are, by the name as written.
Finder = Callable[[Any, str, Sequence[str]], dict[str, Any]]

_finders: list[Finder] = []


def register(finder: Finder) -> None:
    """Ask ``finder`` about every log that names an event from now on (once, however often
    registered)."""
    if finder not in _finders:
        _finders.append(finder)


def seat_guests(club: Any, event: str, names: Sequence[str]) -> dict[str, Any]:
    """Return the players of other clubs who sit in a log stored in ``club`` (by the name
    the log writes); a name no finder knows is the club's own, as always."""
    if not event:
        return {}
    found: dict[str, Any] = {}
    for finder in _finders:
        for name, player in finder(club, event, names).items():
            if name in names and player.club_id != club.pk:
                found.setdefault(name, player)
    return found
