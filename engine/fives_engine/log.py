"""The ``fives/1`` match log: a strict parser and its serialiser.

``parse_log`` turns any JSON value into a ``MatchLog`` or raises ``SchemaError`` naming the
JSON path of the first thing that is not ``fives/1``. It checks shapes and types only; what
the values mean (a legal ruleset, a legal deal, legal moves) is for the validator.
``load_json`` turns bytes or text into a JSON value with the same kind of error.

The limits of ``limits.py`` are checked here, so every path (the
validator, ``check_document``, replays, the command line) refuses the same logs: strings
within their lengths and free of NUL and lone surrogates (anywhere in the document, in
unknown fields too), numbers finite and within ``MAX_NUMBER``. ``played_at`` is metadata,
never refused for what it says: ``played_at_moment`` is its one reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # typing.TypeIs is new in 3.13; annotations are not evaluated
    from typing import TypeIs

from .codes import SCHEMA_PROBLEMS, problem_text
from .limits import (
    MAX_HANDS,
    MAX_METADATA,
    MAX_NUMBER,
    MAX_PATH,
    MAX_PLAYER_NAME,
    MAX_TILE_TEXT,
)
from .tiles import TILE_BY_TEXT

FORMAT_NAME: Final = "fives/1"
ENDS: Final[tuple[str, ...]] = ("W", "E", "N", "S")
METADATA_FIELDS: tuple[str, ...] = tuple(MAX_METADATA)
# The fields the parser reads; any other field is ignored, once its strings are checked.
LOG_FIELDS = frozenset(
    ("format", "record", "ruleset", "players", "teams", "hands", "final_scores", *METADATA_FIELDS)
)
HAND_FIELDS: Final = frozenset(("leader", "deal", "moves"))
# A table record's hand also has ``left``; in a full record ``left`` is an unknown field.
TABLE_HAND_FIELDS: Final = frozenset(("leader", "deal", "moves", "left"))
# ``record``: how the log was recorded (FORMAT.md, "Table records"). Absent or "full": every
# deal and draw is known; "table": what the table saw (no deals, draws perhaps "?", ``left``).
FULL, TABLE = "full", "table"
RECORDS: tuple[str, ...] = (FULL, TABLE)
# The tile of a draw nobody saw, in a table record.
HIDDEN: Final = "?"
MOVE_FIELDS: Final = frozenset(("seat", "play", "draw", "pass", "end", "points"))

# A character no string of a log may hold: NUL, or half of a surrogate pair (in a Python
# string every surrogate is alone: json.loads joins the halves of a pair into one character).
# (Written with chr: mypyc, which compiles this module, takes no surrogate in a literal.)
_BAD_CHARACTER = re.compile("[\x00" + chr(0xD800) + "-" + chr(0xDFFF) + "]")
# A field name a JSON path may write after a dot.
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")

# Compact JSON, as ``as_json_text`` writes it.
_dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
# The canonical JSON of a log (``canonical_text``): keys sorted, ASCII only.
_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


class SchemaError(ValueError):
    """The document is not a ``fives/1`` log; ``path`` is the JSON path of the fault.

    ``problem`` names what is wrong there (a key of ``codes.SCHEMA_PROBLEMS``) and
    ``params`` hold its details; ``text`` says it in English.
    """

    def __init__(self, path: str, problem: str, **params: Any) -> None:
        self.path = path
        self.problem = problem
        self.params = params
        self.text = problem_text(SCHEMA_PROBLEMS, {"problem": problem, **params})
        super().__init__(f"{path}: {self.text}")

    @property
    def hand(self) -> int | None:
        """Return the 0-based hand the fault lies in, if any."""
        return _index_after(self.path, "$.hands[")

    @property
    def move(self) -> int | None:
        """Return the 0-based move the fault lies in, if any."""
        hand = self.hand
        if hand is None:
            return None
        return _index_after(self.path, f"$.hands[{hand}].moves[")


def _index_after(path: str, prefix: str) -> int | None:
    if not path.startswith(prefix):
        return None
    digits = path[len(prefix) :].split("]", 1)[0]
    return int(digits) if digits.isdigit() else None


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a hand: ``kind`` is ``"play"``, ``"draw"`` or ``"pass"``.

    ``tile`` is the tile as the log wrote it (None for a pass); ``end`` is the end named
    for a play (None when left out); ``points`` is what the players claimed, if anything.
    """

    seat: int
    kind: str
    tile: str | None = None
    end: str | None = None
    points: int | float | None = None

    def as_json(self) -> dict[str, Any]:
        """Return the move as ``fives/1`` writes it."""
        out: dict[str, Any] = {"seat": self.seat}
        if self.kind == "pass":
            out["pass"] = True
        else:
            out[self.kind] = self.tile
        if self.end is not None:
            out["end"] = self.end
        if self.points is not None:
            out["points"] = self.points
        return out


