"""The independent reference validator (reference.py) against the figures of the spec.

Every number here is copied from /work/shared/RULES.md or /work/shared/FORMAT.md. No
project code is imported: only the reference implementation next to this file.
"""

import copy

import pytest

from .reference import (
    PRESETS,
    reference_report,
    round_to_multiple,
    settle,
    simulate_plays,
)

# --------------------------------------------------------------------------------------
# RULES.md, worked example 1 (seed 001, with the spinner)
# --------------------------------------------------------------------------------------

# (play, end, open ends after, count, points scored)
SEED_001_TABLE = [
    ("5-5", None, {"W": 5, "E": 5}, 10, 10),
    ("5-0", "E", {"W": 5, "E": 0}, 10, 10),
    ("3-5", "W", {"W": 3, "E": 0, "N": 5, "S": 5}, 3, 0),
    ("0-2", "E", {"W": 3, "E": 2, "N": 5, "S": 5}, 5, 5),
    ("5-4", "N", {"W": 3, "E": 2, "N": 4, "S": 5}, 9, 0),
    ("2-2", "E", {"W": 3, "E": 2, "N": 4, "S": 5}, 11, 0),
    ("2-5", "E", {"W": 3, "E": 5, "N": 4, "S": 5}, 12, 0),
    ("3-3", "W", {"W": 3, "E": 5, "N": 4, "S": 5}, 15, 15),
]

# RULES.md, worked example 2 (All Fives as pagat.com illustrates it; lead 1-4: W 1, E 4)
# (play, end, count, points scored)
PAGAT_TABLE = [
    ("1-4", None, 5, 5),
    ("1-1", "W", 6, 0),
    ("4-4", "E", 10, 10),
    ("4-3", "E", 5, 5),
    ("1-2", "W", 5, 5),
    ("1-5", "N", 10, 10),
    ("5-5", "N", 15, 15),
    ("5-0", "N", 5, 5),
    ("1-3", "S", 8, 0),
]


def test_seed_001_table_layout_count_and_points():
    results = simulate_plays([(play, end) for play, end, *_ in SEED_001_TABLE], multiple=5)
    for (play, _end, ends, count, points), (got_ends, got_count, got_points) in zip(
        SEED_001_TABLE, results, strict=True
    ):
        assert got_ends == ends, play
        assert got_count == count, play
        assert got_points == points, play


def test_pagat_table_count_and_points():
    results = simulate_plays([(play, end) for play, end, *_ in PAGAT_TABLE], multiple=5)
    for (play, _end, count, points), (_ends, got_count, got_points) in zip(
        PAGAT_TABLE, results, strict=True
    ):
        assert got_count == count, play
        assert got_points == points, play


def _log_from_table(ruleset, table_plays, fillers, hand_size):
    """A two-player log: seat 0 leads, the seats alternate, every play claims its points."""
    deal = [[], []]
    moves = []
    for i, (play, end, points) in enumerate(table_plays):
        seat = i % 2
        deal[seat].append(play)
        move = {"seat": seat, "play": play, "points": points}
        if end is not None:
            move["end"] = end
        moves.append(move)
    for seat in (0, 1):
        deal[seat] += fillers[seat][: hand_size - len(deal[seat])]
        assert len(deal[seat]) == hand_size
    return {
        "format": "fives/1",
        "ruleset": ruleset,
        "players": ["A", "B"],
        "hands": [{"leader": 0, "deal": deal, "moves": moves}],
    }


def test_seed_001_table_as_a_log():
    plays = [(play, end, points) for play, end, _ends, _count, points in SEED_001_TABLE]
    doc = _log_from_table(
        "muggins", plays, [["6-6", "1-6", "0-6"], ["1-1", "0-1", "1-4"]], hand_size=7
    )
    report = reference_report(doc)
    assert report["errors"] == []
    assert report["warnings"] == []  # every claimed figure is what the rules give
    assert report["valid"] is True
    assert report["outcome"] == "unfinished"
    # seat 0: 10 (5-5); seat 1: 10 (5-0) + 5 (0-2) + 15 (3-3)
    assert report["scores"] == [10, 30]
    assert report["hands"] == [
        {"end": "unfinished", "points": [10, 30], "settlement": [0, 0], "scores": [10, 30]}
    ]


