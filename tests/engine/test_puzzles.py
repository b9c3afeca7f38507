"""Puzzles in the engine (fives_engine.puzzles, issue 60): each theme a pure function of a
position and its best play, tried on positions of simulated matches written out here; a
check keeps only a play best by more than four standard errors of its gap."""

from __future__ import annotations

from fives_engine import puzzles
from fives_engine.expected import review_match
from fives_engine.log import parse_log
from fives_engine.position import HIDDEN_FIELDS, parse_position
from fives_engine.simulate import simulate_match

MUGGINS_TWO = {"format": "fives/1", "kind": "position", "ruleset": "muggins"}
PLAYED = [
    {"seat": 0, "play": "4-2"}, {"seat": 1, "play": "3-4", "end": "W"},
    {"seat": 0, "play": "1-2", "end": "E"}, {"seat": 1, "play": "1-1", "end": "E"},
    {"seat": 0, "play": "3-5", "end": "W"}, {"seat": 1, "play": "1-4", "end": "E"},
    {"seat": 0, "play": "5-6", "end": "W"}, {"seat": 1, "play": "1-3", "end": "N"},
    {"seat": 0, "play": "0-3", "end": "N"}, {"seat": 1, "play": "0-6", "end": "W"},
    {"seat": 0, "play": "0-1", "end": "N"}, {"seat": 1, "play": "0-2", "end": "W"},
    {"seat": 0, "draw": "?"}, {"seat": 0, "draw": "?"}, {"seat": 0, "play": "0-4", "end": "E"},
    {"seat": 1, "draw": "?"}, {"seat": 1, "play": "2-5", "end": "W"},
]  # fmt: skip


def two(tiles, moves, held, boneyard, scores):
    return parse_position(
        {
            **MUGGINS_TWO,
            "players": ["Nino", "Giorgi"],
            "teams": None,
            "scores": scores,
            "leader": 0,
            "seat": 0,
            "tiles": tiles,
            "moves": moves,
            "held": held,
            "boneyard": boneyard,
        }
    )


def test_going_out_is_the_last_tile_and_a_count_the_most_points():
    moves = [
        *PLAYED,
        {"seat": 0, "play": "0-5", "end": "W"},
        {"seat": 1, "draw": "?"}, {"seat": 1, "draw": "?"},
        {"seat": 1, "play": "1-5", "end": "N"},
    ]  # fmt: skip
    position = two(["0-0"], moves, [1, 2], 9, [81, 60])
    assert puzzles.themes(position, "0-0 on W") == ("going-out", "count")
    figures = puzzles.play_figures(position, "0-0 on W")
    assert figures.out and figures.points > 0 and figures.count % 5 == 0


def test_the_last_of_a_suit_only_the_seat_can_follow():
    position = two(["0-0", "0-5"], PLAYED, [2, 1], 11, [81, 55])
    # Every 0 but the seat's own 0-0 and 0-5 is laid: a play opening 0 leaves a suit only
    # the seat can follow; 0-5 on E opens 5, whose 5-4 nobody has laid.
    assert puzzles.themes(position, "0-0 on E") == ("last-of-suit",)
    assert puzzles.themes(position, "0-5 on W") == ("last-of-suit",)
    assert puzzles.themes(position, "0-5 on E") == ()


def test_a_lead_that_scores_is_a_count():
    position = parse_position(
        {
            **MUGGINS_TWO,
            "players": ["Nino", "Giorgi"],
            "teams": None,
            "scores": [0, 0],
            "leader": 1,
            "seat": 1,
            "tiles": ["0-2", "2-3", "3-5", "3-6", "5-5", "5-6", "6-6"],
            "moves": [],
        }
    )
    assert puzzles.themes(position, "5-5") == ("count",)
    assert puzzles.themes(position, "0-2") == ()


def test_a_block_leaves_no_unseen_tile_fitting():
    moves = [
        {"seat": 1, "play": "5-0"}, {"seat": 2, "play": "0-3", "end": "E"},
        {"seat": 3, "draw": "?"}, {"seat": 3, "play": "3-3", "end": "E"},
        {"seat": 0, "play": "2-3", "end": "E"}, {"seat": 1, "play": "4-5", "end": "W"},
        {"seat": 2, "play": "4-6", "end": "W"}, {"seat": 3, "play": "0-2", "end": "E"},
        {"seat": 0, "play": "3-6", "end": "W"}, {"seat": 1, "play": "0-1", "end": "E"},
        {"seat": 2, "draw": "?"}, {"seat": 2, "draw": "?"}, {"seat": 2, "draw": "?"},
        {"seat": 2, "play": "1-5", "end": "E"}, {"seat": 3, "draw": "?"},
        {"seat": 3, "play": "3-4", "end": "N"}, {"seat": 0, "play": "1-3", "end": "W"},
        {"seat": 1, "play": "1-6", "end": "W"}, {"seat": 2, "play": "5-6", "end": "W"},
        {"seat": 3, "play": "4-4", "end": "N"}, {"seat": 0, "play": "5-5", "end": "E"},
        {"seat": 1, "draw": "?"}, {"seat": 1, "play": "2-4", "end": "N"},
        {"seat": 2, "play": "2-5", "end": "N"}, {"seat": 3, "draw": "?"},
    ]  # fmt: skip
    position = parse_position(
        {
            **MUGGINS_TWO,
            "players": ["Nino", "Giorgi", "Olga", "Ivan"],
            "teams": [[0, 2], [1, 3]],
            "scores": [30, 20],
            "leader": 1,
            "seat": 3,
            "tiles": ["0-0", "1-1", "1-2", "3-5"],
            "moves": moves,
        }
    )
    assert "block" in puzzles.themes(position, "3-5 on W")


def test_a_partners_suit_is_a_signal_and_no_partner_none():
    position = parse_position(
        {
            **MUGGINS_TWO,
            "players": ["Nino", "Giorgi", "Olga", "Ivan"],
            "teams": [[0, 2], [1, 3]],
            "scores": [0, 0],
            "leader": 2,
            "seat": 0,
            "tiles": ["0-2", "0-4", "1-4", "2-2", "5-6"],
            "moves": [{"seat": 2, "play": "2-1"}, {"seat": 3, "play": "0-1", "end": "E"}],
        }
    )
    assert puzzles.themes(position, "0-2 on E") == ("signal",)
    assert "signal" not in puzzles.themes(position, "0-4 on E")
    alone = two(["0-0", "0-5"], PLAYED, [2, 1], 11, [81, 55])
    assert not puzzles.signal(alone, "0-0 on E") and not puzzles.bust(alone, "0-0 on E")


def test_a_checked_puzzle_is_best_by_four_errors_and_names_no_hidden_tile():
    log = parse_log(simulate_match(seed=1, bots=("greedy", "random")))
    review = review_match(log, samples=8).as_dict()
    made = puzzles.checked_documents(log, review["plays"], 80)
    assert made, "a greedy player against a random one leaves puzzles"
    for play, checked in made:
        assert play["mark"] in ("mistake", "blunder")
        assert checked.gap > puzzles.GAP_ERRORS * checked.gap_se and checked.gap > 0
        assert checked.layouts == 80 or checked.layouts < 80  # exact: every layout
        assert not set(checked.document) & HIDDEN_FIELDS
        assert checked.best in {entry["play"] for entry in checked.plays}
        assert set(checked.themes) <= set(puzzles.THEMES)
