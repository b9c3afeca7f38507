"""The ``fives`` command line (clients/python/) against a live archive: pytest-django's
``live_server``, its tasks in-process, the venv's ``bin/fives`` run as a tool author runs it.

A folder of simulated logs of every preset, one match broken, goes up with ``fives upload``:
exit status 1, the broken match's error said in words, and every other match stored as sent.
``fives export`` writes what the API's export answers; ``fives login`` keeps a token the
next command uses; ``fives validate`` prints, for a corpus of every preset and table, valid
and broken, the engine's report of each log.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import stat
import subprocess
import sys
import urllib.request

import pytest
from django.core.cache import cache

from fives_engine import validate_log
from fives_engine.simulate import simulate_match
from games.models import Match
from games.services.matches import match_log
from games.tokens import token_create
from tests.engine.test_distribution import broken, corpus

pytestmark = pytest.mark.django_db(transaction=True)

FIVES = pathlib.Path(sys.executable).with_name("fives")
CLUB = "tbilisi-fives-club"


@pytest.fixture(autouse=True)
def fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def run(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(FIVES), *args],
        input=stdin.encode(),
        capture_output=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def tool_env(tmp_path, live_server, owner) -> dict[str, str]:
    """The environment of a tool: the archive's address, a token, a config folder of its own."""
    _, key = token_create(user=owner, name="cli", scopes=["read", "upload"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIVES_")}
    env |= {
        "FIVES_URL": live_server.url,
        "FIVES_TOKEN": key,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    return env


def sim(preset: str, players: int, seed: int, *, teams: bool = False, **fields) -> dict:
    doc = simulate_match(preset, players, teams=teams, seed=seed, max_hands=8)
    doc |= {"id": f"cli-{preset}-{players}-{seed}", "club": "Tbilisi Fives Club"}
    return doc | fields


def write(path: pathlib.Path, *docs: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".json":
        path.write_text(json.dumps(docs[0]))
    else:
        path.write_text("".join(json.dumps(doc) + "\n" for doc in docs))


def test_upload_a_folder_then_export_it(tmp_path, tool_env, live_server):
    folder = tmp_path / "night"
    one = sim("all-fives", 2, 1, played_at="2026-10-02")
    first = [
        sim("muggins", 3, 2),
        sim("all-threes", 4, 3, teams=True),
        sim("fives-and-threes", 2, 4),
    ]
    bad = broken(sim("muggins", 2, 5), "tile", random.Random(1))
    second = [sim("all-fives", 4, 6), bad]
    write(folder / "one.json", one)
    write(folder / "table-1" / "a.ndjson", *first)
    write(folder / "table-2" / "b.ndjson", *second)
    (folder / "notes.txt").write_text("not a log")
    [error] = validate_log(bad).as_dict()["errors"]

    done = run("upload", str(folder), "--club", CLUB, env=tool_env)
    out = done.stdout.decode()
    assert done.returncode == 1, (out, done.stderr.decode())
    assert f"{folder / 'table-2' / 'b.ndjson'}: upload" in out
    assert "  line 2: rejected\n" in out
    assert f"    {error['code']}: {error['message']}\n" in out  # in words, with its code
    assert "3 files: 5 matches stored, 0 already in the archive, 1 rejected" in out
    assert "bytes sent" in done.stderr.decode() and "matches stored" in done.stderr.decode()

    sent = [one, *first, second[0]]
    stored = Match.objects.with_log().order_by("id")
    assert {match.external_id for match in stored} == {doc["id"] for doc in sent}
    for doc in sent:
        match = Match.objects.with_log().get(external_id=doc["id"])
        assert match_log(match=match) == doc  # the log as sent, every field

    # The export as the command writes it is the API's, byte for byte; --since is date_from.
    exported = run("export", "--club", CLUB, env=tool_env)
    assert exported.returncode == 0, exported.stderr.decode()
    api = f"{live_server.url}/api/v1/matches/export?club={CLUB}"
    with urllib.request.urlopen(api) as answer:
        assert exported.stdout == answer.read()
    assert len(exported.stdout.splitlines()) == 5
    since = run("export", "--club", CLUB, "--since", "2026-10-01", env=tool_env)
    with urllib.request.urlopen(f"{api}&date_from=2026-10-01") as answer:
        assert since.stdout == answer.read()
    assert [json.loads(line)["id"] for line in since.stdout.splitlines()] == [one["id"]]

    # The same folder again: the archive knows each document, and answers its upload as it
    # stands (the broken match still refused); nothing is stored twice.
    again = run("upload", str(folder), "--club", CLUB, env=tool_env)
    assert again.returncode == 1
    assert f"    {error['code']}: {error['message']}\n" in again.stdout.decode()
    assert Match.objects.count() == len(sent)


def test_login_keeps_the_token_for_the_next_commands(tmp_path, tool_env):
    key = tool_env.pop("FIVES_TOKEN")
    url = tool_env.pop("FIVES_URL")
    refused = run("login", "--url", url, env=tool_env, stdin="fives_not-a-token\n")
    assert refused.returncode == 2
    assert "Unknown or revoked token" in refused.stderr.decode()

    done = run("login", "--url", url, env=tool_env, stdin=key + "\n")
    assert done.returncode == 0, done.stderr.decode()
    config = tmp_path / "config" / "fives" / "config.toml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert f'token = "{key}"' in config.read_text()

    log = tmp_path / "one.json"
    write(log, sim("muggins", 2, 9))
    uploaded = run("upload", str(log), "--club", CLUB, env=tool_env)
    assert uploaded.returncode == 0, uploaded.stdout.decode() + uploaded.stderr.decode()
    assert Match.objects.filter(external_id="cli-muggins-2-9").exists()


def test_usage_and_connection_errors_exit_2(tmp_path, tool_env):
    assert run("upload", str(tmp_path / "missing"), env=tool_env).returncode == 2
    write(tmp_path / "one.json", sim("muggins", 2, 1))
    not_yours = run("upload", str(tmp_path / "one.json"), "--club", "nowhere", env=tool_env)
    assert not_yours.returncode == 2
    assert "club: You are not a member of a club with this slug" in not_yours.stderr.decode()
    no_archive = tool_env | {"FIVES_URL": "http://127.0.0.1:9"}
    done = run("upload", str(tmp_path / "one.json"), env=no_archive)
    assert done.returncode == 2
    assert "cannot reach the archive" in done.stderr.decode()


def test_validate_prints_the_engines_reports(tmp_path, tool_env):
    docs = corpus()
    expected = [validate_log(doc).as_dict() for doc in docs]
    assert any(r["valid"] for r in expected) and not all(r["valid"] for r in expected)
    folder = tmp_path / "logs"
    write(folder / "a-all.ndjson", *docs[2:])
    write(folder / "b-first.json", docs[0])
    write(folder / "c-second.json", docs[1])
    order = [*expected[2:], expected[0], expected[1]]

    done = run("validate", str(folder), env=tool_env)
    assert done.returncode == 1
    assert [json.loads(line) for line in done.stdout.splitlines()] == order
    # The same bytes as the engine's own command line.
    engine = b"".join(
        subprocess.run(
            [sys.executable, "-m", "fives_engine", "validate", str(path)],
            capture_output=True,
            check=False,
        ).stdout
        for path in sorted(folder.iterdir())
    )
    assert done.stdout == engine

    said = run("validate", "--words", str(folder / "a-all.ndjson"), env=tool_env)
    text = said.stdout.decode()
    for number, report in enumerate(expected[2:], 1):
        assert f"line {number}: {'valid' if report['valid'] else 'not valid'}" in text
        for issue in report["errors"]:
            assert f"  {issue['code']}: {issue['message']}\n" in text
    valid = [doc for doc, report in zip(docs, expected, strict=True) if report["valid"]]
    write(tmp_path / "good.json", valid[0])
    assert run("validate", str(tmp_path / "good.json"), env=tool_env).returncode == 0
