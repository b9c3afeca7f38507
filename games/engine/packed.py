"""The bytes of a match's hands as the archive stores them: format 2 of ``games/codec.py``
(documented there, the one packer), its tables and small writers.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from .game import HandResult
from .tiles import HIGH, LOW, NAME, TILE_BY_TEXT

HIDDEN = 3  # a draw written "?"
ENDS = (None, "W", "E", "N", "S")
END_CODE = {end: code for code, end in enumerate(ENDS)}
UNSEEN = "?"
# The text of a tile byte: id | turned << 5 (turned: written high pip first).
TILE_TEXT: list[str | None] = [NAME[tile] for tile in range(28)] + [None] * 4
TILE_TEXT += [f"{HIGH[tile]}-{LOW[tile]}" for tile in range(28)] + [None] * 4
# The byte of a tile text (the inverse of TILE_TEXT; doubles are never "turned").
TILE_BYTE = {
    text: tile | (0 if text == NAME[tile] else 32) for text, (tile, _a, _b) in TILE_BY_TEXT.items()
}
HAND_ENDS = ("domino", "block", "target", "unfinished")
HAND_END_CODE = {end: code for code, end in enumerate(HAND_ENDS)}
OWN_BEST = 128
# A claim of exactly the points the engine gave the move, as a whole number: its tag alone.
CLAIM_AS_SCORED = 3
# A best play's text ("4-6 on N", or "4-6" for a lead) and its byte ``tile | end << 5``.
BEST_BYTE = {
    (NAME[tile] if end is None else f"{NAME[tile]} on {end}"): tile | code << 5
    for tile in range(28)
    for code, end in enumerate(ENDS)
}
BEST_TEXT: list[str | None] = [None] * 256
for _text, _byte in BEST_BYTE.items():
    BEST_TEXT[_byte] = _text


class DoesNotFit(Exception):
    """The hand holds something the compact format has no room for."""


def write_results(out: bytearray, results: Sequence[HandResult], teams: int) -> None:
    """Write the number of teams and of hands, then each hand's result."""
    write_varint(out, teams)
    write_varint(out, len(results))
    scores = [0] * teams
    for result in results:
        code = HAND_END_CODE.get(result.end)
        points, settlement, after = result.points, result.settlement, result.scores
        if code is None or not len(points) == len(settlement) == len(after) == teams:
            raise DoesNotFit
        sums = zip(scores, points, settlement, strict=True)
        explicit = [before + won + settled for before, won, settled in sums] != list(after)
        out.append(code | explicit << 3)
        for won, settled in zip(points, settlement, strict=True):
            # Most figures are small whole numbers: their zigzag is one byte.
            if type(won) is int and 0 <= won < 64:
                out.append(won << 1)
            else:
                write_zigzag(out, won)
            if type(settled) is int and 0 <= settled < 64:
                out.append(settled << 1)
            else:
                write_zigzag(out, settled)
        if explicit:
            for value in after:
                write_zigzag(out, value)
        scores = list(after)


def write_seats(out: bytearray, seats: Sequence[Sequence[str]]) -> None:
    """Write a deal (or the tiles left): the number of seats, then each seat's tiles."""
    if len(seats) > 15:
        raise DoesNotFit
    out.append(len(seats))
    for tiles in seats:
        if len(tiles) > 255:
            raise DoesNotFit
        out.append(len(tiles))
        try:
            out += bytes(map(TILE_BYTE.__getitem__, tiles))
        except KeyError:
            raise DoesNotFit from None


def write_claim(out: bytearray, value: Any) -> None:
    """Write a claimed ``points`` that is not the move's own whole number of points."""
    if type(value) is int:
        out.append(0 if value >= 0 else 1)
        write_varint(out, abs(value))
    elif type(value) is float:
        out.append(2)
        out += struct.pack("<d", value)
    else:
        raise DoesNotFit


def write_zigzag(out: bytearray, value: int) -> None:
    """Write a whole number of either sign as a varint: 0, -1, 1, -2... as 0, 1, 2, 3..."""
    if type(value) is not int:
        raise DoesNotFit
    write_varint(out, value << 1 if value >= 0 else (-value << 1) - 1)


def write_varint(out: bytearray, value: int) -> None:
    while value >= 128:
        out.append(value & 127 | 128)
        value >>= 7
    out.append(value)
