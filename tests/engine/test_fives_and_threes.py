"""Fives and Threes (RULES.md, "Fives and Threes (preset `fives-and-threes`)"): the scoring
table, the worked example and the bust cases with their exact figures, and every new option
alone and combined with the others."""

from __future__ import annotations

import copy
import itertools
import json
import pathlib

import pytest

from fives_engine import (
    resolve_ruleset,
    to_table_record,
    validate,
    validate_log,
    validate_traced,
)
from fives_engine.game import MatchState
from fives_engine.log import parse_log
from fives_engine.replay import replay_log
from fives_engine.rules import PRESETS, RulesetError
from fives_engine.scoring import points_for
from fives_engine.simulate import simulate_match
from fives_engine.table import known_holdings
from fives_engine.tiles import TILE_BY_TEXT
from tests.engine.helpers import first_error
from tests.engine.reference import reference_report

CASES = pathlib.Path(__file__).with_name("cases")
FIVES_AND_THREES = resolve_ruleset("fives-and-threes", 2)


def log_of(ruleset, deals, moves, *, players=None, teams=None, leader=0):
    """Return a full record of one hand (or several: ``deals`` and ``moves`` as lists of
    hands when ``leader`` is a list)."""
    leaders = leader if isinstance(leader, list) else [leader]
    if not isinstance(leader, list):
        deals, moves = [deals], [moves]
    count = len(deals[0])
    return {
        "format": "fives/1",
        "ruleset": ruleset,
        "players": players or ["A", "B", "C", "D"][:count],
        "teams": teams,
        "hands": [
            {"leader": first, "deal": deal, "moves": hand_moves}
            for first, deal, hand_moves in zip(leaders, deals, moves, strict=True)
        ],
    }


def plays(*items):
    """Return moves from ``(seat, tile, end)`` plays and ``(seat, "pass")`` passes."""
    out = []
    for item in items:
        if item[1] == "pass":
            out.append({"seat": item[0], "pass": True})
        elif item[1] == "draw":
            out.append({"seat": item[0], "draw": item[2]})
        else:
            move = {"seat": item[0], "play": item[1]}
            if len(item) > 2 and item[2]:
                move["end"] = item[2]
            out.append(move)
    return out


def agrees_with_the_reference(doc):
    """Return the engine's report after checking the reference validator gives the same."""
    report = validate_log(doc).as_dict()
    reference = reference_report(doc)
    for key in ("valid", "outcome", "ruleset", "scores", "winner", "hands"):
        assert report[key] == reference[key], key
    assert [(e["code"], e["hand"], e["move"]) for e in report["errors"]] == [
        (e["code"], e["hand"], e["move"]) for e in reference["errors"]
    ]
    assert [(w["code"], w["hand"], w["move"]) for w in report["warnings"]] == [
        (w["code"], w["hand"], w["move"]) for w in reference["warnings"]
    ]
    return report


# --- the scoring table ---------------------------------------------------------------------

TABLE = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8, 25: 5}
TABLE |= {27: 9, 30: 16, 33: 11, 35: 7, 36: 12, 45: 24}


@pytest.mark.parametrize(("count", "points"), sorted(TABLE.items()))
def test_a_count_scores_its_fives_and_its_threes(count, points):
    assert points_for(count, FIVES_AND_THREES) == points


def test_every_other_count_scores_nothing():
    others = [count for count in range(49) if count % 3 and count % 5]
    assert [points_for(count, FIVES_AND_THREES) for count in others] == [0] * len(others)
    assert points_for(0, FIVES_AND_THREES) == 0


def test_the_count_rule_is_unchanged_beside_it():
    muggins = resolve_ruleset("muggins", 2)
    assert [points_for(count, muggins) for count in (5, 9, 15, 30)] == [5, 0, 15, 30]


# --- the preset ------------------------------------------------------------------------------