@dataclass(frozen=True, slots=True)
class HandLog:
    """One hand as logged: who led, what each seat was dealt, and every move.

    In a table record ``deal`` is None when left out (as it should be), and ``left`` holds
    each seat's tiles when the hand ended (None when left out); in a full record ``left``
    is always None.
    """

    leader: int
    deal: tuple[tuple[str, ...], ...] | None
    moves: tuple[Move, ...]
    left: tuple[tuple[str, ...], ...] | None = None

    def as_json(self) -> dict[str, Any]:
        """Return the hand as ``fives/1`` writes it."""
        out: dict[str, Any] = {"leader": self.leader}
        if self.deal is not None:
            out["deal"] = [list(tiles) for tiles in self.deal]
        out["moves"] = [move.as_json() for move in self.moves]
        if self.left is not None:
            out["left"] = [list(tiles) for tiles in self.left]
        return out


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A parsed ``fives/1`` match log (shapes checked, rules not yet)."""

    ruleset: Any  # a preset name or an object of options, as written
    players: tuple[str, ...]
    hands: tuple[HandLog, ...]
    teams: tuple[tuple[int, ...], ...] | None = None
    final_scores: tuple[int | float, ...] | None = None
    id: str | None = None
    club: str | None = None
    event: str | None = None
    played_at: str | None = None
    source: str | None = None
    # "table" for a table record, "full" when written so, None when left out (a full record).
    record: str | None = None

    @property
    def table(self) -> bool:
        """Return whether this is a table record (FORMAT.md, "Table records")."""
        return self.record == TABLE

    def as_json(self, *, hands: bool = True) -> dict[str, Any]:
        """Return the log as a ``fives/1`` JSON object (``record`` as it was written);
        without its ``hands`` when ``hands`` is false."""
        out: dict[str, Any] = {"format": FORMAT_NAME}
        if self.record is not None:
            out["record"] = self.record
        if self.id is not None:
            out["id"] = self.id
        out["ruleset"] = self.ruleset
        out["players"] = list(self.players)
        out["teams"] = [list(team) for team in self.teams] if self.teams is not None else None
        for name in METADATA_FIELDS[1:]:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if hands:
            out["hands"] = [hand.as_json() for hand in self.hands]
        if self.final_scores is not None:
            out["final_scores"] = list(self.final_scores)
        return out

    def as_json_text(self) -> str:
        """Return the log as compact JSON text: ``json.dumps(log.as_json(),
        ensure_ascii=False, separators=(",", ":"))``, for exports of many logs.

        Put together from the text of each move, as ``canonical_text`` is: each move of
        ``KNOWN_MOVES`` has its compact text written once, found by the move's id.
        """
        fields = self.as_json(hands=False)  # never empty: "format" comes first
        final_scores = fields.pop("final_scores", None)
        # The object's text less its closing brace, then the hands and the final scores,
        # in as_json's order.
        text = _dump(fields)[:-1] + ',"hands":[' + ",".join(map(_compact_hand, self.hands)) + "]"
        if final_scores is not None:
            text += ',"final_scores":' + _dump(final_scores)
        return text + "}"

    def canonical_text(self) -> str:
        """Return the log's canonical JSON text, the one a match's content hash is taken
        of: exactly ``json.dumps(log.as_json(), sort_keys=True, separators=(",", ":"))``.

        JSON text is made of its parts' texts, so it is put together here from the text of
        each move, written once for each move of ``KNOWN_MOVES`` (a log repeats a few
        hundred distinct moves) and found by the move's id, instead of building and sorting
        an object per move.
        """
        return self.canonical_text_with(map(_canonical_hand, self.hands))

    def canonical_text_with(self, hands: Iterable[str]) -> str:
        """Return ``canonical_text`` with these hands' canonical texts (``canonical_hand``)
        in place of this log's own."""
        fields = self.as_json(hands=False)
        # Its fields sorted as ``sort_keys`` sorts them: "format" always before "hands",
        # "players" and "ruleset" always after; each side written in one call.
        before = _canonical({key: value for key, value in fields.items() if key < "hands"})
        after = _canonical({key: value for key, value in fields.items() if key > "hands"})
        return f'{before[:-1]},"hands":[{",".join(hands)}],{after[1:]}'


