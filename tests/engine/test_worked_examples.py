"""Every worked example of RULES.md, figure by figure."""

from __future__ import annotations

import pytest

from fives_engine import validate_log
from fives_engine.replay import replay_log
from fives_engine.rules import divide_rounded, resolve_ruleset, round_to_multiple
from fives_engine.scoring import settlement


def one_hand(ruleset, deal, plays):
    """Return a two-player log of one hand: ``plays`` alternate from seat 0."""
    moves = []
    for number, (tile, end) in enumerate(plays):
        move = {"seat": number % 2, "play": tile}
        if end:
            move["end"] = end
        moves.append(move)
    return {
        "format": "fives/1",
        "ruleset": ruleset,
        "players": ["A", "B"],
        "hands": [{"leader": 0, "deal": deal, "moves": moves}],
    }


SEED_001 = [
    # play, end, open ends after, count, points
    ("5-5", None, "W 5, E 5", 10, 10),
    ("5-0", "E", "W 5, E 0", 10, 10),
    ("3-5", "W", "W 3, E 0, N 5, S 5", 3, 0),
    ("0-2", "E", "W 3, E 2, N 5, S 5", 5, 5),
    ("5-4", "N", "W 3, E 2, N 4, S 5", 9, 0),
    ("2-2", "E", "W 3, E 2, N 4, S 5", 11, 0),
    ("2-5", "E", "W 3, E 5, N 4, S 5", 12, 0),
    ("3-3", "W", "W 3, E 5, N 4, S 5", 15, 15),
]


def test_the_seed_001_example_counts_and_scores_every_play():
    deal = [
        ["5-5", "3-5", "5-4", "2-5", "6-6", "6-1", "1-1"],
        ["5-0", "0-2", "2-2", "3-3", "6-4", "4-1", "1-0"],
    ]
    log = one_hand("muggins", deal, [(tile, end) for tile, end, *_ in SEED_001])
    replay = replay_log(log)
    assert replay.report.valid, replay.report.errors
    states = [state for state in replay.states if state["move"] is not None]
    seen = [
        (
            state["action"]["play"],
            ", ".join(f"{e['end']} {e['pip']}" for e in state["open_ends"]),
            state["count"],
            state["points"],
        )
        for state in states
    ]
    assert seen == [(tile, ends, count, points) for tile, _, ends, count, points in SEED_001]
    assert replay.report.as_dict()["scores"] == [10 + 0 + 0 + 0, 10 + 5 + 0 + 15]


PAGAT = [
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


def test_the_pagat_all_fives_example_counts_and_scores_every_play():
    deal = [
        ["1-4", "4-4", "1-2", "5-5", "1-3", "6-6", "2-6", "3-6", "4-6"],
        ["1-1", "4-3", "1-5", "5-0", "0-0", "0-6", "1-6", "5-6", "2-2"],
    ]
    log = one_hand("all-fives", deal, [(tile, end) for tile, end, *_ in PAGAT])
    replay = replay_log(log)
    assert replay.report.valid, replay.report.errors
    states = [state for state in replay.states if state["move"] is not None]
    assert [(s["count"], s["points"]) for s in states] == [(c, p) for *_, c, p in PAGAT]
    # 1-1 is the spinner (the first double), lying first on the west arm.
    assert states[-1]["layout"]["spinner"] == {"arm": "W", "index": 0}
    assert states[-1]["layout"]["arms"]["N"] == [
        {"tile": "1-5", "double": False},
        {"tile": "5-5", "double": True},
        {"tile": "5-0", "double": False},
    ]
    assert replay.report.scores == [5 + 10 + 5 + 15 + 0, 0 + 5 + 10 + 5]


@pytest.mark.parametrize(
    ("pips", "multiple", "rounded"),
    [(7, 5, 5), (8, 5, 10), (26, 5, 25), (3, 5, 5), (2, 5, 0), (1, 3, 0), (2, 3, 3), (4, 3, 3)],
)
def test_rounding_is_to_the_nearest_multiple_halves_up(pips, multiple, rounded):
    assert round_to_multiple(pips, multiple) == rounded


def test_all_fives_subtracts_each_players_own_pips_rounded():
    rules = resolve_ruleset("all-fives", 2)
    # Seat 0 went out; seat 1 holds 7 pips (-> 5). Then 8 pips (-> 10).
    assert settlement(rules, "domino", [0, 7], 0, [0, 1], 2) == [0, -5]
    assert settlement(rules, "block", [8, 7], None, [0, 1], 2) == [-10, -5]


def test_the_seed_001_blocked_hand_settles_26_to_25_divided_by_5():
    rules = resolve_ruleset("muggins", 4)
    # The winner holds 3 pips, the three others 5, 11 and 13: 26 -> 25 -> 5 points.
    assert settlement(rules, "block", [3, 5, 11, 13], None, [0, 1, 2, 3], 4) == [5, 0, 0, 0]


def test_the_not_divided_variant_gives_the_rounded_pips_and_losers_total_ignores_the_winner():
    rules = resolve_ruleset(
        {"base": "muggins", "settlement_divisor": 1, "block_bonus": "losers-total"}, 4
    )
    # 5 + 11 + 13 = 29 -> 30, not divided, the winner's own 3 pips not subtracted.
    assert settlement(rules, "block", [3, 5, 11, 13], None, [0, 1, 2, 3], 4) == [30, 0, 0, 0]


def test_partners_pips_are_added_then_rounded_once():
    rules = resolve_ruleset({"base": "muggins", "settlement_divisor": 1}, 4)
    # Seat 0 went out for team 0 (seats 0 and 2). The opponents, seats 1 and 3, hold
    # 7 + 6 = 13 pips -> 15; rounding each first would give 5 + 5 = 10.
    assert settlement(rules, "domino", [0, 7, 4, 6], 0, [0, 1, 0, 1], 2) == [15, 0]


def test_a_blocked_hand_with_a_tie_for_fewest_pips_scores_nobody():
    rules = resolve_ruleset("muggins", 3)
    assert settlement(rules, "block", [4, 4, 9], None, [0, 1, 2], 3) == [0, 0, 0]


def test_all_threes_rounds_to_threes_and_divides_by_three():
    rules = resolve_ruleset("all-threes", 2)
    # Seat 1 went out; seat 0 holds 10 pips -> 9 -> 3 points.
    assert settlement(rules, "domino", [10, 0], 1, [0, 1], 2) == [0, 3]


def test_a_settlement_divisor_that_does_not_divide_rounds_the_quotient():
    # 25 / 3 = 8.33 -> 8; 20 / 3 = 6.67 -> 7 (documented choice: nearest, halves up).
    assert divide_rounded(25, 3) == 8
    assert divide_rounded(20, 3) == 7
    assert divide_rounded(25, 5) == 5


def test_the_format_example_is_valid_and_unfinished_at_10_all():
    from tests.engine.helpers import format_example

    report = validate_log(format_example()).as_dict()
    assert report["valid"] is True
    assert report["outcome"] == "unfinished"
    assert report["scores"] == [10, 10]
    assert report["winner"] is None
    assert report["warnings"] == []
    assert report["hands"] == [
        {"end": "unfinished", "points": [10, 10], "settlement": [0, 0], "scores": [10, 10]}
    ]
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
