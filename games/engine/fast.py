"""The fast lane of validation: accept a clean log in one tight loop, or step aside.

Workers validate every upload, and almost every upload is a legal log. ``fast_report``
walks the raw JSON of such a log with the hand state in local variables (no objects per
move), and returns the same report the careful validator (``validate.py``) would. At the
first thing that is not plainly legal and clean (an error, a claimed point that differs,
an unknown field, a final score that differs) it returns None, and the careful validator,
which builds every move with ``HandState`` and its legal-move generator, gives the report
with its exact error. So the generator stays the one definition of a legal move; this
loop is checked against it by property tests over simulated and mutated logs
(``tests/engine/test_differential.py`` and ``tests/engine/test_walk.py``).

``fast_check`` is the same walk for ``check_document``: it parses the moves as it walks
them (the parser's own ``Move`` values) and keeps every move's facts and every play's best.
``fast_pack`` is that walk for ingest: each move writes its packed bytes (``packed.py``) and
its canonical text instead, so nothing goes over the moves again to store the match.
What repeats from log to log is worked out once and shared: each move's ``Move`` and
``MoveFacts`` (both immutable), each end's best play by the tiles that fit it and the count,
each move's bytes and each play's figures' bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

from .game import PLAY, HandResult, LegalMove
from .log import (
    KNOWN_MOVES,
    HandLog,
    MatchLog,
    Move,
    SchemaError,
    canonical_hand,
    canonical_move,
    parse_log,
    read_move,
)
from .packed import (
    CLAIM_AS_SCORED,
    END_CODE,
    OWN_BEST,
    TILE_BYTE,
    DoesNotFit,
    write_claim,
    write_results,
    write_seats,
    write_varint,
)
from .report import Checked, MoveFacts, Packed, Report
from .rules import Ruleset, RulesetError, resolve_ruleset
from .scoring import (
    MAX_COUNT,
    becomes_spinner,
    cross_open,
    end_value,
    leader_at_target,
    next_leaders,
    points_by_count,
    settlement,
    team_of,
)
from .tiles import ALL_TILES, HIGH, LOW, PIPS, SET_SIZE
from .tiles import TILE_BY_TEXT as _TILE

_END_INDEX = {"W": 0, "E": 1, "N": 2, "S": 3}
# The fields of a play this loop reads. A hand or a move with any other field steps aside:
# the careful parser checks the strings of unknown fields (limits.py), this loop does not.
_PLAY_FIELDS = frozenset(("seat", "play", "end", "points"))
_END_NAME = ("W", "E", "N", "S")
# A seat's tiles, the boneyard and the tiles dealt are masks: bit t is tile t.
_BIT = {text: 1 << tile for text, (tile, _, _) in _TILE.items()}
_ALL = (1 << SET_SIZE) - 1
# _WITH_PIP[p]: the mask of the tiles that show pip p.
_WITH_PIP = [sum(1 << t for t in ALL_TILES if p in (LOW[t], HIGH[t])) for p in range(7)]
# The pips of a mask, a chunk of 7 tiles at a time: _CHUNK_PIPS[k][m] for bits 7k..7k+6.
_CHUNK_PIPS = [
    [sum(PIPS[7 * k + i] for i in range(7) if m >> i & 1) for m in range(128)] for k in range(4)
]
# _JOIN[t][p]: the pip tile t leaves open when it joins pip p, and what that end then adds
# to the count (scoring.end_value), looked up once per play.
_JOIN = [
    {
        joined: (outer, end_value(outer, LOW[t] == HIGH[t]))
        for joined, outer in ((LOW[t], HIGH[t]), (HIGH[t], LOW[t]))
    }
    for t in ALL_TILES
]
# _ADD[p][t]: what tile t adds to the count when it joins pip p (0 when it cannot).
_ADD = [[_JOIN[t][p][1] if p in _JOIN[t] else 0 for t in ALL_TILES] for p in range(7)]
# _PLAY_TEXT[t][index]: the play, as the generator's LegalMove writes it, on end W, E, N, S
# (index 0..3) or as the lead (index 4).
_PLAY_TEXT = [
    [str(LegalMove(PLAY, t, end)) for end in _END_NAME] + [str(LegalMove(PLAY, t))]
    for t in ALL_TILES
]
# A play's review is one int, ``points << 8 | (31 - tile) << 3 | (7 - index)``: the larger,
# the better play (the most points, then the lower tile, then the earlier end: the first
# in the generator's order); index 0..3 for an end W, E, N, S, 4 for the lead.
_LEAD_BITS = 7 - 4

Trace = list[list[MoveFacts]]
_NO_PLAY = MoveFacts(None, 0)


# The values of the options this loop knows (every preset before Fives and Threes): a
# ruleset with any other (a go-out bonus, a target to reach exactly, no drawing...) goes to
# the careful validator, the one walk of those rules.
_KNOWN_VALUES = {
    "scoring": "count",
    "go_out_bonus": 0,
    "partnership_end": "first-out",
    "target_exact": False,
}
_KNOWN_CHOICES = {
    "settlement": ("subtract-own", "winner-takes"),
    "next_leader": ("domino-winner", "hand-winner", "any"),
}


def fast_knows(rules: Ruleset) -> bool:
    """Return whether this loop knows every option value of ``rules``; else the careful
    validator walks the log."""
    if type(rules.boneyard_reserve) is not int:
        return False
    for name, value in _KNOWN_VALUES.items():
        if getattr(rules, name) != value:
            return False
    return all(getattr(rules, name) in known for name, known in _KNOWN_CHOICES.items())


def _pips_of(mask: int) -> int:
    """Return the pips of the tiles of ``mask``."""
    first, second, third, fourth = _CHUNK_PIPS
    low = first[mask & 127] + second[mask >> 7 & 127]
    return low + third[mask >> 14 & 127] + fourth[mask >> 21]


def fast_check(doc: Any, *, trace: bool = True, review: bool = True) -> Checked | None:
    """Return the walk of a legal log with no warning, its parsed log included, else None.

    One pass gives the report, with ``trace`` each move's facts (with ``review`` each
    play's best too), and the log as ``parse_log`` reads it: the header by ``parse_log``,
    each hand made while its moves are walked.
    """
    if type(doc) is not dict:
        return None
    try:
        header = parse_log(doc, moves=False)
    except SchemaError:
        return None
    moves: Trace = []
    hands: list[HandLog] = []
    report = fast_report(doc, moves if trace else None, log=header, review=review, hands=hands)
    if report is None:
        return None
    return Checked(report, dataclasses.replace(header, hands=tuple(hands)), moves)


def fast_pack(doc: Any) -> Checked | None:
    """Return the walk of a legal log with no warning, packed as it was walked, else None.

    The same walk as ``fast_check`` with the review, but each move writes its bytes in the
    packed form (``packed.py``) and its canonical text instead of its ``Move`` and its
    ``MoveFacts``: the result's ``packed`` holds the hands, and its log the header alone.
    """
    if type(doc) is not dict:
        return None
    try:
        header = parse_log(doc, moves=False)
    except SchemaError:
        return None
    hands = bytearray()
    texts: list[str] = []
    report = fast_report(doc, log=header, review=True, packed=(hands, texts))
    if report is None:
        return None
    body = bytearray()
    try:
        write_results(body, report.hands, len(report.hands[0].points) if report.hands else 0)
    except DoesNotFit:
        return None
    body += hands
    return Checked(report, header, [], Packed(bytes(body), header.canonical_text_with(texts)))


def fast_report(
    doc: Any,
    trace: Trace | None = None,
    *,
    log: MatchLog | None = None,
    review: bool = False,
    hands: list[HandLog] | None = None,
    packed: tuple[bytearray, list[str]] | None = None,
) -> Report | None:
    """Return the report of a legal log with no warning, or None to ask the careful path.

    With ``trace``, each hand appends the list of its moves' ``MoveFacts`` (count None
    for a draw or a pass); with ``review`` too, each play's facts hold the best any legal
    play could have scored there. ``log``, when the caller has parsed ``doc`` already,
    spares the parse of its header. ``hands``, when given, gets each hand's ``HandLog`` as
    ``parse_log`` reads it. ``packed`` (with ``review``), when given, gets each hand's bytes
    and its canonical text (``fast_pack``).
    """
    if type(doc) is not dict:
        return None
    if log is None:
        try:
            log = parse_log(doc, moves=False)
        except SchemaError:
            return None
    if log.table:
        return None  # a table record: the careful validator reads it (no deal to walk)
    players = len(log.players)
    names = log.players
    if not 2 <= players <= 4 or len(set(names)) != players or not all(n.strip() for n in names):
        return None
    try:
        rules = resolve_ruleset(log.ruleset, players)
    except RulesetError:
        return None
    if not fast_knows(rules):
        return None
    teams = log.teams
    if teams is not None and (
        players != 4
        or len(teams) != 2
        or any(len(team) != 2 for team in teams)
        or sorted(seat for team in teams for seat in team) != [0, 1, 2, 3]
    ):
        return None
    seats_team, team_count = team_of(teams, players)

    hand_size = rules.hand_size
    target = rules.target
    points_of = points_by_count(rules)
    scores = [0] * team_count
    match = _Match(
        rules,
        seats_team,
        scores,
        points_of,
        [(seat + 1) % players for seat in range(players)],
        _table(_KNOWN, _Known, points_of) if review else None,
        _table(_FACTS, _Facts, points_of),
        _table(_PLAY_BYTES, _PlayBytes, points_of),
    )
    results: list[HandResult] = []
    leaders: frozenset[int] | None = None
    winner: int | None = None
    moves_checked = 0
    raw_hands = doc["hands"]
    last_hand = len(raw_hands) - 1

    for h, raw_hand in enumerate(raw_hands):
        if winner is not None or type(raw_hand) is not dict or len(raw_hand) != 3:
            return None  # won already, or a hand with unknown fields (or missing ones)
        try:
            leader = raw_hand["leader"]
            deal = raw_hand["deal"]
            raw_moves = raw_hand["moves"]
            if type(deal) is not list or len(deal) != players or type(raw_moves) is not list:
                return None
            # The deal: every seat's tiles as a mask, all distinct.
            masks = []
            dealt = 0
            for tiles in deal:
                if type(tiles) is not list or len(tiles) != hand_size:
                    return None
                # A sum of k bits has k bits set only when no two are the same.
                mask = sum(map(_BIT.__getitem__, tiles))
                if mask.bit_count() != hand_size or dealt & mask:
                    return None  # a tile dealt twice
                dealt |= mask
                masks.append(mask)
        except (TypeError, KeyError):
            return None
        if type(leader) is not int or not 0 <= leader < players:
            return None
        if h > 0 and leaders is not None and leader not in leaders:
            return None

        moves_trace: list[MoveFacts] | None = None
        if trace is not None:
            moves_trace = []
            trace.append(moves_trace)
        parsed: list[Move] | None = [] if hands is not None else None
        move_texts: list[str] | None = None
        packing: tuple[bytearray, list[str]] | None = None
        if packed is not None:
            # The hand's first byte: its leader, with a deal and no tiles left.
            out = packed[0]
            out.append(leader | 16)
            try:
                write_seats(out, deal)
            except DoesNotFit:
                return None
            write_varint(out, len(raw_moves))
            move_texts = []
            packing = (out, move_texts)
        try:
            outcome = _walk_hand(
                raw_moves,
                deal[leader],
                masks,
                _ALL ^ dealt,
                leader,
                match,
                moves_trace,
                parsed,
                packing,
            )
        except (TypeError, KeyError, AttributeError, SchemaError, DoesNotFit):
            # Not the shape of a clean log (an unhashable tile, a move that is no object, a
            # move the parser refuses...), or one the packed form has no room for.
            return None
        if outcome is None:
            return None
        if hands is not None and parsed is not None:
            hands.append(HandLog(leader, tuple(map(tuple, deal)), tuple(parsed)))
        if packed is not None and move_texts is not None:
            packed[1].append(canonical_hand(deal, leader, None, move_texts))
        hand_end, out_seat, hand_points = outcome
        moves_checked += len(raw_moves)
        settled = [0] * team_count
        if hand_end is None:
            if h < last_hand:
                return None
            results.append(HandResult("unfinished", hand_points, settled, list(scores)))
            break
        if hand_end != "target":
            left = [_pips_of(mask) for mask in masks]
            settled = settlement(rules, hand_end, left, out_seat, seats_team, team_count)
            for team, amount in enumerate(settled):
                scores[team] += amount
            leaders = next_leaders(rules, hand_end, left, out_seat, seats_team, team_count)
        winner = leader_at_target(scores, target)
        results.append(HandResult(hand_end, hand_points, settled, list(scores)))

    if log.final_scores is not None and list(log.final_scores) != scores:
        return None
    return Report(
        ruleset=rules,
        scores=list(scores),
        winner=winner,
        hands=results,
        moves_checked=moves_checked,
    )


def _table[T](
    tables: dict[tuple[int, ...], T],
    kind: Callable[[tuple[int, ...]], T],
    points_of: tuple[int, ...],
) -> T:
    """Return the table of ``kind`` for ``points_of``, made on first use."""
    table = tables.get(points_of)
    if table is None:
        table = tables[points_of] = kind(points_of)
    return table


class _Match(NamedTuple):
    """What every hand of a match walks with; ``scores`` is updated in place."""

    rules: Ruleset
    seats_team: list[int]
    scores: list[int]
    points_of: tuple[int, ...]
    following: list[int]  # the seat after each seat
    known: _Known | None  # with the review
    facts: _Facts  # the facts of the moves met so far
    play_bytes: _PlayBytes  # read when packing


class _Known(dict[int, int]):
    """The review of each end, worked out once per table of points (a few rulesets share
    each): by ``fits << 12 | pip << 6 | base``, the best tile of mask ``fits`` joining
    ``pip`` when the rest of the table counts ``base``, as a review with index 0 (the walk
    sets the end's bits), or -1 when no tile fits. At most 7 x 128 x 49 of them."""

    def __init__(self, points_of: tuple[int, ...]) -> None:
        super().__init__()
        self.points_of = points_of
        # The review of a lead, by the tile's text (any held tile may lead).
        self.lead = {
            text: points_of[PIPS[tile]] << 8 | (31 - tile) << 3 | _LEAD_BITS
            for text, (tile, _, _) in _TILE.items()
        }

    def __missing__(self, key: int) -> int:
        fits, joined, base = key >> 12, key >> 6 & 63, key & 63
        add = _ADD[joined]
        top = -1
        for tile in ALL_TILES:
            if fits >> tile & 1:
                count = base + add[tile]
                points = self.points_of[count] if count <= MAX_COUNT else 0
                top = max(top, points << 8 | (31 - tile) << 3)
        self[key] = top
        return top


class _Facts(dict[int, MoveFacts]):
    """The facts of the moves met so far, per table of points, shared by every log (a
    MoveFacts is immutable): by ``count << 14 | review`` (review 0: none); at most
    ``_KEPT`` of them, past which facts are made anew."""

    def __init__(self, points_of: tuple[int, ...]) -> None:
        super().__init__()
        self.points_of = points_of

    def __missing__(self, key: int) -> MoveFacts:
        count, review = key >> 14, key & 16383
        points = self.points_of[count]
        facts = MoveFacts(count, points)
        if review:
            tile, index = 31 - (review >> 3 & 31), 7 - (review & 7)
            facts = MoveFacts(count, points, review >> 8, _PLAY_TEXT[tile][index])
        if len(self) < _KEPT:
            self[key] = facts
        return facts


class _PlayBytes(dict[int, tuple[int, int, bytes]]):
    """What a reviewed play's figures write in the packed form, per table of points, by
    the key of its facts in ``_Facts``: ``(flags, best, tail)``, the bits its tile byte
    adds (reviewed, scored), the best play's byte when the best scored what the play did
    (else -1: the play was not the best), and what follows the tile byte of a play that
    was not the best (its count, the best points and the best play's byte; a play that was
    the best writes its count alone). At most ``_KEPT`` of them."""

    def __init__(self, points_of: tuple[int, ...]) -> None:
        super().__init__()
        self.points_of = points_of

    def __missing__(self, key: int) -> tuple[int, int, bytes]:
        count, review = key >> 14, key & 16383
        points, best = self.points_of[count], review >> 8
        tile, index = 31 - (review >> 3 & 31), 7 - (review & 7)
        best_byte = tile | (index + 1 if index < 4 else 0) << 5  # a lead is on no end
        flags = (points == count and count > 0) << 7 | 64
        codes = (flags, best_byte if best == points else -1, bytes((count, best, best_byte)))
        if len(self) < _KEPT:
            self[key] = codes
        return codes


class _MoveBytes(dict[tuple[Any, ...], tuple[str, int, int, int, bytes]]):
    """What each move met so far writes when packed, by its key in ``KNOWN_MOVES`` (a
    claim a whole number or None): ``_move_bytes`` of its move. At most ``_KEPT``."""

    def __missing__(self, key: tuple[Any, ...]) -> tuple[str, int, int, int, bytes]:
        entry = _move_bytes(KNOWN_MOVES[key])
        if len(self) < _KEPT:
            self[key] = entry
        return entry


def _move_bytes(move: Move) -> tuple[str, int, int, int, bytes]:
    """Return ``(text, head, tile, own, rest)`` of a move the walk found clean: its
    canonical text; for a play its first byte less the own-best bit, its tile byte and the
    best-play byte it would be; ``rest``, a draw's or a pass's bytes, or a play's claim
    (``packed.py``). By the seat expected (the walk's turn), with a claim equal to its
    points."""
    claimed = move.points
    head = END_CODE[move.end] << 2 | (claimed is not None) << 6
    rest = bytearray()
    if claimed is not None:
        if type(claimed) is int:
            rest.append(CLAIM_AS_SCORED)
        else:
            write_claim(rest, claimed)
    text = canonical_move(move)
    # A play's or a draw's tile is never None (read_move): the ignores below are for
    # mypy's Move.tile (None for a pass); a None would raise KeyError, which the walk takes as
    # "not a clean log", as it takes any other.
    if move.kind == "play":
        tile = TILE_BYTE[move.tile]  # type: ignore[index]
        return text, head, tile, tile & 31 | END_CODE[move.end] << 5, bytes(rest)
    if move.kind == "draw":
        return text, 0, 0, 0, bytes((head | 1, TILE_BYTE[move.tile])) + rest  # type: ignore[index]
    return text, 0, 0, 0, bytes((head | 2,)) + rest


def _pack_play(
    out: bytearray,
    texts: list[str],
    key: tuple[Any, ...],
    claimed: Any,
    count: int,
    top: int,
    play_bytes: _PlayBytes,
) -> None:
    """Write a play's bytes and canonical text (``fast_pack``)."""
    text, head, tile, own, claim = (
        _MOVE_BYTES[key] if claimed is None or type(claimed) is int else _move_bytes(_read(key))
    )
    texts.append(text)
    flags, best, tail = play_bytes[count << 14 | top]
    if best == own:
        out.append(head | OWN_BEST)
        out.append(tile | flags)
        out.append(count)
    else:
        out.append(head)
        out.append(tile | flags)
        out += tail
    if claim:
        out += claim


def _pack_other(out: bytearray, texts: list[str], key: tuple[Any, ...], claimed: Any) -> None:
    """Write a draw's or a pass's bytes and canonical text (``fast_pack``)."""
    text, _head, _tile, _own, rest = (
        _MOVE_BYTES[key] if claimed is None or type(claimed) is int else _move_bytes(_read(key))
    )
    texts.append(text)
    out += rest


# How many facts (and bytes of moves and of plays' figures) are kept at most (a few
# thousand are met).
_KEPT = 50_000
_KNOWN: dict[tuple[int, ...], _Known] = {}
_FACTS: dict[tuple[int, ...], _Facts] = {}
_PLAY_BYTES: dict[tuple[int, ...], _PlayBytes] = {}
_MOVE_BYTES = _MoveBytes()


def _read(key: tuple[Any, ...]) -> Move:
    """Return the parser's ``Move`` of a move (seat, kind, tile, end, points) the walk has
    read, or raise ``SchemaError``."""
    seat, kind, text, end, claimed = key
    move = {"seat": seat, kind: True if text is None else text}
    if end is not None:
        move["end"] = end
    if claimed is not None:
        move["points"] = claimed
    return read_move(move)


def _lead_tags(
    tags: list[int], pip: list[int], adds: list[int], length: list[int], lead_add: int
) -> None:
    """Set the review's tags of W and E (see ``_walk_hand``) after a play on a double lead."""
    for e in (0, 1):
        tags[e] = (pip[e] << 6) - adds[e] + (0 if length[1 - e] else lead_add - adds[1 - e])


def _walk_hand(
    raw_moves: list[Any],
    dealt: list[Any],
    masks: list[int],
    boneyard: int,
    leader: int,
    match: _Match,
    trace: list[MoveFacts] | None,
    parsed: list[Move] | None,
    packing: tuple[bytearray, list[str]] | None,
) -> tuple[str | None, int | None, list[int]] | None:
    """Play one hand's raw moves; return (end, seat that went out, points per team).

    ``dealt`` is the leader's deal; ``masks`` are the seats' tiles and ``boneyard`` the
    rest, as masks; the masks and the match's scores are updated in place. ``trace`` gets
    each move's facts, ``parsed`` each move's ``Move``, ``packing`` (bytes, texts) each
    move's packed bytes and canonical text. None: something is not plainly legal and clean.
    """
    rules, seats_team, scores, points_of, following, known, facts, play_bytes = match
    out: bytearray | None = None
    texts: list[str] = []
    if packing is not None:
        out, texts = packing
    moves_met = KNOWN_MOVES
    players = len(masks)
    stock = boneyard.bit_count()
    reserve = rules.boneyard_reserve
    assert isinstance(reserve, int)  # fast_knows takes a whole number of tiles alone
    target = rules.target
    immediately = rules.end_at_target == "immediately"
    hand_points = [0] * len(scores)
    if not raw_moves:
        return None, None, hand_points
    moves = iter(raw_moves)
    record = trace.append if trace is not None else None
    keep = parsed.append if parsed is not None else None
    # The review of the play just made (0 without the review).
    top = 0

    # The lead: the leader's first move, any tile it holds.
    move = next(moves)
    if move.get("seat") != leader or type(move["seat"]) is not int:
        return None
    if "play" not in move or not _PLAY_FIELDS.issuperset(move):
        return None
    text = move["play"]
    tile, west, east = _TILE[text]
    bit = 1 << tile
    end = move.get("end")
    if end is not None and _END_INDEX.get(end) is None:
        return None  # the lead lies on no end, but an end it names must be one
    held = masks[leader]
    if not held & bit:
        return None
    if known is not None:
        top = max(map(known.lead.__getitem__, dealt))  # what the leader was dealt
    held ^= bit
    masks[leader] = held
    # Per end W, E, N, S: its open pip, how many tiles its arm holds, and what it adds to
    # the count. W and E start on the lead: each side adds its pip, a double both halves
    # once (so the east side adds nothing while the west side is open too).
    pip = [west, east, west, west]
    length = [0, 0, 0, 0]
    lead_add = end_value(west, True) if west == east else -1
    adds = [lead_add, 0, 0, 0] if west == east else [west, east, 0, 0]
    # While a side of a double lead is bare, the lead's both halves move to that side when
    # the other is covered (see the play below); once both are covered, never again.
    bare = west == east
    # For the review, per end: the tiles that fit it, and ``tags[e] + count``, its pip << 6
    # and what the rest of the table counts once a tile covers it: less this end's old
    # part, and while the other side of a double lead is bare, the lead's halves move there.
    withs = [_WITH_PIP[west], _WITH_PIP[east], _WITH_PIP[west], _WITH_PIP[west]]
    tags = [west << 6, east << 6, west << 6, west << 6]
    if not bare:
        tags[0] -= west
        tags[1] -= east
    spinner_end = -1  # -1: no spinner yet; 4: the lead; 0 or 1: in arm W or E
    spinner_index = 0
    cross = False
    if becomes_spinner(rules, west == east, False):
        spinner_end = 4
        cross = cross_open(rules, False)
    count = west + east
    turn = leader
    claimed = move.get("points")
    points = points_of[count]
    if claimed is not None and (claimed != points or type(claimed) is bool):
        return None
    if keep:
        key = (leader, "play", text, end, claimed)
        keep(moves_met[key] if claimed is None or type(claimed) is int else _read(key))
    if record:
        record(facts[count << 14 | top])
    if out is not None:
        _pack_play(
            out, texts, (leader, "play", text, end, claimed), claimed, count, top, play_bytes
        )
    if points:
        team = seats_team[turn]
        scores[team] += points
        hand_points[team] += points
        if immediately and leader_at_target(scores, target) is not None:
            return ("target", None, hand_points) if next(moves, None) is None else None
    if not held:
        return ("domino", turn, hand_points) if next(moves, None) is None else None
    turn = following[turn]
    passes = 0

    for move in moves:
        seat = move["seat"]
        # ``is``: the same small int object as the turn, the common case, is an int.
        if seat is not turn and (seat != turn or type(seat) is not int):
            return None
        text = move.get("play")
        if text is not None:
            end = move.get("end")
            if len(move) == (3 if end is not None else 2):
                claimed = None  # exactly seat, play and end: nothing more to look at
            else:
                if not _PLAY_FIELDS.issuperset(move):
                    return None  # a draw or a pass too, or an unknown field
                claimed = move.get("points")
                if type(claimed) is bool or type(claimed) is str:
                    return None
            tile, low, high = _TILE[text]
            bit = 1 << tile
            index = -1 if end is None else _END_INDEX[end]
            held = masks[seat]
            if not held & bit:
                return None
            if index < 0:
                for e in range(4 if cross else 2):
                    if pip[e] == low or pip[e] == high:
                        if index >= 0:
                            return None  # fits two ends: the log must say which
                        index = e
                if index < 0:
                    return None
            elif index >= 2 and not cross:
                return None
            joined = pip[index]
            if joined != low and joined != high:
                return None
            if known is not None:
                # The best play: each end's best (remembered in ``known``) with the end
                # in its low bits, so the largest is the first best in the generator's
                # order.
                fits = held & withs[0]
                top = known[fits << 12 | tags[0] + count] | 7 if fits else -1
                fits = held & withs[1]
                if fits:
                    found = known[fits << 12 | tags[1] + count] | 6
                    if found > top:
                        top = found
                if cross:
                    fits = held & withs[2]
                    if fits:
                        found = known[fits << 12 | tags[2] + count] | 5
                        if found > top:
                            top = found
                    fits = held & withs[3]
                    if fits:
                        found = known[fits << 12 | tags[3] + count] | 4
                        if found > top:
                            top = found
            held ^= bit
            masks[seat] = held
            outer, add = _JOIN[tile][joined]
            # As in the review; here the ends change too.
            count += add - adds[index]
            adds[index] = add
            if bare and index < 2:
                if not length[1 - index]:
                    count += lead_add - adds[1 - index]
                    adds[1 - index] = lead_add
                else:
                    bare = False
            length[index] += 1
            pip[index] = outer
            if known is not None:
                withs[index] = _WITH_PIP[outer]
                tags[index] = (outer << 6) - add
                if lead_add >= 0 and index < 2:
                    _lead_tags(tags, pip, adds, length, lead_add)
            if low == high and spinner_end < 0 and becomes_spinner(rules, True, False):
                spinner_end = index
                spinner_index = length[index] - 1
                pip[2] = pip[3] = joined
                withs[2] = withs[3] = _WITH_PIP[joined]
                tags[2] = tags[3] = joined << 6
                cross = cross_open(rules, False)
            elif not cross and spinner_end >= 0:
                if spinner_end == 4:
                    covered = length[0] > 0 and length[1] > 0
                else:
                    covered = length[spinner_end] > spinner_index + 1
                if covered:
                    cross = cross_open(rules, covered)
            points = points_of[count]
            if claimed is not None and claimed != points:
                return None
            if keep:
                key = (seat, "play", text, end, claimed)
                keep(moves_met[key] if claimed is None or type(claimed) is int else _read(key))
            if record:
                record(facts[count << 14 | top])
            if out is not None:
                key = (seat, "play", text, end, claimed)
                _pack_play(out, texts, key, claimed, count, top, play_bytes)
            passes = 0
            if points:
                team = seats_team[seat]
                scores[team] += points
                hand_points[team] += points
                if immediately and leader_at_target(scores, target) is not None:
                    return ("target", None, hand_points) if next(moves, None) is None else None
            if not held:
                return ("domino", seat, hand_points) if next(moves, None) is None else None
            turn = following[seat]
            continue

        # A draw or a pass: only for a seat that holds no tile that fits.
        fields = len(move)
        if fields != 2 and (fields != 3 or "points" not in move):
            # Only seat, draw or pass, and points: a null play, an end, an unknown field
            # are unusual, and the careful path decides.
            return None
        claimed = move.get("points")
        if claimed is not None and (claimed != 0 or type(claimed) is bool):
            return None
        fit = _WITH_PIP[pip[0]] | _WITH_PIP[pip[1]]
        if cross:
            fit |= _WITH_PIP[pip[2]] | _WITH_PIP[pip[3]]
        if masks[seat] & fit:
            return None
        if record:
            record(_NO_PLAY)
        text = move.get("draw")
        if text is not None:
            if "pass" in move or stock <= reserve:
                return None
            bit = _BIT[text]
            if not boneyard & bit:
                return None
            boneyard ^= bit
            stock -= 1
            masks[seat] |= bit
            if keep:
                key = (seat, "draw", text, None, claimed)
                keep(moves_met[key] if claimed is None or type(claimed) is int else _read(key))
            if out is not None:
                _pack_other(out, texts, (seat, "draw", text, None, claimed), claimed)
            continue
        if move.get("pass") is not True or stock > reserve:
            return None
        if keep:
            key = (seat, "pass", None, None, claimed)
            keep(moves_met[key] if claimed is None or type(claimed) is int else _read(key))
        if out is not None:
            _pack_other(out, texts, (seat, "pass", None, None, claimed), claimed)
        passes += 1
        if passes == players:
            return ("block", None, hand_points) if next(moves, None) is None else None
        turn = (seat + 1) % players
    return None, None, hand_points