def _compact_hand(hand: HandLog) -> str:
    """Return a hand's compact JSON text (see ``MatchLog.as_json_text``)."""
    text = '{"leader":' + _dump(hand.leader)
    if hand.deal is not None:
        text += ',"deal":' + _seats_text(hand.deal, _dump)
    known = _MOVE_TEXTS.get
    moves = [
        entry[2] if (entry := known(id(move))) is not None else _dump(move.as_json())
        for move in hand.moves
    ]
    text += ',"moves":[' + ",".join(moves) + "]"
    if hand.left is not None:
        text += ',"left":' + _seats_text(hand.left, _dump)
    return text + "}"


def _canonical_hand(hand: HandLog) -> str:
    """Return a hand's canonical JSON text (see ``MatchLog.canonical_text``)."""
    return canonical_hand(hand.deal, hand.leader, hand.left, map(canonical_move, hand.moves))


def canonical_hand(
    deal: Sequence[Sequence[str]] | None,
    leader: Any,
    left: Sequence[Sequence[str]] | None,
    moves: Iterable[str],
) -> str:
    """Return the canonical JSON text of a hand of these fields, its moves' texts given."""
    parts = [] if deal is None else [f'"deal":{_seats_text(deal, _canonical)}']
    parts.append(f'"leader":{leader if type(leader) is int else _canonical(leader)}')
    if left is not None:
        parts.append(f'"left":{_seats_text(left, _canonical)}')
    parts.append(f'"moves":[{",".join(moves)}]')
    return "{" + ",".join(parts) + "}"


def canonical_move(move: Move) -> str:
    """Return a move's canonical JSON text: a move of KNOWN_MOVES has it by its id (no
    hash of the move to work out); any other move is written anew."""
    entry = _MOVE_TEXTS.get(id(move))
    return entry[1] if entry is not None else _canonical(move.as_json())


def _seats_text(seats: Sequence[Sequence[str]], dump: Callable[[Any], str]) -> str:
    """Return the JSON text of a deal (or the tiles left), as ``dump`` writes it (both
    writers write a list of tiles alike): lists of tiles' texts joined as they are, since
    a tile's text needs no escape; anything else as ``dump`` writes it."""
    texts = []
    try:
        for tiles in seats:
            if type(tiles) not in _LISTS or not _TILE_TEXTS.issuperset(tiles):
                return dump(seats)
            texts.append('["' + '","'.join(tiles) + '"]' if tiles else "[]")
    except TypeError:  # an unhashable value among the tiles
        return dump(seats)
    return "[" + ",".join(texts) + "]"


