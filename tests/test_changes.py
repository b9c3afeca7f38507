"""The files each kind of change touches (issue 35): "Where things live" (docs/development.md,
the README's until issue 58) lists them in a table (a preset, a player statistic, an endpoint,
a page), and one made-up change of each kind, kept in ``tests/changes/`` as a unified diff
(``<kind>.diff``) with its
translations (``<kind>.json``, appended to the message catalogues as the project does, so
the diff never holds a catalogue), is applied to a copy of the repository. It must apply,
touch exactly the files the table names for its kind (one file to each name or pattern) and
no more than the bound (the table's, itself no looser than the issue's), and its own tests
must pass in the copy (run there with this interpreter, on SQLite, tasks in-process).

So the table and the code cannot drift apart: when the code a change goes through moves,
the diff no longer applies or its tests fail, and the change and the table are brought
along together. To make a change's diff again: apply the old one where it still applies (or
make the change by hand, the way docs/development.md says), mark its new files
(``git add -N``), keep
``git diff -- . ':!locale' > tests/changes/<kind>.diff``, its new messages in
``<kind>.json`` (as ``po_append`` takes them), and undo the change.
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHANGES = ROOT / "tests" / "changes"
# The table lives in the development guide (it was the README's until issue 58).
README = ROOT / "docs" / "development.md"
CHROMIUM = os.environ.get("FIVES_CHROMIUM", "/usr/bin/chromium")
# Issue 35's goals, beside the locale files: a preset is its table entry (with its column of
# docs/rules.md) and its tests; the others at most this many files.
ISSUE_BOUNDS = {"preset": 3, "statistic": 5, "endpoint": 4, "page": 5}
PRESET_FILES = {"engine/fives_engine/rules.py", "docs/rules.md"}
# What each change's copy runs besides the tests the change itself adds: the tests that hold
# every preset to the table and to docs/rules.md; for a statistic, its migration checked.
ALSO_RUN = {"preset": ["tests/test_preset_table.py", "tests/engine/test_spec_docs.py"]}
# What a copy made without git leaves out (.gitignore's names, and git's own).
NOT_COPIED = (".git", ".venv", "build", "node_modules", "__pycache__", "*.pyc", ".pytest_cache")
NOT_COPIED += (".hypothesis", ".ruff_cache", "*.egg-info", "test-artifacts", "db.sqlite3")
NOT_COPIED += ("staticfiles", ".venv-peer")
KINDS = sorted(path.stem for path in CHANGES.glob("*.diff"))


# --- the README's table ------------------------------------------------------------------------


def readme_table() -> dict[str, tuple[list[str], int]]:
    """Return, by kind, the names (or patterns) of the files the README says it touches and
    the bound it gives, read from the table of "Where things live"."""
    section = README.read_text().split("\n## Where things live\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[list[str], int]] = {}
    lines = iter(section.splitlines())
    for line in lines:
        if line.startswith("| a new |"):
            break
    else:
        raise AssertionError('no table headed "| a new |" in "Where things live"')
    next(lines)  # | --- | --- | --- |
    for line in lines:
        if not line.startswith("|"):
            break
        kind, files, bound = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows[kind] = (re.findall(r"`([^`]+)`", files), int(bound))
    return rows


def touched(diff: Path) -> list[str]:
    """Return the paths the diff touches (new, changed or deleted files)."""
    found = re.findall(r"^diff --git a/(\S+) b/(\S+)$", diff.read_text(), flags=re.M)
    return sorted({new for _old, new in found})


def one_to_each(files: list[str], patterns: list[str]) -> dict[str, str] | None:
    """Return each pattern's file, one file to each pattern and each file to one, or None."""
    if len(files) != len(patterns):
        return None
    for order in itertools.permutations(files):
        if all(fnmatch.fnmatchcase(name, p) for name, p in zip(order, patterns, strict=True)):
            return dict(zip(patterns, order, strict=True))
    return None


def test_the_readme_names_a_change_of_each_kind_within_the_issues_bounds():
    table = readme_table()
    assert sorted(table) == sorted(ISSUE_BOUNDS) == KINDS
    for kind, (patterns, bound) in table.items():
        assert len(patterns) <= bound <= ISSUE_BOUNDS[kind], kind
        assert (CHANGES / f"{kind}.json").is_file(), kind
    patterns = table["preset"][0]
    assert {p for p in patterns if not p.startswith("tests/")} <= PRESET_FILES


def test_the_pairing_of_files_and_patterns_is_one_to_one():
    patterns = ["*/templates/*/*.html", "*/views.py", "*/templates/*/*.html"]
    files = ["replays/templates/replays/a.html", "replays/views.py", "games/templates/b/c.html"]
    assert one_to_each(files, patterns) is not None
    assert one_to_each(files[:2], patterns) is None  # a pattern left without its file
    assert one_to_each([*files, "replays/urls.py"], [*patterns, "*/views.py"]) is None


