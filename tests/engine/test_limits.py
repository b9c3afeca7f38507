"""No single log can hurt a batch or a page: the limits of ``engine/fives_engine/limits.py``.

Every log the engine calls valid fits the archive's columns (names of at most 100
characters, no NUL, no lone surrogate, finite numbers of a sane size, a ``played_at`` that
Python can read back), and every log it refuses gets a report that can be stored and shown.
A corpus of poison logs goes through every path: ``validate_log``, ``validate_json`` (text
and bytes), ``check_document``, replays, the review and the command line;
each must give the exact code, hand and move, and none may raise.
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import (
    SchemaError,
    check_document,
    parse_log,
    played_at_moment,
    validate_json,
    validate_log,
)
from fives_engine.analysis import analyse_log
from fives_engine.codes import SCHEMA_PROBLEMS
from fives_engine.limits import (
    MAX_CLUB,
    MAX_EVENT,
    MAX_HANDS,
    MAX_ID,
    MAX_NUMBER,
    MAX_PATH,
    MAX_PLAYED_AT,
    MAX_PLAYER_NAME,
    MAX_SOURCE,
)
from fives_engine.replay import replay_log
from fives_engine.report import Report
from tests.engine.helpers import format_example

TEN_MB = 10 * 1024 * 1024
# A message a page shows: long enough for a path and a limit, never a whole poisoned field.
LONGEST_MESSAGE = 600


@dataclass
class Case:
    """A poison (or borderline) log and what every path must say of it.

    ``expect`` is None for a valid log, else ``(code, hand, move, problem, path)``
    (``problem`` and ``path`` for schema and ruleset errors; None where they do not apply).
    ``doc`` is the JSON value, ``text`` the JSON text (either may be missing: bytes that
    are not UTF-8 have no value; a value nested 100,000 deep has no text).
    """

    name: str
    expect: tuple[Any, ...] | None
    doc: Any = None
    text: bytes | None = None


INF = "__INFINITY__"  # written as 1e400 in the text, read back as inf
NEG_INF = "__NEGATIVE_INFINITY__"


def text_of(doc: Any) -> bytes:
    """Return the JSON text of ``doc`` (ASCII, so NUL and surrogates are escapes)."""
    text = json.dumps(doc)
    return text.replace(f'"{INF}"', "1e400").replace(f'"{NEG_INF}"', "-1e400").encode()


def edited(edit: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    doc = copy.deepcopy(format_example())
    edit(doc)
    return doc


def case(name: str, expect: tuple[Any, ...] | None, edit: Callable[[dict], Any]) -> Case:
    text = text_of(edited(edit))
    return Case(name, expect, json.loads(text), text)


def top(name: str, expect: tuple[Any, ...] | None, **fields: Any) -> Case:
    return case(name, expect, lambda doc: doc.update(fields))


def setter(*path: Any, value: Any) -> Callable[[dict], None]:
    def edit(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def schema(problem: str, path: str, hand: int | None = None, move: int | None = None):
    return ("schema", hand, move, problem, path)


MOVES = ("hands", 0, "moves")
NUL = "\u0000"
HIGH = "\ud800"  # a high surrogate alone
LOW = "\udfff"  # a low surrogate alone
EMOJI = "\U0001f0a1"  # a surrogate pair in JSON text ("\ud83c\udca1"): one character

CORPUS: list[Case] = [
    # --- lengths: the columns of the archive ---------------------------------------------
    top(
        "name-150",
        schema("too-many-characters", "$.players[0]"),
        players=["N" * 150, "Giorgi"],
    ),
    top("name-100", None, players=["N" * MAX_PLAYER_NAME, "Giorgi"]),
    top(
        "name-101",
        schema("too-many-characters", "$.players[1]"),
        players=["Nino", "G" * (MAX_PLAYER_NAME + 1)],
    ),
    top("name-10mb", schema("too-many-characters", "$.players[0]"), players=["N" * TEN_MB, "G"]),
    top("id-500", schema("too-many-characters", "$.id"), id="i" * 500),
    top("id-200", None, id="i" * MAX_ID),
    top("id-201", schema("too-many-characters", "$.id"), id="i" * (MAX_ID + 1)),
    top("club-200", None, club="c" * MAX_CLUB),
    top("club-201", schema("too-many-characters", "$.club"), club="c" * (MAX_CLUB + 1)),
    top("event-1000", None, event="e" * MAX_EVENT),
    top("event-1001", schema("too-many-characters", "$.event"), event="e" * (MAX_EVENT + 1)),
    top("source-1000", None, source="s" * MAX_SOURCE),
    top("source-1001", schema("too-many-characters", "$.source"), source="s" * (MAX_SOURCE + 1)),
    top("played-at-500", schema("too-many-characters", "$.played_at"), played_at="p" * 500),
    top("played-at-text-100", None, played_at="p" * MAX_PLAYED_AT),
    top(
        "played-at-text-101",
        schema("too-many-characters", "$.played_at"),
        played_at="p" * (MAX_PLAYED_AT + 1),
    ),
    top("unknown-field-10mb", None, note="n" * TEN_MB),
    top("unknown-field-10mb-nul-at-the-end", schema("nul", "$.note"), note="n" * TEN_MB + NUL),
    # --- NUL --------------------------------------------------------------------------------
    top("nul-in-name", schema("nul", "$.players[0]"), players=[f"Ni{NUL}no", "Giorgi"]),
    top("nul-in-event", schema("nul", "$.event"), event=f"round 4{NUL}"),
    top("nul-in-id", schema("nul", "$.id"), id=NUL),
    top("nul-in-club", schema("nul", "$.club"), club=f"{NUL}club"),
    top("nul-in-source", schema("nul", "$.source"), source=NUL),
    top("nul-in-played-at", schema("nul", "$.played_at"), played_at=f"2026-11-20{NUL}"),
    case(
        "nul-in-a-dealt-tile",
        schema("nul", "$.hands[0].deal[1][0]", 0),
        setter("hands", 0, "deal", 1, 0, value=f"5-0{NUL}"),
    ),
    case(
        "nul-in-a-played-tile",
        schema("nul", "$.hands[0].moves[2].play", 0, 2),
        setter(*MOVES, 2, "play", value=f"3-5{NUL}"),
    ),
    case(
        "nul-in-a-drawn-tile",
        schema("nul", "$.hands[0].moves[3].draw", 0, 3),
        setter(*MOVES, 3, "draw", value=NUL),
    ),
    case(
        "nul-in-an-end",
        schema("end", "$.hands[0].moves[2].end", 0, 2),
        setter(*MOVES, 2, "end", value=f"W{NUL}"),
    ),
    case(
        "nul-in-a-preset-name",
        schema("nul", "$.ruleset.base"),
        setter("ruleset", "base", value=f"muggins{NUL}"),
    ),
    case(
        "nul-in-a-ruleset-option-name",
        schema("name-nul", '$.ruleset["tar\\u0000get"]'),
        setter("ruleset", f"tar{NUL}get", value=100),
    ),
    top("nul-in-an-unknown-field", schema("nul", "$.comment[1].text"), comment=[1, {"text": NUL}]),
    top(
        "nul-in-an-unknown-field-name",
        schema("name-nul", '$["a\\u0000b"]'),
        **{f"a{NUL}b": 1},
    ),
    case(
        "nul-in-an-unknown-field-of-a-hand",
        schema("nul", "$.hands[0].table", 0),
        setter("hands", 0, "table", value=NUL),
    ),
    case(
        "nul-in-an-unknown-field-of-a-move",
        schema("nul", "$.hands[0].moves[4].said", 0, 4),
        setter(*MOVES, 4, "said", value=f"knock{NUL}"),
    ),
    # --- lone surrogates ----------------------------------------------------------------
    top("high-surrogate-in-name", schema("lone-surrogate", "$.players[0]"), players=[HIGH, "G"]),
    top("low-surrogate-in-name", schema("lone-surrogate", "$.players[1]"), players=["N", LOW]),
    top(
        "surrogates-the-wrong-way-round",
        schema("lone-surrogate", "$.players[0]"),
        players=["\ude00\ud83d", "Giorgi"],
    ),
    top("surrogate-in-event", schema("lone-surrogate", "$.event"), event=f"round {HIGH}"),
    top("surrogate-in-id", schema("lone-surrogate", "$.id"), id=HIGH),
    top("surrogate-in-club", schema("lone-surrogate", "$.club"), club=LOW),
    top("surrogate-in-source", schema("lone-surrogate", "$.source"), source=HIGH),
    top("surrogate-in-played-at", schema("lone-surrogate", "$.played_at"), played_at=HIGH),
    case(
        "surrogate-in-a-played-tile",
        schema("lone-surrogate", "$.hands[0].moves[0].play", 0, 0),
        setter(*MOVES, 0, "play", value=HIGH),
    ),
    top("surrogate-in-a-preset-name", schema("lone-surrogate", "$.ruleset"), ruleset=HIGH),
    case(
        "surrogate-in-a-ruleset-value",
        schema("lone-surrogate", "$.ruleset.settlement"),
        setter("ruleset", "settlement", value=LOW),
    ),
    top(
        "surrogate-in-an-unknown-field-name",
        schema("name-lone-surrogate", '$["\\ud800"]'),
        **{HIGH: "x"},
    ),
    case(
        "surrogate-in-an-unknown-field-of-a-move",
        schema("lone-surrogate", "$.hands[0].moves[1].note[1]", 0, 1),
        setter(*MOVES, 1, "note", value=["fine", HIGH]),
    ),
    top("an-emoji-is-a-valid-pair", None, players=[f"Nino {EMOJI}", "Giorgi"], event=EMOJI),
    # --- numbers --------------------------------------------------------------------------
    top("final-scores-1e400", schema("not-finite", "$.final_scores[0]"), final_scores=[INF, 0]),
    top(
        "final-scores-minus-1e400",
        schema("not-finite", "$.final_scores[1]"),
        final_scores=[10, NEG_INF],
    ),
    top(
        "final-scores-10-to-the-400",
        schema("out-of-range", "$.final_scores[0]"),
        final_scores=[10**400, 10],
    ),
    top("final-scores-at-the-limit", None, final_scores=[MAX_NUMBER, -MAX_NUMBER]),
    top(
        "final-scores-past-the-limit",
        schema("out-of-range", "$.final_scores[0]"),
        final_scores=[MAX_NUMBER + 1, 10],
    ),
    case(
        "points-10-to-the-400",
        schema("out-of-range", "$.hands[0].moves[0].points", 0, 0),
        setter(*MOVES, 0, "points", value=10**400),
    ),
    case(
        "points-1e400",
        schema("not-finite", "$.hands[0].moves[1].points", 0, 1),
        setter(*MOVES, 1, "points", value=INF),
    ),
    case(
        "points-minus-1e400",
        schema("not-finite", "$.hands[0].moves[1].points", 0, 1),
        setter(*MOVES, 1, "points", value=NEG_INF),
    ),
    case("points-at-the-limit", None, setter(*MOVES, 1, "points", value=MAX_NUMBER)),
    case("points-at-the-lower-limit", None, setter(*MOVES, 1, "points", value=-MAX_NUMBER)),
    case(
        "points-past-the-limit",
        schema("out-of-range", "$.hands[0].moves[1].points", 0, 1),
        setter(*MOVES, 1, "points", value=-MAX_NUMBER - 1),
    ),
    case("points-negative-zero", None, setter(*MOVES, 3, "points", value=-0.0)),
    case(
        "seat-10-to-the-400",
        schema("out-of-range", "$.hands[0].moves[1].seat", 0, 1),
        setter(*MOVES, 1, "seat", value=10**400),
    ),
    case(
        "leader-10-to-the-10",
        schema("out-of-range", "$.hands[0].leader", 0),
        setter("hands", 0, "leader", value=10**10),
    ),
    top("team-seat-10-to-the-10", schema("out-of-range", "$.teams[0][1]"), teams=[[0, 10**10]]),
    case(
        "target-10-to-the-400",
        ("ruleset", None, None, "at-most", None),
        setter("ruleset", "target", value=10**400),
    ),
    case(
        "target-per-count-10-to-the-10",
        ("ruleset", None, None, "at-most", None),
        setter("ruleset", "target", value={"2": 10**10}),
    ),
    case("target-at-the-limit", None, setter("ruleset", "target", value=MAX_NUMBER)),
    # --- played_at ----------------------------------------------------------------------
    # ISO 8601 all the same (FORMAT.md asks no more): kept as text, with no moment.
    top("played-at-past-9999-in-utc", None, played_at="9999-12-31T23:59:59-14:00"),
    top("played-at-before-year-1-in-utc", None, played_at="0001-01-01T00:00:00+14:00"),
    top("played-at-year-9999-in-utc", None, played_at="9999-12-31T23:59:59Z"),
    top("played-at-year-9999-east", None, played_at="9999-12-31T23:59:59+14:00"),
    top("played-at-year-1-in-utc", None, played_at="0001-01-01T00:00:00+00:00"),
    top("played-at-year-1-naive", None, played_at="0001-01-01T00:00:00"),
    top("played-at-date-9999-12-31", None, played_at="9999-12-31"),
    top("played-at-date-0001-01-01", None, played_at="0001-01-01"),
    top("played-at-not-iso-is-text", None, played_at="last Tuesday, after dinner"),
    top("played-at-year-0-is-text", None, played_at="0000-01-01"),
    # --- shapes -----------------------------------------------------------------------------
    top(
        "a-hundred-thousand-players",
        ("players", None, None, None, None),
        players=[f"p{i}" for i in range(100_000)],
    ),
    top(
        "a-hundred-thousand-nul-players",
        schema("nul", "$.players[0]"),
        players=[NUL] * 100_000,
    ),
    top(
        "too-many-hands",
        schema("too-many-hands", "$.hands"),
        hands=[{}] * (MAX_HANDS + 1),
    ),
    top("nested-500-deep-in-an-unknown-field", None, note=json.loads("[" * 500 + "]" * 500)),
    Case("nested-100000-deep", schema("too-deep", "$"), text=b"[" * 100_000 + b"]" * 100_000),
    Case("not-utf8", schema("not-utf8", "$"), text=b'{"players": ["\xff"]}'),
    Case("encoded-surrogate", schema("not-utf8", "$"), text=b'{"players": ["\xed\xa0\x80"]}'),
    Case("nan", schema("not-json-number", "$"), text=b'{"points": NaN}'),
    Case("5000-digits", schema("not-json-other", "$"), text=b"[" + b"9" * 5000 + b"]"),
]


def deep(depth: int, bottom: Any) -> Any:
    value = bottom
    for _ in range(depth):
        value = [value]
    return value


# Values that JSON text cannot carry here (too deep for json.dumps): parsed values only.
CORPUS += [
    Case(
        "nested-100000-deep-in-an-unknown-field",
        None,
        doc={**format_example(), "x": deep(100_000, 1)},
    ),
    Case(
        "nul-nested-100000-deep-in-an-unknown-field",
        ("schema", None, None, "nul", None),
        doc={**format_example(), "x": deep(100_000, NUL)},
    ),
    Case(
        "nan-points",
        schema("number", "$.hands[0].moves[1].points", 0, 1),
        doc=edited(setter(*MOVES, 1, "points", value=math.nan)),
    ),
    Case(
        "inf-points",
        schema("not-finite", "$.hands[0].moves[1].points", 0, 1),
        doc=edited(setter(*MOVES, 1, "points", value=math.inf)),
    ),
]


def outcome(report: Report) -> tuple[Any, ...] | None:
    if report.valid:
        return None
    [error] = report.errors
    return (
        str(error.code),
        error.hand,
        error.move,
        error.params.get("problem"),
        error.params.get("path"),
    )


def matches(got: tuple[Any, ...] | None, expect: tuple[Any, ...] | None) -> bool:
    if got is None or expect is None:
        return got == expect
    # A None path in the expectation: any path (a deep one is cut short).
    return got[:4] == expect[:4] and (expect[4] is None or got[4] == expect[4])


def strings_of(value: Any) -> list[str]:
    """Return every string of a JSON value, field names included."""
    found: list[str] = []
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            found.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return found


def assert_storable(report: Report) -> None:
    """The report, with each issue's params (as the archive stores it), can be stored as
    JSON in PostgreSQL (no NUL, no infinity, text that is UTF-8) and shown on a page."""
    issues = report.errors + report.warnings
    stored = [report.as_dict(), [issue.params for issue in issues]]
    json.dumps(stored, ensure_ascii=False, allow_nan=False).encode("utf-8")
    assert not any("\x00" in text for text in strings_of(stored))
    for issue in issues:
        assert len(issue.message) <= LONGEST_MESSAGE, issue.message[:200]


def assert_the_log_fits_the_archive(doc: Any) -> None:
    """A valid log: every field within the columns of the archive."""
    log = parse_log(doc)
    assert all(len(name) <= MAX_PLAYER_NAME for name in log.players)
    json.dumps(log.as_json(), ensure_ascii=False, allow_nan=False).encode("utf-8")
    assert not any("\x00" in text for text in strings_of(log.as_json()))
    for hand in log.hands:
        for move in hand.moves:
            assert move.points is None or abs(float(move.points)) <= MAX_NUMBER
    moment = played_at_moment(log.played_at)
    if moment is not None:
        assert moment.tzinfo is UTC and 1 <= moment.year <= 9999
        assert datetime.fromisoformat(moment.isoformat()) == moment


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_every_path_gives_the_exact_error_of_a_poison_log_and_never_raises(case):
    reports: list[Report] = []
    if case.doc is not None:
        doc = case.doc
        reports += [
            validate_log(doc),
            check_document(doc).report,
            replay_log(doc).report,
            replay_log(doc, review=True).report,
            analyse_log(doc).report,
        ]
    if case.text is not None:
        reports += [
            validate_json(case.text),
            check_document(case.text).report,
        ]
        try:
            text = case.text.decode()
        except UnicodeDecodeError:
            pass
        else:
            reports += [validate_json(text), check_document(text).report]
    for report in reports:
        assert matches(outcome(report), case.expect), (outcome(report), case.expect)
        assert_storable(report)
    assert all(report.as_dict() == reports[0].as_dict() for report in reports)
    if case.expect is None:
        assert_the_log_fits_the_archive(case.doc)
    elif case.expect[0] == "schema" and case.doc is not None:
        with pytest.raises(SchemaError):
            parse_log(case.doc)


def test_a_schema_message_names_the_path_and_the_limit():
    report = validate_log({**format_example(), "players": ["N" * 150, "Giorgi"]})
    assert report.errors[0].message == (
        "not a fives/1 log: $.players[0] is 150 characters long; the most is 100"
    )
    report = validate_log({**format_example(), "final_scores": [math.inf, 0]})
    assert report.errors[0].message == (
        "not a fives/1 log: $.final_scores[0] is not a finite number (it reads as "
        "infinity); it must lie between -1000000000 and 1000000000"
    )
    report = validate_log({**format_example(), "event": "ab\x00"})
    assert report.errors[0].message == (
        "not a fives/1 log: $.event holds the character U+0000 (NUL) at position 3; "
        "no string may hold it"
    )
    report = validate_log({**format_example(), "players": ["Nino", "G\ud800"]})
    assert report.errors[0].params == {
        "path": "$.players[1]",
        "problem": "lone-surrogate",
        "char": "U+D800",
        "position": 2,
    }


def test_a_ruleset_error_quotes_a_long_name_cut_short():
    doc = format_example()
    doc["ruleset"] = {"base": "muggins", "x" * TEN_MB: 1}
    [error] = validate_log(doc).errors
    assert error.code == "ruleset" and error.params["problem"] == "option"
    assert error.message == f'ruleset: unknown option "{"x" * 40}..."'


def test_a_path_through_a_deep_value_stops_growing():
    doc = {**format_example(), "x": deep(100_000, NUL)}
    [error] = validate_log(doc).errors
    assert error.params["path"].startswith("$.x[0][0]")
    assert len(error.params["path"]) <= MAX_PATH + 10


def test_every_new_problem_is_in_the_table():
    for problem in (
        "too-many-characters",
        "nul",
        "lone-surrogate",
        "name-nul",
        "name-lone-surrogate",
        "not-finite",
        "out-of-range",
        "played-at-range",  # given no more, named by reports stored before
        "too-many-hands",
    ):
        assert problem in SCHEMA_PROBLEMS


# --- played_at_moment: the one reading of played_at -------------------------------------


def test_played_at_moment_reads_iso_8601_in_utc_and_nothing_else():
    assert played_at_moment("2026-11-20T19:05:00+04:00") == datetime(
        2026, 11, 20, 15, 5, tzinfo=UTC
    )
    assert played_at_moment("2026-11-20T19:05:00") == datetime(2026, 11, 20, 19, 5, tzinfo=UTC)
    assert played_at_moment("2026-11-20") == datetime(2026, 11, 20, tzinfo=UTC)
    assert played_at_moment("9999-12-31") == datetime(9999, 12, 31, tzinfo=UTC)
    assert played_at_moment(None) is None
    assert played_at_moment("") is None
    assert played_at_moment("last Tuesday") is None
    # Out of range in UTC: the log is valid, its played_at kept as text with no moment.
    assert played_at_moment("9999-12-31T23:59:59-14:00") is None
    assert played_at_moment("0001-01-01T00:00:00+14:00") is None


offsets = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.datetimes(), st.one_of(st.none(), offsets), st.sampled_from(["T", " "]))
def test_any_iso_played_at_is_valid_and_has_a_moment_unless_it_leaves_the_years_1_to_9999(
    when, offset, separator
):
    text = when.replace(tzinfo=offset).isoformat(separator)
    report = validate_log({**format_example(), "played_at": text})
    assert report.valid
    try:
        moment = when.replace(tzinfo=offset or UTC).astimezone(UTC)
    except OverflowError:
        assert played_at_moment(text) is None
        return
    assert played_at_moment(text) == moment


# --- any string, any number: storable reports, the fast lane agrees ----------------------

any_text = st.text(max_size=30) | st.sampled_from([NUL, HIGH, LOW, f"a{EMOJI}b", "\ude00\ud83d"])
any_number = st.one_of(
    st.integers(),
    st.integers(-(10**400), 10**400),
    st.floats(),  # NaN and infinities included
    st.sampled_from([MAX_NUMBER, MAX_NUMBER + 1, -MAX_NUMBER - 1, -0.0, 10**400]),
)
STRING_PLACES = [
    ("players", 0),
    ("players", 1),
    ("event",),
    ("id",),
    ("club",),
    ("played_at",),
    ("source",),
    ("note",),
    ("ruleset", "base"),
    ("hands", 0, "deal", 0, 3),
    ("hands", 0, "moves", 2, "play"),
    ("hands", 0, "moves", 3, "draw"),
    ("hands", 0, "moves", 2, "note"),
    ("hands", 0, "note"),
]
NUMBER_PLACES = [
    ("final_scores", 0),
    ("hands", 0, "moves", 0, "points"),
    ("hands", 0, "moves", 3, "points"),
    ("hands", 0, "moves", 1, "seat"),
    ("hands", 0, "leader"),
    ("ruleset", "target"),
    ("note",),
]
PROPERTY = settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def assert_agreed_and_storable(doc: dict[str, Any]) -> Report:
    report = validate_log(doc)
    assert_storable(report)
    checked = check_document(doc)
    assert checked.report.as_dict() == report.as_dict()
    assert replay_log(doc).report.as_dict() == report.as_dict()
    if report.valid:
        assert_the_log_fits_the_archive(doc)
    return report


@PROPERTY
@given(st.sampled_from(STRING_PLACES), any_text, any_text)
def test_any_string_anywhere_gives_a_storable_report(place, text, name):
    doc = edited(setter(*place, value=text))
    if place == ("note",):
        doc[name] = text  # any field name too
    report = assert_agreed_and_storable(doc)
    written = text + name if place == ("note",) else text
    if any(c == NUL or "\ud800" <= c <= "\udfff" for c in written):
        assert not report.valid


@PROPERTY
@given(st.sampled_from(NUMBER_PLACES), any_number)
def test_any_number_anywhere_gives_a_storable_report(place, number):
    doc = edited(setter(*place, value=number))
    report = assert_agreed_and_storable(doc)
    if place != ("note",) and (math.isinf(number) if isinstance(number, float) else False):
        assert not report.valid


# --- the command line -------------------------------------------------------------------


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fives_engine", *args], input=stdin, capture_output=True
    )


def test_the_command_line_prints_a_report_for_every_poison_log(tmp_path):
    lines = [case for case in CORPUS if case.text is not None and len(case.text) < 1_000_000]
    path = tmp_path / "poison.ndjson"
    path.write_bytes(b"\n".join(case.text for case in lines) + b"\n")
    out = run("validate", str(path))
    assert out.returncode == 1, out.stderr.decode(errors="replace")
    assert out.stderr == b""
    reports = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert len(reports) == len(lines)
    for case, report in zip(lines, reports, strict=True):
        if case.expect is None:
            assert report["valid"], (case.name, report["errors"])
        else:
            [error] = report["errors"]
            assert (error["code"], error["hand"], error["move"]) == case.expect[:3], case.name


@pytest.mark.parametrize(
    "data",
    [
        text_of({**format_example(), "players": [HIGH, HIGH]}),
        text_of({**format_example(), "players": ["Nino", "Nino\ud800"]}),
        b'{"format": "fives/1", "players": ["\xed\xa0\x80"]}',
        b"\xff\xfe\x00",
        b'"\\ud800"',
        b"[" * 100_000,
    ],
    ids=["repeated-surrogate", "surrogate", "encoded-surrogate", "bad-bytes", "string", "deep"],
)
def test_the_command_line_never_prints_a_traceback(tmp_path, data):
    path = tmp_path / "log.json"
    path.write_bytes(data)
    for out in (run("validate", str(path)), run("validate", "-", stdin=data)):
        assert out.returncode == 1
        assert b"Traceback" not in out.stderr
        [report] = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
        assert report["errors"][0]["code"] == "schema"
