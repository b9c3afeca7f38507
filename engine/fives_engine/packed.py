"""The bytes of a match's hands as the archive stores them: format 2 of ``games/codec.py``
(documented there), its tables, the one writer of a body (``write_body``) and the one reader
(``read_body``). Compiled with the walk (``compiled.py``): ingest packs each match it stores
and each page of a match reads it back.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Final, NamedTuple, cast

from .game import HandResult
from .log import KNOWN_MOVES, HandLog
from .log import Move as LogMove
from .report import MoveFacts
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


# A play's count byte with this bit: its points follow (a zigzag varint), as scored. Counts are
# at most ``scoring.MAX_COUNT`` (48), so no byte written before had it.
AS_SCORED: Final = 128
NO_REVIEW: Final = 255
# The figures of a move that is not a play.
NO_FACTS: Final = MoveFacts(None, 0)


class PackedHand(NamedTuple):
    """One hand as stored: as logged, the engine's figures for each move, and its result."""

    log: HandLog
    facts: list[MoveFacts]
    result: HandResult


def write_body(hands: list[PackedHand], players: int) -> bytearray:
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
    move_codes = _MOVE_CODES.get
    for move, fact in zip(hand.moves, facts, strict=True):
        codes = move_codes(id(move)) or _move_codes(move)
        _held, seat, head, tile, own, claim = codes
        if seat != expected:
            head |= 32
        if head & 3 == 0:
            _write_play(out, head, seat, tile, own, fact)
        else:
            if fact is not NO_FACTS and fact != NO_FACTS:
                raise DoesNotFit
            out.append(head)
            if head & 32:
                out.append(seat)
            if head & 3 == 1:
                out.append(tile)
        expected = _next_expected(head & 3, seat, players)
        if claim is not None:
            if type(claim) is int and claim == fact.points:
                out.append(CLAIM_AS_SCORED)
            else:
                write_claim(out, claim)
    if hand.left is not None:
        write_seats(out, hand.left)


def _write_play(out: bytearray, head: int, seat: int, tile: int, own: int, fact: MoveFacts) -> None:
    """Write a play: its head (with ``OWN_BEST`` when it was the best), the seat when it is
    not the one expected, its tile and count bytes, its points and its best when said."""
    found = _PLAY_CODES.get(fact) or _play_codes(fact)
    flags, count, points, best_own, extra = found
    if best_own == own:
        out.append(head | OWN_BEST)
        extra = None
    else:
        out.append(head)
    if head & 32:
        out.append(seat)
    out.append(tile | flags)
    out.append(count)
    if points is not None:
        out += points
    if extra is not None:
        out += extra


def _next_expected(kind: int, seat: int, players: int) -> int:
    """Return the seat expected to move after a move of ``kind`` (the head's two low bits)
    by ``seat``: the same seat after a draw, else the next."""
    if kind == 1 or kind == HIDDEN:
        return seat  # the same seat moves again after a draw
    return seat + 1 if seat + 1 < players else 0


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
        deal, at = read_seats(data, at)
    count, at = read_varint(data, at)
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
                points, at = read_zigzag(data, at)
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
            fact, name, following = NO_FACTS, "draw", seat
        elif kind == HIDDEN:
            tile, fact, name, following = UNSEEN, NO_FACTS, "draw", seat
        else:
            tile, fact, name, following = None, NO_FACTS, "pass", (seat + 1) % players
        claimed: int | float | None = None
        if first & 64:
            if data[at] == CLAIM_AS_SCORED:
                claimed = fact.points
                at += 1
            else:
                claimed, at = read_claim(data, at)
        if claimed is None or type(claimed) is int:
            move = KNOWN_MOVES[seat, name, tile, end, claimed]
        else:  # a float claim: 5.0 must not come back as 5
            move = LogMove(seat, name, tile, end, claimed)
        moves.append(move)
        figures.append(fact)
        seat = following
    if head & 32:
        left, at = read_seats(data, at)
    return HandLog(leader, deal, tuple(moves), left), figures, at


def read_zigzag(data: bytes, at: int) -> tuple[int, int]:
    value, at = read_varint(data, at)
    return value >> 1 ^ -(value & 1), at


def read_seats(data: bytes, at: int) -> tuple[tuple[tuple[str, ...], ...], int]:
    count = data[at]
    at += 1
    seats: list[tuple[str, ...]] = []
    for _ in range(count):
        size = data[at]
        at += 1
        # (Only tiles' bytes are written here: none reads as None.)
        seats.append(
            cast("tuple[str, ...]", tuple(TILE_TEXT[byte] for byte in data[at : at + size]))
        )
        at += size
    return tuple(seats), at


def read_claim(data: bytes, at: int) -> tuple[int | float, int]:
    tag = data[at]
    if tag == 2:
        return struct.unpack_from("<d", data, at + 1)[0], at + 9
    value, at = read_varint(data, at + 1)
    return (-value if tag == 1 else value), at


def read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            return value, at
        shift += 7


def read_body(data: bytes, players: int) -> list[PackedHand]:
    """Return the hands of a format-2 body (``write_body``) of a match of ``players`` seats."""
    teams, at = read_varint(data, 0)
    count, at = read_varint(data, at)
    results: list[HandResult] = []
    scores = [0] * teams
    for _ in range(count):
        head = data[at]
        at += 1
        points, settlement = [], []
        for _team in range(teams):
            value, at = read_zigzag(data, at)
            points.append(value)
            value, at = read_zigzag(data, at)
            settlement.append(value)
        if head & 8:
            scores = []
            for _team in range(teams):
                value, at = read_zigzag(data, at)
                scores.append(value)
        else:
            scores = [s + p + t for s, p, t in zip(scores, points, settlement, strict=True)]
        results.append(HandResult(HAND_ENDS[head & 7], points, settlement, scores))
    hands = []
    for result in results:
        hand, facts, at = _read_hand(data, at, players)
        hands.append(PackedHand(hand, facts, result))
    return hands
