"""The command line: validate files and standard input, simulate NDJSON."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.engine.helpers import format_example


def run(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "fives_engine", *args], input=stdin, capture_output=True
    )


def reports(out):
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def test_simulate_prints_reproducible_ndjson_logs():
    first = run(
        "simulate",
        "--ruleset",
        "muggins",
        "--players",
        "4",
        "--teams",
        "--seed",
        "7",
        "--count",
        "5",
    )
    again = run(
        "simulate",
        "--ruleset",
        "muggins",
        "--players",
        "4",
        "--teams",
        "--seed",
        "7",
        "--count",
        "5",
    )
    assert first.returncode == 0
    assert first.stdout == again.stdout
    logs = [json.loads(line) for line in first.stdout.decode().splitlines()]
    assert len(logs) == 5
    assert all(log["teams"] == [[0, 2], [1, 3]] and len(log["players"]) == 4 for log in logs)


def test_validate_an_ndjson_file_prints_one_report_per_line_and_exits_0(tmp_path):
    logs = run("simulate", "--ruleset", "all-fives", "--players", "3", "--count", "4").stdout
    path = tmp_path / "logs.ndjson"
    path.write_bytes(logs + b"\n")
    out = run("validate", str(path))
    assert out.returncode == 0
    assert [r["valid"] for r in reports(out)] == [True] * 4


def test_validate_exits_1_when_any_log_is_invalid(tmp_path):
    bad = format_example()
    bad["hands"][0]["moves"][2]["play"] = "6-4"
    path = tmp_path / "two.ndjson"
    path.write_text(json.dumps(format_example()) + "\n" + json.dumps(bad) + "\n{oops\n")
    out = run("validate", str(path))
    assert out.returncode == 1
    assert [(r["valid"], [e["code"] for e in r["errors"]]) for r in reports(out)] == [
        (True, []),
        (False, ["no-match"]),
        (False, ["schema"]),
    ]


def test_validate_reads_a_json_file_and_standard_input(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(format_example(), indent=2))
    assert run("validate", str(path)).returncode == 0
    out = run("validate", "-", stdin=path.read_bytes())
    assert out.returncode == 0 and len(reports(out)) == 1
    ndjson = (json.dumps(format_example()) + "\n") * 3
    out = run("validate", "-", stdin=ndjson.encode())
    assert out.returncode == 0 and len(reports(out)) == 3


def test_validate_exits_2_when_the_input_cannot_be_read(tmp_path):
    out = run("validate", str(tmp_path / "missing.json"))
    assert out.returncode == 2
    assert b"cannot read" in out.stderr


def test_validate_stops_quietly_when_the_reader_goes_away(tmp_path):
    path = tmp_path / "many.ndjson"
    path.write_bytes(run("simulate", "--count", "300").stdout)
    reader = subprocess.Popen(
        [sys.executable, "-m", "fives_engine", "validate", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    reader.stdout.read(100)  # like `| head -c 100`
    reader.stdout.close()
    errors = reader.stderr.read()
    assert reader.wait() == 0
    assert b"Traceback" not in errors and b"BrokenPipe" not in errors


def test_the_old_address_still_validates():
    """``python -m games.engine`` (before the engine became ``fives_engine``) still answers."""
    doc = json.dumps(format_example()).encode()
    old = subprocess.run(
        [sys.executable, "-m", "games.engine", "validate", "-"], input=doc, capture_output=True
    )
    assert old.returncode == run("validate", "-", stdin=doc).returncode
    assert reports(old) == reports(run("validate", "-", stdin=doc))
    from games.engine import validate_json

    assert validate_json(doc).as_dict() == reports(old)[0]
