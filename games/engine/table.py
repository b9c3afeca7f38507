"""Table records (FORMAT.md, "Table records"): what a seat is known to hold.

A table record leaves out the deals and may write a draw nobody saw as ``"?"``; at the end
of a hand each seat shows its tiles (``left``). FORMAT.md defines when a seat is *known to
hold* a tile just before a move: it plays or shows that tile later in the same hand and
makes no hidden draw from that move (included) up to then, the tile is not the one a
shown draw at that move names, and it has not been laid before that move (laid and shown
again, it is a ``repeated-tile`` where it shows again). ``known_holdings`` works this out
for every move of a hand in one backward pass, for ``pass-when-playable``,
``draw-when-playable`` and the missed-points review.

Two readings the definition needs (README, "Choices where RULES.md and FORMAT.md are
silent"): "shows" is a play or the seat's ``left``; a shown draw of the tile by the seat
between the move and the play or ``left`` means the seat took the tile then, so did not
hold it before (the definition's own rule for a shown draw at the move itself, carried on
to the later moves). And "later in the same hand" is every move the hand writes, as
written: what comes after an error (a move out of turn, a pass that seems to block) still
shows a tile or hides one, so the first error named is the first the definition finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import DRAW, PLAY
from .log import HIDDEN, Move
from .tiles import TILE_BY_TEXT


def known_holdings(
    moves: Sequence[Move],
    left: Sequence[Sequence[str]] | None,
    players: int,
) -> list[frozenset[int]]:
    """Return, for each move of a hand, the tiles its seat is known to hold just before it.

    A play's own tile is among them (the play shows it), unless it was laid before; a
    hidden draw's set is empty, and so is the set of a move by no seat of the match.
    """
    # Where each tile is first laid. A tile laid and then shown again (laid again, or in
    # ``left``) is a ``repeated-tile`` where it shows again: that showing makes no seat known
    # to hold it at any move (nor, once laid, may a seat hold it).
    first_laid: dict[int, int] = {}
    for index, move in enumerate(moves):
        if move.kind == PLAY and move.tile in TILE_BY_TEXT:
            first_laid.setdefault(TILE_BY_TEXT[move.tile][0], index)
    ahead: list[set[int]] = [set() for _ in range(players)]
    if left is not None:
        for seat, texts in enumerate(left[:players]):
            ahead[seat].update(
                TILE_BY_TEXT[text][0]
                for text in texts
                if text in TILE_BY_TEXT and TILE_BY_TEXT[text][0] not in first_laid
            )
    known: list[frozenset[int]] = [frozenset()] * len(moves)
    for index in range(len(moves) - 1, -1, -1):
        move = moves[index]
        seat = move.seat
        if seat >= players:
            continue
        tiles = ahead[seat]
        parsed = TILE_BY_TEXT.get(move.tile) if move.tile is not None else None
        if move.kind == PLAY:
            if parsed is not None and first_laid[parsed[0]] == index:
                tiles.add(parsed[0])
        elif move.kind == DRAW:
            if move.tile == HIDDEN:
                tiles.clear()
            elif parsed is not None:
                tiles.discard(parsed[0])
        known[index] = frozenset(tiles)
    return known
