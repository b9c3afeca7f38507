"""Events the archive announces once a change is committed, for what is derived from it.

``games`` never imports what derives things from stored matches (statistics, ratings,
replays); those subscribe here in their app config. An event is sent after the commit of
the transaction that made the change, so a subscriber never sees a match that was rolled
back, and a subscriber's failure cannot undo the change.

Three things are told inside the change's transaction instead: ``player_merging`` (what other
apps keep of a player must move with a merge, or it would go with the merged handle),
``player_claimed`` (the ratings a handle's new person changes are marked owed with the
claim, so a crash after its commit cannot forget them) and ``match_deleting`` (running
totals kept from a match must lose it in the same transaction, or they would count it
until put right).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.dispatch import Signal


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
Receiver = Callable[[Event], None]

_receivers: list[Receiver] = []


def subscribe(receiver: Receiver) -> None:
    """Call ``receiver`` with every event from now on (once, however often subscribed)."""
    if receiver not in _receivers:
        _receivers.append(receiver)


def announce(event: Event) -> None:
    """Send ``event`` to every receiver once the current transaction commits."""

    def send() -> None:
        for receiver in list(_receivers):
            receiver(event)

    transaction.on_commit(send)


# A handle of a club is merged into another of the same club: sent with ``source`` and
# ``target`` (players), ``actor`` (the admin who merged them) and ``matches`` (how many
# moved) inside the merge's transaction, after the matches moved and before ``source`` is
# deleted (with everything that still points at it). What other apps keep of the player (an
# event's entries, a league team's roster) moves to ``target`` in their receivers.
player_merging = Signal()


# A handle became a person's (a claim confirmed): sent with ``player`` (its user set)
# inside the confirmation's transaction.
player_claimed = Signal()


# A stored match is about to be deleted: sent with ``match_id`` inside the deletion's
# transaction, before the match and what points at it go. Running totals kept from its
# figures take them away in their receivers.
match_deleting = Signal()
