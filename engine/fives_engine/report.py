"""The validation report of FORMAT.md and its errors and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .codes import Code, describe
from .game import HandResult
from .log import MatchLog
from .rules import Ruleset


class MoveFacts(NamedTuple):
    """What one legal move did: the count after it and its points, and for a play the most
    points any legal play could have scored there and the first play that scores it.

    ``count`` is None for a draw or a pass; ``best`` and ``best_play`` are None for a draw,
    a pass, or a walk that did not review the plays.
    """

    # The count after the move (FORMAT.md's word), a field that shadows ``tuple.count`` on
    # purpose: no caller counts a MoveFacts' items.
    count: int | None  # type: ignore[assignment]
    points: int
    best: int | None = None
    best_play: str | None = None


def missed_points(points: int | None, best: int | None) -> int:
    """Return the points a play left on the table: the most a legal play could have scored
    there (``best``) less what it scored, 0 when it scored the most or was not reviewed
    (``best`` None). The one definition of missed points (the review, the statistics and
    the match page ask)."""
    if best is None:
        return 0
    scored = points or 0
    return best - scored if best > scored else 0


@dataclass(frozen=True, slots=True)
class Issue:
    """An error or a warning of a report: a code and its params, worded as ``message``.

    ``params`` hold everything ``codes.describe`` needs to word it again (in another
    language, say); ``make`` builds an issue that way.
    """

    code: Code
    message: str
    hand: int | None = None
    move: int | None = None
    seat: int | None = None
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def make(
        cls,
        code: Code,
        at_hand: int | None = None,
        at_move: int | None = None,
        at_seat: int | None = None,
        /,
        **params: Any,
    ) -> Issue:
        """Return the issue of ``code`` with ``params``, its message worded by ``describe``.

        (The places' names are no param's: compiled by mypyc, which does not keep ``/``, a
        param named ``seat`` must not meet an argument of that name.)"""
        return cls(
            code, describe(code, params, at_hand, at_move), at_hand, at_move, at_seat, params
        )

    def as_dict(self) -> dict[str, Any]:
        """Return the issue as the report writes it."""
        return {
            "code": str(self.code),
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
    # "table" for a table record (FORMAT.md, "Table records"), else None.
    record: str | None = None
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
        """Return the report as FORMAT.md writes it; a table record's carries ``"record":
        "table"`` too (last), a full record's has no ``record``."""
        out = {
            "valid": self.valid,
            "outcome": self.outcome,
            "ruleset": self.ruleset.as_dict() if self.ruleset is not None else None,
            "errors": [issue.as_dict() for issue in self.errors],
            "warnings": [issue.as_dict() for issue in self.warnings],
            "scores": list(self.scores),
            "winner": self.winner,
            "hands": [hand.as_dict() for hand in self.hands],
        }
        if self.record is not None:
            out["record"] = self.record
        return out


@dataclass(slots=True)
class Checked:
    """One walk through a document: its report, its parsed log, and what each move did.

    ``log`` is the parsed log whenever the document passed the schema (else None);
    ``moves`` holds, per hand, the ``MoveFacts`` of each legal move up to the first error.
    """

    report: Report
    log: MatchLog | None
    moves: list[list[MoveFacts]]
