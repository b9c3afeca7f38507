"""The ``fives/1`` position: one seat about to play, as it sees the table, and its analysis.

A position document (docs/format.md, "A position") holds only what the seat to play could
know: the ruleset, the players and teams, the scores, the hand's leader and its moves so far
(every play, every pass, every draw; another seat's draw face down, ``"?"``), the seat's own
tiles, and, as checks, how many tiles each seat holds and the boneyard's size. A document that
names a tile another seat holds unseen (a deal, another seat's draw written face up, the
tiles left) is refused (``PositionError``, code ``hidden-tile``): the board never asks for
what its seat could not have seen.

``parse_position`` checks a document (its moves by the log's own validator, as a table
record of one unfinished hand) and returns a ``Position``; ``Analysis`` values each legal play
over the review's layouts of the unseen tiles (``expected.roll_out``, the same sample for
every play, refined over more layouts on request); ``position_document`` writes the position
a seat saw before one of its plays of a logged match (``practice.position_at``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .equity import EquityTable, table_for
from .expected import DEFAULT_SAMPLES, PublicWalk, Rollouts, Situation, roll_out
from .game import DRAW, PASS, PLAY, LegalMove
from .log import HIDDEN, MatchLog
from .practice import position_at
from .rules import Ruleset, resolve_ruleset
from .scoring import team_of
from .tiles import NAME, SET_SIZE, TILE_BY_TEXT
from .validate import Step, validate_log, validate_match

__all__ = [
    "KIND",
    "Analysis",
    "Board",
    "Position",
    "PositionError",
    "analyse",
    "parse_position",
    "position_document",
]

KIND = "position"
FORMAT = "fives/1"
FIELDS = frozenset(
    {
        "format",
        "kind",
        "ruleset",
        "players",
        "teams",
        "scores",
        "leader",
        "seat",
        "tiles",
        "moves",
        "held",
        "boneyard",
    }
)
# Fields of a match log that would name tiles the seat to play cannot see.
HIDDEN_FIELDS = frozenset({"deal", "hands", "left", "hidden", "boneyard_tiles"})
# The most layouts one analysis may ask for (the API's budget is smaller: fivesite/doors.py).
MAX_SAMPLES = 4096


class PositionError(ValueError):
    """A position document refused: ``code`` (stable), ``message`` (words) and ``path``
    (the JSON path of the fault, ``$`` the document)."""

    def __init__(self, code: str, message: str, path: str = "$") -> None:
        super().__init__(f"{code}: {message} (at {path})")
        self.code = code
        self.message = message
        self.path = path

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True)
class Position:
    """A checked position: the document (normalised) and the review's ``Situation``."""

    document: dict[str, Any]
    situation: Situation
    legal: tuple[LegalMove, ...]
    equity: EquityTable | None


def _fail(code: str, message: str, path: str = "$") -> PositionError:
    return PositionError(code, message, path)


