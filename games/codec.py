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

The format's tables and small writers are in ``games/engine/packed.py``; this module is the
one packer (``pack_match``) and the one reader (``unpack_match``) of a match's hands.

Format 1 (``pack_hand``/``unpack_hand``, one hand per ``Hand`` row) is kept for one release:
migrations 0007 and 0009 read and write it on their way forwards and back.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import struct
import threading
import zlib
from typing import Any, NamedTuple

import zstandard

from games.engine import HandLog, HandResult, MoveFacts
from games.engine import Move as LogMove
from games.engine.log import KNOWN_MOVES
from games.engine.packed import (
    BEST_BYTE,
    BEST_TEXT,
    CLAIM_AS_SCORED,
    END_CODE,
    ENDS,
    HAND_ENDS,
    HIDDEN,
    OWN_BEST,
    TILE_BYTE,
    TILE_TEXT,
    UNSEEN,
    DoesNotFit,
    write_claim,
    write_results,
    write_seats,
    write_varint,
    write_zigzag,
)

VERSION = 1
JSON_FALLBACK = 0
KINDS = ("play", "draw", "pass")
NO_REVIEW = 255
# A play's count byte with this bit: its points follow (a zigzag varint), as scored. Counts are
# at most ``scoring.MAX_COUNT`` (48), so no byte written before had it.
AS_SCORED = 128


class PackedHand(NamedTuple):
    """One hand as stored: as logged, the engine's figures for each move, and its result."""

    log: HandLog
    facts: list[MoveFacts]
    result: HandResult


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
        return bytes(_pack_match(hands, players))
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
    teams, at = _read_varint(data, 0)
    count, at = _read_varint(data, at)
    results: list[HandResult] = []
    scores = [0] * teams
    for _ in range(count):
        head = data[at]
        at += 1
        points, settlement = [], []
        for _team in range(teams):
            value, at = _read_zigzag(data, at)
            points.append(value)
            value, at = _read_zigzag(data, at)
            settlement.append(value)
        if head & 8:
            scores = []
            for _team in range(teams):
                value, at = _read_zigzag(data, at)
                scores.append(value)
        else:
            scores = [s + p + t for s, p, t in zip(scores, points, settlement, strict=True)]
        results.append(HandResult(HAND_ENDS[head & 7], points, settlement, scores))
    hands = []
    for result in results:
        hand, facts, at = _read_hand(data, at, players)
        hands.append(PackedHand(hand, facts, result))
    return hands


def _pack_match(hands: list[PackedHand], players: int) -> bytearray:
    out = bytearray()
    write_results(out, [hand.result for hand in hands], len(hands[0].result.points) if hands else 0)
    for hand in hands:
        _write_hand(out, hand.log, hand.facts, players)
    return out


def _write_hand(out: bytearray, hand: HandLog, facts: list[MoveFacts], players: int) -> None:
    # The hot loop of ingest: what each move and each play's figures write is worked out
    # once (``_move_codes``, ``_play_codes``) and looked up here.
    if not 0 <= hand.leader < 16 or len(facts) != len(hand.moves) or players < 1:
        raise DoesNotFit
    out.append(hand.leader | (hand.deal is not None) << 4 | (hand.left is not None) << 5)
    if hand.deal is not None:
        write_seats(out, hand.deal)
    write_varint(out, len(hand.moves))
    expected = hand.leader
    append = out.append
    move_codes = _MOVE_CODES.get
    play_codes = _PLAY_CODES.get
    for move, fact in zip(hand.moves, facts, strict=True):
        codes = move_codes(id(move)) or _move_codes(move)
        _held, seat, head, tile, own, claim = codes
        if seat != expected:
            head |= 32
        kind = head & 3
        if kind == 0:
            found = play_codes(fact) or _play_codes(fact)
            flags, count, points, best_own, extra = found
            if best_own == own:
                append(head | OWN_BEST)
                extra = None
            else:
                append(head)
            if seat != expected:
                append(seat)
            append(tile | flags)
            append(count)
            if points is not None:
                out += points
            if extra is not None:
                out += extra
            expected = seat + 1 if seat + 1 < players else 0
        else:
            if fact is not _NO_FACTS and fact != _NO_FACTS:
                raise DoesNotFit
            append(head)
            if seat != expected:
                append(seat)
            if kind == 1:
                append(tile)
                expected = seat
            elif kind == HIDDEN:
                expected = seat  # the same seat moves again after a draw
            else:
                expected = seat + 1 if seat + 1 < players else 0
        if claim is not None:
            if type(claim) is int and claim == fact.points:
                append(CLAIM_AS_SCORED)
            else:
                write_claim(out, claim)
    if hand.left is not None:
        write_seats(out, hand.left)


