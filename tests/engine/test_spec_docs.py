"""The specification in the repository (docs/format.md, docs/rules.md) against the engine.

Every error and warning code of ``Code`` is a row of format.md's code table, and no row names
a code the engine lacks; every option of ``OPTIONS`` with each of its values, and every
preset of ``PRESETS`` with the value it gives each option, is in rules.md's tables, and
nothing there is missing from the engine. The worked examples of rules.md are the figures of
the worked-example tests, which hold them to the engine. The README and the guides link to
these two pages, never to files the repository does not hold.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from fives_engine import validate_log
from fives_engine.codes import WARNINGS, Code
from fives_engine.report import Issue, Report
from fives_engine.rules import OPTIONS, PRESETS, resolve_ruleset, round_to_multiple
from fives_engine.scoring import points_for
from tests.engine.helpers import format_example
from tests.engine.test_fives_and_threes import WORKED
from tests.engine.test_worked_examples import PAGAT, SEED_001

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# The pages that cite the specification.
SPEC = ("docs/format.md", "docs/rules.md")
CITING = ("README.md", "docs/api.md", "docs/analysis.md", *SPEC)

Table = tuple[list[str], list[list[str]]]


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def tables(text: str) -> list[tuple[str, Table]]:
    """Return every Markdown table of ``text`` with the last heading above it: (heading,
    (header cells, rows of cells)), the separator row left out."""
    found: list[tuple[str, Table]] = []
    heading = ""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|") and index + 1 < len(lines) and lines[index + 1].startswith("| ---"):
            header = cells(line)
            rows = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(cells(lines[index]))
                index += 1
            found.append((heading, (header, rows)))
            continue
        index += 1
    return found


def table_headed(text: str, *first: str) -> list[Table]:
    """Return the tables whose header begins with these cells."""
    return [table for _, table in tables(text) if table[0][: len(first)] == list(first)]


def table_under(text: str, heading: str) -> Table:
    """Return the one table under ``heading``."""
    [table] = [table for found, table in tables(text) if found == heading]
    return table


def quoted(cell: str) -> str:
    """Return the text of a cell that is one backticked value, or fail."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"not one backticked value: {cell!r}"
    return match.group(1)


def as_json(value: object) -> str:
    """Return a value as JSON, so that true and 1, "5" and 5 stay apart."""
    return json.dumps(value, sort_keys=True)


# --- format.md: the codes ------------------------------------------------------------------


def documented_codes() -> dict[str, list[str]]:
    """Return each code of format.md's code tables (first cell, in backticks) with its row."""
    rows: dict[str, list[str]] = {}
    for _header, body in table_headed(page("format.md"), "code"):
        for row in body:
            code = quoted(row[0])
            assert code not in rows, f"{code} is documented twice"
            rows[code] = row
    return rows


def test_every_code_of_the_engine_is_documented_and_no_other():
    documented = set(documented_codes())
    engine = {code.value for code in Code}
    assert engine - documented == set(), "codes of the engine that format.md does not document"
    assert documented - engine == set(), "codes format.md documents that the engine lacks"


def test_each_code_says_whether_it_is_a_warning_and_what_it_means():
    warnings = {code.value for code in WARNINGS}
    for code, row in documented_codes().items():
        kind, when, names = row[1], row[2], row[3]
        assert (kind == "warning") == (code in warnings), code
        assert kind.startswith("error") or kind == "warning", code
        assert when and names, f"{code} says nothing"


def test_the_example_log_is_the_engines_valid_unfinished_example():
    blocks = re.findall(r"```json\n(.*?)```", page("format.md"), flags=re.DOTALL)
    log = json.loads(blocks[0])
    assert log == format_example()
    report = validate_log(log).as_dict()
    assert (report["valid"], report["outcome"], report["scores"]) == (True, "unfinished", [10, 10])


def test_the_example_report_has_the_fields_of_the_engines_report():
    blocks = re.findall(r"```json\n(.*?)```", page("format.md"), flags=re.DOTALL)
    example = json.loads(blocks[1])
    assert list(example) == list(Report().as_dict())
    issue = Issue.make(Code.NO_MATCH, 3, 17, 1, tile="6-2", open=[["W", 5], ["E", 3], ["N", 4]])
    assert example["errors"] == [issue.as_dict()]
    assert list(example["hands"][0]) == ["end", "points", "settlement", "scores"]


# --- rules.md: the options and presets -----------------------------------------------------


def options_table() -> dict[str, list[str]]:
    [(_header, body)] = table_headed(page("rules.md"), "option", "values")
    rows: dict[str, list[str]] = {}
    for row in body:
        name = quoted(row[0])
        assert name not in rows, f"{name} is documented twice"
        rows[name] = row
    return rows


def test_every_option_is_documented_and_no_other():
    assert set(options_table()) == set(OPTIONS)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_each_option_lists_exactly_its_values(name):
    row = options_table()[name]
    values = OPTIONS[name].values
    if values:
        written = {as_json(json.loads(value)) for value in re.findall(r"`([^`]+)`", row[1])}
        assert written == {as_json(value) for value in values}
    else:
        # A whole number of at least 1, or one per player count.
        assert "a whole number of at least 1" in row[1]
        assert '`{"2": n, "3": n, "4": n}`' in row[1]
    assert row[2], f"{name} says nothing"