def load_json(data: bytes | bytearray | str) -> Any:
    """Return the JSON value of ``data``, or raise ``SchemaError`` at ``$``."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SchemaError("$", "not-utf8", byte=exc.start) from None
    if data.startswith("\ufeff"):
        data = data[1:]
    try:
        return json.loads(data, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SchemaError(
            "$", "not-json", reason=exc.msg, line=exc.lineno, column=exc.colno
        ) from None
    except SchemaError:
        raise
    except RecursionError:
        raise SchemaError("$", "too-deep") from None
    except ValueError as exc:  # a number too long to convert, for one
        raise SchemaError("$", "not-json-other", reason=str(exc)) from None


def _reject_constant(name: str) -> Any:
    raise SchemaError("$", "not-json-number", name=name)


def _is_int(value: Any) -> TypeIs[int]:
    return type(value) is int


def _is_number(value: Any) -> TypeIs[int | float]:
    return type(value) is int or (type(value) is float and value == value)


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _expect_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise SchemaError(path, "array", kind=_kind_of(value))
    return value


def _expect_seat(value: Any, path: str) -> int:
    if not _is_int(value) or value < 0:
        raise SchemaError(path, "seat", kind=_kind_of(value))
    if value > MAX_NUMBER:
        raise SchemaError(path, "out-of-range", least=0, most=MAX_NUMBER)
    return value


def _expect_number(value: Any, path: str) -> int | float:
    """Return a finite number of at most ``MAX_NUMBER`` in size, or raise ``SchemaError``."""
    if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    if not _is_number(value):
        raise SchemaError(path, "number")
    if value in _INFINITIES:
        raise SchemaError(path, "not-finite", least=-MAX_NUMBER, most=MAX_NUMBER)
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise SchemaError(path, "out-of-range", least=-MAX_NUMBER, most=MAX_NUMBER)
    return value


_INFINITIES = (float("inf"), float("-inf"))


def _expect_text(value: Any, path: str, limit: int) -> str:
    if not isinstance(value, str):
        raise SchemaError(path, "string", kind=_kind_of(value))
    if len(value) > limit:
        raise SchemaError(path, "too-many-characters", length=len(value), limit=limit)
    _check_characters(value, path)
    return value


def _check_characters(text: str, path: str, problem: str = "") -> None:
    """Raise ``SchemaError`` at ``path`` if ``text`` holds NUL or a lone surrogate.

    ``problem`` is ``"name-"`` when ``text`` is the name of the field at ``path``.
    """
    if text.isascii() and "\x00" not in text:
        return  # isascii is one flag of the string: no surrogate
    found = _BAD_CHARACTER.search(text)
    if found is None:
        return
    character = found.group()
    if character == "\x00":
        raise SchemaError(path, f"{problem}nul", position=found.start() + 1)
    raise SchemaError(
        path,
        f"{problem}lone-surrogate",
        char=f"U+{ord(character):04X}",
        position=found.start() + 1,
    )


def _member_path(path: str, name: Any) -> str:
    """Return the JSON path of field ``name`` of the object at ``path``.

    A name that is not plain is written as a JSON string of ASCII (so a path never holds
    the NUL or surrogate it may be about), its first 40 characters only.
    """
    if len(path) > MAX_PATH:
        return path  # deep enough to find it; a path must not grow without bound
    if not isinstance(name, str):
        name = repr(name)  # a key no JSON text has: a caller's own Python value
    if _PLAIN_NAME.fullmatch(name):
        return f"{path}.{name}"
    more = "..." if len(name) > 40 else ""
    return f"{path}[{json.dumps(name[:40])}{more}]"


def _check_strings(value: Any, path: str) -> None:
    """Check every string of a JSON value (names and values, at any depth) for
    ``_check_characters``, without recursion (the value may be nested deeper than Python's
    stack)."""
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        kind = type(value)
        if kind is str:
            _check_characters(value, path)
        elif kind is dict:
            for name, item in value.items():
                if type(name) is str and _BAD_CHARACTER.search(name):
                    _check_characters(name, _member_path(path, name), "name-")
                kind = type(item)
                if kind is str:
                    if _BAD_CHARACTER.search(item):
                        _check_characters(item, _member_path(path, name))
                elif kind is dict or kind is list:
                    stack.append((item, _member_path(path, name)))
        elif kind is list:
            deeper = len(path) <= MAX_PATH
            for index, item in enumerate(value):
                kind = type(item)
                if kind is str:
                    if _BAD_CHARACTER.search(item):
                        _check_characters(item, f"{path}[{index}]" if deeper else path)
                elif kind is dict or kind is list:
                    stack.append((item, f"{path}[{index}]" if deeper else path))


def _check_unknown_fields(obj: dict[str, Any], known: frozenset[str], path: str) -> None:
    """Check the strings of the fields of ``obj`` the parser does not read."""
    for name, value in obj.items():
        if name not in known:
            _check_strings({name: value}, path)


def played_at_moment(text: str | None) -> datetime | None:
    """Return the moment a ``played_at`` text names, in UTC, or None.

    ISO 8601 as Python reads it (``datetime.fromisoformat``: a date and time with or
    without an offset, or a date alone, which means its midnight); a moment without an
    offset is in UTC. None for no text, for text that is not ISO 8601, and for a moment
    that leaves Python's years 1..9999 in UTC ("9999-12-31T23:00-05:00"): such a text is
    kept as it was written, and the archive has no date for its match.
    """
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = datetime.combine(date.fromisoformat(text), time())
        except ValueError:
            return None  # not ISO 8601: kept as text only
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # past year 9999 or before year 1 in UTC
        return None


def parse_log(doc: Any, *, moves: bool = True) -> MatchLog:
    """Return the ``MatchLog`` of a JSON value, or raise ``SchemaError``.

    With ``moves`` false, the hands are left unread (none in the result): for a reader
    of the header alone.
    """
    record = _check_head(doc)
    table = record == TABLE

    ruleset = doc["ruleset"]
    if not isinstance(ruleset, str | dict):
        raise SchemaError("$.ruleset", "ruleset-type", kind=_kind_of(ruleset))
    # The validator quotes a ruleset's names and values in its errors.
    _check_strings(ruleset, "$.ruleset")

    players = tuple(
        _expect_text(name, f"$.players[{i}]", MAX_PLAYER_NAME)
        for i, name in enumerate(_expect_list(doc["players"], "$.players"))
    )

    teams = _parse_teams(doc.get("teams"))
    metadata = _parse_metadata(doc)
    hands_json = _expect_list(doc["hands"], "$.hands")
    if not hands_json:
        raise SchemaError("$.hands", "no-hands")
    if len(hands_json) > MAX_HANDS:
        raise SchemaError("$.hands", "too-many-hands", count=len(hands_json), limit=MAX_HANDS)
    hands = (
        tuple(_parse_hand(hand, f"$.hands[{h}]", table) for h, hand in enumerate(hands_json))
        if moves
        else ()
    )

    final_scores = _parse_final_scores(doc.get("final_scores"))
    if not LOG_FIELDS.issuperset(doc):
        _check_unknown_fields(doc, LOG_FIELDS, "$")

    return MatchLog(
        ruleset=ruleset,
        players=players,
        hands=hands,
        teams=teams,
        final_scores=final_scores,
        **metadata,
        record=record,
    )


def _check_head(doc: Any) -> str | None:
    """Check that ``doc`` is a ``fives/1`` log with the fields every log has; return its
    ``record`` (None, ``"full"`` or ``"table"``)."""
    if not isinstance(doc, dict):
        raise SchemaError("$", "log-type", kind=_kind_of(doc))
    if "format" not in doc:
        raise SchemaError("$.format", "format-missing", format=FORMAT_NAME)
    if doc["format"] != FORMAT_NAME:
        raise SchemaError("$.format", "format", format=FORMAT_NAME)
    for name in ("ruleset", "players", "hands"):
        if name not in doc:
            raise SchemaError(f"$.{name}", "missing")
    record = doc.get("record")
    if record is not None and (type(record) is not str or record not in RECORDS):
        raise SchemaError("$.record", "record")
    return record


def _parse_teams(value: Any) -> tuple[tuple[int, ...], ...] | None:
    """Return a log's ``teams`` (None: everyone plays alone)."""
    if value is None:
        return None
    return tuple(
        tuple(
            _expect_seat(seat, f"$.teams[{t}][{s}]")
            for s, seat in enumerate(_expect_list(team, f"$.teams[{t}]"))
        )
        for t, team in enumerate(_expect_list(value, "$.teams"))
    )


