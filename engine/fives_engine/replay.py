"""Replays: the state of the table at the start of every hand and after every move.

The replay walks the log with the validator itself (``validate_match``'s step hook), so it
shows exactly what the validator accepted and stops where the validator stops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import validate
from .game import PLAY, LegalMove, TableHandState
from .log import MatchLog, SchemaError, parse_log
from .tiles import NAME, PIPS
from .validate import MoveFacts, Report, Step, schema_report


def legal_move_json(move: LegalMove) -> dict[str, Any]:
    """Return a legal move as a ``fives/1``-like object (a draw names no tile)."""
    if move.kind == PLAY:
        assert move.tile is not None
        out: dict[str, Any] = {"play": NAME[move.tile]}
        if move.end is not None:
            out["end"] = move.end
        return out
    return {move.kind: True}


def state_json(step: Step) -> dict[str, Any]:
    """Return the table after ``step`` as a JSON object (see the README for its fields)."""
    hand = step.hand
    match = step.match
    ended = hand.end is not None
    result = match.results[-1] if ended and match.results else None
    live = not ended and not match.over
    state: dict[str, Any] = {
        "hand": step.hand_index,
        "move": step.move_index,
        "action": step.move.as_json() if step.move is not None else None,
        "seat": step.move.seat if step.move is not None else None,
        # Where this move's tile went ("lead" or an end), so a picture can mark it.
        "placed": _placed(step),
        "count": hand.count(),
        "points": step.points,
        "scores": list(match.scores),
        "layout": hand.layout(),
        "open_ends": [{"end": end, "pip": pip} for end, pip in hand.open_ends],
        "hands": [[NAME[tile] for tile in sorted(tiles)] for tiles in hand.hands],
        "pips": [sum(PIPS[tile] for tile in tiles) for tiles in hand.hands],
        "boneyard": hand.boneyard_size(),
        "turn": hand.turn if live else None,
        "legal": [legal_move_json(move) for move in hand.legal_moves()] if live else [],
        "hand_end": hand.end,
        "settlement": list(result.settlement) if result is not None else None,
        "winner": match.winner,
    }
    if type(hand) is TableHandState:
        # A table record: ``hands`` lists the tiles the table has seen each seat take and
        # not yet lay (its shown draws; all its tiles once the hand ended by a domino or
        # a block), ``hidden`` counts the others, face down; ``pips`` is null for a seat
        # with hidden tiles; ``boneyard`` is its size by the count of draws.
        state["hidden"] = list(hand.hidden)
        state["pips"] = [
            pips if hidden == 0 else None
            for pips, hidden in zip(state["pips"], hand.hidden, strict=True)
        ]
    return state


def _placed(step: Step) -> str | None:
    if step.move is None or step.move.kind != PLAY:
        return None
    return step.hand.last_placed or "lead"


@dataclass(slots=True)
class Replay:
    """A log's report and the table after every step the validator accepted."""

    report: Report
    states: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        """Return the replay as the API serves it."""
        return {"report": self.report.as_dict(), "states": self.states}


def replay_log(doc: Any, *, review: bool = False) -> Replay:
    """Return the replay of a log given as a parsed JSON value.

    With ``review``, each play's state also holds ``best`` (the most any legal play could
    have scored there) and ``best_play`` (one play that scores it): the missed-points review.
    """
    try:
        log = parse_log(doc)
    except SchemaError as exc:
        return Replay(validate.mark_record(schema_report(exc), doc), [])
    return replay_match(log, review=review)


def replay_match(
    log: MatchLog, facts: Sequence[Sequence[MoveFacts]] | None = None, *, review: bool = False
) -> Replay:
    """Return the replay of a parsed log, in one walk.

    ``facts``, each move's figures as a walk stored them (the archive keeps them with the
    match), give each play's ``best`` and ``best_play`` without reviewing the plays again;
    else ``review`` works them out as it walks.
    """
    states: list[dict[str, Any]] = []

    def record(step: Step) -> None:
        state = state_json(step)
        found = step.facts
        if facts is not None and step.move_index is not None:
            found = facts[step.hand_index][step.move_index]
        if found is not None and found.best is not None:
            state["best"] = found.best
            state["best_play"] = found.best_play
        states.append(state)

    walked = validate.walk_match(log=log, review=review and facts is None, on_step=record)
    return Replay(walked.report, states)
