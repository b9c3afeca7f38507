"""Turn a full record into the table record of the same match (FORMAT.md, "Table records").

FORMAT.md: every full record can be turned into a table record (leave out the deals, write
every draw as ``"?"``, add ``left``), and that table record is valid and gives the same
scores, hands and winner. ``to_table_record`` does exactly that; the tests use it, and so
may tools.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import validate
from .game import DRAW
from .log import HIDDEN, TABLE, HandLog, MatchLog, parse_log
from .tiles import NAME


def to_table_record(log_or_doc: MatchLog | Any) -> dict[str, Any]:
    """Return the table record (a ``fives/1`` JSON object) of a full record.

    ``log_or_doc`` is a ``MatchLog`` or a JSON value (``parse_log`` raises ``SchemaError``
    for one that is no log). Each hand loses its deal, each draw its tile (``"?"``); a
    hand that ended by a domino or a block gets ``left``, each seat's tiles at its end
    (in the order of the set, ``"low-high"``), from the careful validator's own walk. A
    log with an error converts all the same: the hands from the error on get no ``left``.
    Metadata, claimed points and final scores are kept.
    """
    log = log_or_doc if isinstance(log_or_doc, MatchLog) else parse_log(log_or_doc)
    lefts: dict[int, tuple[tuple[str, ...], ...]] = {}

    def keep(step: validate.Step) -> None:
        hand = step.hand
        if hand.end in ("domino", "block") and step.hand_index not in lefts:
            lefts[step.hand_index] = tuple(
                tuple(NAME[tile] for tile in sorted(tiles)) for tiles in hand.hands
            )

    if not log.table:
        validate.walk_match(log=log, on_step=keep)
    hands = tuple(
        HandLog(
            leader=hand.leader,
            deal=None,
            moves=tuple(
                replace(move, tile=HIDDEN) if move.kind == DRAW else move for move in hand.moves
            ),
            left=lefts.get(index, hand.left),
        )
        for index, hand in enumerate(log.hands)
    )
    return replace(log, record=TABLE, hands=hands).as_json()


__all__ = ["to_table_record"]