def _parse_metadata(doc: dict[str, Any]) -> dict[str, str | None]:
    """Return a log's metadata fields (``MAX_METADATA``), each a text or None."""
    metadata: dict[str, str | None] = {}
    for name, limit in MAX_METADATA.items():
        value = doc.get(name)
        if value is not None:
            value = _expect_text(value, f"$.{name}", limit)
        metadata[name] = value
    return metadata


def _parse_final_scores(value: Any) -> tuple[int | float, ...] | None:
    """Return a log's ``final_scores`` (None when left out), each a number."""
    if value is None:
        return None
    items = _expect_list(value, "$.final_scores")
    for i, score in enumerate(items):
        _expect_number(score, f"$.final_scores[{i}]")
    return tuple(items)


def _parse_hand(hand: Any, path: str, table: bool = False) -> HandLog:
    if not isinstance(hand, dict):
        raise SchemaError(path, "hand-type", kind=_kind_of(hand))
    # A table record leaves the deal out; a deal it gives all the same is read and kept
    # (written back by ``as_json``), never used by the checks.
    for name in ("leader", "moves") if table else ("leader", "deal", "moves"):
        if name not in hand:
            raise SchemaError(f"{path}.{name}", "missing")
    leader = _expect_seat(hand["leader"], f"{path}.leader")
    deal_json = hand.get("deal")
    if deal_json is not None or not table:
        deal_json = _expect_list(deal_json, f"{path}.deal")
    moves_json = _expect_list(hand["moves"], f"{path}.moves")
    # The common shapes first (_quick_tiles, _quick_move), else the checks in order.
    deal: tuple[tuple[str, ...], ...] | None = None
    if deal_json is not None:
        rows = []
        for s, tiles in enumerate(deal_json):
            row = _quick_tiles(tiles)
            rows.append(row if row is not None else _parse_tiles(tiles, f"{path}.deal[{s}]"))
        deal = tuple(rows)
    moves = []
    for m, move in enumerate(moves_json):
        # read_move, with the path made only for a move that needs it (most are quick).
        quick = _quick_move(move)
        moves.append(quick if quick is not None else _parse_move(move, f"{path}.moves[{m}]"))
    left = None
    if table and hand.get("left") is not None:
        left = tuple(
            _parse_left_tiles(tiles, f"{path}.left[{s}]")
            for s, tiles in enumerate(_expect_list(hand["left"], f"{path}.left"))
        )
    known = TABLE_HAND_FIELDS if table else HAND_FIELDS
    if not known.issuperset(hand):
        _check_unknown_fields(hand, known, path)
    return HandLog(leader=leader, deal=deal, moves=tuple(moves), left=left)


