"""One walk: check_document against validate_log and the review, walks counted, and the
writers of ``fives/1`` (the simulator and ``as_json_text``)."""

from __future__ import annotations

import hashlib
import json
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import (
    check_document,
    log,
    parse_log,
    to_table_record,
    validate,
    validate_log,
    validate_traced,
)
from fives_engine.analysis import analyse_log, insights
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match, simulate_matches
from tests.engine.helpers import format_example
from tests.engine.test_properties import mutated_logs, simulated_logs
from tests.engine.test_table_records import mutated_table_logs

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def careful(doc):
    """Return the careful validator's walk of a log, reviewing every play."""
    return validate.walk_match(None, parse_log(doc), trace=True, review=True)


@SETTINGS
@given(st.one_of(simulated_logs(), mutated_logs().map(lambda case: case[0])))
def test_check_document_gives_the_report_the_log_and_the_review_of_analyse_log(doc):
    checked = check_document(json.dumps(doc))
    assert checked.report.as_dict() == validate_log(doc).as_dict()
    assert checked.log == parse_log(doc)
    if checked.log is not None:
        assert checked.log.as_json_text() == parse_log(doc).as_json_text()
        assert checked.log.canonical_text() == sorted_json(checked.log)
    analysis = analyse_log(doc)
    assert checked.report.as_dict() == analysis.report.as_dict()
    assert insights(checked.moves) == analysis.moves
    assert checked.moves == careful(doc).moves
    _, trace = validate_traced(doc)
    assert [[(f.count, f.points) for f in hand] for hand in checked.moves] == trace


def test_check_document_parses_points_and_seats_with_their_own_json_types():
    # 5.0 equals 5 and True equals 1 in Python, and a shared move of one must not stand
    # for the other: the log must write back what the document says.
    doc = simulate_match("muggins", 2, seed=3, max_hands=2)
    moves = [move for hand in doc["hands"] for move in hand["moves"]]
    scoring = next(move for move in moves[1:] if move.get("points") and "play" in move)
    drawing = next(move for move in moves if "draw" in move)
    drawing["points"] = 0
    # The moves with int points are met (and shared, their texts kept) first.
    check_document(json.dumps(doc)).log.canonical_text()
    scoring["points"] = float(scoring["points"])
    drawing["points"] = 0.0
    data = json.dumps(doc)
    checked = check_document(data)
    assert checked.report.valid and not checked.report.warnings
    assert checked.log.as_json_text() == parse_log(json.loads(data)).as_json_text()
    assert '"points":0.0' in checked.log.as_json_text()
    # The canonical text (a match's content hash) too: the int moves' texts are known.
    assert '"points":0.0' in checked.log.canonical_text()
    assert checked.log.canonical_text() == sorted_json(checked.log)
    seated = json.loads(data)
    seated["hands"][0]["moves"][1]["seat"] = bool(seated["hands"][0]["moves"][1]["seat"])
    checked = check_document(json.dumps(seated))
    assert checked.report.errors[0].code == "schema" and checked.log is None


def test_check_document_takes_bytes_text_or_a_parsed_value():
    doc = format_example()
    for data in (doc, json.dumps(doc), json.dumps(doc).encode()):
        checked = check_document(data)
        assert checked.report.valid and checked.log == parse_log(doc)
        assert [facts.count for facts in checked.moves[0]] == [10, 10, 3, None, None, 4]
    broken = check_document(b"{")
    assert (broken.report.errors[0].code, broken.log, broken.moves) == ("schema", None, [])


@pytest.mark.spies
def test_each_reader_walks_the_match_once_and_parses_it_once():
    doc = simulate_match("all-fives", 3, seed=11, max_hands=5)
    data = json.dumps(doc).encode()
    readers = [
        lambda: check_document(data),
        lambda: validate_log(doc),
        lambda: validate_traced(doc),
        lambda: analyse_log(doc),
        lambda: replay_log(doc, review=True),
    ]
    for read in readers:
        with (
            mock.patch.object(validate, "walk_match", wraps=validate.walk_match) as walks,
            mock.patch("json.loads", wraps=json.loads) as decodes,
        ):
            read()
        assert walks.call_count == 1
        assert decodes.call_count <= 1


