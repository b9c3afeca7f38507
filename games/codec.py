"""A hand stored in a few bytes: its deal, its moves, what it left, and the figures the engine
computed for every move (count, points, best points, best play), ``fives/1`` in and out exactly.

A valid log writes every tile as ``"a-b"`` (0..6 each), so a tile mention is its id (0..27) and
one bit saying whether it was written high pip first. The format, version 1 (byte 0 is 1):

- byte 1: the leader (bits 0-3), a deal follows (bit 4), ``left`` follows (bit 5);
- the deal, when there is one: per seat, a byte of its size, then a byte per tile;
- the number of moves (a varint), then per move two bytes:
  ``seat | kind << 2 | end << 4 | claimed << 7`` and ``tile | turned << 5 | reviewed << 6 |
  scored << 7``, where kind is 0 play, 1 draw, 2 pass, 3 a draw nobody saw (``"?"``), end is
  0 none, 1 W, 2 E, 3 N, 4 S; a play adds three bytes: the count after it, the best points
  any legal play could have scored (255: no review), and the best play (``tile | end << 5``);
  a claimed ``points`` adds a tag byte (0 a whole number, 1 a negative whole number, 2 a
  float) and its value (a varint, or eight bytes);
- ``left``, when there is one: per seat, a byte of its size, then a byte per tile.

A tile byte is ``id | turned << 5``. A play's points are its count when ``scored``, else 0
(the rules give a play either nothing or the whole count). Anything that does not fit (a
count above 254, a tile written otherwise) is stored as JSON instead, behind byte 0 = 0, so
every hand the engine accepts can be stored.
"""

from __future__ import annotations

import json
import struct
from typing import Any

from games.engine import HandLog, MoveFacts
from games.engine import Move as LogMove
from games.engine.tiles import HIGH, LOW, NAME, TILE_BY_TEXT

VERSION = 1
JSON_FALLBACK = 0
KINDS = ("play", "draw", "pass")
HIDDEN = 3  # a draw written "?"
ENDS = (None, "W", "E", "N", "S")
END_CODE = {end: code for code, end in enumerate(ENDS)}
NO_REVIEW = 255
UNSEEN = "?"
# The text of a tile byte: id | turned << 5 (turned: written high pip first).
TILE_TEXT: list[str | None] = [NAME[tile] for tile in range(28)] + [None] * 4
TILE_TEXT += [f"{HIGH[tile]}-{LOW[tile]}" for tile in range(28)] + [None] * 4
# The byte of a tile text (the inverse of TILE_TEXT; doubles are never "turned").
TILE_BYTE = {
    text: tile | (0 if text == NAME[tile] else 32) for text, (tile, _a, _b) in TILE_BY_TEXT.items()
}


class _DoesNotFit(Exception):
    """The hand holds something the compact format has no room for."""


def pack_hand(hand: HandLog, facts: list[MoveFacts]) -> bytes:
    """Return ``hand`` and the engine's figures for each of its moves as bytes."""
    try:
        return _pack(hand, facts)
    except _DoesNotFit:
        doc = {"hand": hand.as_json(), "facts": [list(fact) for fact in facts]}
        return bytes([JSON_FALLBACK]) + json.dumps(doc, separators=(",", ":")).encode()


def unpack_hand(data: bytes) -> tuple[HandLog, list[MoveFacts]]:
    """Return the hand and the per-move figures that ``pack_hand`` stored."""
    if data[0] == JSON_FALLBACK:
        doc = json.loads(data[1:])
        return _hand_from_json(doc["hand"]), [MoveFacts(*fact) for fact in doc["facts"]]
    if data[0] != VERSION:
        raise ValueError(f"unknown packed hand version {data[0]}")
    head = data[1]
    leader = head & 15
    at = 2
    deal = None
    if head & 16:
        deal, at = _read_seats(data, at)
    count, at = _read_varint(data, at)
    moves: list[LogMove] = []
    figures: list[MoveFacts] = []
    for _ in range(count):
        first, second = data[at], data[at + 1]
        at += 2
        kind = (first >> 2) & 3
        end = ENDS[(first >> 4) & 7]
        claimed = None
        fact = _NO_FACTS
        if kind == 0:
            after, best, best_byte = data[at], data[at + 1], data[at + 2]
            at += 3
            fact = MoveFacts(
                after,
                after if second & 128 else 0,
                None if best == NO_REVIEW else best,
                None if best == NO_REVIEW else _best_text(best_byte),
            )
        if first & 128:
            claimed, at = _read_claim(data, at)
        if kind == HIDDEN:
            moves.append(LogMove(first & 3, "draw", UNSEEN, end, claimed))
        elif kind == 2:
            moves.append(LogMove(first & 3, "pass", None, end, claimed))
        else:
            moves.append(LogMove(first & 3, KINDS[kind], TILE_TEXT[second & 63], end, claimed))
        figures.append(fact)
    left = None
    if head & 32:
        left, at = _read_seats(data, at)
    return HandLog(leader, deal, tuple(moves), left), figures


