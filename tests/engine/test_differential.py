"""The engine against an independent reference written from RULES.md and FORMAT.md alone.

``reference.py`` was written without reading the engine: where the two disagree on a
simulated or mutated log, one of them misreads the rules.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from games.engine import validate_log
from games.engine.fast import fast_knows, fast_report
from games.engine.log import parse_log
from games.engine.rules import resolve_ruleset
from games.engine.validate import validate_match
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


@SETTINGS
@given(mutated_logs())
def test_the_fast_lane_agrees_with_the_careful_validator_or_steps_aside(case):
    doc = case[0]
    careful = validate_match(parse_log(doc)).as_dict()
    fast = fast_report(doc)
    # Stepping aside is always allowed (an error, a warning, an unusual field); answering
    # is allowed only with the careful validator's report.
    if fast is not None:
        assert fast.as_dict() == careful


@SETTINGS
@given(simulated_logs())
def test_the_fast_lane_takes_every_clean_simulated_log_of_the_rules_it_knows(doc):
    fast = fast_report(doc)
    rules = resolve_ruleset(doc["ruleset"], len(doc["players"]))
    if not fast_knows(rules):
        # A new option's value (Fives and Threes): the careful walk is its one home.
        assert fast is None
        return
    assert fast is not None
    assert fast.as_dict() == validate_match(parse_log(doc)).as_dict()
