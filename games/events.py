"""Events the archive announces once a change is committed, for what is derived from it.

``games`` never imports what derives things from stored matches (statistics, ratings,
replays); those fill ``clubs.hooks.ARCHIVE_EVENTS`` in their app config. An event is sent
after the commit of the transaction that made the change, so a receiver never sees a match
that was rolled back, and a receiver's failure cannot undo the change.

Three things are told inside the change's transaction instead: ``player_merging`` (what other
apps keep of a player must move with a merge, or it would go with the merged handle),
``player_claimed`` (the ratings a handle's new person changes are marked owed with the
claim, so a crash after its commit cannot forget them) and ``match_deleting`` (running
totals kept from a match must lose it in the same transaction, or they would count it
until put right); each tells the fillers of its hook of ``clubs.hooks``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from clubs.hooks import ARCHIVE_EVENTS, MATCH_DELETING, PLAYER_CLAIMED, PLAYER_MERGING


@dataclass(frozen=True, slots=True)
class MatchesStored:
    """Matches were stored or rescored: what is computed from them is out of date."""

    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchRemoved:
    """A match of ``club_id`` played at ``since`` was deleted."""

    club_id: int
    since: datetime


@dataclass(frozen=True, slots=True)
class MatchesRated:
    """The ratings of a club were brought up to date: every stored match of ``club_id`` that
    counts has its ratings (announced by ``replays.ratings`` after a recomputation)."""

    club_id: int


@dataclass(frozen=True, slots=True)
class HandlesMerged:
    """Two handles of ``club_id`` were merged: ``match_ids`` moved to the surviving one.
    What was derived from them moved with the seats in the merge's transaction
    (``player_merging``); what is computed later (ratings) is brought up to date."""

    club_id: int
    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandleClaimed:
    """A handle of ``club_id`` became a person's (a claim confirmed): across clubs it is now
    rated as that person, from its first match (marked in ``player_claimed``); nothing it
    played changed, so only those ratings are brought up to date."""

    club_id: int


Event = MatchesStored | MatchRemoved | MatchesRated | HandlesMerged | HandleClaimed


def announce(event: Event) -> None:
    """Send ``event`` to every receiver once the current transaction commits."""

    def send() -> None:
        for receiver in ARCHIVE_EVENTS.fills:
            receiver(event)

    transaction.on_commit(send)


def player_merging(*, source: Any, target: Any) -> None:
    """Tell the apps, inside a merge's transaction, that handle ``source`` merges into
    ``target`` of the same club: after the matches moved and before ``source`` is deleted
    (with everything that still points at it). What they keep of the player (an event's
    entries, a league team's roster, the figures) moves to ``target``."""
    for receiver in PLAYER_MERGING.fills:
        receiver(source=source, target=target)


def player_claimed(*, player: Any) -> None:
    """Tell the apps, inside a claim's confirmation, that ``player`` became a person's."""
    for receiver in PLAYER_CLAIMED.fills:
        receiver(player=player)


def match_deleting(*, match_id: int) -> None:
    """Tell the apps, inside a deletion's transaction, that a stored match is about to go,
    before it and what points at it are deleted: running totals kept from its figures take
    them away."""
    for receiver in MATCH_DELETING.fills:
        receiver(match_id=match_id)