@pytest.mark.spies
def test_check_document_parses_the_log_once():
    data = json.dumps(simulate_match("muggins", 2, seed=3)).encode()
    with (
        mock.patch.object(validate, "parse_log", wraps=parse_log) as parses,
        mock.patch.object(log, "_parse_hand", wraps=log._parse_hand) as hand_parses,
    ):
        checked = check_document(data)
    assert parses.call_count == 1
    assert hand_parses.call_count == len(checked.log.hands)


# The simulator's output for a few seeds, hashed before it was rewritten over MatchLog.
SIMULATED_HASH = "674d715fbc29d82ba6bf55d7480dae97681034a21084f8946e9c0c6b36e42281"


def test_the_simulator_writes_the_same_logs_as_before_for_the_same_seeds():
    digest = hashlib.sha256()
    rulesets = [
        "all-fives",
        "muggins",
        "all-threes",
        {"base": "muggins", "end_at_target": "immediately", "target": 50},
    ]
    for ruleset in rulesets:
        for players, teams in [(2, False), (3, False), (4, False), (4, True)]:
            for seed in range(3):
                doc = simulate_match(
                    ruleset,
                    players,
                    teams=teams,
                    seed=seed,
                    bots=("greedy", "random"),
                    max_hands=20,
                )
                digest.update(json.dumps(doc).encode())
    for doc in simulate_matches(5, seed=7, names=["Ана", "Გიორგი"]):
        digest.update(json.dumps(doc, ensure_ascii=False).encode())
    assert digest.hexdigest() == SIMULATED_HASH


# Text a log may hold: no NUL, no lone surrogate (limits.py; tests/engine/test_limits.py
# gives the others).
texts = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=12)


@SETTINGS
@given(
    st.one_of(simulated_logs(), mutated_logs().map(lambda case: case[0])),
    st.lists(texts.filter(str.strip), min_size=4, max_size=4, unique=True),
    st.one_of(st.none(), texts),
)
def test_as_json_text_is_the_compact_json_of_as_json(doc, names, club):
    doc["players"] = names[: len(doc["players"])]
    doc["club"] = club
    log = parse_log(doc)
    expected = json.dumps(log.as_json(), ensure_ascii=False, separators=(",", ":"))
    assert log.as_json_text() == expected
    assert parse_log(json.loads(log.as_json_text())) == log


# --- table records (FORMAT.md, "Table records") -------------------------------------------


@SETTINGS
@given(
    st.one_of(
        simulated_logs().map(to_table_record),
        mutated_table_logs(),
    )
)
def test_check_document_of_a_table_record_is_the_walk_of_validate_log(doc):
    checked = check_document(json.dumps(doc))
    slow = careful(doc)
    assert checked.report.as_dict() == slow.report.as_dict() == validate_log(doc).as_dict()
    assert checked.report.as_dict()["record"] == "table"
    assert checked.moves == slow.moves
    assert checked.log == parse_log(doc)
    analysis = analyse_log(doc)
    assert insights(checked.moves) == analysis.moves
    _, trace = validate_traced(doc)
    assert [[(f.count, f.points) for f in hand] for hand in checked.moves] == trace
    log = parse_log(doc)
    assert log.as_json_text() == json.dumps(
        log.as_json(), ensure_ascii=False, separators=(",", ":")
    )
    assert parse_log(json.loads(log.as_json_text())) == log


def sorted_json(log: log.MatchLog) -> str:
    """Return the canonical text as its definition says: the log's object, keys sorted."""
    return json.dumps(log.as_json(), sort_keys=True, separators=(",", ":"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["all-fives", "muggins", "all-threes"]),
    st.sampled_from([(2, False), (3, False), (4, True)]),
    st.integers(0, 2**32),
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=20),
    st.one_of(st.none(), st.floats(-100, 100), st.integers(-100, 100)),
)
def test_the_canonical_text_is_the_log_with_its_keys_sorted(preset, table, seed, text, claim):
    # Any metadata a log may hold (non-ASCII, escapes), and a claim of any number on the first move.
    players, teams = table
    doc = simulate_match(preset, players, teams=teams, seed=seed, max_hands=3)
    doc["event"] = text or None
    doc["hands"][0]["moves"][0]["points"] = claim
    log = parse_log(doc)
    assert log.canonical_text() == sorted_json(log)
    assert json.loads(log.canonical_text()) == log.as_json()