_NO_FACTS = MoveFacts(None, 0)


def _pack(hand: HandLog, facts: list[MoveFacts]) -> bytes:
    if not 0 <= hand.leader < 16 or len(facts) != len(hand.moves):
        raise _DoesNotFit
    out = bytearray((VERSION, hand.leader | (16 if hand.deal is not None else 0)))
    if hand.left is not None:
        out[1] |= 32
    if hand.deal is not None:
        _write_seats(out, hand.deal)
    _write_varint(out, len(hand.moves))
    for move, fact in zip(hand.moves, facts, strict=True):
        if not 0 <= move.seat < 4 or move.end not in END_CODE:
            raise _DoesNotFit
        if move.kind == "pass":
            kind, tile = 2, 0
        elif move.kind == "draw" and move.tile == UNSEEN:
            kind, tile = HIDDEN, 0
        else:
            kind, tile = KINDS.index(move.kind), _tile_byte(move.tile)
        claimed = move.points is not None
        out.append(move.seat | kind << 2 | END_CODE[move.end] << 4 | claimed << 7)
        if kind == 0:
            count, points, best, best_play = fact
            if count is None or not 0 <= count < NO_REVIEW or points not in (0, count):
                raise _DoesNotFit
            reviewed = best is not None
            if reviewed and not 0 <= best < NO_REVIEW:
                raise _DoesNotFit
            scored = points == count and count > 0
            out.append(tile | reviewed << 6 | scored << 7)
            out += bytes((count, best if reviewed else NO_REVIEW, _best_byte(best_play)))
        else:
            if tuple(fact) != (None, 0, None, None):
                raise _DoesNotFit
            out.append(tile)
        if claimed:
            _write_claim(out, move.points)
    if hand.left is not None:
        _write_seats(out, hand.left)
    return bytes(out)


def _tile_byte(text: str | None) -> int:
    byte = TILE_BYTE.get(text)  # type: ignore[arg-type]
    if byte is None:
        raise _DoesNotFit
    return byte


def _best_byte(best_play: str | None) -> int:
    """Return a best play ("6-4 on N", or "6-4" for a lead) as ``tile | end << 5``."""
    if best_play is None:
        return 0
    name, _, end = best_play.partition(" on ")
    tile = TILE_BY_TEXT.get(name)
    if tile is None or NAME[tile[0]] != name or (end or None) not in END_CODE:
        raise _DoesNotFit
    return tile[0] | END_CODE[end or None] << 5


def _best_text(byte: int) -> str:
    end = ENDS[byte >> 5]
    name = NAME[byte & 31]
    return name if end is None else f"{name} on {end}"


def _write_seats(out: bytearray, seats: tuple[tuple[str, ...], ...]) -> None:
    if len(seats) > 15:
        raise _DoesNotFit
    out.append(len(seats))
    for tiles in seats:
        if len(tiles) > 255:
            raise _DoesNotFit
        out.append(len(tiles))
        out += bytes(_tile_byte(text) for text in tiles)


def _read_seats(data: bytes, at: int) -> tuple[tuple[tuple[str, ...], ...], int]:
    count = data[at]
    at += 1
    seats = []
    for _ in range(count):
        size = data[at]
        at += 1
        seats.append(tuple(TILE_TEXT[byte] for byte in data[at : at + size]))
        at += size
    return tuple(seats), at


def _write_claim(out: bytearray, value: Any) -> None:
    if type(value) is int:
        out.append(0 if value >= 0 else 1)
        _write_varint(out, abs(value))
    elif type(value) is float:
        out.append(2)
        out += struct.pack("<d", value)
    else:
        raise _DoesNotFit


def _read_claim(data: bytes, at: int) -> tuple[int | float, int]:
    tag = data[at]
    if tag == 2:
        return struct.unpack_from("<d", data, at + 1)[0], at + 9
    value, at = _read_varint(data, at + 1)
    return (-value if tag == 1 else value), at


def _write_varint(out: bytearray, value: int) -> None:
    while value >= 128:
        out.append(value & 127 | 128)
        value >>= 7
    out.append(value)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            return value, at
        shift += 7


def _hand_from_json(doc: dict[str, Any]) -> HandLog:
    def seats(value: Any) -> tuple[tuple[str, ...], ...] | None:
        return None if value is None else tuple(tuple(tiles) for tiles in value)

    moves = []
    for move in doc["moves"]:
        kind = next(name for name in KINDS if name in move)
        tile = None if kind == "pass" else move[kind]
        moves.append(LogMove(move["seat"], kind, tile, move.get("end"), move.get("points")))
    return HandLog(doc["leader"], seats(doc.get("deal")), tuple(moves), seats(doc.get("left")))