def test_the_preset_has_the_options_of_its_table():
    assert PRESETS["fives-and-threes"] == {
        "multiple": 5,
        "hand_size": {"2": 7, "3": 5, "4": 5},
        "spinner": False,
        "spinner_sides_first": True,
        "settlement": "none",
        "settlement_divisor": 1,
        "block_bonus": "difference",
        "target": 61,
        "end_at_target": "immediately",
        "next_leader": "rotate",
        "boneyard_reserve": "all",
        "scoring": "fives-and-threes",
        "go_out_bonus": 1,
        "partnership_end": "both-out",
        "target_exact": True,
    }
    for name in ("all-fives", "muggins", "all-threes"):
        preset = PRESETS[name]
        assert (preset["scoring"], preset["go_out_bonus"]) == ("count", 0)
        assert (preset["partnership_end"], preset["target_exact"]) == ("first-out", False)


def test_the_teesdale_hand_sizes_are_an_override_naming_the_counts_in_use():
    teesdale = {"base": "fives-and-threes", "hand_size": {"2": 9, "4": 6}}
    assert resolve_ruleset(teesdale, 2).hand_size == 9
    assert resolve_ruleset(teesdale, 4).hand_size == 6
    with pytest.raises(RulesetError):
        resolve_ruleset(teesdale, 3)  # the override replaces the preset's value


@pytest.mark.parametrize("option", ["hand_size", "target"])
@pytest.mark.parametrize("value", [0, -1, 1.5, 61.0, True, "61", None, {"2": 0}, {}, [61]])
def test_hand_size_and_target_are_whole_numbers_of_at_least_1(option, value):
    doc = log_of({"base": "fives-and-threes", option: value}, [["6-3"], ["3-3"]], [])
    assert first_error(doc) == ("ruleset", None, None)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "ruleset"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("scoring", "fives"),
        ("go_out_bonus", 2),
        ("go_out_bonus", True),
        ("partnership_end", "second-out"),
        ("target_exact", 1),
        ("boneyard_reserve", "none"),
        ("settlement", None),
        ("next_leader", "left"),
    ],
)
def test_a_new_option_out_of_range_is_ruleset(option, value):
    doc = log_of({"base": "muggins", option: value}, [["6-3"], ["3-3"]], [])
    assert first_error(doc) == ("ruleset", None, None)


# --- the worked example ----------------------------------------------------------------------

# move, end, ends after, count, points, scores
WORKED = [
    (0, "6-3", None, "W 6, E 3", 9, 3, [3, 0]),
    (1, "3-3", "E", "W 6, E 3", 12, 4, [3, 4]),
    (0, "6-4", "W", "W 4, E 3", 10, 2, [5, 4]),
    (1, "3-5", "E", "W 4, E 5", 9, 3, [5, 7]),
    (0, "5-5", "E", "W 4, E 5", 14, 0, [5, 7]),
    (1, "4-0", "W", "W 0, E 5", 10, 2, [5, 9]),
    (0, "0-5", "W", "W 5, E 5", 15, 8, [13, 9]),
]
WORKED_DEAL = [
    ["6-3", "6-4", "5-5", "0-5", "1-3", "2-4", "6-1"],
    ["3-3", "3-5", "4-0", "1-1", "1-2", "2-2", "6-6"],
]


def worked_example():
    return log_of(
        "fives-and-threes",
        WORKED_DEAL,
        plays(*[(seat, tile, end) for seat, tile, end, *_ in WORKED]),
    )


def test_the_worked_example_counts_and_scores_every_move():
    replay = replay_log(worked_example())
    assert replay.report.valid, replay.report.errors
    seen = [
        (
            state["seat"],
            state["action"]["play"],
            state["action"].get("end"),
            ", ".join(f"{e['end']} {e['pip']}" for e in state["open_ends"]),
            state["count"],
            state["points"],
            state["scores"],
        )
        for state in replay.states
        if state["move"] is not None
    ]
    assert seen == WORKED
    # The doubles lie across their line: 3-3 and then 5-5 at E count both halves.
    assert [state["layout"]["spinner"] for state in replay.states] == [None] * 8
    report = agrees_with_the_reference(worked_example())
    assert report["hands"] == [
        {"end": "unfinished", "points": [13, 9], "settlement": [0, 0], "scores": [13, 9]}
    ]
    assert (report["outcome"], report["winner"]) == ("unfinished", None)


