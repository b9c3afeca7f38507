"""The missed-points review ("muggins"): for every play, the most any legal play could score.

The best play is looked for among the same legal plays the validator accepts, each scored
from the table's state without making it (``HandState.best_play``, the one definition;
tests/engine/test_quick_paths.py holds it to brute force: every play made on a copy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import validate
from .game import best_play
from .report import MoveFacts, Report, missed_points

__all__ = ["Analysis", "Insight", "analyse_log", "best_play", "insights"]


@dataclass(frozen=True, slots=True)
class Insight:
    """One play looked at again: what it scored, and the best it could have."""

    points: int
    best: int
    best_play: str  # the first legal play that scores ``best``, e.g. "6-4 on N"

    @property
    def missed(self) -> int:
        """Return the points left on the table."""
        return missed_points(self.points, self.best)


@dataclass(slots=True)
class Analysis:
    """The report of a log and, per hand, an ``Insight`` per move (None for draws, passes)."""

    report: Report
    moves: list[list[Insight | None]]


def insights(moves: list[list[MoveFacts]]) -> list[list[Insight | None]]:
    """Return the ``Insight`` of each reviewed play of a walk's moves (None for the rest)."""
    return [
        [
            None
            if facts.best is None or facts.best_play is None
            else Insight(facts.points, facts.best, facts.best_play)
            for facts in hand
        ]
        for hand in moves
    ]


def analyse_log(doc: Any) -> Analysis:
    """Return the missed-points review of a log (up to its first error, if any)."""
    checked = validate.walk_match(doc, trace=True, review=True)
    return Analysis(checked.report, insights(checked.moves))