def _parse_left_tiles(tiles: Any, path: str) -> tuple[str, ...]:
    """Return one seat's tiles of ``left``: each a tile's spelling (``"?"`` is not)."""
    row = _parse_tiles(tiles, path)
    for i, text in enumerate(row):
        if text not in _TILE_TEXTS:
            raise SchemaError(f"{path}[{i}]", "not-tile", text=text)
    return row


# Every spelling of every tile: the common case of a tile's text, plainly within the limits
# (plain ASCII, so written in JSON as it is: ``_seats_text``).
_TILE_TEXTS: Final = frozenset(TILE_BY_TEXT)
_LISTS: Final = (list, tuple)


def _quick_tiles(tiles: Any) -> tuple[str, ...] | None:
    """Return a seat's dealt tiles when each is a tile's spelling, else None (for
    ``_parse_tiles``, which checks each and names the first fault)."""
    if type(tiles) is list:
        try:
            if _TILE_TEXTS.issuperset(tiles):
                return tuple(tiles)
        except TypeError:  # an unhashable item
            pass
    return None


def _parse_tiles(tiles: Any, path: str) -> tuple[str, ...]:
    return tuple(
        _expect_tile_text(tile, f"{path}[{i}]") for i, tile in enumerate(_expect_list(tiles, path))
    )


def _expect_tile_text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise SchemaError(path, "tile-type", kind=_kind_of(value))
    if len(value) > MAX_TILE_TEXT:
        raise SchemaError(path, "tile-too-long")
    if not value.isascii() or "\x00" in value:  # _check_characters' test, spared a call
        _check_characters(value, path)
    return value


class _KnownMoves(dict[tuple[Any, ...], Move]):
    """The moves met so far, by ``(seat, kind, tile, end, points)``, shared by every log and
    every reader of moves (the parser and the codec): a Move is immutable, and
    finding one costs less than making it.

    A key's seat must be an int and its points an int or None (True and 5.0 equal 1 and 5
    as keys, but their moves write back otherwise: those are made each time, never looked
    up), its tile and end already read as a tile's text (or "?") and an end. At most
    ``_MOVE_CACHE_SIZE`` moves are kept, and only seats below 16 and points from -100 to
    100: a hostile stream of odd moves cannot grow it.
    """

    def __missing__(self, key: tuple[Any, ...]) -> Move:
        seat, kind, tile, end, points = key
        move = Move(seat, kind, tile, end if kind == "play" else None, points)
        if (
            seat < 16
            and (tile is None or tile in _TILE_TEXTS or tile == HIDDEN)
            and (points is None or -100 <= points <= 100)
            and len(self) < _MOVE_CACHE_SIZE
        ):
            self[key] = move
            fields = move.as_json()
            _MOVE_TEXTS[id(move)] = (move, _canonical(fields), _dump(fields))
        return move