def test_the_worked_example_ends_blocked_with_nothing_settled_and_the_next_seat_leads():
    doc = worked_example()
    # Nobody draws: seat 1 (1-1, 1-2, 2-2, 6-6) and seat 0 (1-3, 2-4, 6-1) knock on W 5, E 5.
    doc["hands"][0]["moves"] += plays((1, "pass"), (0, "pass"))
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    assert report["hands"] == [
        {"end": "block", "points": [13, 9], "settlement": [0, 0], "scores": [13, 9]}
    ]
    second = {"leader": 1, "deal": WORKED_DEAL, "moves": []}
    doc["hands"].append(second)
    assert agrees_with_the_reference(doc)["valid"]
    second["leader"] = 0  # the seat after the one that led, whoever won
    assert first_error(doc) == ("wrong-leader", 1, None)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "wrong-leader"


# --- the bust cases, in real games -----------------------------------------------------------


def case(name):
    return json.loads((CASES / name).read_text())


def test_a_play_that_would_pass_61_scores_nothing_at_58():
    doc = case("fives_and_threes_bust_at_58.json")
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    assert trace[-1][-1] == (12, 0)  # a count of 12 is 4 points: 62 would pass 61
    assert report.scores == [58, 54]
    assert report.outcome == "unfinished" and report.winner is None
    assert agrees_with_the_reference(doc)["scores"] == [58, 54]
    # Claiming the 4 points is compared with 0.
    doc["hands"][-1]["moves"][-1]["points"] = 4
    [warning] = validate_log(doc).warnings
    assert (warning.code, warning.params["points"], warning.params["claimed"]) == (
        "points-mismatch",
        0,
        4,
    )
    doc["hands"][-1]["moves"][-1]["points"] = 0
    assert validate_log(doc).warnings == []


def test_going_out_past_61_scores_nothing_and_ends_the_hand_by_domino():
    doc = case("fives_and_threes_bust_going_out_at_59.json")
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    # A count of 6 (2 points) plus 1 for going out: 62, so the move scores 0.
    assert trace[-1][-1] == (6, 0)
    last = report.hands[-1].as_dict()
    assert last["end"] == "domino"
    assert last["scores"] == [59, 31] and last["settlement"] == [0, 0]
    assert report.outcome == "unfinished"
    agrees_with_the_reference(doc)
    # The match goes on: the next hand is led by the next seat.
    leader = doc["hands"][-1]["leader"]
    doc["hands"].append({"leader": (leader + 1) % 2, "deal": WORKED_DEAL, "moves": []})
    assert validate_log(doc).valid


def test_going_out_to_61_exactly_wins_the_match_there():
    doc = case("fives_and_threes_out_to_61_exactly.json")
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    assert trace[-1][-1] == (9, 4)  # 3 for the count of 9, 1 for going out
    assert report.hands[-1].as_dict()["end"] == "target"
    assert report.scores == [61, 36]
    assert report.outcome == "complete" and report.winner == 0
    assert agrees_with_the_reference(doc)["winner"] == 0
    # A table record of it may leave the last hand's ``left`` out.
    table = to_table_record(doc)
    assert "left" not in table["hands"][-1]
    assert validate_log(table).as_dict()["scores"] == [61, 36]


@pytest.mark.parametrize(
    ("before", "last", "count", "out", "points", "after"),
    [
        (58, "2-6", 12, False, 0, 58),
        (59, "2-0", 6, True, 0, 59),
        (57, "2-3", 9, True, 4, 61),
    ],
)
def test_the_bust_rule_on_the_match_state(before, last, count, out, points, after):
    # The three cases of RULES.md on the state the validator walks, the score set by hand:
    # seat 0 leads 6-3 (9: 3 points, bringing it to ``before``), seat 1 plays 3-2 on E
    # (W 6, E 2: 8), then seat 0 plays ``last`` on E.
    tile = {text: TILE_BY_TEXT[text][0] for text in ("6-3", "3-2", "4-4", "5-5", last)}
    seat0 = {tile["6-3"], tile[last]} | (set() if out else {tile["4-4"]})
    match = MatchState.create(FIVES_AND_THREES, 2, None)
    match.scores[0] = before - 3
    hand = match.start_hand(0, [seat0, {tile["3-2"], tile["5-5"]}], set())
    assert match.play(tile["6-3"], None, 6, 3) == (9, 3)
    assert match.play(tile["3-2"], "E") == (8, 0)
    assert match.scores[0] == before
    assert match.play(tile[last], "E") == (count, points)
    assert match.scores[0] == after
    assert hand.end == ("target" if after == 61 else "domino" if out else None)
    assert match.winner == (0 if after == 61 else None)


