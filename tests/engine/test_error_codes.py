"""Every error code of FORMAT.md, triggered by a log built for it, at the right hand and move."""

from __future__ import annotations

import copy
import json

import pytest

from fives_engine import COMPILED_FROM, describe, validate, validate_json, validate_log
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from tests.engine.helpers import first_error, format_example, moves_of, variant


@pytest.fixture(autouse=True)
def every_issue_is_worded_again_by_describe(monkeypatch):
    """Over this corpus, each issue's params (plain JSON data) rebuild its message."""
    reports = []
    walk, schema = validate.walk_match, validate.schema_report

    def walk_spy(*args, **kwargs):
        checked = walk(*args, **kwargs)
        reports.append(checked.report)
        return checked

    def schema_spy(exc):
        report = schema(exc)
        reports.append(report)
        return report

    monkeypatch.setattr(validate, "walk_match", walk_spy)
    monkeypatch.setattr(validate, "schema_report", schema_spy)
    yield
    if COMPILED_FROM is not None:
        return  # compiled, validate calls its own functions, not the spies (pytest -m spies)
    assert reports
    for report in reports:
        for issue in report.errors + report.warnings:
            params = json.loads(json.dumps(issue.params))
            assert describe(issue.code, params, issue.hand, issue.move) == issue.message


def edited(edit):
    doc = format_example()
    edit(doc)
    return doc


# --- schema -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (b"{", "$"),
        (b"", "$"),
        (b"\xff\xfe", "$"),
        (b"[1, 2]", "$"),
        (b'{"format": "fives/2"}', "$.format"),
        (b'{"ruleset": "muggins"}', "$.format"),
        (b"NaN", "$"),
    ],
)
def test_a_document_that_is_not_a_log_is_a_schema_error_naming_the_path(data, path):
    report = validate_json(data).as_dict()
    assert report["valid"] is False
    [error] = report["errors"]
    assert error["code"] == "schema"
    assert path in error["message"]
    assert error["hand"] is None and error["move"] is None


def test_a_mistyped_field_inside_a_move_names_the_path_and_the_hand_and_move():
    doc = edited(lambda d: moves_of(d)[3].update(seat="1"))
    report = validate_log(doc).as_dict()
    [error] = report["errors"]
    assert (error["code"], error["hand"], error["move"]) == ("schema", 0, 3)
    assert "$.hands[0].moves[3].seat" in error["message"]


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.pop("players"),
        lambda d: d.update(players="Nino"),
        lambda d: d.update(hands=[]),
        lambda d: d.update(teams=[0, 1]),
        lambda d: d.update(final_scores=["10", 10]),
        lambda d: d["hands"][0].pop("leader"),
        lambda d: d["hands"][0].update(leader=-1),
        lambda d: d["hands"][0].update(leader=True),
        lambda d: d["hands"][0]["deal"][0].__setitem__(0, 55),
        lambda d: moves_of(d).append({"seat": 0}),
        lambda d: moves_of(d).append({"seat": 0, "play": "1-1", "draw": "1-1"}),
        lambda d: moves_of(d).append({"seat": 0, "pass": False}),
        lambda d: moves_of(d).append({"seat": 0, "play": "1-1", "end": "X"}),
        lambda d: moves_of(d).append({"seat": 1, "draw": "1-1", "end": "X"}),
        lambda d: moves_of(d).append({"seat": 0, "play": "1-1", "points": "5"}),
    ],
)
def test_missing_and_mistyped_fields_are_schema_errors(edit):
    assert first_error(edited(edit))[0] == "schema"


def test_the_whole_document_is_checked_for_shape_before_any_rule():
    # An illegal move in hand 1 and a mistyped field in hand 2: the schema error wins.
    doc = edited(lambda d: moves_of(d).__setitem__(1, {"seat": 0, "play": "6-6"}))
    doc["hands"].append({"leader": 0, "deal": [], "moves": "none"})
    assert first_error(doc) == ("schema", 1, None)


