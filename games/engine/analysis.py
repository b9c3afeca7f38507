"""The missed-points review ("muggins"): for every play, the most any legal play could score.

The best play is looked for among the same legal moves the validator accepts
(``HandState.legal_plays``), each scored by playing it and taking it back
(``HandState.count_after``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import PLAY, HandState
from .log import SchemaError, parse_log
from .validate import Report, Step, schema_report, validate_match


@dataclass(frozen=True, slots=True)
class Insight:
    """One play looked at again: what it scored, and the best it could have."""

    points: int
    best: int
    best_play: str  # the first legal play that scores ``best``, e.g. "6-4 on N"

    @property
    def missed(self) -> int:
        """Return the points left on the table."""
        return self.best - self.points


def best_play(hand: HandState) -> tuple[int, str] | None:
    """Return the most points a legal play scores now, and that play; None without a play."""
    best: tuple[int, str] | None = None
    for move in hand.legal_plays():
        assert move.tile is not None
        points = hand.points_for(hand.count_after(move.tile, move.end))
        if best is None or points > best[0]:
            best = (points, str(move))
    return best


class PlayReview:
    """Follows a walk through a log (a ``validate_match`` step hook) and reviews each play.

    Call it with every step in order; it returns the ``Insight`` of a play, else None.
    """

    def __init__(self) -> None:
        self._best: tuple[int, str] | None = None

    def __call__(self, step: Step) -> Insight | None:
        insight = None
        if step.move is not None and step.move.kind == PLAY:
            best = self._best
            assert best is not None and best[0] >= step.points  # the play was a legal one
            insight = Insight(step.points, best[0], best[1])
        # What the next move could score, seen from the table as it is now.
        hand = step.hand
        self._best = best_play(hand) if hand.end is None and not step.match.over else None
        return insight


@dataclass(slots=True)
class Analysis:
    """The report of a log and, per hand, an ``Insight`` per move (None for draws, passes)."""

    report: Report
    moves: list[list[Insight | None]]


def analyse_log(doc: Any) -> Analysis:
    """Return the missed-points review of a log (up to its first error, if any)."""
    try:
        log = parse_log(doc)
    except SchemaError as exc:
        return Analysis(schema_report(exc), [])
    moves: list[list[Insight | None]] = []
    review = PlayReview()

    def look(step: Step) -> None:
        insight = review(step)
        if step.move_index is None:
            moves.append([])
        else:
            moves[-1].append(insight)

    return Analysis(validate_match(log, look), moves)