# --- each option alone and combined ----------------------------------------------------------

TEAMS = [[0, 2], [1, 3]]
SMALL = {"base": "fives-and-threes", "hand_size": 2}
# Four seats of two tiles; partners 0+2 against 1+3.
BOTH_OUT_DEAL = [["1-2", "2-3"], ["1-4", "3-5"], ["3-4", "0-0"], ["5-6", "6-6"]]
BOTH_OUT = [
    (0, "1-2"),  # W 1, E 2: 3, 1 point
    (1, "1-4", "W"),  # W 4, E 2: 6, 2
    (2, "3-4", "W"),  # W 3, E 2: 5, 1
    (3, "pass"),  # 5-6, 6-6 fit neither
    (0, "2-3", "E"),  # W 3, E 3: 6, 2; seat 0 is out, seat 2 plays on
    (1, "3-5", "E"),  # W 3, E 5: 8, 0; seat 1 is out, seat 3 plays on
    (2, "pass"),  # 0-0 fits neither
    (3, "5-6", "E"),  # W 3, E 6: 9, 3; seats 0 and 1 are skipped
    (2, "pass"),
    (3, "6-6", "E"),  # W 3, E 6-6: 15, 8, and 1 for the second partner going out
]


def both_out_log(moves=BOTH_OUT, ruleset=SMALL, deal=BOTH_OUT_DEAL):
    return log_of(ruleset, copy.deepcopy(deal), plays(*moves), teams=TEAMS)


def test_partners_play_on_until_both_are_out_and_the_second_scores_the_bonus():
    doc = both_out_log()
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    assert [points for _, points in trace[0]] == [1, 2, 1, 0, 2, 0, 0, 3, 0, 9]
    assert report.as_dict()["hands"] == [
        {"end": "domino", "points": [4, 14], "settlement": [0, 0], "scores": [4, 14]}
    ]
    agrees_with_the_reference(doc)
    # The seat whose play ended the hand went out: it names the next leader under
    # "domino-winner" (seat 3), and the rotation names seat 1 under the preset.
    doc["hands"].append({"leader": 1, "deal": BOTH_OUT_DEAL, "moves": []})
    assert agrees_with_the_reference(doc)["valid"]
    doc["ruleset"] = {**SMALL, "next_leader": "domino-winner"}
    assert first_error(doc) == ("wrong-leader", 1, None)
    doc["hands"][1]["leader"] = 3
    assert agrees_with_the_reference(doc)["valid"]


@pytest.mark.parametrize(("at", "seat"), [(5, 0), (6, 0), (8, 0), (8, 1)])
def test_a_move_by_a_seat_that_is_out_is_wrong_turn(at, seat):
    moves = list(BOTH_OUT)
    moves[at] = (seat, "pass")
    doc = both_out_log(moves)
    assert first_error(doc) == ("wrong-turn", 0, at)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "wrong-turn"


def test_a_hand_is_blocked_when_every_seat_still_holding_tiles_has_passed():
    # Seat 3 holds 0-1 instead of 6-6: after seat 2's pass it knocks too, and with seats 0
    # and 1 out, the two passes block the hand (one partner of each team out: no bonus).
    deal = copy.deepcopy(BOTH_OUT_DEAL)
    deal[3] = ["5-6", "0-1"]
    moves = [*BOTH_OUT[:9], (3, "pass")]
    doc = both_out_log(moves, deal=deal)
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    assert report["hands"] == [
        {"end": "block", "points": [4, 5], "settlement": [0, 0], "scores": [4, 5]}
    ]
    # A move after it is after-hand-end, whoever makes it.
    doc["hands"][0]["moves"].append({"seat": 0, "pass": True})
    assert first_error(doc) == ("after-hand-end", 0, 10)


