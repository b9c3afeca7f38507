"""Small builders shared by the engine tests."""

from __future__ import annotations

import copy
from typing import Any

from fives_engine import validate_log


def format_example() -> dict[str, Any]:
    """Return the example log of FORMAT.md: valid and unfinished, scores 10 and 10."""
    return {
        "format": "fives/1",
        "id": "club-night-2026-11-20-table-3",
        "ruleset": {"base": "muggins", "target": 100},
        "players": ["Nino", "Giorgi"],
        "teams": None,
        "club": "Tbilisi Fives Club",
        "event": "Autumn league, round 4",
        "played_at": "2026-11-20T19:05:00+04:00",
        "hands": [
            {
                "leader": 0,
                "deal": [
                    ["5-5", "6-4", "3-1", "0-0", "2-2", "6-6", "5-3"],
                    ["5-0", "1-1", "1-2", "2-4", "4-4", "1-6", "2-6"],
                ],
                "moves": [
                    {"seat": 0, "play": "5-5", "points": 10},
                    {"seat": 1, "play": "5-0", "end": "E", "points": 10},
                    {"seat": 0, "play": "3-5", "end": "W"},
                    {"seat": 1, "draw": "1-4"},
                    {"seat": 1, "draw": "3-4"},
                    {"seat": 1, "play": "3-4", "end": "W"},
                ],
            }
        ],
        "final_scores": [10, 10],
    }


def variant(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Return a deep copy of ``doc`` with top-level fields replaced."""
    out = copy.deepcopy(doc)
    out.update(changes)
    return out


def first_error(doc: Any) -> tuple[str, int | None, int | None] | None:
    """Return ``(code, hand, move)`` of the report's error, or None for a valid log."""
    report = validate_log(doc).as_dict()
    if report["valid"]:
        return None
    [error] = report["errors"]
    return error["code"], error["hand"], error["move"]


def moves_of(doc: dict[str, Any], hand: int = 0) -> list[dict[str, Any]]:
    """Return the move list of one hand (to edit in place)."""
    return doc["hands"][hand]["moves"]
