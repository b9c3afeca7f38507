"""The README's first command, run as written on a clean checkout, serves the archive.

(The second, ``make test``, is what CI runs.) This clones the repository's HEAD, so it
checks what is committed, with a virtual environment of its own.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^    (make \S+)$", text, flags=re.MULTILINE)[:2]


def test_the_readme_starts_with_the_run_and_test_commands():
    assert readme_commands() == ["make run", "make test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


@pytest.mark.readme
def test_make_run_serves_the_archive_with_demo_data_from_a_clean_checkout(tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a repository to clone")
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 8000)) == 0:
            pytest.fail("port 8000 is taken: make run serves there")
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)
    # A fresh machine: none of the services, nor the key and plain HTTP the tests run with.
    unset = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "FIVES_HTTPS", "FIVES_INPROCESS_BEAT")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.pop("VIRTUAL_ENV", None)
    with open(tmp_path / "make-run.log", "w") as log:
        server = subprocess.Popen(
            readme_commands()[0],
            shell=True,
            cwd=checkout,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            page = _wait_for("http://127.0.0.1:8000/", server, timeout=600)
            assert "Tbilisi Fives Club" in page
            assert 'href="/matches/' in page
            match = re.search(r'href="(/matches/\d+/)"', page).group(1)
            match_page = _wait_for(f"http://127.0.0.1:8000{match}", server, 30)
            assert re.search(r"All Fives|Muggins|All Threes", match_page)  # its preset, by name
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
    assert (checkout / "db.sqlite3").exists()


def _wait_for(url: str, server: subprocess.Popen, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"make run stopped with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError:
            time.sleep(1)
    raise AssertionError(f"{url} did not answer within {timeout} s")
