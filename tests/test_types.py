"""Hand-offs between the apps' functions are named types (issue 57, item 6): no
``tuple[Any, ...]`` in the apps' source (a row with fields is a NamedTuple, a dataclass or a
named alias of a precise tuple; a pair is ``tuple[int, str]``), and ``dict[str, Any]`` only
at JSON edges, counted per app under a ceiling (``DICT_CEILING``: it may fall, never grow;
lower it when it falls).

Named now: a drill's mistake (``replays.practice.Mistake``, read once from the stored
review's JSON, with its ``Alternative`` plays), a player's analysed seats summed
(``replays.analysis._LossSums``), a live step's view and kept hand start
(``recorder.live.StepView``), besides the rows named before (``replays.ratings``...).

What remains is at a JSON edge, where a dict is read from or written to JSON, a template's
context or a DRF answer:

- ``replays``: the compact states the page carries (``wire.py``), the replay's answers and
  its cached page part (``replay_cache.py``), the charts' geometry a template draws
  (``charts.py``), the ranking's and a player's figures and rating history, rows of
  ``.values()`` with a key per statistic that the API, the CSV and the pages serve
  (``rankings.py``, ``totals.py``, ``stats.py``, ``head_to_head.py``, ``ratings.py``), the
  stored review (``MatchAnalysis.result``) and its page part (``analysis.py``), a drill's
  position as the API serves it and the page shows it (``practice.py``), the engine's
  states read off its board (``page_board.py``) and the open data's lines
  (``open_data.py``);
- ``recorder``: the phone's set-up and steps (JSON it sends), a step's view as stored in
  ``LiveStep.view`` and streamed to watchers, the answers to the phone and the watchers
  (``live.py``, ``live_stream.py``, ``services.py``), and the engine's JSON answer to the
  recorder (``table.py``);
- ``games``, ``clubs``, ``competitions``, ``api``: a log's JSON, the audit trail's details
  (kept as JSON), templates' contexts (a league's table rows among them, which the page,
  the CSV and the API read by key) and DRF answers.

The engine (``engine/fives_engine``, outside the apps) is strictly typed by mypy already and
is not read; migrations, which Django writes, are left out."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
APPS = ("clubs", "games", "recorder", "replays", "competitions", "api", "fivesite")
# ``tuple[Any, ...]``, however spaced, ``Tuple`` or ``typing.Tuple`` as well.
ANY_TUPLE = re.compile(r"\b[Tt]uple\[\s*(?:typing\.)?Any\s*,\s*\.\.\.\s*\]")
ANY_DICT = re.compile(r"\b[Dd]ict\[\s*str\s*,\s*(?:typing\.)?Any\s*\]")
# The most ``dict[str, Any]`` the apps may hold: 282 before the named types of item 6, 257
# after them; 269 with the JSON edges committed since (issue 60: the drill's answers in
# ``replays/practice.py``, the analysis board's DRF input in ``api/board.py``, the page's
# states in ``replays/page_board.py``). Lower it when the count falls; raise it only for a
# new JSON edge, saying which.
DICT_CEILING = 269


def app_files(root: pathlib.Path = ROOT) -> dict[str, list[pathlib.Path]]:
    """Each app's Python source, by app, outside migrations."""
    found: dict[str, list[pathlib.Path]] = {}
    for app in APPS:
        files = []
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if "/migrations/" in relative:
                continue
            files.append(path)
        found[app] = files
    return found


def counted(pattern: re.Pattern[str], root: pathlib.Path = ROOT) -> dict[str, list[str]]:
    """Every match of ``pattern`` in the apps' source, by app, as ``file:line``."""
    out: dict[str, list[str]] = {}
    for app, files in app_files(root).items():
        hits = []
        for path in files:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                hits += [f"{path.relative_to(root).as_posix()}:{number}"] * len(
                    pattern.findall(line)
                )
        out[app] = hits
    return out


def test_no_tuple_of_any_in_the_apps():
    found = counted(ANY_TUPLE)
    total = sum(len(hits) for hits in found.values())
    print(f"\ntuple[Any, ...] in the apps: {total}")
    assert [hit for hits in found.values() for hit in hits] == []


def test_dict_of_any_is_counted_and_cannot_grow():
    """The count of ``dict[str, Any]`` by app, printed (run with ``-s`` to read it), and
    held under ``DICT_CEILING``."""
    found = counted(ANY_DICT)
    total = sum(len(hits) for hits in found.values())
    print("\ndict[str, Any] by app:")
    for app in APPS:
        print(f"  {app:<13} {len(found[app]):>4}")
    print(f"  {'all':<13} {total:>4} (at most {DICT_CEILING})")
    assert set(found) == set(APPS)
    assert all(app_files()[app] for app in APPS)  # every app is read
    assert total <= DICT_CEILING, (
        f"{total} dict[str, Any] in the apps, more than {DICT_CEILING}: name the type "
        "handed over (a dataclass, a NamedTuple, a msgspec Struct); keep dict[str, Any] "
        "for JSON edges only"
    )


def test_a_planted_tuple_is_seen(tmp_path):
    """A ``tuple[Any, ...]`` is found in an app however it is spelt, and not in the engine
    nor a migration; ``dict[str, Any]`` is counted likewise."""
    for app in APPS:
        (tmp_path / app).mkdir()
    (tmp_path / "engine" / "fives_engine").mkdir(parents=True)
    (tmp_path / "replays" / "migrations").mkdir()
    (tmp_path / "replays" / "rows.py").write_text(
        "def f(rows: list[tuple[Any, ...]]) -> Tuple[ Any,... ]:\n"
        "    seen: dict[str, Any] = {}\n"
        "    pair: tuple[int, str] = (1, 'a')\n"
        "    more: tuple[int, ...] = ()\n"
    )
    (tmp_path / "engine" / "fives_engine" / "walk.py").write_text("x: tuple[Any, ...] = ()\n")
    (tmp_path / "replays" / "migrations" / "0001.py").write_text("x: tuple[Any, ...] = ()\n")
    found = counted(ANY_TUPLE, tmp_path)
    assert found["replays"] == ["replays/rows.py:1", "replays/rows.py:1"]
    assert not found["games"]
    assert counted(ANY_DICT, tmp_path)["replays"] == ["replays/rows.py:2"]
