"""Properties over simulated matches (Hypothesis): validity, sums, round trips, mutations."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import PRESETS, parse_log, validate_log
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from fives_engine.tiles import ALL_TILES, NAME

PRESET_NAMES = list(PRESETS)  # every preset of the engine's table

# A ruleset: a preset, sometimes with options changed, so every option is exercised.
rulesets = st.one_of(
    st.sampled_from(PRESET_NAMES),
    st.fixed_dictionaries(
        {"base": st.sampled_from(PRESET_NAMES)},
        optional={
            "spinner": st.booleans(),
            "spinner_sides_first": st.booleans(),
            "settlement": st.sampled_from(["subtract-own", "winner-takes", "none"]),
            "settlement_divisor": st.sampled_from([1, 3, 5]),
            "block_bonus": st.sampled_from(["difference", "losers-total"]),
            "end_at_target": st.sampled_from(["end-of-hand", "immediately"]),
            "next_leader": st.sampled_from(["domino-winner", "hand-winner", "rotate", "any"]),
            "boneyard_reserve": st.sampled_from([0, 1, 2, "all"]),
            "target": st.sampled_from([50, 61, 100, {"2": 60, "3": 80, "4": 70}]),
            "hand_size": st.sampled_from([5, 6, 7]),
            "multiple": st.sampled_from([3, 5]),
            "scoring": st.sampled_from(["count", "fives-and-threes"]),
            "go_out_bonus": st.sampled_from([0, 1]),
            "partnership_end": st.sampled_from(["first-out", "both-out"]),
            "target_exact": st.booleans(),
        },
    ),
)
tables = st.sampled_from([(2, False), (3, False), (4, False), (4, True)])
bots = st.sampled_from([("greedy",), ("random",), ("greedy", "random")])


@st.composite
def simulated_logs(draw):
    players, teams = draw(tables)
    return simulate_match(
        draw(rulesets),
        players,
        teams=teams,
        seed=draw(st.integers(0, 2**32)),
        bots=draw(bots),
        max_hands=30,
    )


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(simulated_logs())
def test_a_simulated_match_validates_with_no_error_and_no_warning(doc):
    report = validate_log(doc).as_dict()
    assert report["errors"] == []
    assert report["warnings"] == []
    assert report["valid"] is True
    assert report["scores"] == doc["final_scores"]
    if len(doc["hands"]) < 30:
        assert report["outcome"] == "complete"


@SETTINGS
@given(simulated_logs())
def test_the_final_scores_are_the_sum_of_the_hands_points_and_settlements(doc):
    report = validate_log(doc).as_dict()
    teams = len(report["scores"])
    running = [0] * teams
    for hand in report["hands"]:
        running = [running[t] + hand["points"][t] + hand["settlement"][t] for t in range(teams)]
        assert hand["scores"] == running
        if hand["end"] in ("target", "unfinished"):
            assert hand["settlement"] == [0] * teams
    assert report["scores"] == running
    if report["winner"] is not None:
        rules = report["ruleset"]
        best = report["scores"][report["winner"]]
        assert best >= rules["target"]
        assert all(s < best for t, s in enumerate(report["scores"]) if t != report["winner"])


@SETTINGS
@given(simulated_logs())
def test_serialising_a_parsed_log_and_parsing_it_again_gives_the_same_log(doc):
    log = parse_log(doc)
    text = json.dumps(log.as_json())
    assert parse_log(json.loads(text)) == log


@st.composite
def mutated_logs(draw):
    doc = draw(simulated_logs())
    h = draw(st.integers(0, len(doc["hands"]) - 1))
    moves = doc["hands"][h]["moves"]
    if not moves:
        return doc, "none", h, 0
    m = draw(st.integers(0, len(moves) - 1))
    kind = draw(st.sampled_from(["tile", "end", "seat", "remove", "duplicate"]))
    original = copy.deepcopy(moves[m])
    if kind == "tile":
        field = next((k for k in ("play", "draw") if k in original), None)
        if field is None:
            kind = "seat"
        else:
            moves[m][field] = NAME[draw(st.sampled_from(ALL_TILES))]
    if kind == "end":
        moves[m]["end"] = draw(st.sampled_from(["W", "E", "N", "S", None]))
        if moves[m]["end"] is None:
            del moves[m]["end"]
    if kind == "seat":
        players = len(doc["players"])
        moves[m]["seat"] = (original["seat"] + draw(st.integers(1, players - 1))) % players
    if kind == "remove":
        del moves[m]
    if kind == "duplicate":
        moves.insert(m, copy.deepcopy(original))
    return doc, kind, h, m


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_logs())
def test_a_mutated_log_is_rejected_no_earlier_than_the_change_or_rescored_never_a_crash(case):
    doc, kind, h, m = case
    report = validate_log(doc).as_dict()
    if not report["valid"]:
        [error] = report["errors"]
        # The moves before the change are untouched and were legal: no error comes before it.
        assert error["hand"] > h or (
            error["hand"] == h and (error["move"] is None or error["move"] >= m)
        ), (kind, h, m, error)
        if kind == "seat":
            assert (error["code"], error["hand"], error["move"]) == ("wrong-turn", h, m)
    else:
        teams = len(report["scores"])
        total = [
            sum(hand["points"][t] + hand["settlement"][t] for hand in report["hands"])
            for t in range(teams)
        ]
        assert report["scores"] == total


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_logs(), st.data())
def test_the_validator_accepts_a_play_exactly_when_the_generator_offers_it(doc, data):
    h = data.draw(st.integers(0, len(doc["hands"]) - 1))
    moves = doc["hands"][h]["moves"]
    m = data.draw(st.integers(0, len(moves) - 1))
    doc["hands"] = doc["hands"][: h + 1]
    del moves[m:]
    doc.pop("final_scores")
    state = replay_log(doc).states[-1]
    seat = state["turn"]
    if seat is None:
        return
    legal = {(move["play"], move.get("end")) for move in state["legal"] if "play" in move}
    tile = data.draw(st.sampled_from(state["hands"][seat]))
    end = data.draw(st.sampled_from(["W", "E", "N", "S", None]))
    moves.append({"seat": seat, "play": tile, **({"end": end} if end else {})})
    report = validate_log(doc)
    lead = not state["layout"]["lead"]
    ends = [e for t, e in legal if t == tile]
    if lead:
        expected = True
    elif end is None:
        expected = len(ends) == 1
    else:
        expected = (tile, end) in legal
    assert report.valid == expected, (tile, end, legal, report.errors)
