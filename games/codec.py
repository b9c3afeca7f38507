"""A match's hands stored in a few bytes: every hand's deal, moves and tiles left, the figures
the engine computed for each move (count, points, best points, best play) and what the hand
gave each team, ``fives/1`` in and out exactly, in one value per match (``Match.packed``)
instead of a row per hand or per move.

A valid log writes every tile as ``"a-b"`` (0..6 each), so a tile mention is its id (0..27)
and one bit saying whether it was written high pip first: a tile byte is ``id | turned << 5``.

Format 2, a whole match (byte 0 is 2; 4 when the rest is compressed with zstd and the
dictionary ``packed-1.zdict``, whichever is shorter; 3, zlib without a dictionary, is still
read but no longer written):

- the number of teams and the number of hands (varints);
- per hand, its result: a byte ``end | explicit << 3`` (end 0 domino, 1 block, 2 target,
  3 unfinished), then per team the points of its plays and its settlement (zigzag varints)
  and, only when ``explicit``, the scores after the hand (else they are the scores before
  plus points plus settlement, as the rules add them);
- per hand, a byte ``leader | deal << 4 | left << 5``; the deal when there is one (per seat
  a byte of its size, then a byte per tile); the number of moves (a varint); each move; the
  tiles ``left`` when there are (as the deal).
- a move is a byte ``kind | end << 2 | other_seat << 5 | claimed << 6 | own_best << 7``
  (kind 0 play, 1 draw, 2 pass, 3 a draw nobody saw, ``"?"``; end 0 none, 1 W, 2 E, 3 N,
  4 S); the seat follows only when it is not the one expected (the leader first, then the
  same seat after a draw and the next one after a play or a pass); a play or a shown draw
  adds its tile byte with ``reviewed << 6 | scored << 7``; a play adds the count after it
  and, when reviewed and it was not itself the best play (``own_best``), the best points
  any legal play could have scored and that play (``tile | end << 5``); a claimed
  ``points`` adds a tag byte (0 a whole number, 1 a negative one, 2 a float, 3 exactly the
  points the engine gave the move, as a whole number) and its value (a varint, or eight
  bytes; none after tag 3).

A play's points are its count when ``scored``, else 0, unless its count byte has bit 7
(``AS_SCORED``, count 0..127): then its points follow the count as a zigzag varint, as the
engine scored them (Fives and Threes counts fives and threes, a go-out bonus adds to the
count). Anything that does not fit (a count above 127, a tile written otherwise, an end the
format does not know) is stored as JSON instead, behind byte 0 = 0, so every match the
engine accepts can be stored.

The format's tables, its one writer of a body (``write_body``) and its one reader
(``read_body``) are in ``engine/fives_engine/packed.py``, compiled with the engine where a C
compiler is found (ingest packs every match it stores, and every page of a match reads its
hands); this module is the archive's way in and out (``pack_match``, ``unpack_match``): the
compression, the JSON fallback and the format's versions.

Format 1 (``pack_hand``/``unpack_hand``, one hand per ``Hand`` row) is kept for one release:
migrations 0007 and 0009 read and write it on their way forwards and back.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import threading
import zlib
from typing import Any

import zstandard

from fives_engine import HandLog, HandResult, MoveFacts
from fives_engine import Move as LogMove
from fives_engine.packed import (
    BEST_BYTE,
    BEST_TEXT,
    END_CODE,
    ENDS,
    HIDDEN,
    NO_FACTS,
    NO_REVIEW,
    TILE_BYTE,
    TILE_TEXT,
    UNSEEN,
    DoesNotFit,
    PackedHand,
    read_body,
    read_claim,
    read_seats,
    read_varint,
    write_body,
    write_claim,
    write_seats,
    write_varint,
)

VERSION = 1
JSON_FALLBACK = 0
KINDS = ("play", "draw", "pass")


MATCH_VERSION = 2
MATCH_ZLIB = 3
MATCH_ZSTD = 4
# The dictionary of format 4, trained on packed matches (scripts/train_packed_dictionary.py).
# Every match packed with it needs this exact file: its digest is checked on first use.
DICTIONARY_PATH = pathlib.Path(__file__).with_name("packed-1.zdict")
DICTIONARY_SHA256 = "586578c1369ce95cf716d9fe6f52c4dcdefb288fd9d0a3aebc33230505a6f297"
ZSTD_LEVEL = 9  # as small as 19 within 1%, at a third of the time


class _Zstd(threading.local):
    """The format-4 compressor and decompressor of this thread (neither may be shared
    between threads), made on first use."""

    compressor: zstandard.ZstdCompressor | None = None
    decompressor: zstandard.ZstdDecompressor | None = None

    def _dictionary(self) -> zstandard.ZstdCompressionDict:
        data = DICTIONARY_PATH.read_bytes()
        if hashlib.sha256(data).hexdigest() != DICTIONARY_SHA256:
            raise RuntimeError(f"{DICTIONARY_PATH} is not the dictionary stored matches need")
        return zstandard.ZstdCompressionDict(data)

    def compress(self, body: bytes) -> bytes:
        if self.compressor is None:
            self.compressor = zstandard.ZstdCompressor(
                level=ZSTD_LEVEL,
                dict_data=self._dictionary(),
                write_checksum=False,
                write_dict_id=False,
            )
        return self.compressor.compress(body)

    def decompress(self, data: bytes) -> bytes:
        if self.decompressor is None:
            self.decompressor = zstandard.ZstdDecompressor(dict_data=self._dictionary())
        return self.decompressor.decompress(data)


_ZSTD = _Zstd()


def pack_body(hands: list[PackedHand], players: int) -> bytes | None:
    """Return the uncompressed format-2 body of a match's hands, or None when they do not
    fit the compact form."""
    try:
        return bytes(write_body(hands, players))
    except DoesNotFit:
        return None


def pack_match(hands: list[PackedHand], players: int) -> bytes:
    """Return the hands of a match of ``players`` seats, with their figures, as bytes."""
    body = pack_body(hands, players)
    if body is None:
        doc = [
            {
                "hand": hand.log.as_json(),
                "facts": [list(fact) for fact in hand.facts],
                "result": hand.result.as_dict(),
            }
            for hand in hands
        ]
        return bytes([JSON_FALLBACK]) + json.dumps(doc, separators=(",", ":")).encode()
    return packed_of_body(body)


def packed_of_body(body: bytes) -> bytes:
    """Return a match as stored from its format-2 body (``pack_body``, or the engine's walk
    that packs: ``check_document(pack=True)``): compressed when that is shorter."""
    squeezed = _ZSTD.compress(body)
    if len(squeezed) < len(body):
        return bytes([MATCH_ZSTD]) + squeezed
    return bytes([MATCH_VERSION]) + body


def unpack_match(data: bytes, players: int) -> list[PackedHand]:
    """Return the hands that ``pack_match`` stored for a match of ``players`` seats."""
    version = data[0]
    if version == JSON_FALLBACK:
        return [
            PackedHand(
                _hand_from_json(doc["hand"]),
                [MoveFacts(*fact) for fact in doc["facts"]],
                HandResult(**doc["result"]),
            )
            for doc in json.loads(data[1:])
        ]
    if version == MATCH_ZSTD:
        data = _ZSTD.decompress(memoryview(data)[1:])
    elif version == MATCH_ZLIB:
        data = zlib.decompress(memoryview(data)[1:])
    elif version == MATCH_VERSION:
        data = data[1:]
    else:
        raise ValueError(f"unknown packed match version {version}")
    return read_body(data, players)


def pack_hand(hand: HandLog, facts: list[MoveFacts]) -> bytes:
    """Return ``hand`` and the engine's figures for each of its moves as bytes."""
    try:
        return _pack(hand, facts)
    except DoesNotFit:
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
        deal, at = read_seats(data, at)
    count, at = read_varint(data, at)
    moves: list[LogMove] = []
    figures: list[MoveFacts] = []
    for _ in range(count):
        first, second = data[at], data[at + 1]
        at += 2
        kind = (first >> 2) & 3
        end = ENDS[(first >> 4) & 7]
        claimed = None
        fact = NO_FACTS
        if kind == 0:
            after, best, best_byte = data[at], data[at + 1], data[at + 2]
            at += 3
            fact = MoveFacts(
                after,
                after if second & 128 else 0,
                None if best == NO_REVIEW else best,
                None if best == NO_REVIEW else BEST_TEXT[best_byte],
            )
        if first & 128:
            claimed, at = read_claim(data, at)
        if kind == HIDDEN:
            moves.append(LogMove(first & 3, "draw", UNSEEN, end, claimed))
        elif kind == 2:
            moves.append(LogMove(first & 3, "pass", None, end, claimed))
        else:
            moves.append(LogMove(first & 3, KINDS[kind], TILE_TEXT[second & 63], end, claimed))
        figures.append(fact)
    left = None
    if head & 32:
        left, at = read_seats(data, at)
    return HandLog(leader, deal, tuple(moves), left), figures


