"""Any JSON value and any bytes give a report, never an exception."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import validate_json, validate_log
from tests.engine.helpers import format_example

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)

FIELDS = ["format", "ruleset", "players", "teams", "hands", "final_scores", "played_at", "id"]
HAND_FIELDS = ["leader", "deal", "moves"]
MOVE_FIELDS = ["seat", "play", "draw", "pass", "end", "points"]


def assert_is_a_report(report):
    out = report.as_dict()
    json.dumps(out)
    assert set(out) == {
        "valid",
        "outcome",
        "ruleset",
        "errors",
        "warnings",
        "scores",
        "winner",
        "hands",
    }
    assert out["valid"] == (out["errors"] == [])
    assert len(out["errors"]) <= 1
    for issue in out["errors"] + out["warnings"]:
        assert set(issue) == {"code", "hand", "move", "seat", "message"}
        assert issue["message"]


@settings(max_examples=500, deadline=None)
@given(json_values)
def test_any_json_value_gives_a_report(value):
    assert_is_a_report(validate_log(value))


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_report(data):
    assert_is_a_report(validate_json(data))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_log_with_any_field_replaced_by_any_json_gives_a_report(data):
    doc = copy.deepcopy(format_example())
    where = data.draw(st.sampled_from(["top", "hand", "move"]))
    value = data.draw(json_values)
    if where == "top":
        doc[data.draw(st.sampled_from(FIELDS))] = value
    elif where == "hand":
        doc["hands"][0][data.draw(st.sampled_from(HAND_FIELDS))] = value
    else:
        move = data.draw(st.sampled_from(doc["hands"][0]["moves"]))
        move[data.draw(st.sampled_from(MOVE_FIELDS))] = value
    assert_is_a_report(validate_log(doc))


def test_deeply_nested_json_is_a_schema_error_not_a_crash():
    report = validate_json(b"[" * 100_000 + b"]" * 100_000).as_dict()
    assert report["errors"][0]["code"] == "schema"