def test_first_out_ends_the_hand_when_any_seat_goes_out_with_its_bonus():
    doc = both_out_log(BOTH_OUT[:5], {**SMALL, "partnership_end": "first-out"})
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    assert trace[0][-1] == (6, 3)  # 2 for the count, 1 for going out
    assert report.as_dict()["hands"][0]["end"] == "domino"
    agrees_with_the_reference(doc)
    doc["hands"][0]["moves"].append({"seat": 1, "play": "3-5", "end": "E"})
    assert first_error(doc) == ("after-hand-end", 0, 5)


def test_both_out_without_partnerships_is_first_out():
    doc = both_out_log(BOTH_OUT[:5])
    doc["teams"] = None
    report, trace = validate_traced(doc)
    assert report.valid and trace[0][-1] == (6, 3)
    assert report.as_dict()["hands"][0]["scores"] == [4, 2, 1, 0]
    agrees_with_the_reference(doc)


def test_without_drawing_a_draw_is_draw_when_playable_or_boneyard_empty():
    doc = worked_example()
    moves = doc["hands"][0]["moves"]
    # Seat 1 holds 3-3, which fits E 3: draw-when-playable first.
    moves[1:] = [{"seat": 1, "draw": "0-0"}]
    assert first_error(doc) == ("draw-when-playable", 0, 1)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "draw-when-playable"
    # After 0-5, nothing of seat 1 fits W 5, E 5: boneyard-empty, 14 tiles and none drawn.
    doc = worked_example()
    doc["hands"][0]["moves"].append({"seat": 1, "draw": "0-0"})
    assert first_error(doc) == ("boneyard-empty", 0, 7)
    [error] = validate_log(doc).errors
    assert error.params["boneyard"] == 14 and error.params["reserve"] == 14
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "boneyard-empty"
    # Even of a tile dealt to nobody that would fit.
    doc["hands"][0]["moves"][-1]["draw"] = "5-6"
    assert first_error(doc) == ("boneyard-empty", 0, 7)


def test_without_drawing_a_knock_while_a_tile_fits_is_pass_when_playable():
    doc = worked_example()
    doc["hands"][0]["moves"][1:] = [{"seat": 1, "pass": True}]
    assert first_error(doc) == ("pass-when-playable", 0, 1)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "pass-when-playable"


def test_without_drawing_a_knock_is_never_pass_must_draw():
    doc = worked_example()
    doc["hands"][0]["moves"].append({"seat": 1, "pass": True})
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    # The same knock with drawing allowed must draw first.
    doc["ruleset"] = {"base": "fives-and-threes", "boneyard_reserve": 0}
    assert first_error(doc) == ("pass-must-draw", 0, 7)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "pass-must-draw"


def test_fives_and_threes_scoring_with_drawing_and_a_spinner():
    ruleset = {
        "base": "fives-and-threes",
        "boneyard_reserve": 0,
        "spinner": True,
    }
    deal = [
        ["5-5", "3-5", "5-4", "2-5", "6-6", "6-1", "1-1"],
        ["5-0", "0-2", "2-2", "3-3", "6-4", "4-1", "1-0"],
    ]
    # The seed 001 example's plays, scored by fives and threes: counts 10, 10, 3, 5, 9, 11,
    # 12, 15 (the spinner's N and S count once played on).
    moves = plays(
        (0, "5-5"),
        (1, "5-0", "E"),
        (0, "3-5", "W"),
        (1, "0-2", "E"),
        (0, "5-4", "N"),
        (1, "2-2", "E"),
        (0, "2-5", "E"),
        (1, "3-3", "W"),
    )
    doc = log_of(ruleset, deal, moves)
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    assert trace[0] == [(10, 2), (10, 2), (3, 1), (5, 1), (9, 3), (11, 0), (12, 4), (15, 8)]
    agrees_with_the_reference(doc)
    # A draw there is legal when nothing fits, and a knock must draw first.
    doc["hands"][0]["moves"][3:] = [{"seat": 1, "draw": "6-2"}]
    assert first_error(doc) == ("draw-when-playable", 0, 3)


