"""Every bench runs: each is run once at its smallest size, on SQLite with tasks in-process
(the machine's PostgreSQL and Redis left to the tests), so that none can rot unnoticed
(``bench.ingest`` failed for a turn on a changed engine call, and no test saw it). The
figures are not read here: benches print them, side by side with their peers, when run for
real (``make bench``, each module's ``--help``). ``bench.slowheaders`` is run small by
``tests/test_proxy.py``, the phone benches by the recorder's and the match page's tests."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

SMALLEST = {
    "engine": ["--matches", "20", "--repeat", "1", "--rounds", "1", "--mix", "40"],
    "ingest": ["--matches", "20", "--per-upload", "10"],
    "stats": ["--matches", "200", "--players", "6", "--batch", "100"],
    "replay": ["--hands", "10", "--matches", "1", "--repeat", "1"],
    "api": ["--matches", "40", "--seconds", "1", "--clients", "1", "--workers", "1"],
    "analysis": ["--matches", "1", "--repeat", "1", "--samples", "10", "--reviews", "1"],
    "scale": ["--sizes", "40,120", "--requests", "1"],
    "open_data": ["--matches", "300", "--templates", "8", "--private", "10", "--jobs", "1"],
    # (Its one-by-one part: the rest runs on the real services, below.)
    "live": ["--steps", "60"],
    "webhooks": ["--matches", "10", "--rate", "50"],
    "puzzles": ["--matches", "2", "--attempts", "200"],
    # (The analysis board in chromium: needs Debian's chromium, as the browser tests.)
    "analyse_board": [
        *("--repeat", "1", "--layouts", "48", "--demo-matches", "2"),
        *("--agreement", "2", "--agreement-layouts", "12"),
    ],
}


def run_bench(bench: str, args: list[str], env: dict[str, str], folder) -> str:
    """Run ``python -m bench.<bench>``; return what it printed, failing on an error."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{bench}", *args],
        cwd=folder,
        env=dict(env, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


def test_the_club_night_bench_runs_on_the_real_services(real_services, tmp_path):
    """``bench.analysis_night`` times real Celery workers: it runs where PostgreSQL and Redis
    are (on CI), in a database and a Redis database of its own."""
    args = ["--matches", "2", "--workers", "1"]
    printed = run_bench("analysis_night", args, dict(os.environ), tmp_path)
    assert "analysed by 1 celery workers" in printed


def test_the_live_tables_bench_runs_on_the_real_services(real_services, tmp_path):
    """``bench.live`` serves the archive the production way (gunicorn, the streams' ASGI
    server, a Celery worker per queue, nginx where installed) on PostgreSQL and Redis."""
    args = ["--watchers", "5", "--tables", "1", "--table-steps", "4", "--pace", "0.1"]
    printed = run_bench("live", [*args, "--finishes", "1"], dict(os.environ), tmp_path)
    assert "steps a table's watcher never received: 0" in printed
    assert "in a process of their own" in printed and "goal at most 2x" in printed
    assert "page: median" in printed


@pytest.mark.parametrize("bench", sorted(SMALLEST))
def test_the_bench_runs_at_its_smallest_size(bench, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    printed = run_bench(bench, SMALLEST[bench], env, tmp_path)
    assert printed.strip(), "the bench printed no figures"
