"""The ``fives/1`` position (``fives_engine.position``, docs/format.md "A position"): a
worked example read and valued, every refusal with its code (a hidden tile above all), the
figures the review's own for the same situation, and Hypothesis over simulated positions:
each position a match's seat saw round-trips, lists the seat's true legal plays, names no
tile the seat could not see, and is valued play by play."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine.expected import review_match
from fives_engine.log import parse_log
from fives_engine.position import (
    Analysis,
    Board,
    PositionError,
    analyse,
    parse_position,
    position_document,
)
from fives_engine.practice import PositionUnknown, position_at
from fives_engine.simulate import simulate_match

# docs/format.md's example log, a move on: seat 0 to play after seat 1 drew twice and laid
# 3-4 on W (open ends W 4, E 0; the spinner 5-5's N and S not open yet).
WORKED = {
    "format": "fives/1",
    "kind": "position",
    "ruleset": {"base": "muggins", "target": 100},
    "players": ["Nino", "Giorgi"],
    "teams": None,
    "scores": [10, 10],
    "leader": 0,
    "seat": 0,
    "tiles": ["6-4", "3-1", "0-0", "2-2", "6-6"],
    "moves": [
        {"seat": 0, "play": "5-5"},
        {"seat": 1, "play": "5-0", "end": "E"},
        {"seat": 0, "play": "3-5", "end": "W"},
        {"seat": 1, "draw": "?"},
        {"seat": 1, "draw": "?"},
        {"seat": 1, "play": "3-4", "end": "W"},
    ],
    "held": [5, 7],
    "boneyard": 12,
}


def test_worked_example_read_and_valued():
    position = parse_position(WORKED)
    assert position.document["tiles"] == ["0-0", "1-3", "2-2", "4-6", "6-6"]
    assert [str(move) for move in position.legal] == ["0-0 on E", "4-6 on W"]
    answer = analyse(WORKED, 48)
    assert [play["play"] for play in answer["plays"]] == ["0-0 on E", "4-6 on W"]
    assert answer["layouts"] == 48 and answer["exact"] is False
    assert answer["unit"] == "chance"
    for play in answer["plays"]:
        assert 0.0 <= play["chance"] <= 100.0 and play["chance_se"] >= 0.0
        assert play["value_se"] > 0.0
    # 0-0 on E makes the ends W 4 + E 0 + the spinner's 10: no count; 4-6 on W makes
    # W 6 + E 0 + 10 = 16: none either; the values decide.
    best = max(answer["plays"], key=lambda play: (play["chance"], play["value"]))
    assert answer["best"] == best["play"]
    # The same document, the same figures (the seed is what the seat saw).
    assert analyse(WORKED, 48) == answer
    # Read from the normalised document: the same again.
    assert analyse(position.document, 48) == answer


def test_refining_keeps_the_first_layouts():
    analysis = Analysis(parse_position(WORKED))
    first = analysis.more(24)
    refined = analysis.more(96)
    assert first["layouts"] == 24 and refined["layouts"] == 96
    # 96 layouts at once are the first 24 and 72 more: the same figures as refined.
    assert analyse(WORKED, 96) == refined
    for before, after in zip(first["plays"], refined["plays"], strict=True):
        assert after["value_se"] < before["value_se"]


def refused(doc):
    with pytest.raises(PositionError) as caught:
        parse_position(doc)
    return caught.value


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda d: d.update(deal=[["5-5"]]), "hidden-tile", "$.deal"),
        (lambda d: d.update(hands=[]), "hidden-tile", "$.hands"),
        (lambda d: d["moves"][3].update(draw="1-4"), "hidden-tile", "$.moves[3].draw"),
        (lambda d: d.update(kind="match"), "schema", "$"),
        (lambda d: d.update(colour="red"), "schema", "$.colour"),
        (lambda d: d.update(seat=1), "wrong-turn", "$.seat"),
        (lambda d: d["tiles"].append("1-1"), "tile-count", "$.tiles"),
        (lambda d: d["tiles"].__setitem__(0, "5-5"), "repeated-tile", "$.tiles[0]"),
        (lambda d: d["tiles"].__setitem__(0, "7-1"), "schema", "$.tiles[0]"),
        (lambda d: d.update(boneyard=11), "tile-count", "$.boneyard"),
        (lambda d: d.update(scores=[10]), "schema", "$.scores"),
        (lambda d: d["moves"][1].update(end="N"), "bad-end", "$.moves[1]"),
        (lambda d: d["moves"].insert(1, {"seat": 0, "pass": True}), "wrong-turn", "$.moves[1]"),
        (lambda d: d.update(ruleset="dominoes"), "ruleset", "$"),
        (lambda d: d.update(tiles=["1-1", "1-2", "2-6", "1-6", "2-3"]), "no-play", "$.tiles"),
    ],
)
def test_refusals_say_why(change, code, path):
    doc = copy.deepcopy(WORKED)
    change(doc)
    error = refused(doc)
    assert (error.code, error.path) == (code, path), error
    assert error.message


def test_own_draw_may_name_its_tile():
    doc = copy.deepcopy(WORKED)
    doc["seat"], doc["tiles"] = 1, ["1-1", "1-2", "2-4", "4-4", "1-6", "2-6", "1-4", "3-4"]
    doc["moves"] = doc["moves"][:5]
    doc["moves"][3]["draw"] = "1-4"
    doc.pop("held")
    doc.pop("boneyard")
    # Seat 1 holds its 7 dealt less 5-0, and two draws; the position stops before its play.
    position = parse_position(doc)
    assert position.situation.seat == 1
    assert position.document["moves"][3] == {"seat": 1, "draw": "?"}


def test_first_hand_figures_are_the_reviews():
    """A position of hand 0 is the review's situation to the seed: the same layouts, so
    the same figures wherever the review looked once (no second look)."""
    doc = simulate_match("all-fives", 2, seed=11)
    log = parse_log(doc)
    review = review_match(log, samples=24)
    compared = 0
    for play in review.plays:
        if play.hand != 0 or (play.layouts != 24 and not play.exact):
            continue
        answer = analyse(position_document(log, 0, play.move), 24)
        assert [p["play"] for p in answer["plays"]] == [a.play for a in play.alternatives]
        for mine, theirs in zip(answer["plays"], play.alternatives, strict=True):
            assert mine["value"] == pytest.approx(theirs.value)
            assert mine["chance"] == pytest.approx(theirs.chance)
        compared += 1
    assert compared >= 5


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([("all-fives", 2, False), ("muggins", 4, True), ("all-threes", 3, False)]),
    st.integers(0, 2**32),
    st.data(),
)
def test_simulated_positions(kind, seed, data):
    preset, players, teams = kind
    doc = simulate_match({"base": preset, "target": 100}, players, teams=teams, seed=seed)
    log = parse_log(doc)
    hand = data.draw(st.integers(0, len(log.hands) - 1))
    move = data.draw(st.integers(0, len(log.hands[hand].moves) - 1))
    try:
        seen = position_at(log, hand, move)
    except PositionUnknown:
        return
    position = position_document(log, hand, move)
    checked = parse_position(position)
    assert checked.document == position
    assert [str(play) for play in checked.legal] == list(seen.choices)
    # Nothing the seat could not see: every tile named is its own or laid.
    laid = {m["play"] for m in position["moves"] if "play" in m}
    text = json.dumps(position["moves"])
    assert all(m.get("draw", "?") == "?" for m in position["moves"]), text
    assert set(position["tiles"]) == set(seen.hand_tiles)
    assert not {t for t in position["tiles"]} & laid
    answer = analyse(position, 8)
    assert [p["play"] for p in answer["plays"]] == list(seen.choices)
    assert answer["best"] in seen.choices
    # Naming another seat's draw is refused.
    others = [i for i, m in enumerate(position["moves"]) if "draw" in m and m["seat"] != seen.seat]
    if others:
        broken = copy.deepcopy(position)
        broken["moves"][others[0]]["draw"] = "0-0"
        assert refused(broken).code == "hidden-tile"


def test_the_documented_example_is_the_worked_one():
    text = (Path(__file__).parents[2] / "docs" / "format.md").read_text()
    section = text.split("## A position", 1)[1]
    block = section.split("```json", 1)[1].split("```", 1)[0]
    assert json.loads(block) == WORKED


def test_the_boards_engine_refines_and_refuses():
    board = Board()
    first = board.answer(WORKED, 24)
    assert first["layouts"] == 24 and first["position"]["tiles"][0] == "0-0"
    best = next(play for play in first["plays"] if play["play"] == first["best"])
    assert (best["loss"], best["loss_se"]) == (0.0, 0.0)
    assert all(play["loss"] >= -1e-9 or play["loss_se"] > 0 for play in first["plays"])
    assert board.answer(copy.deepcopy(WORKED), 96) == analyse(WORKED, 96) | {
        "position": first["position"]
    }
    broken = copy.deepcopy(WORKED)
    broken["moves"][3]["draw"] = "1-4"
    assert board.answer(broken, 24)["error"]["code"] == "hidden-tile"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([*sorted(WORKED), "moves.0", "moves.3", "moves.5.end", "tiles.0"]),
    JSON,
)
def test_any_value_anywhere_is_read_or_refused_with_a_code(where, value):
    """Whatever a field holds, the position is read or refused (``PositionError``), never
    an exception of another kind: the API answers 400, never 500."""
    doc = copy.deepcopy(WORKED)
    *path, last = where.split(".")
    target = doc
    for key in path:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    try:
        parse_position(doc)
    except PositionError as refused:
        assert refused.code and refused.message
