"""One board (issue 57, item 2): the recorder's table holds no rule of its own. Over table
records of every preset and table (and the options that change a play's figures: the go-out
bonus, the bust, partners playing on), the recorder's answer after each move is the engine's
board at that move: the table it shows (``state``) is the engine's state of that step, and
what the play scored apart from its count (``bonus``, ``bust``) is the engine's figures of
the play (``PlayFigures``)."""

from __future__ import annotations

import json

import pytest

from fives_engine import PRESETS, parse_log, to_table_record
from fives_engine.replay import state_json
from fives_engine.simulate import simulate_match
from fives_engine.validate import walk_match
from recorder.table import analyse

from .test_fives_and_threes_recorder import CASES, cut

TABLES = [
    (preset, players, teams)
    for preset in sorted(PRESETS)
    for players, teams in ((2, False), (3, False), (4, True))
] + [
    ({"base": "fives-and-threes", "target_exact": True, "go_out_bonus": 1}, 2, False),
    ({"base": "all-fives", "partnership_end": "both-out", "go_out_bonus": 1}, 4, True),
]
MET = {"plays": 0, "bonuses": 0, "busts": 0}  # over the whole corpus (the last test reads it)
SHOWN = ("count", "points", "scores", "layout", "open_ends", "boneyard", "hand_end", "seat")


def engine_steps(doc):
    """Each step of the engine's walk of the whole record: (hand, move) -> the state, the
    play's figures and the scores before it."""
    steps = {}
    before = None

    def seen(step):
        nonlocal before
        figures = step.match.last_play if step.move and step.move.kind == "play" else None
        steps[(step.hand_index, step.move_index)] = (state_json(step), figures, before)
        before = list(step.match.scores)

    walk_match(log=parse_log(doc), on_step=seen)
    return steps


def team_of(doc, seat):
    teams = doc.get("teams")
    return seat if teams is None else next(i for i, team in enumerate(teams) if seat in team)


def corpus():
    """Table records of every preset and table (their first hands), a whole partnership
    match of Fives and Threes with a bust (seed 6), and the worked cases of busts."""
    for ruleset, players, teams in TABLES:
        yield (
            str(ruleset),
            lambda r=ruleset, p=players, t=teams: simulate_match(
                r, p, teams=t, seed=11, max_hands=3
            ),
        )
    yield "partnership-bust", lambda: simulate_match("fives-and-threes", 4, teams=True, seed=6)
    for path in sorted(CASES.glob("fives_and_threes_*.json")):
        yield path.stem, lambda path=path: json.loads(path.read_text())


@pytest.mark.parametrize("made", [made for _, made in corpus()], ids=[n for n, _ in corpus()])
def test_the_recorders_table_is_the_engines_board_move_by_move(made):
    doc = to_table_record(made())
    steps = engine_steps(doc)
    plays = 0
    for h, hand in enumerate(doc["hands"]):
        last = len(hand["moves"]) - 1
        for m in range(len(hand["moves"])):
            state, figures, before = steps[(h, m)]
            answer = analyse(cut(doc, h, m + 1))
            assert answer["report"]["errors"] == [], (h, m)
            waiting = m == last and state["hand_end"] in ("domino", "block")
            # (At a hand's end by a domino or a block the table waits for ``left``: the
            # table is the engine's, the scores before the settlement still to come.)
            shown = [k for k in SHOWN if not (waiting and k == "scores")]
            assert {k: answer["state"][k] for k in shown} == {k: state[k] for k in shown}
            if m < last:
                assert answer["state"]["turn"] == state["turn"]
            if figures is None:  # a draw or a pass scores nothing apart
                assert (answer["bonus"], answer["bust"]) == (0, None)
                continue
            plays += 1
            MET["plays"] += 1
            MET["bonuses"] += figures.bonus > 0
            MET["busts"] += figures.bust > 0
            assert answer["state"]["points"] == figures.points
            if figures.bust:
                would = before[team_of(doc, state["seat"])] + figures.bust
                target = answer["pegs"]["target"]
                assert answer["bust"] == {"would": would, "target": target}
                assert answer["bonus"] == 0
            else:
                assert (answer["bonus"], answer["bust"]) == (figures.bonus, None)
        if "left" in hand:  # the hand with its tiles shown: the engine's end, settled
            answer = analyse(cut(doc, h, last + 1, left=True))
            state = steps[(h, last)][0]
            shown = (*SHOWN, "settlement")
            assert {k: answer["state"][k] for k in shown} == {k: state[k] for k in shown}
    assert plays


def test_the_corpus_met_plays_bonuses_and_busts():
    """The walk above met every figure it holds the recorder to (it ran first)."""
    assert MET["plays"] > 100 and MET["bonuses"] > 0 and MET["busts"] > 0, MET
