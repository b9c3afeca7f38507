"""The quick paths of the parser against the careful ones, and the review against brute force.

``log._quick_move`` and ``log._quick_tiles`` read the common shapes of a move and of a
seat's deal; on everything they read, the checks in order (``_parse_move``,
``_parse_tiles``) must give the same value, with the same types; on everything else they
step aside. The review (``HandState.best_play``) works each play's points out from the
table's small-integer state without making the play; it must name the play that brute force
names: every legal play made on a copy of the hand, the first that scores the most.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import log, parse_log, validate
from fives_engine.log import SchemaError
from fives_engine.rules import RulesetError
from fives_engine.simulate import simulate_match

SETTINGS = settings(
    max_examples=1500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

# Values near the common ones, and the ones that equal them in Python but not in JSON.
values = st.one_of(
    st.sampled_from(
        [None, True, False, 0, 1, 3, -1, 10**9, 10**9 + 1, 5.0, 0.0, float("nan"), 1e400]
    ),
    st.sampled_from(["0-0", "6-4", "4-6", "1-2", "7-1", "x", "", "W", "E", "N", "S", "w"]),
    st.sampled_from(["1-2\x00", "\ud800", "é-1", "1-2" * 8, [], {}, ["1-2"]]),
    st.integers(-3, 60),
)
odd_moves = st.dictionaries(
    st.sampled_from(["seat", "play", "draw", "pass", "end", "points", "other", "\x00"]),
    values,
    max_size=5,
)


@st.composite
def near_moves(draw):
    """Return a move in a common shape, perhaps with one field changed, added or nulled."""
    kind = draw(st.sampled_from(["play", "draw", "pass"]))
    move = {"seat": draw(st.integers(0, 20))}
    move[kind] = True if kind == "pass" else draw(st.sampled_from(["6-4", "4-6", "0-0", "x"]))
    if draw(st.booleans()):
        move["end"] = draw(st.sampled_from(["W", "E", "N", "S"]))
    if draw(st.booleans()):
        move["points"] = draw(st.integers(-5, 200))
    if draw(st.booleans()):
        field = draw(st.sampled_from(["seat", "play", "draw", "pass", "end", "points", "other"]))
        move[field] = draw(values)
    return move


moves = st.one_of(near_moves(), odd_moves, values)


def careful_move(move):
    try:
        return log._parse_move(move, "$.m")
    except SchemaError as exc:
        return exc


def typed(value):
    """Return a value with the type of every field, so that 5 and 5.0 differ."""
    return [(type(field), field) for field in (value.seat, value.kind, value.tile, value.end)] + [
        (type(value.points), value.points)
    ]


@SETTINGS
@given(moves)
def test_a_quick_move_is_the_move_the_checks_give_or_none(move):
    quick = log._quick_move(move)
    again = log._quick_move(move)  # from the cache, once remembered
    if quick is None:
        assert again is None
        return
    careful = careful_move(move)
    assert not isinstance(careful, SchemaError)
    assert quick == careful == again
    assert typed(quick) == typed(careful) == typed(again)


def test_values_python_holds_equal_are_not_mistaken_for_each_other():
    for seat, play in itertools.product((1, True, 1.0), ("1-2",)):
        for extra in ({}, {"points": 5}, {"points": 5.0}, {"points": True}, {"end": "E"}):
            move = {"seat": seat, "play": play, **extra}
            quick = log._quick_move(move)
            careful = careful_move(move)
            if quick is not None:
                assert typed(quick) == typed(careful)
            else:
                assert type(seat) is not int or type(extra.get("points", 0)) is not int
    for value in (True, 1, 1.0, "true", None):
        move = {"seat": 0, "pass": value}
        quick = log._quick_move(move)
        assert (quick is not None) == (value is True)
    assert log._quick_move({"seat": 0, "play": "1-2", "end": None}) is None
    assert log._quick_move({"seat": 0, "play": "1-2", "draw": None}) is None


@SETTINGS
@given(
    st.one_of(
        st.lists(st.sampled_from(["1-2", "6-4", "0-0", "4-6"]), max_size=8),
        st.lists(values, max_size=8),
        values,
    )
)
def test_quick_tiles_are_the_tiles_the_checks_give_or_none(tiles):
    quick = log._quick_tiles(tiles)
    if quick is None:
        return
    assert quick == log._parse_tiles(tiles, "$.t")
    assert [type(tile) for tile in quick] == [str] * len(tiles)


def brute_best(hand):
    """Return the first legal play that scores the most, each made on a copy of ``hand``."""
    best = None
    for move in hand.legal_plays():
        trial = hand.copy()
        seat = trial.turn
        points = trial.move_points(seat, trial.play(move.tile, move.end))
        if best is None or points > best[0]:
            best = (points, str(move))
    return best


def best_plays_by_both_paths(doc):
    """Return each play's (best, best_play) by the walk's review and by brute force."""
    before = []  # per hand, brute force's answer in the state before each move

    def step(state):
        if state.move_index is None:
            before.append([])
        if state.hand.end is None:
            before[-1].append(brute_best(state.hand))

    walked = validate.walk_match(None, parse_log(doc), trace=True, review=True, on_step=step)
    reviewed, brute = [], []
    for facts, answers in zip(walked.moves, before, strict=True):
        for fact, answer in zip(facts, answers, strict=False):
            if fact.count is not None:
                reviewed.append((fact.best, fact.best_play))
                brute.append(answer)
    return reviewed, brute


RULESETS = [
    "all-fives",
    "muggins",
    "all-threes",
    {"base": "all-fives", "spinner": False},
    {"base": "muggins", "spinner_sides_first": True},
    {"base": "all-threes", "spinner": True, "spinner_sides_first": False},
    {"base": "muggins", "multiple": 3, "hand_size": 5},
    "fives-and-threes",
    {"base": "muggins", "go_out_bonus": 1, "target_exact": True},
    {"base": "all-fives", "partnership_end": "both-out"},
]


def test_the_review_names_the_generators_first_best_play_across_rulesets_and_tables():
    plays = 0
    for ruleset, (players, teams), seed in itertools.product(
        RULESETS, [(2, False), (3, False), (4, True)], range(6)
    ):
        doc = simulate_match(
            ruleset, players, teams=teams, seed=seed, bots=("random", "greedy"), max_hands=6
        )
        quick, careful = best_plays_by_both_paths(doc)
        assert quick == careful
        plays += sum(best is not None for best, _ in quick)
    assert plays > 5000


def test_a_ruleset_met_again_is_the_same_object_and_the_same_as_worked_out_afresh():
    from fives_engine.rules import PRESETS, _resolve, resolve_ruleset

    spec = {"base": "muggins", "target": 150, "go_out_bonus": 1}
    first = resolve_ruleset(spec, 3)
    assert resolve_ruleset(dict(spec), 3) is first
    assert first == _resolve(spec, 3)
    assert resolve_ruleset(spec, 2) == _resolve(spec, 2) != first  # keyed by the players too
    assert resolve_ruleset("all-fives", 2) is resolve_ruleset("all-fives", 2)
    # Values Python calls equal but the format does not: each is read as written.
    exact = {"base": "all-fives", "target_exact": True}
    assert resolve_ruleset(exact, 2).target_exact is True
    with pytest.raises(RulesetError):
        resolve_ruleset({"base": "all-fives", "target_exact": 1}, 2)
    for name in PRESETS:
        assert resolve_ruleset(name, 2) == _resolve(name, 2)


def test_a_preset_replaced_in_the_table_is_read_again(monkeypatch):
    from fives_engine.rules import PRESETS, Preset, resolve_ruleset, ruleset_check

    before = resolve_ruleset("muggins", 2)
    ruleset_check("muggins")
    changed = Preset(PRESETS["muggins"].title, {**PRESETS["muggins"], "target": 77})
    monkeypatch.setitem(PRESETS, "muggins", changed)
    assert resolve_ruleset("muggins", 2).target == 77
    monkeypatch.delitem(PRESETS, "muggins")
    with pytest.raises(RulesetError):
        ruleset_check("muggins")
    with pytest.raises(RulesetError):
        resolve_ruleset("muggins", 2)
    monkeypatch.undo()
    assert resolve_ruleset("muggins", 2) == before