# --- the match as a whole -----------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [
        "dominoes",
        {"base": "dominoes"},
        {"multiple": 5},
        {"base": "muggins", "colour": "red"},
        {"base": "muggins", "multiple": 4},
        {"base": "muggins", "multiple": True},
        {"base": "muggins", "spinner": 1},
        {"base": "muggins", "settlement_divisor": 2},
        {"base": "muggins", "boneyard_reserve": 3},
        {"base": "muggins", "target": 0},
        {"base": "muggins", "target": {"3": 100}},
        {"base": "muggins", "hand_size": {"two": 7}},
        {"base": "muggins", "hand_size": 15},
        {"base": "muggins", "end_at_target": "later"},
        {"base": "muggins", "next_leader": "loser"},
        {"base": "muggins", "settlement": "nobody"},
        {"base": "muggins", "block_bonus": "all"},
    ],
)
def test_a_bad_ruleset_is_a_ruleset_error(ruleset):
    report = validate_log(variant(format_example(), ruleset=ruleset)).as_dict()
    assert [e["code"] for e in report["errors"]] == ["ruleset"]
    assert report["ruleset"] is None
    assert report["errors"][0]["hand"] is None


def test_hands_that_do_not_fit_in_28_tiles_are_a_ruleset_error():
    doc = variant(
        format_example(), players=["A", "B", "C", "D"], ruleset={"base": "muggins", "hand_size": 8}
    )
    assert first_error(doc) == ("ruleset", None, None)


@pytest.mark.parametrize(
    "players",
    [["Nino"], ["A", "B", "C", "D", "E"], ["Nino", ""], ["Nino", "  "], ["Nino", "Nino"], []],
)
def test_bad_players_are_a_players_error(players):
    assert first_error(variant(format_example(), players=players)) == ("players", None, None)


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (["A", "B"], [[0], [1]]),
        (["A", "B", "C"], [[0, 2], [1]]),
        (["A", "B", "C", "D"], [[0, 2], [1, 2]]),
        (["A", "B", "C", "D"], [[0, 1, 2, 3]]),
        (["A", "B", "C", "D"], [[0, 2], [1, 4]]),
        (["A", "B", "C", "D"], [[0], [1], [2], [3]]),
        (["A", "B", "C", "D"], []),
    ],
)
def test_teams_that_do_not_pair_four_seats_are_a_teams_error(players, teams):
    assert first_error(variant(format_example(), players=players, teams=teams))[0] == "teams"


# --- deals and leaders --------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["hands"][0]["deal"][0].pop(),
        lambda d: d["hands"][0]["deal"][1].append("6-5"),
        lambda d: d["hands"][0]["deal"][0].__setitem__(6, "7-1"),
        lambda d: d["hands"][0]["deal"][0].__setitem__(6, "5-0"),
        lambda d: d["hands"][0]["deal"][0].__setitem__(6, "5-5"),
        lambda d: d["hands"][0]["deal"].append(["6-5"]),
    ],
)
def test_a_bad_deal_is_a_deal_error_about_the_hand(edit):
    assert first_error(edited(edit)) == ("deal", 0, None)


def test_a_leader_who_is_no_seat_is_a_wrong_leader():
    assert first_error(edited(lambda d: d["hands"][0].update(leader=2))) == (
        "wrong-leader",
        0,
        None,
    )


def _two_hands(ruleset="muggins", seed=1):
    """Return a simulated log whose hand 0 ended in a domino, with hand 1 following."""
    for attempt in range(100):
        doc = simulate_match(ruleset, 2, seed=seed + attempt)
        report = validate_log(doc).as_dict()
        if len(doc["hands"]) > 1 and report["hands"][0]["end"] == "domino":
            return doc
    raise AssertionError("no simulated match starts with a domino")


@pytest.mark.parametrize("ruleset", ["muggins", "all-fives"])
def test_after_a_domino_the_player_who_went_out_must_lead(ruleset):
    doc = _two_hands(ruleset)
    out_seat = doc["hands"][0]["moves"][-1]["seat"]
    assert doc["hands"][1]["leader"] == out_seat
    doc["hands"][1]["leader"] = 1 - out_seat
    assert first_error(doc) == ("wrong-leader", 1, None)


def test_with_next_leader_any_anyone_may_lead():
    doc = _two_hands()
    out_seat = doc["hands"][0]["moves"][-1]["seat"]
    doc["ruleset"] = {"base": "muggins", "next_leader": "any"}
    doc["hands"][1]["leader"] = 1 - out_seat
    # The moves of hand 1 were made by the other leader, so it now fails on turn, not leader.
    assert first_error(doc) == ("wrong-turn", 1, 0)


