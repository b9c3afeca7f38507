"""The replay page's states of a valid stored match, read off the engine's one board as its
walk makes the stored log's moves again (``walk_match``'s step hook): where each play went,
the open ends, the spinner, the count, each seat's tiles and whose turn it is are the board's
(``HandState.view``), the points and settlements the walk's. Nothing of the rules is worked
out here; only each play's best is read from what ingest stored, so that no play is reviewed
again. The states come out in the page's one compact form (``wire.state_flat``'s fields:
``wire.states_packed`` packs them and ``replay.js`` unpacks them).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator
from typing import Any

from fives_engine import PLAY, MatchLog, MoveFacts
from fives_engine.game import HandState
from fives_engine.report import missed_points
from fives_engine.tiles import NAME, PIPS
from fives_engine.validate import Step, walk_match
from games.models import Match

from .wire import layout_short


def _written(tiles: list[int]) -> str:
    """Return a seat's tiles as the page writes them ("0-1 2-5": by id)."""
    return " ".join([NAME[tile] for tile in tiles])


def _spinner(hand: HandState) -> str | None:
    """Return where the spinner lies, written short ("L" the lead, "E3"), or None."""
    arm = hand.spinner_arm
    if arm is None:
        return None
    return "L" if arm == "" else f"{arm}{hand.spinner_index}"


class _PageWriter:
    """Writes each step of the walk as the page's flat state. What only a play changes (the
    open ends, the tiles on each arm, the spinner) is written again only after a play."""

    def __init__(self, match: Match) -> None:
        self.facts: list[list[MoveFacts]] = [hand.facts for hand in match.hands]
        self.players = match.player_count
        self.table = match.record == "table"
        self.states: list[dict[str, Any]] = []
        self.layouts: list[dict[str, str]] = []  # each hand's last layout, written short
        self.hand: HandState | None = None
        self.texts: dict[str, str] = {}
        # The count, the open ends, the tiles on each arm and the spinner, as last read.
        self.board: tuple[int, str, str, str | None] = (0, "", "", None)

    def step(self, step: Step) -> None:
        hand, move = step.hand, step.move
        flat = self._moved(step)
        ended = hand.end is not None
        if move is None or move.kind == PLAY or ended:
            # The table a person sees changes with a play (and the turn's end with the
            # hand's): read again off the board; a draw or a pass leaves it as it was.
            view = hand.view()
            self.board = (
                view.count,
                " ".join([f"{end}{pip}" for end, pip in view.open_ends]),
                "" if view.lead is None else "{} {} {} {}".format(*view.arm_tiles),
                _spinner(hand),
            )
        count, open_ends, tiles, spinner = self.board
        match = step.match
        flat["count"] = count
        flat["points"] = step.points
        flat["scores"] = list(match.scores)
        flat["open_ends"] = open_ends
        hidden = hand.hidden_tiles()
        if ended:
            flat["pips"] = self._pips(hand, hidden)
        flat["boneyard"] = hand.boneyard_size()
        flat["turn"] = None if ended else hand.turn
        flat["hand_end"] = hand.end
        flat["settlement"] = list(match.results[-1].settlement) if ended else None
        flat["winner"] = match.winner if ended else None
        if hidden is not None:
            flat["hidden"] = list(hidden)
        self._best(step, flat)
        flat |= self.texts
        flat["tiles"] = tiles
        flat["spinner"] = spinner
        self.states.append(flat)

    def _moved(self, step: Step) -> dict[str, Any]:
        """Return a state's first fields (the move and where it went), and write again the
        tiles of the seats it changed: every seat's at a hand's start and end (shown then),
        else the mover's."""
        hand, move = step.hand, step.move
        if move is None:  # a hand starts
            self.hand_done()
            self.hand = hand
            self.texts = {}
            flat: dict[str, Any] = {"action": None, "seat": None, "placed": None}
        else:
            flat = {"action": move.as_json()}
            flat["placed"] = (hand.last_placed or "lead") if move.kind == PLAY else None
        if move is None or hand.end is not None:
            seats: Iterable[int] = range(self.players)
        else:
            seats = (move.seat,)
        for seat in seats:
            self.texts[f"h{seat}"] = _written(hand.seat_tiles(seat))
        return flat

    def _pips(self, hand: HandState, hidden: tuple[int, ...] | None) -> list[int | None]:
        """Return each seat's pips at the hand's end (None for a seat with tiles face down)."""
        return [
            None if hidden and hidden[seat] else sum(PIPS[tile] for tile in hand.seat_tiles(seat))
            for seat in range(self.players)
        ]

    def _best(self, step: Step, flat: dict[str, Any]) -> None:
        """Write a play's best, as ingest stored it, where it beat the play."""
        if step.move is None or step.move.kind != PLAY:
            return
        assert step.move_index is not None
        fact = self.facts[step.hand_index][step.move_index]
        if missed_points(step.points, fact.best) > 0:
            flat["best"], flat["best_play"] = fact.best, fact.best_play

    def hand_done(self) -> None:
        if self.hand is not None:
            self.layouts.append(layout_short(self.hand.layout()))


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """Pause the cycle collector while thousands of states are made: they hold no cycle, and
    each collection it would start on the way looks through every state made so far."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def stored_page_states(
    match: Match,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[list[int]]]:
    """Return a valid stored match's flat states (the start of each hand and after each
    move), each hand's moves and last layout (``{"moves", "layout"}``) and each hand's
    points missed by seat: the board's, as the walk makes the stored moves again, each
    play's best as ingest stored it."""
    stored = match.hands
    players = match.player_count
    log = MatchLog(
        ruleset=match.ruleset,
        # The walk of a valid match names nobody: the seats stand for the players.
        players=tuple(str(seat) for seat in range(players)),
        hands=tuple(hand.log for hand in stored),
        teams=tuple(tuple(team) for team in match.teams) if match.teams is not None else None,
        record=match.record or None,
    )
    writer = _PageWriter(match)
    with _no_collection():
        report = walk_match(log=log, on_step=writer.step).report
    if not report.valid:
        raise ValueError(f"match {match.pk} is stored valid, but the walk refuses it")
    writer.hand_done()
    hands = [
        {"moves": len(hand.log.moves), "layout": layout}
        for hand, layout in zip(stored, writer.layouts, strict=True)
    ]
    missed = []
    for hand in stored:
        row = [0] * players
        for move, fact in zip(hand.log.moves, hand.facts, strict=True):
            row[move.seat] += missed_points(fact.points, fact.best)
        missed.append(row)
    return writer.states, hands, missed