def test_every_preset_gives_each_option_the_value_documented():
    [(header, body)] = table_headed(page("rules.md"), "option", "`all-fives`")
    presets = [quoted(cell) for cell in header[1:]]
    assert sorted(presets) == sorted(PRESETS)
    documented = {quoted(row[0]): row[1:] for row in body}
    assert len(documented) == len(body)
    assert set(documented) == set(OPTIONS)
    for option, values in documented.items():
        for preset, cell in zip(presets, values, strict=True):
            assert as_json(json.loads(quoted(cell))) == as_json(PRESETS[preset][option]), (
                preset,
                option,
            )


def test_every_preset_is_named_by_its_title():
    text = page("rules.md")
    for name, preset in PRESETS.items():
        assert f"`{name}` is {preset.title}" in text, name


# --- rules.md: the worked examples ---------------------------------------------------------


def worked(heading: str) -> list[list[str]]:
    text = page("rules.md")
    section = text[text.index("## Worked examples") :]
    return table_under(section[: section.index("\n## ", 3)], heading)[1]


def ends(text: str) -> str:
    """Return open ends as the tests write them: a double's pip once, no remarks."""
    text = re.sub(r" \((spinner|double)\)", "", text)
    return re.sub(r"(\d)-\d", r"\1", text)


def test_the_seed_001_example_is_the_tests():
    rows = [
        (re.sub(r" \(lead\)", "", play), end or None, ends(after), int(count), int(points))
        for play, end, after, count, points in worked("Muggins with the spinner (seed 001)")
    ]
    assert rows == SEED_001


def test_the_pagat_example_is_the_tests():
    rows = [
        (re.sub(r" \(.*\)", "", play), end or None, int(count), int(points))
        for play, end, count, points in worked("All Fives as pagat.com shows it")
    ]
    assert rows == PAGAT


def test_the_fives_and_threes_example_is_the_tests():
    rows = []
    for move, after, count, points, scores in worked("Fives and Threes"):
        found = re.fullmatch(r"seat (\d) (?:leads (\S+)|plays (\S+) on ([WENS]))", move)
        assert found, move
        seat, lead, tile, end = found.groups()
        rows.append(
            (
                int(seat),
                lead or tile,
                end,
                ends(after),
                int(count),
                int(points),
                [int(score) for score in scores.split(", ")],
            )
        )
    assert rows == WORKED


def test_the_fives_and_threes_scoring_table_is_the_engines():
    rules = resolve_ruleset("fives-and-threes", 2)
    [counts, points] = worked_scoring_table()
    listed = {int(count): int(point) for count, point in zip(counts, points, strict=True)}
    assert {count: points_for(count, rules) for count in listed} == listed
    # "others": every count up to the largest listed that the table leaves out scores 0.
    others = [count for count in range(max(listed) + 1) if count not in listed]
    assert [points_for(count, rules) for count in others] == [0] * len(others)
    beyond = dict(re.findall(r"(\d+) scores (\d+)", page("rules.md")))
    assert beyond, "the counts past 30 are gone"
    assert {int(c): points_for(int(c), rules) for c in beyond} == {
        int(c): int(p) for c, p in beyond.items()
    }


def worked_scoring_table() -> list[list[str]]:
    header, [row] = table_under(page("rules.md"), "What a count scores")
    assert header[0] == "count" and header[-1] == "others" and row[0] == "points"
    assert row[-1] == "0"
    return [header[1:-1], row[1:-1]]


def test_the_rounding_examples_are_the_engines():
    found = re.search(r"\((7 → 5, .*?)\)", page("rules.md"))
    assert found
    pairs = re.findall(r"(\d+) → (\d+)", found.group(1))
    assert len(pairs) == 4
    assert [round_to_multiple(int(pips), 5) for pips, _ in pairs] == [int(r) for _, r in pairs]


# --- links ---------------------------------------------------------------------------------


def anchors(text: str) -> set[str]:
    """Return the anchors of a page's headings, as GitHub makes them."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#+ (.*)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


@pytest.mark.parametrize("name", CITING)
def test_the_pages_link_to_the_specification_and_every_anchor_exists(name):
    path = ROOT / name
    text = path.read_text(encoding="utf-8")
    # No page names a file of the specification the repository does not hold.
    assert not re.search(r"\b(FORMAT|RULES)\.md\b", text), name
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]+))?\)", text):
        # Links to the two pages, and a page's links to its own headings.
        if not (target.endswith(("format.md", "rules.md")) or (not target and name in SPEC)):
            continue
        linked = (path.parent / target).resolve() if target else path
        assert linked.exists(), f"{name} links to {target}, which is not there"
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), (name, target, anchor)


def test_the_readme_and_the_api_guide_link_to_both_pages():
    for name in ("README.md", "docs/api.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert re.search(r"\]\((docs/)?format\.md(#[^)]*)?\)", text), name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"\]\(docs/rules\.md(#[^)]*)?\)", readme)