def _pack(hand: HandLog, facts: list[MoveFacts]) -> bytes:
    if not 0 <= hand.leader < 16 or len(facts) != len(hand.moves):
        raise DoesNotFit
    out = bytearray((VERSION, hand.leader | (16 if hand.deal is not None else 0)))
    if hand.left is not None:
        out[1] |= 32
    if hand.deal is not None:
        write_seats(out, hand.deal)
    write_varint(out, len(hand.moves))
    for move, fact in zip(hand.moves, facts, strict=True):
        _pack_move(out, move, fact)
    if hand.left is not None:
        write_seats(out, hand.left)
    return bytes(out)


def _pack_move(out: bytearray, move: LogMove, fact: MoveFacts) -> None:
    """Write one move and its figures: its first byte, its tile byte (a play's with its
    count and review), and its claim."""
    if not 0 <= move.seat < 4 or move.end not in END_CODE:
        raise DoesNotFit
    if move.kind == "pass":
        kind, tile = 2, 0
    elif move.kind == "draw" and move.tile == UNSEEN:
        kind, tile = HIDDEN, 0
    else:
        kind, tile = KINDS.index(move.kind), _tile_byte(move.tile)
    claimed = move.points is not None
    out.append(move.seat | kind << 2 | END_CODE[move.end] << 4 | claimed << 7)
    if kind == 0:
        _pack_play(out, tile, fact)
    else:
        if tuple(fact) != (None, 0, None, None):
            raise DoesNotFit
        out.append(tile)
    if claimed:
        write_claim(out, move.points)