def _int(value: Any, path: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _fail("schema", f"a whole number from {low} to {high} is needed", path)
    return value


def _tile(value: Any, path: str) -> int:
    parsed = TILE_BY_TEXT.get(value) if type(value) is str else None
    if parsed is None:
        raise _fail("schema", f'{value!r} is no tile (a tile is written like "5-3")', path)
    return parsed[0]


def _move(value: Any, index: int, seat: int, players: int) -> dict[str, Any]:
    """Return the move as the table record writes it; refuse another seat's draw shown."""
    path = f"$.moves[{index}]"
    if not isinstance(value, dict):
        raise _fail("schema", "a move is an object", path)
    who = _int(value.get("seat"), f"{path}.seat", 0, players - 1)
    kinds = [kind for kind in (PLAY, DRAW, PASS) if kind in value]
    extra = set(value) - {"seat", "end", "points", PLAY, DRAW, PASS}
    if len(kinds) != 1 or extra:
        raise _fail("schema", "a move is a play, a draw or a pass (docs/format.md)", path)
    kind = kinds[0]
    if kind == PLAY:
        _tile(value[PLAY], f"{path}.play")
        out: dict[str, Any] = {"seat": who, "play": value[PLAY]}
        if value.get("end") is not None:
            out["end"] = value["end"]
        return out
    if kind == DRAW:
        drawn = value[DRAW]
        if drawn not in (HIDDEN, None):
            _tile(drawn, f"{path}.draw")
            if who != seat:
                raise _fail(
                    "hidden-tile",
                    f"seat {who} drew face down: the seat to play ({seat}) could not see "
                    f'{drawn}; write the draw as "?"',
                    f"{path}.draw",
                )
        # The seat's own draws add nothing: its tiles now are all the analysis reads.
        return {"seat": who, "draw": HIDDEN}
    if value[PASS] is not True:
        raise _fail("schema", 'a pass is written "pass": true', f"{path}.pass")
    return {"seat": who, "pass": True}


def _header(doc: Any) -> dict[str, Any]:
    """Return the document once its header fields pass: an object, no hidden field, the
    format and kind, no unknown field."""
    if not isinstance(doc, dict):
        raise _fail("schema", "a position is a JSON object")
    hidden = sorted(HIDDEN_FIELDS & set(doc))
    if hidden:
        raise _fail(
            "hidden-tile",
            f"{hidden[0]!r} would name tiles the seat to play cannot see: a position holds "
            "only the seat's own tiles",
            f"$.{hidden[0]}",
        )
    if doc.get("format") != FORMAT or doc.get("kind") != KIND:
        raise _fail("schema", 'a position says "format": "fives/1" and "kind": "position"')
    unknown = sorted(set(doc) - FIELDS)
    if unknown:
        raise _fail("schema", f"unknown field {unknown[0]!r}", f"$.{unknown[0]}")
    return doc


def _players(players_field: Any) -> tuple[int, list[Any]]:
    """Return the number of players and their names (``players``: a count or the names)."""
    if type(players_field) is int:
        players = _int(players_field, "$.players", 2, 4)
        names: list[Any] = [f"Seat {seat + 1}" for seat in range(players)]
    elif isinstance(players_field, list) and 2 <= len(players_field) <= 4:
        names = players_field
        players = len(names)
    else:
        raise _fail("schema", "players: 2 to 4, or 2 to 4 names", "$.players")
    return players, names


def _moves(doc: dict[str, Any], seat: int, players: int) -> list[dict[str, Any]]:
    """Return the moves as the table record writes them (``_move``)."""
    moves_field = doc.get("moves", [])
    if not isinstance(moves_field, list) or len(moves_field) > SET_SIZE * 4:
        raise _fail("schema", "moves: a list of the hand's moves so far", "$.moves")
    return [_move(move, index, seat, players) for index, move in enumerate(moves_field)]


def _validate(
    doc: dict[str, Any], names: list[Any], leader: int, moves: list[dict[str, Any]]
) -> None:
    """Check the moves by the log's validator, as a table record of one unfinished hand."""
    record = {
        "format": FORMAT,
        "record": "table",
        "ruleset": doc.get("ruleset"),
        "players": names,
        "teams": doc.get("teams"),
        "hands": [{"leader": leader, "moves": moves}],
    }
    report = validate_log(record)
    if report.errors:
        error = report.errors[0]
        where = "$" if error.move is None else f"$.moves[{error.move}]"
        raise _fail(str(error.code.value), error.message, where)


def _scores(doc: dict[str, Any], team_count: int) -> tuple[int, ...]:
    """Return the scores, one per team (none written: all 0)."""
    scores_field = doc.get("scores", [0] * team_count)
    if not isinstance(scores_field, list) or len(scores_field) != team_count:
        raise _fail("schema", f"scores: one number per team ({team_count})", "$.scores")
    return tuple(
        _int(score, f"$.scores[{i}]", -10000, 10000) for i, score in enumerate(scores_field)
    )


def _check_turn(walk: PublicWalk, held: tuple[int, ...], seat: int) -> None:
    """Refuse a hand over, or a seat not to play after the moves."""
    table = walk.table
    if table.end is not None or 0 in held:
        raise _fail("hand-over", "the hand is over: no seat is to play", "$.moves")
    if table.turn != seat:
        raise _fail(
            "wrong-turn", f"after these moves seat {table.turn} is to play, not {seat}", "$.seat"
        )


def _holding(
    doc: dict[str, Any], moves: list[dict[str, Any]], held: tuple[int, ...], seat: int
) -> list[int]:
    """Return the seat's own tiles: none laid already, none twice, as many as it holds."""
    tiles_field = doc.get("tiles")
    if not isinstance(tiles_field, list):
        raise _fail("schema", "tiles: the seat's own tiles", "$.tiles")
    holding = [_tile(text, f"$.tiles[{i}]") for i, text in enumerate(tiles_field)]
    laid = {move_tile(move) for move in moves if PLAY in move}
    for i, tile in enumerate(holding):
        if tile in laid:
            raise _fail("repeated-tile", f"{NAME[tile]} is laid already", f"$.tiles[{i}]")
        if holding.index(tile) != i:
            raise _fail("repeated-tile", f"{NAME[tile]} is written twice", f"$.tiles[{i}]")
    if len(holding) != held[seat]:
        raise _fail(
            "tile-count",
            f"seat {seat} holds {held[seat]} tiles after these moves, not {len(holding)}",
            "$.tiles",
        )
    return holding


def _check_counts(doc: dict[str, Any], held: tuple[int, ...], boneyard: int) -> None:
    """Refuse ``held`` or ``boneyard`` checks that the moves do not bear out."""
    if "held" in doc and doc["held"] != list(held):
        raise _fail("tile-count", f"the seats hold {list(held)} tiles after these moves", "$.held")
    if "boneyard" in doc and doc["boneyard"] != boneyard:
        raise _fail(
            "tile-count", f"the boneyard holds {boneyard} tiles after these moves", "$.boneyard"
        )


def parse_position(doc: Any) -> Position:
    """Return the checked position of a document, or raise ``PositionError``."""
    doc = _header(doc)
    players_field = doc.get("players")
    players, names = _players(players_field)
    seat = _int(doc.get("seat"), "$.seat", 0, players - 1)
    leader = _int(doc.get("leader"), "$.leader", 0, players - 1)
    moves = _moves(doc, seat, players)
    _validate(doc, names, leader, moves)
    rules = resolve_ruleset(doc["ruleset"], players)
    teams = [list(team) for team in doc["teams"]] if doc.get("teams") is not None else None
    seats_team, team_count = team_of(teams, players)
    scores = _scores(doc, team_count)
    walk = _walk(rules, leader, seats_team, moves)
    table = walk.table
    held = walk.held(rules.hand_size)
    boneyard = SET_SIZE - players * rules.hand_size - sum(walk.draws)
    _check_turn(walk, held, seat)
    holding = _holding(doc, moves, held, seat)
    _check_counts(doc, held, boneyard)
    legal = tuple(table.plays_of(frozenset(holding)))
    if not legal:
        raise _fail(
            "no-play", f"seat {seat} has no tile that fits: it must draw or pass", "$.tiles"
        )
    situation = Situation(
        rules=rules,
        seat=seat,
        seats_team=seats_team,
        teams=team_count,
        scores=scores,
        hand_index=0,
        holding=frozenset(holding),
        held=held,
        boneyard=boneyard,
        seen=walk.seen_by(seat, lambda index, drawer: False),
        table=table.copy(),
    )
    document = {
        "format": FORMAT,
        "kind": KIND,
        "ruleset": doc["ruleset"],
        "players": players_field,
        "teams": doc.get("teams"),
        "scores": list(scores),
        "leader": leader,
        "seat": seat,
        "tiles": [NAME[tile] for tile in sorted(holding)],
        "moves": moves,
        "held": list(held),
        "boneyard": boneyard,
    }
    equity = table_for(rules, players, teams is not None) if team_count == 2 else None
    return Position(document, situation, legal, equity)


def move_tile(move: dict[str, Any]) -> int:
    return TILE_BY_TEXT[move[PLAY]][0]


def _walk(
    rules: Ruleset, leader: int, seats_team: list[int], moves: Sequence[dict[str, Any]]
) -> PublicWalk:
    """Walk the moves on placeholder hands (``expected.PublicWalk``); nobody is out yet."""
    players = len(seats_team)
    laid_by: list[set[int]] = [set() for _ in range(players)]
    for move in moves:
        if PLAY in move:
            laid_by[move["seat"]].add(move_tile(move))
    walk = PublicWalk(rules, leader, seats_team, laid_by, [False] * players)
    for move in moves:
        if PLAY in move:
            tile, a, b = TILE_BY_TEXT[move[PLAY]]
            walk.play_on(move["seat"], tile, move.get("end"), a, b)
        else:
            walk.step(move["seat"], DRAW if DRAW in move else PASS, None)
    return walk


class Analysis:
    """Every legal play of a position valued over the layouts of the tiles its seat cannot
    see, as the review values them (``expected.roll_out``: the same layouts for every play,
    its seed from what the seat saw): ``more`` plays them out on further layouts, the first
    ones unchanged, so the figures refine while somebody looks."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.rolled: Rollouts | None = None

    @property
    def layouts(self) -> int:
        return 0 if self.rolled is None else len(self.rolled.weights)

    def more(self, layouts: int) -> dict[str, Any]:
        """Value the plays over ``layouts`` layouts in all (those done are kept) and return
        the answer (``answer``)."""
        layouts = max(1, min(layouts, MAX_SAMPLES))
        position = self.position
        legal = list(position.legal)
        if self.rolled is None:
            self.rolled = roll_out(position.situation, legal, layouts, table=position.equity)
        elif not self.rolled.exact and layouts > self.layouts:
            more = roll_out(
                position.situation, legal, layouts, table=position.equity, skip=self.layouts
            )
            self.rolled.extend(range(len(legal)), more)
        return self.answer()

    def answer(self) -> dict[str, Any]:
        """Return ``{"plays": [{"play", "chance", "chance_se", "value", "value_se"}], "best",
        "layouts", "exact", "unit"}``: chances in percent for the seat's side (null where the
        match has no two sides), values in points; the best by chance, then by points, where
        there are chances, else by points (the first among equals)."""
        rolled = self.rolled
        assert rolled is not None, "more() first"
        plays: list[dict[str, Any]] = []
        for index, move in enumerate(self.position.legal):
            value, value_se = rolled.mean(rolled.points[index])
            chance: float | None = None
            chance_se: float | None = None
            if rolled.chances is not None:
                chance, chance_se = rolled.mean(rolled.chances[index])
            plays.append(
                {
                    "play": str(move),
                    "chance": chance,
                    "chance_se": chance_se,
                    "value": value,
                    "value_se": value_se,
                }
            )
        with_chance = rolled.chances is not None
        best = max(
            range(len(plays)),
            key=lambda index: (
                (plays[index]["chance"], plays[index]["value"])
                if with_chance
                else (plays[index]["value"], 0.0)
            ),
        )
        # Each play's loss against the best in the unit, and its standard error over the same
        # layouts (paired): a play is worse than the best only beyond twice that.
        rows = rolled.chances if rolled.chances is not None else rolled.points
        for index, play in enumerate(plays):
            loss, loss_se = rolled.difference(rows, best, index) if index != best else (0.0, 0.0)
            play["loss"], play["loss_se"] = loss, loss_se
        return {
            "plays": plays,
            "best": plays[best]["play"],
            "layouts": len(rolled.weights),
            "exact": rolled.exact,
            "unit": "chance" if with_chance else "points",
        }


def analyse(doc: Any, layouts: int = DEFAULT_SAMPLES) -> dict[str, Any]:
    """Return the analysis of a position document over ``layouts`` layouts (all of them,
    exact, when they are few); ``PositionError`` for a document refused."""
    return Analysis(parse_position(doc)).more(layouts)


def position_document(log: MatchLog, hand: int, move: int) -> dict[str, Any]:
    """Return the position document of what the seat of play ``move`` (0-based) of hand
    ``hand`` (0-based) of a valid log saw just before it (``practice.position_at``: another
    seat's draw face down unless the table saw it, which a position writes face down too);
    ``practice.PositionUnknown`` when there is none (no play, or a table record that does
    not know the seat's tiles)."""
    seen = position_at(log, hand, move)
    scores: dict[tuple[int, int], tuple[int, ...]] = {}

    def record(step: Step) -> None:
        after = 0 if step.move_index is None else step.move_index + 1
        scores[(step.hand_index, after)] = tuple(step.match.scores)

    validate_match(log, on_step=record)
    moves: list[dict[str, Any]] = []
    for done in seen.seen:
        if done.kind == PLAY:
            entry: dict[str, Any] = {"seat": done.seat, "play": done.tile}
            if done.end is not None:
                entry["end"] = done.end
            moves.append(entry)
        elif done.kind == DRAW:
            moves.append({"seat": done.seat, "draw": HIDDEN})
        else:
            moves.append({"seat": done.seat, "pass": True})
    return {
        "format": FORMAT,
        "kind": KIND,
        "ruleset": log.ruleset,
        "players": list(log.players),
        "teams": [list(team) for team in log.teams] if log.teams is not None else None,
        "scores": list(scores[(hand, move)]),
        "leader": seen.leader,
        "seat": seen.seat,
        "tiles": list(seen.hand_tiles),
        "moves": moves,
        "held": list(seen.counts),
        "boneyard": seen.boneyard,
    }


class Board:
    """The analysis board's engine (the browser's worker, ``recorder/engine-worker.js``):
    the analysis of the position last asked about, refined while the same position is asked
    about again with more layouts, and started afresh for another."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.analysis: Analysis | None = None

    def answer(self, doc: Any, layouts: int) -> dict[str, Any]:
        """Return the analysis over ``layouts`` layouts (``Analysis.answer``, with the
        position's normalised document), or ``{"error": {"code", "message", "path"}}``."""
        key = json.dumps(doc, sort_keys=True)
        if key != self.key or self.analysis is None:
            try:
                self.analysis = Analysis(parse_position(doc))
            except PositionError as refused:
                self.key, self.analysis = None, None
                return {"error": refused.as_dict()}
            self.key = key
        answer = self.analysis.more(layouts)
        answer["position"] = self.analysis.position.document
        return answer
