"""docs/analysis.md's worked match of luck and skill is the review's own figures."""

from __future__ import annotations

import pathlib
import re

import pytest

from fives_engine.expected import review_document
from fives_engine.simulate import simulate_match

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


def test_the_worked_match_of_luck_and_skill_is_the_reviews() -> None:
    block = re.search(r"<!-- worked-match -->(.*?)<!-- /worked-match -->", DOC.read_text(), re.S)
    assert block, "docs/analysis.md has its worked match"
    rows = [line for line in block.group(1).splitlines() if re.match(r"\| \d", line)]
    review = review_document(simulate_match("all-fives", 2, seed=1)).as_dict()
    assert len(rows) == len(review["sides"]) == 2
    for row, side in zip(rows, review["sides"], strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert int(cells[0]) == side["side"]
        figures = [_number(cell) for cell in cells[1:]]
        keys = ["expected_start", "luck", "skill", "result", "luck_adjusted"]
        assert figures == pytest.approx([round(side[key], 1) for key in keys], abs=0.051)
        assert side["expected_start"] + side["luck"] + side["skill"] == pytest.approx(
            side["result"], abs=1e-9
        )
