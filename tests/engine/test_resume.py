"""A walk resumed at a hand's start (``validate.HandStart``, kept as JSON) sees what the
whole match's walk sees from that hand on: every state, the winner, the scores, and an error
at the same hand and move, for every preset and table."""

from __future__ import annotations

import json

import pytest

from fives_engine import PRESETS, parse_log, to_table_record, validate
from fives_engine.replay import state_json
from fives_engine.simulate import simulate_match
from fives_engine.validate import HandStart


def walked(log, resume=None) -> tuple[list[dict], list[HandStart], validate.Report]:
    states: list[dict] = []
    starts: list[HandStart] = []

    def step(taken: validate.Step) -> None:
        states.append(state_json(taken))
        if taken.move_index is None:
            starts.append(HandStart.at(taken))

    report = validate.walk_match(log=log, on_step=step, resume=resume).report
    return states, starts, report


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True)])
@pytest.mark.parametrize("table", [False, True])
def test_a_walk_resumed_at_any_hand_sees_what_the_whole_walk_sees(preset, players, teams, table):
    doc = simulate_match(preset, players, teams=teams, seed=11)
    if table:
        doc = to_table_record(doc)
    log = parse_log(doc)
    states, starts, report = walked(log)
    assert [start.hand for start in starts] == list(range(len(log.hands)))
    for start in starts:
        kept = HandStart.from_json(json.loads(json.dumps(start.as_json())))
        assert kept == start
        rest = parse_log({**doc, "hands": doc["hands"][start.hand :]})
        again, _, resumed = walked(rest, kept)
        assert again == states[len(states) - len(again) :]
        assert again[0]["hand"] == start.hand and again[0]["move"] is None
        assert (resumed.winner, resumed.scores) == (report.winner, report.scores)
        assert resumed.errors == report.errors == []


def test_a_resumed_walk_refuses_at_the_matchs_hand_and_checks_the_leader():
    doc = simulate_match("muggins", 2, seed=11)
    log = parse_log(doc)
    _, starts, _ = walked(log)
    start = starts[2]
    hands = doc["hands"][2:]
    broken = [{**hands[0], "moves": [{**hands[0]["moves"][0], "seat": 9}]}, *hands[1:]]
    whole = validate.walk_match(log=parse_log({**doc, "hands": doc["hands"][:2] + broken}))
    rest = validate.walk_match(log=parse_log({**doc, "hands": broken}), resume=start)
    assert [(e.code, e.hand, e.move) for e in rest.report.errors] == [
        (e.code, e.hand, e.move) for e in whole.report.errors
    ]
    assert rest.report.errors[0].hand == 2
    # The hand's leader is checked against who may lead it, as in the whole walk.
    start = next(start for start in starts if start.leaders and len(start.leaders) == 1)
    hand = doc["hands"][start.hand]
    (other,) = {0, 1} - start.leaders
    led = [{**hand, "leader": other}]
    refused = validate.walk_match(log=parse_log({**doc, "hands": led}), resume=start)
    assert [(e.code, e.hand) for e in refused.report.errors] == [("wrong-leader", start.hand)]


def test_a_resumed_walk_of_another_number_of_teams_is_a_mistake():
    doc = simulate_match("muggins", 2, seed=11)
    with pytest.raises(ValueError):
        validate.walk_match(log=parse_log(doc), resume=HandStart(1, (0, 0, 0), None))
