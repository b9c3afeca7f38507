"""The recorder's call into the engine (``recorder.table.analyse``) for Fives and Threes:
what a play scored as the engine scored it (the go-out bonus in, nothing for a bust), the
bust said apart, no drawing, and the pegs of the cribbage board."""

from __future__ import annotations

import copy
import json
import pathlib

from games.engine import to_table_record, validate_log
from games.engine.simulate import simulate_match
from recorder.table import analyse

CASES = pathlib.Path(__file__).resolve().parents[1] / "engine" / "cases"
# A four-player partnership match (seed 6): a bust at 60 (hand 3, move 12), a hand ended by
# going out that scores only its bonus (hand 2, move 26: a count of 17), a seat out skipped.
SEED = 6


def partnership():
    return to_table_record(simulate_match("fives-and-threes", 4, teams=True, seed=SEED))


def cut(doc, hand, moves, left=False):
    """The record as it stands after ``moves`` moves of hand ``hand`` (its ``left`` only
    with ``left``)."""
    doc = copy.deepcopy(doc)
    doc.pop("final_scores", None)
    doc["hands"] = doc["hands"][: hand + 1]
    last = doc["hands"][hand]
    last["moves"] = last["moves"][:moves]
    if not left:
        last.pop("left", None)
    return doc


def test_going_out_past_61_is_a_bust_scored_nothing_while_the_tiles_shown_are_asked():
    # RULES.md's case: at 59, a count of 6 (2 points) and 1 for going out would make 62.
    doc = to_table_record(
        json.loads((CASES / "fives_and_threes_bust_going_out_at_59.json").read_text())
    )
    hands = len(doc["hands"])
    waiting = cut(doc, hands - 1, len(doc["hands"][-1]["moves"]))
    answer = analyse(waiting)
    assert answer["phase"] == "left" and answer["report"]["errors"] == []
    state = answer["state"]
    assert state["hand_end"] == "domino" and state["count"] == 6
    # Not the count's 2 points (what the recorder said before it asked the engine).
    assert state["points"] == 0
    assert answer["bust"] == {"would": 62, "target": 61} and answer["bonus"] == 0
    assert answer["pegs"] == {"target": 61, "scores": [59, 31], "back": [58, 29]}
    assert validate_log(doc).scores == [59, 31]


def test_a_bust_mid_hand_scores_nothing_and_says_so():
    doc = partnership()
    answer = analyse(cut(doc, 2, 12))
    assert answer["phase"] == "play"
    state = answer["state"]
    assert state["action"]["play"] == "5-5" and state["count"] == 10  # 2 points at 60
    assert state["points"] == 0 and state["scores"] == [41, 60]
    assert answer["bust"] == {"would": 62, "target": 61}
    # The play before it scored: no bust said there.
    assert analyse(cut(doc, 2, 11))["bust"] is None


def test_going_out_scores_its_bonus_while_the_tiles_shown_are_asked():
    doc = partnership()
    answer = analyse(cut(doc, 1, 26))
    assert answer["phase"] == "left"
    state = answer["state"]
    # A count of 17 scores nothing; going out scores 1 (the count's points alone were 0).
    assert state["count"] == 17 and state["hand_end"] == "domino"
    assert state["points"] == 1 and answer["bonus"] == 1 and answer["bust"] is None
    assert state["scores"] == [31, 46]
    # The pegs: each side's score and its score before its last scoring play.
    assert answer["pegs"] == {"target": 61, "scores": [31, 46], "back": [25, 45]}
    # With the tiles shown, the hand is over (nothing settled) and the next seat leads.
    answer = analyse(cut(doc, 1, 26, left=True))
    assert answer["phase"] == "next-hand" and answer["state"]["scores"] == [31, 46]
    assert answer["next_leaders"] == [doc["hands"][2]["leader"]]


def test_a_seat_out_is_skipped_and_nobody_draws():
    doc = partnership()
    answer = analyse(cut(doc, 1, 18))  # seat 2 lays its last tile; its partner plays on
    assert answer["held"][2] == 0 and answer["state"]["turn"] == 3
    answer = analyse(cut(doc, 1, 21))  # seat 1 knocks: seat 2 is out, seat 3 plays
    assert answer["state"]["action"] == {"seat": 1, "pass": True}
    assert answer["state"]["turn"] == 3
    assert answer["draws"] is False and answer["may_draw"] is False
    # A draw is refused by the engine all the same.
    drawn = cut(doc, 1, 21)
    drawn["hands"][-1]["moves"].append({"seat": 3, "draw": "?"})
    assert analyse(drawn)["report"]["errors"][0]["code"] == "boneyard-empty"


def test_a_ruleset_that_draws_offers_the_draw_while_the_boneyard_allows():
    doc = to_table_record(simulate_match("muggins", 2, seed=383))
    answer = analyse(cut(doc, 0, 1))
    assert answer["draws"] is True and answer["may_draw"] is True
    assert answer["bust"] is None and answer["bonus"] == 0