def test_pagat_table_as_a_log():
    plays = [(play, end, points) for play, end, _count, points in PAGAT_TABLE]
    doc = _log_from_table(
        "all-fives",
        plays,
        [["6-6", "0-6", "1-6", "2-6"], ["0-0", "0-1", "0-2", "0-3", "0-4"]],
        hand_size=9,
    )
    report = reference_report(doc)
    assert report["errors"] == []
    assert report["warnings"] == []
    assert report["valid"] is True
    # seat 0: 5 + 10 + 5 + 15 + 0; seat 1: 0 + 5 + 10 + 5
    assert report["scores"] == [35, 20]


def test_a_wrong_claim_is_a_points_mismatch_warning():
    plays = [(play, end, points) for play, end, _ends, _count, points in SEED_001_TABLE]
    doc = _log_from_table(
        "muggins", plays, [["6-6", "1-6", "0-6"], ["1-1", "0-1", "1-4"]], hand_size=7
    )
    doc["hands"][0]["moves"][4]["points"] = 5  # 5-4 on N: the count is 9, no points
    report = reference_report(doc)
    assert report["valid"] is True
    assert [(w["code"], w["hand"], w["move"], w["seat"]) for w in report["warnings"]] == [
        ("points-mismatch", 0, 4, 0)
    ]


# --------------------------------------------------------------------------------------
# Settlement examples
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pips", "multiple", "rounded"),
    [(7, 5, 5), (8, 5, 10), (26, 5, 25), (3, 5, 5), (1, 3, 0), (2, 3, 3), (4, 3, 3), (5, 3, 6)],
)
def test_rounding(pips, multiple, rounded):
    assert round_to_multiple(pips, multiple) == rounded


def _one_tile_hand(opponent_tile):
    """All Fives, two players, one tile each: seat 0 leads 6-6 (count 12, no points)
    and goes out at once; seat 1 is left with `opponent_tile`."""
    return {
        "format": "fives/1",
        "ruleset": {"base": "all-fives", "hand_size": 1},
        "players": ["A", "B"],
        "hands": [
            {
                "leader": 0,
                "deal": [["6-6"], [opponent_tile]],
                "moves": [{"seat": 0, "play": "6-6", "points": 0}],
            }
        ],
    }


@pytest.mark.parametrize(("tile", "subtracted"), [("3-4", 5), ("2-6", 10)])
def test_subtract_own_seed_000(tile, subtracted):
    # Seed 000: 7 pips -> 5, 8 -> 10, subtracted from the holder's score.
    report = reference_report(_one_tile_hand(tile))
    assert report["valid"] is True
    assert report["hands"] == [
        {
            "end": "domino",
            "points": [0, 0],
            "settlement": [0, -subtracted],
            "scores": [0, -subtracted],
        }
    ]
    assert report["scores"] == [0, -subtracted]


def test_winner_takes_seed_001_example_direct():
    # A blocked hand, the winner holds 3 pips, the three others 5, 11 and 13:
    # 5 + 11 + 13 - 3 = 26 -> 25 -> 25 / 5 = 5 points.
    rules = dict(PRESETS["muggins"])
    settlement, winner = settle(rules, [3, 5, 11, 13], [0, 1, 2, 3], 4, "block", None)
    assert winner == 0
    assert settlement == [5, 0, 0, 0]
    rules["settlement_divisor"] = 1  # the variant "not divided"
    assert settle(rules, [3, 5, 11, 13], [0, 1, 2, 3], 4, "block", None)[0] == [25, 0, 0, 0]
    rules["settlement_divisor"] = 5
    rules["block_bonus"] = "losers-total"  # 29 -> 30 -> 6
    assert settle(rules, [3, 5, 11, 13], [0, 1, 2, 3], 4, "block", None)[0] == [6, 0, 0, 0]


def test_winner_takes_tie_for_fewest_nobody_scores():
    rules = dict(PRESETS["muggins"])
    assert settle(rules, [3, 3, 11, 13], [0, 1, 2, 3], 4, "block", None) == ([0, 0, 0, 0], None)