def _move_codes(move: LogMove) -> tuple[Any, ...]:
    """Return ``(move, seat, head, tile byte, own, claim)`` of a move, for ``_write_hand``:
    its first byte but the seat's bit, its tile byte (None for a pass or a hidden draw),
    ``own``, the best-play byte of the play it is, and its claim; kept for the moves of
    KNOWN_MOVES, found by id (the move held, so that its id stays its own)."""
    seat, kind_name, text, claim = move.seat, move.kind, move.tile, move.points
    end_code = END_CODE.get(move.end)
    if end_code is None or not 0 <= seat < 256:
        raise DoesNotFit
    head = end_code << 2 | (claim is not None) << 6
    tile = None if text is None or text == UNSEEN else TILE_BYTE.get(text)
    if kind_name == "pass":
        head |= 2
    elif kind_name == "draw" and text == UNSEEN:
        head |= HIDDEN
    elif tile is None or kind_name not in ("play", "draw"):
        raise DoesNotFit
    elif kind_name == "draw":
        head |= 1
    own = -2 if tile is None else (tile & 31) | end_code << 5
    codes = (move, seat, head, tile, own, claim)
    if len(_MOVE_CODES) < _CODES_KEPT and move is KNOWN_MOVES.get(
        (seat, kind_name, text, move.end, claim)
    ):
        _MOVE_CODES[id(move)] = codes
    return codes


def _play_codes(fact: MoveFacts) -> tuple[Any, ...]:
    """Return ``(flags, count byte, points, best own, extra)`` of a play's figures, for
    ``_write_hand``: the bits its tile byte adds (reviewed, scored), its count byte (with
    ``AS_SCORED`` when its points follow), its points' bytes when they are neither its whole
    count nor nothing (else None), the best-play byte when the best scored what the play
    did (-1 otherwise, or not reviewed), and the bytes of the best when reviewed (written
    unless the play was that best)."""
    count, points, best, best_play = fact
    if count is None or not 0 <= count < AS_SCORED or type(points) is not int:
        raise DoesNotFit
    flags = (points == count and count > 0) << 7
    points_bytes = None
    count_byte = count
    if points != count and points != 0:
        # Points the count alone does not give (Fives and Threes, a go-out bonus): said.
        count_byte |= AS_SCORED
        written = bytearray()
        write_zigzag(written, points)
        points_bytes = bytes(written)
    best_own, extra = -1, None
    if best is not None:
        best_byte = BEST_BYTE.get(best_play)  # type: ignore[arg-type]
        if best_byte is None or not 0 <= best < NO_REVIEW:
            raise DoesNotFit
        flags |= 64
        if best == points:
            best_own = best_byte
        extra = bytes((best, best_byte))
    codes = (flags, count_byte, points_bytes, best_own, extra)
    if len(_PLAY_CODES) < _CODES_KEPT:
        _PLAY_CODES[fact] = codes
    return codes


# What ``_write_hand`` looks up: by a move's id, and by a play's figures. Bounded: past
# ``_CODES_KEPT``, codes are worked out each time.
_MOVE_CODES: dict[int, tuple[Any, ...]] = {}
_PLAY_CODES: dict[MoveFacts, tuple[Any, ...]] = {}
_CODES_KEPT = 50_000