@pytest.mark.parametrize("kind", KINDS)
def test_each_change_touches_exactly_the_files_the_readme_lists(kind):
    patterns, bound = readme_table()[kind]
    files = [name for name in touched(CHANGES / f"{kind}.diff") if not name.startswith("locale/")]
    # Printed (pytest -rP shows it): the goal's figure.
    print(f"a new {kind}: {len(files)} files beside the locale files (at most {bound}): {files}")
    assert len(files) <= bound, files
    assert one_to_each(files, patterns) is not None, (
        f"{kind}.diff touches {files}; docs/development.md lists {patterns}"
    )


# --- the change, made in a copy ----------------------------------------------------------------


def copy_of_repository(target: Path) -> Path:
    """Copy the repository's files as they are now (tracked and new, not ignored) into
    ``target``; the installed packages stay where they are (this interpreter), the built
    engine and the node modules are linked, not copied."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
    )
    if listed.returncode != 0:  # not a git checkout (an unpacked archive): all but what is made
        shutil.copytree(ROOT, target, symlinks=True, ignore=shutil.ignore_patterns(*NOT_COPIED))
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for name in ("build", "node_modules"):
        if (ROOT / name).exists():
            (target / name).symlink_to((ROOT / name).resolve())
    # A repository of its own, so git apply works on it and nowhere else.
    subprocess.run(["git", "init", "-q"], cwd=target, check=True)
    return target


def add_translations(copy: Path, entries: list[dict]) -> None:
    """Append the entries to the copy's catalogues (as /work's po_append does: the English
    text, then each language's words; a plural's forms in order) and compile them."""

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    for language in ("ru", "ka"):
        catalogue = copy / "locale" / language / "LC_MESSAGES" / "django.po"
        text = catalogue.read_text()
        blocks = []
        for entry in entries:
            assert f"\nmsgid {quoted(entry['id'])}\n" not in text, entry["id"]
            words = entry[language]
            if entry.get("plural"):
                forms = "".join(f"msgstr[{i}] {quoted(form)}\n" for i, form in enumerate(words))
                blocks.append(
                    f"\nmsgid {quoted(entry['id'])}\nmsgid_plural {quoted(entry['plural'])}\n"
                    + forms
                )
            else:
                blocks.append(f"\nmsgid {quoted(entry['id'])}\nmsgstr {quoted(words)}\n")
        catalogue.write_text(text + "".join(blocks))
        subprocess.run(
            ["msgfmt", "--check-format", "-o", str(catalogue.with_suffix(".mo")), str(catalogue)],
            check=True,
        )


def run_in(copy: Path, *command: str) -> subprocess.CompletedProcess:
    """Run a command of this interpreter in the copy: SQLite, tasks in-process, the browser
    required where there is one (a skipped browser test would prove nothing)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "FIVES_REQUIRE_SERVICES", "PYTEST_ADDOPTS")
        and not key.startswith("PYTEST_XDIST")
    }
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # The copy's own engine (the venv's install of it is this checkout's) and client, first;
    # pure Python, as the copy has no build of its own.
    env["PYTHONPATH"] = os.pathsep.join([str(copy / "engine"), str(copy / "clients" / "python")])
    env["FIVES_ENGINE"] = "pure"
    if shutil.which(CHROMIUM):
        env["FIVES_REQUIRE_BROWSER"] = "1"
    return subprocess.run(
        [sys.executable, *command], cwd=copy, env=env, capture_output=True, text=True, timeout=900
    )


@pytest.mark.parametrize("kind", KINDS)
def test_each_change_applies_and_works_in_a_copy(kind, tmp_path):
    diff = CHANGES / f"{kind}.diff"
    copy = copy_of_repository(tmp_path / "copy")
    applied = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", str(diff)], cwd=copy, capture_output=True, text=True
    )
    assert applied.returncode == 0, (
        f"tests/changes/{kind}.diff no longer applies: make the change again the way the "
        f"README says, and keep it here\n{applied.stderr}"
    )
    add_translations(copy, json.loads((CHANGES / f"{kind}.json").read_text()))
    if kind == "statistic":  # its migration says what the model does, and follows the last one
        checked = run_in(copy, "manage.py", "makemigrations", "--check", "--dry-run")
        assert checked.returncode == 0, checked.stdout + checked.stderr
    tests = [name for name in touched(diff) if re.fullmatch(r"tests/.*test_[^/]*\.py", name)]
    assert tests, f"{kind}.diff adds no test"
    ran = run_in(
        copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *tests, *ALSO_RUN.get(kind, [])
    )
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-3000:]
    assert " skipped" not in ran.stdout.splitlines()[-1], ran.stdout[-3000:]
