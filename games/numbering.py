"""One numbering of hands and moves (issue 56; docs/api.md, "Numbering").

Whatever a person or a tool reads counts a match's hands, and a hand's moves, from 1, as the
replay's addresses do (``#h3m17``: hand 3, move 17; ``m0`` is the hand's deal). The engine
and the stored rows (a review's plays, a practice try) count them from 0: they are the
indexes of the log's lists. The two meet here and nowhere else: ``shown`` on the way out (an
API answer, a page, an address), ``index_of`` on the way in (an address a page was given),
so a play is one pair of numbers wherever it is read.
"""

from __future__ import annotations


def shown(index: int | None) -> int | None:
    """Return the number read of a hand's or a move's index (from 0): the index plus one.
    None (a luck event between two hands has no move) stays None."""
    return None if index is None else index + 1


def index_of(number: int) -> int | None:
    """Return the index (from 0) of a hand's or a move's number as read (from 1), or None
    for a number below 1 (no hand or move has it)."""
    return number - 1 if number >= 1 else None


def address(hand: int, move: int | None) -> str:
    """Return the replay's address of the table just after move ``move`` of hand ``hand``
    (indexes from 0), or of the hand's deal for move None: ``h3m17``, ``h3m0``."""
    return f"h{shown(hand)}m{0 if move is None else shown(move)}"


def address_before(hand: int, move: int) -> str:
    """Return the replay's address of the table just before move ``move`` of hand ``hand``
    (indexes from 0): the position its player saw."""
    return address(hand, move - 1 if move > 0 else None)