# --- moves --------------------------------------------------------------------------------


def test_a_move_by_the_wrong_seat_is_wrong_turn():
    assert first_error(edited(lambda d: moves_of(d)[2].update(seat=1))) == ("wrong-turn", 0, 2)


def test_a_move_by_a_seat_that_does_not_exist_is_wrong_turn():
    assert first_error(edited(lambda d: moves_of(d)[2].update(seat=5))) == ("wrong-turn", 0, 2)


def test_the_leader_must_make_the_first_move():
    assert first_error(edited(lambda d: moves_of(d)[0].update(seat=1))) == ("wrong-turn", 0, 0)


@pytest.mark.parametrize("tile", ["6-2", "5-0", "9-9", "nonsense"])
def test_a_play_of_a_tile_not_held_is_not_in_hand(tile):
    # Seat 0 holds 6-4, 3-1, 0-0, 2-2, 6-6, 5-3 after leading 5-5; 5-0 is on the table.
    doc = edited(lambda d: moves_of(d)[2].update(play=tile))
    assert first_error(doc) == ("not-in-hand", 0, 2)


def test_a_play_that_fits_no_end_is_no_match_and_names_the_open_ends():
    doc = edited(lambda d: moves_of(d)[2].update(play="6-4"))
    report = validate_log(doc).as_dict()
    [error] = report["errors"]
    assert (error["code"], error["hand"], error["move"], error["seat"]) == ("no-match", 0, 2, 0)
    assert error["message"] == "hand 1, move 3: 6-4 matches no open end (open: W 5, E 0)"


def test_a_play_on_an_end_the_tile_does_not_fit_is_bad_end():
    doc = edited(lambda d: moves_of(d)[2].update(end="E"))
    assert first_error(doc) == ("bad-end", 0, 2)


def test_a_play_on_the_spinners_cross_before_both_sides_are_covered_is_bad_end():
    doc = edited(lambda d: moves_of(d)[2].update(end="N"))
    assert first_error(doc) == ("bad-end", 0, 2)


def test_the_cross_is_open_at_once_when_spinner_sides_first_is_off():
    doc = edited(lambda d: moves_of(d)[2].update(end="N"))
    doc["ruleset"] = {"base": "muggins", "target": 100, "spinner_sides_first": False}
    # 3-5 on N: W 5 (the spinner, one side covered) counts 10, E 0, N 3: 13. Seat 1's 3-4
    # then fits N 3, not W 5.
    assert first_error(doc) == ("bad-end", 0, 5)
    moves_of(doc)[5].update(end="N")
    replay = replay_log(doc)
    assert replay.report.valid
    assert [state["count"] for state in replay.states[1:]] == [10, 10, 13, 13, 13, 14]


def test_without_a_spinner_there_is_no_cross():
    doc = format_example()
    doc["ruleset"] = {"base": "muggins", "target": 100, "spinner": False}
    # W 3, E 0 only: seat 1's 1-4 and 3-4 draws are as before; 3-4 fits W.
    assert first_error(doc) is None
    moves_of(doc)[5].update(end="N")
    assert first_error(doc) == ("bad-end", 0, 5)


def test_a_play_without_end_that_fits_two_ends_is_ambiguous():
    doc = edited(lambda d: moves_of(d)[1].pop("end"))
    assert first_error(doc) == ("ambiguous-end", 0, 1)


def test_a_play_without_end_that_fits_one_end_is_fine():
    doc = edited(lambda d: moves_of(d)[2].pop("end"))
    assert first_error(doc) is None


def test_an_end_on_the_lead_is_ignored():
    doc = edited(lambda d: moves_of(d)[0].update(end="S"))
    assert first_error(doc) is None


def test_a_draw_while_holding_a_playable_tile_is_draw_when_playable():
    doc = edited(lambda d: moves_of(d).__setitem__(2, {"seat": 0, "draw": "1-4"}))
    assert first_error(doc) == ("draw-when-playable", 0, 2)


@pytest.mark.parametrize("tile", ["5-5", "6-4", "0-5", "8-8"])
def test_a_draw_of_a_tile_not_in_the_boneyard_is_not_in_boneyard(tile):
    doc = edited(lambda d: moves_of(d)[3].update(draw=tile))
    assert first_error(doc) == ("not-in-boneyard", 0, 3)


