"""Error codes: one enumeration, the codes of FORMAT.md, every message worded by ``describe``."""

from __future__ import annotations

import gettext
import json
import pathlib
import re

import pytest

from fives_engine import Code, describe, validate_json, validate_log
from fives_engine.codes import KINDS, MESSAGES, RULESET_PROBLEMS, SCHEMA_PROBLEMS
from fives_engine.report import Issue
from tests.engine.helpers import format_example, moves_of

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORMAT_CANDIDATES = (ROOT.parent / "shared" / "FORMAT.md", pathlib.Path("/work/shared/FORMAT.md"))


def format_md() -> str:
    for path in FORMAT_CANDIDATES:
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.skip("FORMAT.md is not next to the repository (../shared/FORMAT.md)")


def test_the_code_enum_is_the_set_of_codes_in_format_md():
    text = format_md()
    # The rows of every table headed "| code | when |", and the warnings, which FORMAT.md
    # names in a sentence.
    codes = set()
    for table in re.findall(r"^\| code \| when \|\n((?:\|.*\n?)+)", text, flags=re.MULTILINE):
        codes |= set(re.findall(r"^\| `([a-z-]+)` \|", table, flags=re.MULTILINE))
    warnings = re.search(r"Warnings never make a log invalid:(.*?)\n\n", text, flags=re.DOTALL)
    assert warnings is not None
    codes |= set(re.findall(r"`([a-z]+-mismatch)`", warnings.group(1)))
    assert "tile-count" in codes and "schema" in codes
    assert {code.value for code in Code} == codes


def test_every_code_has_a_message():
    assert set(MESSAGES) == set(Code)


def test_every_issue_is_worded_again_from_its_code_and_plain_params():
    docs = [
        b"{",
        b'{"format": "fives/2"}',
        b"NaN",
        b"[" * 100000,
        json.dumps({**format_example(), "players": ["Nino", "Nino"]}),
        json.dumps({**format_example(), "ruleset": {"base": "muggins", "colour": "red"}}),
        json.dumps({**format_example(), "final_scores": [10, 15]}),
    ]
    for data in docs:
        for issue in validate_json(data).errors + validate_json(data).warnings:
            again = json.loads(json.dumps(issue.params))
            assert describe(issue.code, again, issue.hand, issue.move) == issue.message
            assert describe(issue) == issue.message


def test_the_message_says_the_hand_and_move_one_based():
    doc = format_example()
    moves_of(doc)[2]["play"] = "6-4"
    [error] = validate_log(doc).errors
    assert error.code is Code.NO_MATCH
    assert error.params == {"tile": "6-4", "open": [["W", 5], ["E", 0]]}
    assert error.message == "hand 1, move 3: 6-4 matches no open end (open: W 5, E 0)"


def test_describe_words_a_message_in_another_language():
    issue = Issue.make(Code.NO_MATCH, 3, 17, 1, tile="6-2", open=[["W", 5], ["E", 3]])
    assert issue.message == "hand 4, move 18: 6-2 matches no open end (open: W 5, E 3)"
    russian = {
        "hand %(hand)s, move %(move)s: %(message)s": "кон %(hand)s, ход %(move)s: %(message)s",
        "%(tile)s matches no open end (open: %(open)s)": "%(tile)s не подходит (%(open)s)",
        ", ": "; ",
    }
    said = describe(issue, translate=lambda text: russian.get(text, text))
    assert said == "кон 4, ход 18: 6-2 не подходит (W 5; E 3)"


def test_an_empty_table_has_no_open_end():
    issue = Issue.make(Code.DRAW_WHEN_PLAYABLE, 0, 0, 0, player="Nino", seat=0, open=[])
    assert issue.message.endswith("(open: none)")


def test_templates_name_their_params_and_no_english_word_is_a_param():
    placeholder = re.compile(r"%\((\w+)\)s")
    tables = [*(t for cases in MESSAGES.values() for t in cases.values())]
    tables += [*SCHEMA_PROBLEMS.values(), *RULESET_PROBLEMS.values(), *KINDS.values()]
    for template in tables:
        # Every % is a named placeholder (or none), so translations can reorder them.
        assert template.count("%") == len(placeholder.findall(template)), template


LOCALES = ROOT / "locale"


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_every_engine_template_is_translated_with_the_same_params(language):
    # The compiled catalogue, as Django reads it: a template left out or fuzzy is not in it.
    with (LOCALES / language / "LC_MESSAGES" / "django.mo").open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog
    placeholder = re.compile(r"%\((\w+)\)s")
    templates = [t for cases in MESSAGES.values() for t in cases.values()]
    templates += [*SCHEMA_PROBLEMS.values(), *RULESET_PROBLEMS.values(), *KINDS.values()]
    for template in templates:
        assert catalogue.get(template), f"{language}: no translation of {template!r}"
        said = catalogue[template]
        assert set(placeholder.findall(said)) == set(placeholder.findall(template)), said
