"""A position as one seat saw it, just before one of its plays: what a practice drill shows.

The table is the review's own public walk (``expected.PublicWalk``): it is replayed from the
tiles laid, on placeholder hands, so no tile a seat holds unseen ever enters it. Of the
hand's other moves a seat sees every play, every pass and its own draws; another seat's
draw is face down in a full record (its tile is never named) and named in a table record
only when the table saw it (the log writes it, not ``"?"``). Its own tiles are its deal,
plus what it drew, less what it laid (a full record), or those a table record knows it
held then (``table.known_holdings``; a position whose seat's tiles are not all known has
none, as the review skips such a play). Its choices are the engine's legal plays of those
tiles, written as ``LegalMove`` writes them (the review's ``played``, ``best`` and each
alternative's ``play``). Pure Python: the archive serves these, a script may too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .expected import PublicWalk, _shown_in, public_walk, walk_plays
from .game import DRAW, PLAY
from .log import HIDDEN, MatchLog
from .rules import resolve_ruleset
from .scoring import team_of
from .tiles import NAME, SET_SIZE

__all__ = ["PositionUnknown", "SeatPosition", "SeenMove", "hand_positions", "position_at"]


class PositionUnknown(ValueError):
    """No position to show: the move is no play, or a table record hides the seat's tiles."""


@dataclass(frozen=True, slots=True)
class SeenMove:
    """A move of the hand as the seat saw it: ``tile`` None for a pass or a face-down draw;
    ``end`` the end a play went on (None for the lead, a draw or a pass)."""

    seat: int
    kind: str
    tile: str | None
    end: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "tile": self.tile, "end": self.end}


@dataclass(frozen=True, slots=True)
class SeatPosition:
    """What ``seat`` knew just before its play ``move`` (0-based) of hand ``hand`` (0-based).

    ``hand_tiles`` are its tiles ("low-high", in the set's order); ``layout``,
    ``open_ends`` and ``count`` the table as the replay draws it; ``counts`` how many
    tiles each seat holds; ``boneyard`` the boneyard's size; ``seen`` the hand's moves so
    far; ``choices`` its legal plays.
    """

    hand: int
    move: int
    seat: int
    leader: int
    hand_tiles: tuple[str, ...]
    layout: dict[str, Any]
    open_ends: tuple[tuple[str, int], ...]
    count: int
    counts: tuple[int, ...]
    boneyard: int
    seen: tuple[SeenMove, ...]
    choices: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """Return the position as JSON-ready data."""
        return {
            "hand": self.hand,
            "move": self.move,
            "seat": self.seat,
            "leader": self.leader,
            "hand_tiles": list(self.hand_tiles),
            "table": {
                "layout": self.layout,
                "open_ends": [{"end": end, "pip": pip} for end, pip in self.open_ends],
                "count": self.count,
            },
            "counts": list(self.counts),
            "boneyard": self.boneyard,
            "seen": [move.as_dict() for move in self.seen],
            "choices": list(self.choices),
        }


def hand_positions(log: MatchLog, hand: int) -> Iterator[SeatPosition | None]:
    """Yield, for each move of hand ``hand`` of a valid log, the position its seat saw
    just before it: None for a draw or a pass, or a play whose seat's tiles a table record
    does not know then. One walk of the hand, the review's own (``expected.walk_plays``)."""
    hand_log = log.hands[hand]
    players = len(log.players)
    rules = resolve_ruleset(log.ruleset, players)
    teams = [list(team) for team in log.teams] if log.teams is not None else None
    walk = public_walk(log, hand_log, rules, team_of(teams, players)[0])
    shown = _shown_in(log, hand_log.moves)
    positions: list[SeatPosition | None] = [None] * len(hand_log.moves)
    for m, move, mine in walk_plays(log, hand_log, walk):
        held = walk.held(rules.hand_size)
        # A table record that does not know the seat's whole hand: no position.
        if len(mine) == held[move.seat]:
            positions[m] = _position(log, hand, m, move.seat, mine, walk, held, shown)
    yield from positions


def _position(
    log: MatchLog,
    hand: int,
    m: int,
    seat: int,
    mine: frozenset[int],
    walk: PublicWalk,
    held: tuple[int, ...],
    shown: Any,
) -> SeatPosition:
    table = walk.table
    moves = log.hands[hand].moves
    seen: list[SeenMove] = []
    for index, move in enumerate(moves[:m]):
        tile: str | None = None
        if move.kind == PLAY:
            tile = move.tile
        elif (
            move.kind == DRAW
            and move.tile not in (None, HIDDEN)
            and (move.seat == seat or shown(index, move.seat))
        ):
            # The seat's own draw it saw; another's only where the table saw it.
            tile = move.tile
        seen.append(SeenMove(move.seat, move.kind, tile, move.end if move.kind == PLAY else None))
    players = len(log.players)
    return SeatPosition(
        hand=hand,
        move=m,
        seat=seat,
        leader=log.hands[hand].leader,
        hand_tiles=tuple(NAME[tile] for tile in sorted(mine)),
        layout=table.layout(),
        open_ends=tuple(table.open_ends),
        count=table.count(),
        counts=held,
        boneyard=SET_SIZE - players * table.rules.hand_size - sum(walk.draws),
        seen=tuple(seen),
        choices=tuple(str(play) for play in table.plays_of(mine)),
    )


def position_at(log: MatchLog, hand: int, move: int) -> SeatPosition:
    """Return the position the seat of play ``move`` (0-based) of hand ``hand`` (0-based)
    saw just before it; ``PositionUnknown`` when there is none to show."""
    if not 0 <= hand < len(log.hands) or not 0 <= move < len(log.hands[hand].moves):
        raise PositionUnknown(f"hand {hand}, move {move}: no such move")
    for m, position in enumerate(hand_positions(log, hand)):
        if m == move:
            if position is None:
                raise PositionUnknown(f"hand {hand}, move {move}: no play whose tiles are known")
            return position
    raise AssertionError("unreachable")
