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
    # A tile laid and then shown again (laid again, or in ``left``) is a ``repeated-tile``
    # where it shows again: that showing makes no seat known to hold it at any move (nor,
    # once laid, may a seat hold it). Such a hand is rare: it is read again, each showing
    # against where its tile was first laid.
    known, laid, shown = _holdings(moves, left, players, None)
    if len(set(laid)) == len(laid) and shown.isdisjoint(laid):
        return known
    first_laid: dict[int, int] = {}
    for index, move in enumerate(moves):
        parsed = TILE_BY_TEXT.get(move.tile) if move.tile is not None else None
        if move.kind == PLAY and parsed is not None and parsed[0] not in first_laid:
            first_laid[parsed[0]] = index
    return _holdings(moves, left, players, first_laid)[0]


def _holdings(
    moves: Sequence[Move],
    left: Sequence[Sequence[str]] | None,
    players: int,
    first_laid: dict[int, int] | None,
) -> tuple[list[frozenset[int]], list[int], set[int]]:
    """Return what each move's seat is known to hold (``known_holdings``), the tiles laid
    (last first) and the tiles shown in ``left``. ``first_laid`` (where each tile is first
    laid) leaves out a showing of a tile after it was laid; None reads every showing."""
    ahead: list[set[int]] = [set() for _ in range(players)]
    shown: set[int] = set()
    if left is not None:
        for seat, texts in enumerate(left[:players]):
            tiles = {TILE_BY_TEXT[text][0] for text in texts if text in TILE_BY_TEXT}
            if first_laid is not None:
                tiles.difference_update(first_laid)
            ahead[seat].update(tiles)
            shown.update(tiles)
    laid: list[int] = []
    known: list[frozenset[int]] = [frozenset()] * len(moves)
    for index in range(len(moves) - 1, -1, -1):
        move = moves[index]
        seat = move.seat
        parsed = TILE_BY_TEXT.get(move.tile) if move.tile is not None else None
        if seat >= players:
            if move.kind == PLAY and parsed is not None:
                laid.append(parsed[0])
            continue
        tiles = ahead[seat]
        if move.kind == PLAY:
            if parsed is not None:
                laid.append(parsed[0])
                if first_laid is None or first_laid[parsed[0]] == index:
                    tiles.add(parsed[0])
        elif move.kind == DRAW:
            if move.tile == HIDDEN:
                tiles.clear()
            elif parsed is not None:
                tiles.discard(parsed[0])
        known[index] = frozenset(tiles)
    return known, laid, shown
