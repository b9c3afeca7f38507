"""The missed-points review: the best legal play at every play, checked by hand and by the
validator itself."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine.analysis import analyse_log
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from tests.engine.test_worked_examples import SEED_001, one_hand

DEAL = [
    ["5-5", "3-5", "5-4", "2-5", "6-6", "6-1", "1-1"],
    ["5-0", "0-2", "2-2", "3-3", "6-4", "4-1", "1-0"],
]


def test_a_play_that_missed_points_names_the_better_play():
    # Seed 001's table after 5-5, 5-0 on E, 3-5 on W: W 3, E 0, N 5, S 5. Seat 1 holds
    # 0-2, 2-2, 3-3, 6-4, 4-1, 1-0. Its legal plays: 0-1 on E (count 4: 0), 0-2 on E
    # (count 5: 5), 3-3 on W (count 6: 0). It plays 1-0 and misses 5.
    plays = [(tile, end) for tile, end, *_ in SEED_001[:3]] + [("1-0", "E")]
    analysis = analyse_log(one_hand("muggins", DEAL, plays))
    assert analysis.report.valid
    insight = analysis.moves[0][3]
    assert (insight.points, insight.best, insight.best_play, insight.missed) == (
        0,
        5,
        "0-2 on E",
        5,
    )
    # The lead could have been 5-5 (10) and was: nothing missed.
    lead = analysis.moves[0][0]
    assert (lead.points, lead.best, lead.missed) == (10, 10, 0)


def test_every_play_of_the_worked_example_is_reviewed():
    analysis = analyse_log(one_hand("muggins", DEAL, [(t, e) for t, e, *_ in SEED_001]))
    assert [m.points for m in analysis.moves[0]] == [p for *_, p in SEED_001]
    assert all(m.best >= m.points for m in analysis.moves[0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["all-fives", "muggins", "all-threes"]), st.integers(0, 2**32))
def test_greedy_players_never_miss_points(ruleset, seed):
    doc = simulate_match(ruleset, 3, seed=seed, bots=("greedy",), max_hands=5)
    analysis = analyse_log(doc)
    assert analysis.report.valid
    assert all(m is None or m.missed == 0 for hand in analysis.moves for m in hand)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.data())
def test_the_best_play_is_the_best_the_validator_scores_among_all_legal_plays(seed, data):
    doc = simulate_match("all-fives", 2, seed=seed, bots=("random",), max_hands=2)
    analysis = analyse_log(doc)
    hand = 0
    plays = [i for i, m in enumerate(analysis.moves[hand]) if m is not None]
    m = data.draw(st.sampled_from(plays))
    prefix = copy.deepcopy(doc)
    prefix["hands"] = prefix["hands"][:1]
    del prefix["hands"][0]["moves"][m:]
    prefix.pop("final_scores")
    state = replay_log(prefix).states[-1]
    scores = []
    for legal in state["legal"]:
        trial = copy.deepcopy(prefix)
        trial["hands"][0]["moves"].append({"seat": state["turn"], **legal})
        replay = replay_log(trial)
        assert replay.report.valid
        # The points of that play as the validator counts them (a play that ends the hand
        # also brings a settlement, so the scores alone would not tell).
        scores.append(replay.states[-1]["points"])
    assert max(scores) == analysis.moves[hand][m].best


def test_the_replay_review_marks_each_play_with_its_best():
    plays = [(tile, end) for tile, end, *_ in SEED_001[:3]] + [("1-0", "E")]
    states = replay_log(one_hand("muggins", DEAL, plays), review=True).states
    # Where several plays score the best, the first legal play is named: W before E, and
    # lower tiles first (at move 3 nothing scores, and 2-5 on W comes before 3-5 on W).
    assert [(s.get("best"), s.get("best_play")) for s in states[1:]] == [
        (10, "5-5"),
        (10, "0-5 on W"),
        (0, "2-5 on W"),
        (5, "0-2 on E"),
    ]
