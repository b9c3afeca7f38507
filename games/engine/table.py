"""Table records (FORMAT.md, "Table records"): what a seat is known to hold.

A table record leaves out the deals and may write a draw nobody saw as ``"?"``; at the end
of a hand each seat shows its tiles (``left``). FORMAT.md defines when a seat is *known to
hold* a tile just before a move: it plays or shows that tile later in the same hand and
makes no hidden draw from that move (included) up to then, and the tile is not the one a
shown draw at that move names. ``known_holdings`` works this out for every move of a hand in
one backward pass, for ``pass-when-playable``, ``draw-when-playable`` and the missed-points
review.

Two readings the definition needs (README, "Choices where RULES.md and FORMAT.md are
silent"): "shows" is a play or the seat's ``left``; a shown draw of the tile by the seat
between the move and the play or ``left`` means the seat took the tile then, so did not
hold it before (the definition's own rule for a shown draw at the move itself, carried on
to the later moves). And "later in the same hand" ends where the hand must end, by the
tile counts (a seat's count reaching 0) or everyone passing in a row: moves written after
that end are errors of their own (``after-hand-end``) and show nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import DRAW, PLAY
from .log import HIDDEN, Move
from .tiles import TILE_BY_TEXT


def hand_stop(moves: Sequence[Move], players: int, hand_size: int) -> int:
    """Return how many moves of a hand come before or at its end by the tile counts alone:
    a seat whose count reaches 0 (a domino), or every seat passing in a row (a block)."""
    counts = [hand_size] * players
    passes = 0
    for index, move in enumerate(moves):
        seat = move.seat
        if seat >= players:
            return index + 1  # no seat of the match: wrong-turn, nothing beyond it counts
        if move.kind == PLAY:
            passes = 0
            counts[seat] -= 1
            if counts[seat] <= 0:
                return index + 1
        elif move.kind == DRAW:
            counts[seat] += 1
        else:
            passes += 1
            if passes >= players:
                return index + 1
    return len(moves)


def known_holdings(
    moves: Sequence[Move],
    left: Sequence[Sequence[str]] | None,
    players: int,
    hand_size: int,
) -> list[frozenset[int]]:
    """Return, for each move of a hand, the tiles its seat is known to hold just before it.

    A play's own tile is among them (the play shows it); a hidden draw's set is empty.
    Moves past ``hand_stop`` (and moves by no seat of the match) get an empty set.
    """
    stop = hand_stop(moves, players, hand_size)
    ahead: list[set[int]] = [set() for _ in range(players)]
    if left is not None:
        for seat, tiles in enumerate(left[:players]):
            ahead[seat].update(TILE_BY_TEXT[text][0] for text in tiles if text in TILE_BY_TEXT)
    known: list[frozenset[int]] = [frozenset()] * len(moves)
    for index in range(stop - 1, -1, -1):
        move = moves[index]
        seat = move.seat
        if seat >= players:
            continue
        tiles = ahead[seat]
        parsed = TILE_BY_TEXT.get(move.tile) if move.tile is not None else None
        if move.kind == PLAY:
            if parsed is not None:
                tiles.add(parsed[0])
        elif move.kind == DRAW:
            if move.tile == HIDDEN:
                tiles.clear()
            elif parsed is not None:
                tiles.discard(parsed[0])
        known[index] = frozenset(tiles)
    return known
