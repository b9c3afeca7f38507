"""The engine against an independent reference written from RULES.md and FORMAT.md alone.

``reference.py`` was written without reading the engine: where the two disagree on a
simulated or mutated log, one of them misreads the rules.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings

from fives_engine import validate_log
from fives_engine.simulate import simulate_match
from fives_engine.tiles import ALL_TILES, NAME
from tests.engine.reference import reference_report
from tests.engine.test_properties import mutated_logs, simulated_logs

COMPARED = ("valid", "outcome", "ruleset", "scores", "winner", "hands")


def comparable(report):
    out = {key: report[key] for key in COMPARED}
    out["errors"] = [(e["code"], e["hand"], e["move"], e["seat"]) for e in report["errors"]]
    out["warnings"] = [(w["code"], w["hand"], w["move"]) for w in report["warnings"]]
    return out


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(simulated_logs())
def test_simulated_logs_get_the_reference_report(doc):
    assert comparable(validate_log(doc).as_dict()) == comparable(reference_report(doc))


@SETTINGS
@given(mutated_logs())
def test_mutated_logs_get_the_reference_report(case):
    doc = case[0]
    assert comparable(validate_log(doc).as_dict()) == comparable(reference_report(doc))


# --- Fives and Threes: 2,000 simulated matches and a mutation of each -----------------------

TEESDALE = {"base": "fives-and-threes", "hand_size": {"2": 9, "4": 6}}
FIVES_AND_THREES_TABLES = [
    ("fives-and-threes", 2, False),
    ("fives-and-threes", 3, False),
    ("fives-and-threes", 4, False),
    ("fives-and-threes", 4, True),
    (TEESDALE, 2, False),
    (TEESDALE, 4, True),
    (TEESDALE, 4, False),
]
BOT_CHOICES = [("greedy",), ("random",), ("greedy", "random")]


def mutate(doc, rng):
    """Return a copy of ``doc`` with one move changed: another tile or end, another seat,
    the move left out or written twice, a play or a knock turned into a draw or a knock."""
    doc = copy.deepcopy(doc)
    hand = rng.choice(doc["hands"])
    moves = hand["moves"]
    if not moves:
        return doc
    m = rng.randrange(len(moves))
    move = moves[m]
    kind = rng.choice(["tile", "end", "seat", "remove", "duplicate", "draw", "pass"])
    if kind == "tile" and "play" in move:
        move["play"] = NAME[rng.choice(ALL_TILES)]
    elif kind == "end":
        move["end"] = rng.choice(["W", "E", "N", "S"])
    elif kind == "seat":
        players = len(doc["players"])
        move["seat"] = (move["seat"] + rng.randrange(1, players)) % players
    elif kind == "remove":
        del moves[m]
    elif kind == "duplicate":
        moves.insert(m, copy.deepcopy(move))
    elif kind == "draw":
        moves[m] = {"seat": move["seat"], "draw": NAME[rng.choice(ALL_TILES)]}
    else:
        moves[m] = {"seat": move["seat"], "pass": True}
    return doc


def test_2000_fives_and_threes_matches_and_their_mutations_get_the_reference_report():
    # Runs in make test (about 20 s here): every table of the preset and the Teesdale hand
    # sizes, each match and one mutation of it.
    rng = random.Random(27)
    outcomes = {"complete": 0, "unfinished": 0}
    codes = set()
    for seed in range(2000):
        ruleset, players, teams = FIVES_AND_THREES_TABLES[seed % len(FIVES_AND_THREES_TABLES)]
        bots = BOT_CHOICES[seed % len(BOT_CHOICES)]
        doc = simulate_match(ruleset, players, teams=teams, seed=seed, bots=bots, max_hands=40)
        report = validate_log(doc).as_dict()
        assert report["valid"] and report["warnings"] == [], (seed, report["errors"])
        assert comparable(report) == comparable(reference_report(doc)), seed
        outcomes[report["outcome"]] += 1
        mutated = mutate(doc, rng)
        report = validate_log(mutated).as_dict()
        assert comparable(report) == comparable(reference_report(mutated)), seed
        codes.update(error["code"] for error in report["errors"])
    assert outcomes["complete"] > 1900
    # The mutations reach the codes of a game without drawing.
    assert {"wrong-turn", "pass-when-playable", "boneyard-empty", "draw-when-playable"} <= codes
