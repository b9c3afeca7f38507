"""Faults, each mid-way through 300 uploads, then recovery: a worker killed with SIGKILL,
Redis killed (it comes back empty), PostgreSQL stopped for 15 seconds. Every upload the
archive answered for must reach a final state within two minutes of recovery: none lost,
none stored twice, none stuck.

The tests start their own throwaway Redis (``redis-server``) and PostgreSQL (``initdb`` and
``pg_ctl`` in a temporary folder), a real ``celery worker`` with its beat, and a client
process; they skip saying why without those programs, unless FIVES_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
UPLOADS = 300
FAULT_AT = 100
RECOVERY_SECONDS = 120

pytestmark = pytest.mark.services


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _postgres_bin() -> pathlib.Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return pathlib.Path(found[-1]).parent if found else None


def _missing() -> str | None:
    if shutil.which("redis-server") is None:
        return "needs redis-server on PATH"
    if _postgres_bin() is None:
        return "needs PostgreSQL's initdb and pg_ctl (/usr/lib/postgresql/*/bin)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "needs runuser to start PostgreSQL as its own user"
    return None


class Services:
    """A throwaway Redis and PostgreSQL, and the archive's worker and client against them."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.folder = folder
        self.redis_port = _free_port()
        self.pg_port = _free_port()
        self.pg_bin = _postgres_bin()
        self.redis: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/postgres",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "0",
            "DJANGO_SETTINGS_MODULE": "fivesite.settings",
            "PYTHONPATH": str(ROOT),
            # Short enough for a test: a lost upload is sent again after 10 s, the beat
            # looks every 3 s, a dead worker's task is handed out again after 20 s.
            "FIVES_REQUEUE_AFTER": "10",
            "FIVES_PERIODIC_EVERY": "3",
            "FIVES_BROKER_VISIBILITY_TIMEOUT": "20",
            "FIVES_BROKER_RESTORE_INTERVAL": "2",
            "FIVES_BROKER_RESTORE_THROTTLE": "1",
        }
        for name in ("FIVES_REQUIRE_SERVICES", "FIVES_REQUIRE_BROWSER"):
            self.env.pop(name, None)

    # --- Redis ---------------------------------------------------------------------------

    def redis_start(self) -> None:
        self.redis = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
            ],
            stdout=subprocess.DEVNULL,
        )
        self._wait_port(self.redis_port)

    def redis_kill(self) -> None:
        assert self.redis is not None
        self.redis.kill()  # everything it held is gone: no persistence
        self.redis.wait(10)

    # --- PostgreSQL ----------------------------------------------------------------------

    def _as_postgres(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd="/")

    def pg_init(self) -> None:
        data = self.folder / "pg"
        data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            shutil.chown(data, "postgres")
        self._as_postgres(str(self.pg_bin / "initdb"), "-D", str(data), "-U", "postgres")
        self._as_postgres(str(self.pg_bin / "initdb"), "--version")

    def pg_start(self) -> None:
        options = f"-p {self.pg_port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._as_postgres(
            str(self.pg_bin / "pg_ctl"),
            "-D",
            str(self.folder / "pg"),
            "-o",
            options,
            "-l",
            str(self.folder / "pg.log"),
            "-w",
            "start",
        )

    def pg_stop(self) -> None:
        self._as_postgres(
            str(self.pg_bin / "pg_ctl"), "-D", str(self.folder / "pg"), "-m", "fast", "-w", "stop"
        )

    # --- the archive ---------------------------------------------------------------------

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def worker_start(self) -> None:
        log = open(self.folder / "worker.log", "ab")  # noqa: SIM115 (closed with the process)
        self.worker = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "fivesite", "worker", "--beat"),
                "--pool=solo",
                *("--without-mingle", "--without-gossip", "-l", "info"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group: the beat it starts dies with it.
            start_new_session=True,
        )

    def worker_kill(self) -> None:
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGKILL)  # the worker and its beat, at once
        self.worker.wait(10)

    def client(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "faults" / "client.py"), *args],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def probe(self, ids: list[int]) -> dict[str, int]:
        out = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "faults" / "client.py"), "probe", *map(str, ids)],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return json.loads(out.stdout) if out.returncode == 0 else {}

    def stop(self) -> None:
        if self.worker is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait(10)
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait(10)
        with contextlib.suppress(subprocess.CalledProcessError):
            self.pg_stop()

    @staticmethod
    def _wait_port(port: int, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), 0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(f"nothing answers on port {port}")


@pytest.fixture
def services(request):
    reason = _missing()
    if reason:
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail(f"FIVES_REQUIRE_SERVICES=1 but the fault tests cannot run: {reason}")
        pytest.skip(reason)
    # A folder of its own that PostgreSQL's user may enter (pytest's are private to root).
    folder = pathlib.Path(tempfile.mkdtemp(prefix="fives-faults-"))
    folder.chmod(0o755)
    cluster = Services(folder)
    try:
        cluster.redis_start()
        cluster.pg_init()
        cluster.pg_start()
        cluster.migrate()
        cluster.worker_start()
        yield cluster
    finally:
        cluster.stop()
        log = folder / "worker.log"
        if log.exists():
            kept = (
                pathlib.Path(tempfile.gettempdir()) / f"fives-faults-{request.node.callspec.id}.log"
            )
            shutil.copy(log, kept)  # for a look after a failure
        shutil.rmtree(folder, ignore_errors=True)


def _kill_the_worker(services: Services) -> float:
    services.worker_kill()
    time.sleep(2)
    services.worker_start()
    return time.monotonic()


def _kill_redis(services: Services) -> float:
    services.redis_kill()
    time.sleep(5)
    services.redis_start()
    return time.monotonic()


def _stop_postgres(services: Services) -> float:
    services.pg_stop()
    time.sleep(15)
    services.pg_start()
    return time.monotonic()


@pytest.mark.parametrize(
    "fault", [_kill_the_worker, _kill_redis, _stop_postgres], ids=["worker", "redis", "postgres"]
)
def test_every_accepted_upload_is_finished_once_after_the_fault(services, fault):
    sender = services.client("send", str(UPLOADS))
    accepted: list[int] = []
    refused = 0
    recovered_at = None
    assert sender.stdout is not None
    for line in sender.stdout:
        kind, _, rest = line.strip().partition(" ")
        if kind == "ok":
            accepted.append(int(rest))
        else:
            refused += 1
        if recovered_at is None and len(accepted) + refused == FAULT_AT:
            recovered_at = fault(services)
    sender.wait(120)
    assert recovered_at is not None
    deadline = recovered_at + RECOVERY_SECONDS
    state: dict[str, int] = {}
    timeline = []
    while time.monotonic() < deadline:
        state = services.probe(accepted)
        timeline.append(state.get("pending"))
        if state and state["pending"] == 0:
            break
        time.sleep(2)
    print(f"pending every 2 s after recovery: {timeline}")
    finished_after = time.monotonic() - recovered_at
    print(
        f"{fault.__name__}: {len(accepted)} accepted, {refused} refused, state {state}, "
        f"all final {finished_after:.0f} s after recovery"
    )
    assert state["found"] == len(accepted)  # none lost
    assert state["pending"] == 0  # none stuck
    assert state["accepted"] == len(accepted)  # every log valid: every upload accepted
    assert state["matches"] == len(accepted) == state["all_matches"]  # none stored twice
    assert state["items_twice"] == 0
    assert len(accepted) >= UPLOADS - 100  # the fault did not simply refuse everything
