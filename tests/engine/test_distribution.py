"""The engine as a distribution of its own: ``pip install ./engine`` in a fresh venv, with no
Django and nothing of the archive, validates a corpus of every preset, table and kind of
fault report for report as the archive's engine does.

The corpus: the worked cases of ``tests/engine/cases``, and for every preset and table (two,
three and four players, and partners) simulated matches by seed, each with one move broken
in each way the differential test breaks them (a tile, an end, a seat, a move gone, a move
twice). The fresh venv reads it through the engine's command line (``python -m
fives_engine validate``) and through its API (``validate_json``), as a tool would.
"""

from __future__ import annotations

import copy
import json
import os
import pathlib
import random
import subprocess
import venv

import pytest

from fives_engine import PRESETS, validate_log
from fives_engine.simulate import simulate_match
from fives_engine.tiles import ALL_TILES, NAME

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = pathlib.Path(__file__).with_name("cases")
TABLES = ((2, False), (3, False), (4, False), (4, True))
# What the archive's own runs set that the engine alone must not see (FIVES_ENGINE=compiled
# asks for the archive's mypyc build, which an installed copy has not).
DROPPED = ("PYTHONPATH", "VIRTUAL_ENV", "FIVES_ENGINE")
BREAKS = ("tile", "end", "seat", "remove", "duplicate")


def broken(doc: dict, kind: str, rng: random.Random) -> dict:
    """``doc`` with one move of one hand broken in the way ``kind`` names."""
    doc = copy.deepcopy(doc)
    hands = [hand for hand in doc["hands"] if hand["moves"]]
    moves = rng.choice(hands)["moves"]
    m = rng.randrange(len(moves))
    move = moves[m]
    if kind == "tile" and ("play" in move or "draw" in move):
        move["play" if "play" in move else "draw"] = NAME[rng.choice(sorted(ALL_TILES))]
    elif kind == "end":
        move["end"] = rng.choice(["W", "E", "N", "S"])
    elif kind == "remove":
        del moves[m]
    elif kind == "duplicate":
        moves.insert(m, copy.deepcopy(move))
    else:
        move["seat"] = (move["seat"] + rng.randrange(1, len(doc["players"]))) % len(doc["players"])
    return doc


def corpus() -> list[dict]:
    docs = [json.loads(path.read_text()) for path in sorted(CASES.glob("*.json"))]
    rng = random.Random(57)
    for preset in sorted(PRESETS):
        for players, teams in TABLES:
            for seed in range(2):
                doc = simulate_match(preset, players, teams=teams, seed=seed, max_hands=12)
                docs.append(doc)
                docs.extend(broken(doc, kind, rng) for kind in BREAKS)
    return docs


@pytest.fixture(scope="module")
def fresh_engine(tmp_path_factory) -> pathlib.Path:
    """A new venv holding the engine installed from its folder, and nothing else."""
    where = tmp_path_factory.mktemp("engine-venv")
    venv.EnvBuilder(with_pip=True).create(where)
    python = where / "bin" / "python"
    # A copy of the folder, so the build leaves nothing in the checkout (build/, egg-info).
    source = where / "engine-source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (source / name).write_bytes((ROOT / "engine" / name).read_bytes())
    package = source / "fives_engine"
    package.mkdir()
    for path in (ROOT / "engine" / "fives_engine").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            target = package / path.relative_to(ROOT / "engine" / "fives_engine")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return python


def run(python: pathlib.Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    return subprocess.run(
        [str(python), *args], input=stdin, capture_output=True, text=True, env=env, cwd="/"
    )


def test_the_fresh_venv_holds_the_engine_and_no_django(fresh_engine):
    done = run(
        fresh_engine,
        "-c",
        "import importlib.util as u, fives_engine as e; "
        "print(e.__file__); print(u.find_spec('django') is None); print(e.COMPILED_FROM)",
    )
    assert done.returncode == 0, done.stderr
    where, no_django, compiled = done.stdout.split("\n")[:3]
    assert "site-packages" in where and not where.startswith(str(ROOT))
    assert no_django == "True"
    assert compiled == "None"  # pure Python: the mypyc build is the archive's, not shipped
    tables = run(fresh_engine, "-c", "import fives_engine.equity as q; print(q.table_for)")
    assert tables.returncode == 0, tables.stderr


def test_the_engine_alone_validates_the_corpus_report_for_report(fresh_engine):
    docs = corpus()
    assert len(docs) == len(list(CASES.glob("*.json"))) + len(PRESETS) * len(TABLES) * 2 * 6
    expected = [validate_log(doc).as_dict() for doc in docs]
    assert (
        any(r["valid"] for r in expected) and sum(not r["valid"] for r in expected) > len(docs) // 3
    ), "the corpus holds both valid logs and each kind of broken one"

    lines = "".join(json.dumps(doc) + "\n" for doc in docs)
    by_command = run(fresh_engine, "-m", "fives_engine", "validate", "-", stdin=lines)
    assert by_command.returncode == 1, by_command.stderr  # some logs are not valid
    assert [json.loads(line) for line in by_command.stdout.splitlines()] == expected

    script = (
        "import json, sys\n"
        "from fives_engine import validate_json\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps(validate_json(line).as_dict()))\n"
    )
    by_api = run(fresh_engine, "-c", script, stdin=lines)
    assert by_api.returncode == 0, by_api.stderr
    assert [json.loads(line) for line in by_api.stdout.splitlines()] == expected