def test_a_drawn_tile_cannot_be_drawn_again():
    doc = edited(lambda d: moves_of(d)[4].update(draw="1-4"))
    assert first_error(doc) == ("not-in-boneyard", 0, 4)


def test_a_drawn_tile_that_fits_must_be_played():
    doc = edited(lambda d: moves_of(d).insert(5, {"seat": 1, "draw": "6-1"}))
    assert first_error(doc) == ("draw-when-playable", 0, 5)


def test_a_pass_while_the_boneyard_has_tiles_is_pass_must_draw():
    doc = edited(lambda d: moves_of(d).__setitem__(3, {"seat": 1, "pass": True}))
    assert first_error(doc) == ("pass-must-draw", 0, 3)


def test_a_pass_while_holding_a_playable_tile_is_pass_when_playable():
    doc = edited(lambda d: moves_of(d).__setitem__(2, {"seat": 0, "pass": True}))
    assert first_error(doc) == ("pass-when-playable", 0, 2)


def full_deal_log(moves):
    """Four players with seven tiles each: all 28 are dealt, the boneyard is empty."""
    return {
        "format": "fives/1",
        "ruleset": {"base": "muggins", "hand_size": 7},
        "players": ["A", "B", "C", "D"],
        "hands": [
            {
                "leader": 0,
                "deal": [
                    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
                    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
                    ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
                    ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"],
                ],
                "moves": moves,
            }
        ],
    }


def test_with_an_empty_boneyard_a_seat_that_cannot_play_passes():
    moves = [
        {"seat": 0, "play": "6-6", "points": 0},
        {"seat": 1, "pass": True},
        {"seat": 2, "pass": True},
        {"seat": 3, "pass": True},
        {"seat": 0, "play": "6-5", "end": "E"},
    ]
    assert first_error(full_deal_log(moves)) is None


def test_a_draw_from_an_empty_boneyard_is_boneyard_empty():
    moves = [{"seat": 0, "play": "6-6"}, {"seat": 1, "draw": "6-5"}]
    assert first_error(full_deal_log(moves)) == ("boneyard-empty", 0, 1)


def test_the_boneyard_reserve_may_not_be_drawn():
    doc = format_example()
    doc["ruleset"] = {"base": "muggins", "target": 100, "boneyard_reserve": 2}
    # 14 tiles in the boneyard: drawing stops at 2 left. Here the first draws are fine.
    assert first_error(doc) is None


def blocked_log(extra_moves=()):
    """Two players, all 28 tiles dealt, no spinner: every 0 is laid and both ends show 0."""
    plays = [
        (0, "0-0", None),
        (1, "0-3", "E"),
        (0, "3-4", "E"),
        (1, "4-0", "E"),
        (0, "0-5", "E"),
        (1, "5-6", "E"),
        (0, "6-0", "E"),
        (1, "0-2", "W"),
        (0, "2-1", "W"),
        (1, "1-0", "W"),
    ]
    moves = [
        {"seat": seat, "play": tile, **({"end": end} if end else {})} for seat, tile, end in plays
    ]
    moves += [{"seat": 0, "pass": True}, {"seat": 1, "pass": True}, *extra_moves]
    return {
        "format": "fives/1",
        "ruleset": {"base": "muggins", "hand_size": 14, "spinner": False},
        "players": ["A", "B"],
        "hands": [
            {
                "leader": 0,
                "deal": [
                    [
                        "0-0",
                        "3-4",
                        "0-5",
                        "6-0",
                        "2-1",
                        "1-1",
                        "1-3",
                        "1-4",
                        "1-5",
                        "1-6",
                        "2-2",
                        "2-3",
                        "2-4",
                        "2-5",
                    ],
                    [
                        "0-3",
                        "4-0",
                        "5-6",
                        "0-2",
                        "1-0",
                        "2-6",
                        "3-3",
                        "3-5",
                        "3-6",
                        "4-4",
                        "4-5",
                        "4-6",
                        "5-5",
                        "6-6",
                    ],
                ],
                "moves": moves,
            }
        ],
    }