# A four-player Muggins hand (7 tiles each, so no boneyard) that blocks with seat 1
# holding 3 pips and the others 13, 5 and 11: the seed 001 example as a full log.
BLOCKED_DEAL = [
    ["0-2", "1-4", "4-5", "5-6", "2-5", "3-3", "4-4"],
    ["1-3", "5-5", "2-4", "1-2", "0-5", "0-4", "3-5"],
    ["2-6", "2-3", "3-6", "0-6", "0-3", "1-1", "0-0"],
    ["1-5", "3-4", "0-1", "2-2", "4-6", "1-6", "6-6"],
]
BLOCKED_MOVES = [
    {"seat": 0, "play": "2-0"},
    {"seat": 1, "play": "4-0", "end": "E"},
    {"seat": 2, "play": "6-2", "points": 10},
    {"seat": 3, "play": "6-6"},
    {"seat": 0, "play": "5-4"},
    {"seat": 1, "play": "5-0"},
    {"seat": 2, "play": "0-0"},
    {"seat": 3, "play": "6-4", "end": "W"},
    {"seat": 0, "play": "6-5", "end": "S"},
    {"seat": 1, "play": "2-4", "end": "W"},
    {"seat": 2, "play": "0-6", "end": "E"},
    {"seat": 3, "play": "6-1", "end": "N"},
    {"seat": 0, "play": "5-2", "end": "W"},
    {"seat": 1, "play": "5-3", "points": 15, "end": "W"},
    {"seat": 2, "play": "1-1", "end": "N"},
    {"seat": 3, "play": "1-0"},
    {"seat": 0, "play": "3-3"},
    {"seat": 1, "play": "1-3", "end": "W"},
    {"seat": 2, "play": "3-0", "points": 15, "end": "N"},
    {"seat": 3, "play": "5-1", "end": "W"},
    {"seat": 0, "pass": True},
    {"seat": 1, "play": "5-5", "end": "S"},
    {"seat": 2, "play": "3-6", "end": "N"},
    {"seat": 3, "pass": True},
    {"seat": 0, "pass": True},
    {"seat": 1, "pass": True},
    {"seat": 2, "pass": True},
]


def test_winner_takes_seed_001_example_as_a_log():
    doc = {
        "format": "fives/1",
        "ruleset": {"base": "muggins", "hand_size": 7},
        "players": ["A", "B", "C", "D"],
        "hands": [{"leader": 0, "deal": BLOCKED_DEAL, "moves": BLOCKED_MOVES}],
    }
    report = reference_report(doc)
    assert report["errors"] == []
    assert report["warnings"] == []
    assert report["hands"] == [
        {
            "end": "block",
            "points": [0, 15, 25, 0],
            "settlement": [0, 5, 0, 0],
            "scores": [0, 20, 25, 0],
        }
    ]
    # With hand_size 7 for 4 players everything is dealt; the winner of the blocked hand
    # (seat 1, fewest pips) must lead the next one under next_leader "hand-winner".
    second = copy.deepcopy(doc["hands"][0])
    second["moves"] = []
    second["leader"] = 0
    doc["hands"].append(second)
    report = reference_report(doc)
    assert [(e["code"], e["hand"], e["move"]) for e in report["errors"]] == [
        ("wrong-leader", 1, None)
    ]
    second["leader"] = 1
    assert reference_report(doc)["valid"] is True


# --------------------------------------------------------------------------------------
# FORMAT.md example log
# --------------------------------------------------------------------------------------

FORMAT_EXAMPLE = {
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


def test_format_example_log():
    report = reference_report(copy.deepcopy(FORMAT_EXAMPLE))
    assert report["valid"] is True
    assert report["errors"] == []
    assert report["warnings"] == []
    assert report["outcome"] == "unfinished"
    assert report["winner"] is None
    assert report["scores"] == [10, 10]
    assert report["ruleset"] == {
        "base": "muggins",
        "multiple": 5,
        "hand_size": 7,
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "winner-takes",
        "settlement_divisor": 5,
        "block_bonus": "difference",
        "target": 100,
        "end_at_target": "end-of-hand",
        "next_leader": "hand-winner",
        "boneyard_reserve": 0,
        "scoring": "count",
        "go_out_bonus": 0,
        "partnership_end": "first-out",
        "target_exact": False,
    }
    assert report["hands"] == [
        {"end": "unfinished", "points": [10, 10], "settlement": [0, 0], "scores": [10, 10]}
    ]


def test_format_example_final_scores_are_compared():
    doc = copy.deepcopy(FORMAT_EXAMPLE)
    doc["final_scores"] = [10, 15]
    report = reference_report(doc)
    assert report["valid"] is True
    assert [w["code"] for w in report["warnings"]] == ["score-mismatch"]


def test_format_example_missing_end_is_ambiguous():
    doc = copy.deepcopy(FORMAT_EXAMPLE)
    del doc["hands"][0]["moves"][1]["end"]  # 5-0 fits both W 5 and E 5
    report = reference_report(doc)
    assert [(e["code"], e["hand"], e["move"], e["seat"]) for e in report["errors"]] == [
        ("ambiguous-end", 0, 1, 1)
    ]
    assert report["hands"] == []
    assert report["scores"] == [0, 0]