def test_a_go_out_bonus_with_the_count_rule():
    ruleset = {"base": "muggins", "go_out_bonus": 1, "hand_size": 2, "boneyard_reserve": "all"}
    doc = log_of(ruleset, [["5-5", "5-0"], ["6-6", "1-2"]], plays((0, "5-5"), (1, "pass")))
    doc["hands"][0]["moves"].append({"seat": 0, "play": "5-0", "end": "E"})
    report, trace = validate_traced(doc)
    assert report.valid, report.errors
    # The spinner 5-5 with one side covered counts 10: 10 points, and 1 for going out.
    assert trace[0] == [(10, 10), (None, 0), (10, 11)]
    # Settled as muggins: seat 1's 15 pips, 15 / 5 = 3.
    assert report.as_dict()["hands"][0] == {
        "end": "domino",
        "points": [21, 0],
        "settlement": [3, 0],
        "scores": [24, 0],
    }
    agrees_with_the_reference(doc)


def test_rotate_leads_with_the_next_seat_whoever_won():
    ruleset = {"base": "muggins", "next_leader": "rotate", "hand_size": 1, "target": 500}
    deal = [["5-5"], ["6-6"], ["1-1"]]
    hand = plays((2, "1-1"))  # seat 2 leads and goes out
    doc = log_of(ruleset, [deal, deal, deal], [hand, plays((0, "5-5")), []], leader=[2, 0, 1])
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    doc["hands"][2]["leader"] = 0  # seat 0 went out; the rotation still names seat 1
    assert first_error(doc) == ("wrong-leader", 2, None)
    assert agrees_with_the_reference(doc)["errors"][0]["code"] == "wrong-leader"


def test_no_settlement_gives_zeros_and_the_hand_winner_is_still_named():
    ruleset = {"base": "fives-and-threes", "next_leader": "hand-winner"}
    doc = worked_example()
    doc["ruleset"] = ruleset
    doc["hands"][0]["moves"] += plays((1, "pass"), (0, "pass"))
    # Blocked: seat 0 holds 1-3, 2-4, 6-1 (17 pips), seat 1 1-1, 1-2, 2-2, 6-6 (21).
    doc["hands"].append({"leader": 0, "deal": WORKED_DEAL, "moves": []})
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    assert report["hands"][0]["settlement"] == [0, 0]
    doc["hands"][1]["leader"] = 1
    assert first_error(doc) == ("wrong-leader", 1, None)
    # The same under winner-takes names the same winner, and settles.
    doc["ruleset"] = {**ruleset, "settlement": "winner-takes", "settlement_divisor": 5}
    doc["hands"][1]["leader"] = 0
    report = agrees_with_the_reference(doc)
    assert report["hands"][0]["settlement"] == [1, 0]  # 21 - 17 = 4 -> 5 -> 1


SETTLED = [["1-2", "2-3"], ["6-6", "5-6"]]
SETTLED_MOVES = [(0, "1-2"), (1, "pass"), (0, "2-3", "E")]


@pytest.mark.parametrize(
    ("target", "settlement", "outcome"),
    [(20, 0, "unfinished"), (24, 0, "unfinished"), (25, 25, "complete"), (26, 25, "unfinished")],
)
def test_target_exact_does_not_score_a_settlement_gain_past_the_target(target, settlement, outcome):
    # Muggins without drawing or dividing: seat 0 goes out, seat 1 holds 23 pips -> 25.
    ruleset = {
        "base": "muggins",
        "target_exact": True,
        "target": target,
        "hand_size": 2,
        "boneyard_reserve": "all",
        "settlement_divisor": 1,
    }
    doc = log_of(ruleset, SETTLED, plays(*SETTLED_MOVES))
    report = agrees_with_the_reference(doc)
    assert report["valid"], report["errors"]
    assert report["hands"] == [
        {
            "end": "domino",
            "points": [0, 0],
            "settlement": [settlement, 0],
            "scores": [settlement, 0],
        }
    ]
    assert report["outcome"] == outcome
    # Without target_exact the 25 are scored and win at 20 as at 25.
    doc["ruleset"] = {**ruleset, "target_exact": False}
    assert validate_log(doc).scores == [25, 0]