def _read_hand(data: bytes, at: int, players: int) -> tuple[HandLog, list[MoveFacts], int]:
    head = data[at]
    at += 1
    leader = head & 15
    deal = left = None
    if head & 16:
        deal, at = _read_seats(data, at)
    count, at = _read_varint(data, at)
    moves: list[LogMove] = []
    figures: list[MoveFacts] = []
    seat = leader
    for _ in range(count):
        first = data[at]
        at += 1
        if first & 32:
            seat = data[at]
            at += 1
        kind = first & 3
        end = ENDS[(first >> 2) & 7]
        if kind == 0:
            second, after = data[at], data[at + 1]
            at += 2
            tile = TILE_TEXT[second & 63]
            if after & AS_SCORED:
                after &= AS_SCORED - 1
                points, at = _read_zigzag(data, at)
            else:
                points = after if second & 128 else 0
            if not second & 64:
                fact = MoveFacts(after, points, None, None)
            elif first & OWN_BEST:
                fact = MoveFacts(
                    after, points, points, BEST_TEXT[(second & 31) | (first & 28) << 3]
                )
            else:
                fact = MoveFacts(after, points, data[at], BEST_TEXT[data[at + 1]])
                at += 2
            name = "play"
            following = (seat + 1) % players
        elif kind == 1:
            tile = TILE_TEXT[data[at] & 63]
            at += 1
            fact, name, following = _NO_FACTS, "draw", seat
        elif kind == HIDDEN:
            tile, fact, name, following = UNSEEN, _NO_FACTS, "draw", seat
        else:
            tile, fact, name, following = None, _NO_FACTS, "pass", (seat + 1) % players
        claimed = None
        if first & 64:
            if data[at] == CLAIM_AS_SCORED:
                claimed = fact.points
                at += 1
            else:
                claimed, at = _read_claim(data, at)
        if claimed is None or type(claimed) is int:
            move = KNOWN_MOVES[seat, name, tile, end, claimed]
        else:  # a float claim: 5.0 must not come back as 5
            move = LogMove(seat, name, tile, end, claimed)
        moves.append(move)
        figures.append(fact)
        seat = following
    if head & 32:
        left, at = _read_seats(data, at)
    return HandLog(leader, deal, tuple(moves), left), figures, at


def _read_zigzag(data: bytes, at: int) -> tuple[int, int]:
    value, at = _read_varint(data, at)
    return value >> 1 ^ -(value & 1), at


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
                None if best == NO_REVIEW else BEST_TEXT[best_byte],
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
        raise DoesNotFit
    out = bytearray((VERSION, hand.leader | (16 if hand.deal is not None else 0)))
    if hand.left is not None:
        out[1] |= 32
    if hand.deal is not None:
        write_seats(out, hand.deal)
    write_varint(out, len(hand.moves))
    for move, fact in zip(hand.moves, facts, strict=True):
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
            count, points, best, best_play = fact
            if count is None or not 0 <= count < NO_REVIEW or points not in (0, count):
                raise DoesNotFit
            reviewed = best is not None
            if reviewed and not 0 <= best < NO_REVIEW:
                raise DoesNotFit
            scored = points == count and count > 0
            out.append(tile | reviewed << 6 | scored << 7)
            out += bytes((count, best if reviewed else NO_REVIEW, _best_byte(best_play)))
        else:
            if tuple(fact) != (None, 0, None, None):
                raise DoesNotFit
            out.append(tile)
        if claimed:
            write_claim(out, move.points)
    if hand.left is not None:
        write_seats(out, hand.left)
    return bytes(out)


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


def _read_claim(data: bytes, at: int) -> tuple[int | float, int]:
    tag = data[at]
    if tag == 2:
        return struct.unpack_from("<d", data, at + 1)[0], at + 9
    value, at = _read_varint(data, at + 1)
    return (-value if tag == 1 else value), at


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