def test_every_seat_passing_in_a_row_blocks_the_hand_and_the_fewest_pips_win():
    report = validate_log(blocked_log()).as_dict()
    assert report["valid"], report["errors"]
    # Counts 0, 3, 4, 0, 5, 6, 0, 2, 1, 0: only 0-5 scores. Seat 0 holds 46 pips, seat 1
    # holds 80: 80 - 46 = 34 -> 35 -> 35 / 5 = 7 for seat 0.
    assert report["hands"] == [
        {"end": "block", "points": [5, 0], "settlement": [7, 0], "scores": [12, 0]}
    ]


def test_a_move_after_a_blocked_hand_is_after_hand_end():
    doc = blocked_log([{"seat": 0, "pass": True}])
    assert first_error(doc) == ("after-hand-end", 0, 12)


def test_a_move_after_a_domino_is_after_hand_end():
    doc = _two_hands()
    doc["hands"] = doc["hands"][:1]
    last = doc["hands"][0]["moves"][-1]
    doc["hands"][0]["moves"].append({"seat": 1 - last["seat"], "pass": True})
    assert first_error(doc) == ("after-hand-end", 0, len(doc["hands"][0]["moves"]) - 1)


def test_a_hand_that_stops_early_followed_by_another_is_unfinished_hand():
    doc = _two_hands()
    doc["hands"][0]["moves"].pop()
    assert first_error(doc) == ("unfinished-hand", 0, None)


def test_a_hand_after_the_match_was_won_is_after_match_end():
    doc = simulate_match("muggins", 2, seed=5)
    assert validate_log(doc).outcome == "complete"
    doc["hands"].append(copy.deepcopy(doc["hands"][-1]))
    code, hand, move = first_error(doc)
    assert (code, hand, move) == ("after-match-end", len(doc["hands"]) - 1, None)
    report = validate_log(doc).as_dict()
    assert report["outcome"] == "complete"
    assert report["winner"] is not None


def test_a_move_after_the_target_is_reached_immediately_is_after_match_end():
    doc = simulate_match(
        {"base": "muggins", "target": 50, "end_at_target": "immediately"}, 2, seed=3
    )
    report = validate_log(doc).as_dict()
    assert report["valid"] and report["outcome"] == "complete"
    assert report["hands"][-1]["end"] == "target"
    assert report["hands"][-1]["settlement"] == [0, 0]
    assert max(report["scores"]) >= 50
    last = doc["hands"][-1]["moves"][-1]
    doc["hands"][-1]["moves"].append({"seat": (last["seat"] + 1) % 2, "pass": True})
    assert first_error(doc) == (
        "after-match-end",
        len(doc["hands"]) - 1,
        len(doc["hands"][-1]["moves"]) - 1,
    )


# --- warnings -----------------------------------------------------------------------------


def test_claimed_points_that_differ_are_a_warning_not_an_error():
    doc = edited(lambda d: moves_of(d)[1].update(points=5))
    report = validate_log(doc).as_dict()
    assert report["valid"] is True
    assert report["warnings"] == [
        {
            "code": "points-mismatch",
            "hand": 0,
            "move": 1,
            "seat": 1,
            "message": "hand 1, move 2: claimed 5 points, the count is 10",
        }
    ]


def test_final_scores_that_differ_are_a_warning():
    doc = variant(format_example(), final_scores=[10, 15])
    report = validate_log(doc).as_dict()
    assert report["valid"] is True
    assert [w["code"] for w in report["warnings"]] == ["score-mismatch"]
    assert report["scores"] == [10, 10]


def test_validation_stops_at_the_first_error_with_the_completed_hands_only():
    doc = _two_hands()
    complete = validate_log(doc).as_dict()
    doc["hands"][1]["moves"][0]["seat"] = 1 - doc["hands"][1]["moves"][0]["seat"]
    report = validate_log(doc).as_dict()
    assert [e["code"] for e in report["errors"]] == ["wrong-turn"]
    assert report["hands"] == complete["hands"][:1]
    assert report["scores"] == complete["hands"][0]["scores"]


def test_a_field_set_to_null_is_a_field_left_out():
    doc = edited(lambda d: moves_of(d)[5].update({"pass": None, "draw": None}))
    assert first_error(doc) is None


def test_a_date_that_is_not_iso_8601_is_kept_as_text_not_refused():
    assert first_error(variant(format_example(), played_at="last Tuesday")) is None