def _pack_play(out: bytearray, tile: int, fact: MoveFacts) -> None:
    """Write a play's tile byte (reviewed, scored) and its count, best and best play."""
    count, points, best, best_play = fact
    if count is None or not 0 <= count < NO_REVIEW or points not in (0, count):
        raise DoesNotFit
    reviewed = best is not None
    if reviewed and not 0 <= best < NO_REVIEW:
        raise DoesNotFit
    scored = points == count and count > 0
    out.append(tile | reviewed << 6 | scored << 7)
    out += bytes((count, best if reviewed else NO_REVIEW, _best_byte(best_play)))


def _tile_byte(text: str | None) -> int:
    byte = TILE_BYTE.get(text)  # type: ignore[arg-type]
    if byte is None:
        raise DoesNotFit
    return byte


def _best_byte(best_play: str | None) -> int:
    """Return a best play ("4-6 on N", or "4-6" for a lead) as ``tile | end << 5``."""
    if best_play is None:
        return 0
    byte = BEST_BYTE.get(best_play)
    if byte is None:
        raise DoesNotFit
    return byte


def _hand_from_json(doc: dict[str, Any]) -> HandLog:
    def seats(value: Any) -> tuple[tuple[str, ...], ...] | None:
        return None if value is None else tuple(tuple(tiles) for tiles in value)

    moves = []
    for move in doc["moves"]:
        kind = next(name for name in KINDS if name in move)
        tile = None if kind == "pass" else move[kind]
        moves.append(LogMove(move["seat"], kind, tile, move.get("end"), move.get("points")))
    return HandLog(doc["leader"], seats(doc.get("deal")), tuple(moves), seats(doc.get("left")))