KNOWN_MOVES: Final = _KnownMoves()
_MOVE_CACHE_SIZE: Final = 50_000
# The JSON texts of each move of KNOWN_MOVES, by the move's id: ``(move, canonical text,
# compact text)``. Holding the move keeps its id from passing to another object, so the id
# alone finds it.
_MOVE_TEXTS: Final[dict[int, tuple[Move, str, str]]] = {}
_ENDS: Final = frozenset(ENDS)


def _quick_move(move: Any) -> Move | None:
    """Return the ``Move`` of a move in a common, plainly valid shape, else None.

    A common shape: an object with an integer ``seat``, exactly one of ``play`` or
    ``draw`` (a tile's text) or ``pass`` (true), perhaps an ``end`` and integer
    ``points``, no field set to null and no other field. Anything else is for
    ``_parse_move``, which checks every field in order and names the first fault; on the
    shapes read here both return the same ``Move``.
    """
    if type(move) is not dict:
        return None
    # Each value checked for its exact type, then held in a local of that type: compiled,
    # the comparisons and string tests that follow are the types' own, not generic calls.
    fields_of: dict[str, Any] = move
    found = fields_of.get("seat")
    if type(found) is not int:
        return None
    seat: int = found
    if not 0 <= seat <= MAX_NUMBER:
        return None
    fields = len(fields_of)
    end = fields_of.get("end")
    if end is not None:
        if type(end) is not str or end not in _ENDS:
            return None
        fields -= 1
    found = fields_of.get("points")
    points: int | None = None
    if found is not None:
        if type(found) is not int:
            return None
        points = found
        if not -MAX_NUMBER <= points <= MAX_NUMBER:
            return None
        fields -= 1
    found = fields_of.get("play")
    if found is not None:
        kind = "play"
    else:
        found = fields_of.get("draw")
        if found is not None:
            kind = "draw"
        elif fields_of.get("pass") is True:
            kind = "pass"
        else:
            return None
    if fields != 2:
        return None  # a second kind, a null, an unknown field
    tile: str | None = None
    if kind != "pass":
        if type(found) is not str:
            return None
        text: str = found
        # A tile's spelling passes the text's limits (one set lookup); other text is tested.
        if text not in _TILE_TEXTS and (
            len(text) > MAX_TILE_TEXT or not text.isascii() or "\x00" in text
        ):
            return None
        tile = text
    return KNOWN_MOVES[seat, kind, tile, end, points]


def read_move(move: Any, path: str = "$") -> Move:
    """Return the ``Move`` of one move as ``parse_log`` reads it at ``path``, or raise
    ``SchemaError``."""
    return _quick_move(move) or _parse_move(move, path)


def _parse_move(move: Any, path: str) -> Move:
    if not isinstance(move, dict):
        raise SchemaError(path, "move-type", kind=_kind_of(move))
    if "seat" not in move:
        raise SchemaError(f"{path}.seat", "missing")
    seat = _expect_seat(move["seat"], f"{path}.seat")
    # A field set to null is a field left out, here as everywhere in the format.
    kinds = [kind for kind in ("play", "draw", "pass") if move.get(kind) is not None]
    if len(kinds) != 1:
        raise SchemaError(path, "move-kind")
    kind = kinds[0]
    tile = None
    if kind == "pass":
        if move["pass"] is not True:
            raise SchemaError(f"{path}.pass", "true")
    else:
        tile = _expect_tile_text(move[kind], f"{path}.{kind}")
    end = move.get("end")
    if end is not None and end not in ENDS:
        raise SchemaError(f"{path}.end", "end")
    if kind != "play":
        end = None  # only a play has an end: on a draw or a pass it means nothing
    points = move.get("points")
    if points is not None:
        _expect_number(points, f"{path}.points")
    if len(move) > 2 and not MOVE_FIELDS.issuperset(move):
        _check_unknown_fields(move, MOVE_FIELDS, path)
    return Move(seat=seat, kind=kind, tile=tile, end=end, points=points)
