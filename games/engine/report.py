"""The validation report of FORMAT.md and its errors and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .game import HandResult
from .rules import Ruleset


@dataclass(frozen=True, slots=True)
class Issue:
    """An error or a warning of a report. ``params`` feed translated messages."""

    code: str
    message: str
    hand: int | None = None
    move: int | None = None
    seat: int | None = None
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """Return the issue as the report writes it."""
        return {
            "code": self.code,
            "hand": self.hand,
            "move": self.move,
            "seat": self.seat,
            "message": self.message,
        }


@dataclass(slots=True)
class Report:
    """The validation report of one log (FORMAT.md)."""

    ruleset: Ruleset | None = None
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    hands: list[HandResult] = field(default_factory=list)
    # Counted for benchmarks and statistics; not part of the report's JSON.
    moves_checked: int = 0

    @property
    def valid(self) -> bool:
        """Return whether the log has no error."""
        return not self.errors

    @property
    def outcome(self) -> str:
        """Return ``complete`` when a team won, else ``unfinished``."""
        return "complete" if self.winner is not None else "unfinished"

    def as_dict(self) -> dict[str, Any]:
        """Return the report as FORMAT.md writes it."""
        return {
            "valid": self.valid,
            "outcome": self.outcome,
            "ruleset": self.ruleset.as_dict() if self.ruleset is not None else None,
            "errors": [issue.as_dict() for issue in self.errors],
            "warnings": [issue.as_dict() for issue in self.warnings],
            "scores": list(self.scores),
            "winner": self.winner,
            "hands": [hand.as_dict() for hand in self.hands],
        }