def test_target_exact_in_all_fives_checks_the_target_at_the_play():
    deal = [["5-5", "0-1"], ["6-6", "2-3"]]
    ruleset = {"base": "all-fives", "target_exact": True, "target": 10, "hand_size": 2}
    doc = log_of(ruleset, deal, plays((0, "5-5")))
    report = agrees_with_the_reference(doc)
    assert report["hands"][0]["end"] == "target"  # whatever end_at_target says
    assert (report["outcome"], report["scores"]) == ("complete", [10, 0])
    doc["ruleset"] = {**ruleset, "target": 5}
    report, trace = validate_traced(doc)
    assert trace[0] == [(10, 0)]  # 10 would pass 5: a bust
    assert report.outcome == "unfinished"
    agrees_with_the_reference(doc)


def test_a_target_never_reached_exactly_leaves_the_match_unfinished():
    ruleset = {"base": "all-fives", "target_exact": True, "target": 61}
    doc = simulate_match(ruleset, 2, seed=3, max_hands=25)
    report = agrees_with_the_reference(doc)
    assert report["valid"] and report["outcome"] == "unfinished"
    assert len(doc["hands"]) == 25
    assert all(score < 61 for hand in report["hands"] for score in hand["scores"])


# --- simulation and table records ------------------------------------------------------------

TABLES = [(2, False, None), (3, False, None), (4, False, None), (4, True, None), (2, False, 9)]
TABLES += [(4, True, 6)]


@pytest.mark.parametrize(("players", "teams", "hand_size"), TABLES)
def test_simulated_matches_knock_skip_seats_out_and_reach_61_exactly(players, teams, hand_size):
    ruleset = "fives-and-threes"
    if hand_size is not None:
        ruleset = {"base": ruleset, "hand_size": {"2": 9, "4": 6}}
    for seed in range(5):
        doc = simulate_match(ruleset, players, teams=teams, seed=seed)
        moves = [move for hand in doc["hands"] for move in hand["moves"]]
        assert not any("draw" in move for move in moves)
        report = agrees_with_the_reference(doc)
        assert report["valid"] and report["warnings"] == []
        assert report["outcome"] == "complete" and max(report["scores"]) == 61
        leaders = [hand["leader"] for hand in doc["hands"]]
        assert all(b == (a + 1) % players for a, b in itertools.pairwise(leaders))


@pytest.mark.parametrize(("players", "teams", "hand_size"), TABLES)
def test_a_table_record_of_the_preset_is_fully_known_and_gives_the_same_result(
    players, teams, hand_size
):
    ruleset = "fives-and-threes"
    if hand_size is not None:
        ruleset = {"base": ruleset, "hand_size": {"2": 9, "4": 6}}
    for seed in range(3):
        doc = simulate_match(ruleset, players, teams=teams, seed=seed)
        table = to_table_record(doc)
        report = validate_log(table).as_dict()
        assert report.pop("record") == "table"
        assert report == validate_log(doc).as_dict()
        # Nobody draws: once ``left`` is given, every seat is known to hold, before each of
        # its moves, every tile it holds.
        full = [state for state in replay_log(doc).states if state["move"] is not None]
        log = parse_log(table)
        at = 0
        for number, hand in enumerate(log.hands):
            known = known_holdings(hand.moves, hand.left, players)
            for index, move in enumerate(hand.moves):
                state = full[at - 1] if index else None
                at += 1
                if state is None:
                    dealt = doc["hands"][number]["deal"][move.seat]
                    held = {TILE_BY_TEXT[text][0] for text in dealt}
                else:
                    held = {TILE_BY_TEXT[text][0] for text in state["hands"][move.seat]}
                if hand.left is not None:
                    assert known[index] == held


def test_the_match_keeps_the_points_of_its_last_play_for_a_walk_stopped_at_left():
    # A table record whose last hand ends by a domino without ``left``: the walk stops after
    # the play, and the match says what it scored (2 for the count, 1 for going out).
    doc = to_table_record(both_out_log(BOTH_OUT[:5], {**SMALL, "partnership_end": "first-out"}))
    del doc["hands"][0]["left"]
    seen = []
    validate.walk_match(log=parse_log(doc), on_step=lambda step: seen.append(step.match))
    assert first_error(doc) == ("schema", 0, None)
    assert seen[-1].last_play.points == 3
    assert (seen[-1].last_play.bonus, seen[-1].last_play.out, seen[-1].last_play.bust) == (
        1,
        True,
        0,
    )
