"""Faults, each mid-way through 300 uploads, then recovery: a worker killed with SIGKILL in
the middle of a task, the broker emptied with a backlog in it (Redis without persistence
restarted, or Redis with persistence flushed), PostgreSQL stopped for 15 seconds; the broker's
fault with a Redis that keeps nothing (a small club's default) and one with persistence. Every
upload the archive answered for must reach a final state within two minutes of recovery:
none lost, none stored twice, none stuck.

The archive runs with its production figures but for the lease, the hand-over and the sweep,
at a quarter of theirs (``RECOVERY_FIGURES``); the broker's visibility timeout stays 300 s:
recovery must not wait on the broker.

The database's outage is also seen through gunicorn, served docs/deploy.md's production way,
by clients uploading and reading all through it: no connection reset, every failure a 503
with Retry-After, and every log answered 202 stored once after. And /healthz answers within
its bound with the database, Redis or both refusing connections or hung.

The tests start their own throwaway Redis (``redis-server``) and PostgreSQL (``initdb`` and
``pg_ctl`` in a temporary folder), real ``celery worker`` processes as docs/deploy.md lays them
out (one for uploads, with the beat; one for statistics and ratings), and a client process;
they skip saying why without those programs, unless FIVES_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import collections
import contextlib
import glob
import http.client
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
# How many times the worker is killed, at most, until a kill lands mid-task.
KILL_TRIES = 20
FAULT_AT = 100
# The lease, the hand-over and the sweep at a quarter of their production figures (60, 60
# and 30 s), so that a fault's test waits seconds, not minutes, for what they decide: the
# mechanism is the same, and so is the bound's arithmetic (docs/deploy.md: a lost upload is
# sent again within lease, or hand-over, plus sweep). The broker's own redelivery (its visibility
# timeout, 300 s) and the statistics' catch-up (600 s) keep their production figures: recovery
# must not wait on them. The bound is a timeout: a test ends once every upload is final.
RECOVERY_FIGURES = {
    "FIVES_LEASE_SECONDS": "15",
    "FIVES_HANDOVER_AFTER": "15",
    "FIVES_SWEEP_EVERY": "7.5",
}
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

    def __init__(self, folder: pathlib.Path, persistent: bool) -> None:
        self.folder = folder
        self.persistent = persistent
        self.redis_port = _free_port()
        self.pg_port = _free_port()
        self.pg_bin = _postgres_bin()
        self.redis: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.stats_worker: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/postgres",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "0",
            "DJANGO_SETTINGS_MODULE": "fivesite.settings",
            "PYTHONPATH": str(ROOT),
        }
        # The production figures, whatever this shell sets, but for the recovery's own
        # (``RECOVERY_FIGURES``).
        for name in (
            "FIVES_REQUIRE_SERVICES",
            "FIVES_REQUIRE_BROWSER",
            "FIVES_LEASE_SECONDS",
            "FIVES_HANDOVER_AFTER",
            "FIVES_SWEEP_EVERY",
            "FIVES_REQUEUE_AFTER",
            "FIVES_PERIODIC_EVERY",
            "FIVES_BROKER_VISIBILITY_TIMEOUT",
            "FIVES_BROKER_RESTORE_INTERVAL",
            "FIVES_BROKER_RESTORE_THROTTLE",
            "FIVES_INGEST_BATCH",
        ):
            self.env.pop(name, None)
        self.env |= RECOVERY_FIGURES

    # --- Redis ---------------------------------------------------------------------------

    def redis_start(self) -> None:
        # Without persistence, as a small club's default Redis; with it, as docs/deploy.md
        # advises (an append-only file written every second).
        keep = ("yes", "--appendfsync", "everysec") if self.persistent else ("no",)
        self.redis = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"),
                *("--save", "", "--dir", str(self.folder), "--appendonly", *keep),
            ],
            stdout=subprocess.DEVNULL,
        )
        self._wait_port(self.redis_port)

    def redis_kill(self) -> None:
        assert self.redis is not None
        self.redis.kill()
        self.redis.wait(10)

    def redis_client(self):
        import redis

        return redis.Redis(port=self.redis_port, socket_timeout=5)

    def broker_backlog(self) -> int:
        """Return how many messages the broker holds: queued, and taken but unacknowledged."""
        client = self.redis_client()
        return client.llen("uploads") + client.hlen("unacked")

    def sql(self, query: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.env["DATABASE_URL"], connect_timeout=5) as conn:
            return conn.execute(query).fetchall()

    # --- PostgreSQL ----------------------------------------------------------------------

    def _as_postgres(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd="/")

    def pg_init(self, template: pathlib.Path | None = None) -> None:
        """A cluster of its own: a copy of ``template`` (a stopped cluster's folder, the
        archive's schema in it), or a new one."""
        data = self.folder / "pg"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        if template is not None:
            # As it is, owner and modes kept (PostgreSQL's own user, 0700).
            subprocess.run(["cp", "-a", str(template), str(data)], check=True)
            return
        data.mkdir()
        if os.geteuid() == 0:
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
        """Start the uploads' worker with the beat, as docs/deploy.md's production layout has
        them (the statistics' own worker is ``stats_worker_start``)."""
        self.worker = self._celery("worker.log", "-Q", "uploads", "--beat")

    def stats_worker_start(self) -> None:
        self.stats_worker = self._celery("stats-worker.log", "-Q", "stats,ratings,analysis")

    def _celery(self, log_name: str, *args: str) -> subprocess.Popen:
        log = open(self.folder / log_name, "ab")  # noqa: SIM115 (closed with the process)
        return subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "fivesite", "worker", *args),
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

    def worker_pause(self, paused: bool) -> None:
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGSTOP if paused else signal.SIGCONT)

    def client(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "faults" / "client.py"), *args],
            cwd=ROOT,
            env=self.env | (env or {}),
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
        for worker in (self.worker, self.stats_worker):
            if worker is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(10)
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


def _skip_without_services() -> None:
    reason = _missing()
    if reason:
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail(f"FIVES_REQUIRE_SERVICES=1 but the fault tests cannot run: {reason}")
        pytest.skip(reason)


def _new_services(prefix: str, persistent: bool = False) -> Services:
    """Services in a folder of their own that PostgreSQL's user may enter (pytest's are
    private to root)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return Services(folder, persistent=persistent)


@pytest.fixture(scope="module")
def migrated_cluster():
    """A stopped PostgreSQL cluster with the archive's schema migrated into it, made once:
    each test's cluster is a copy (migrating took some 10 s a test)."""
    _skip_without_services()
    cluster = _new_services("fives-faults-template-")
    try:
        cluster.pg_init()
        cluster.pg_start()
        cluster.migrate()
        cluster.pg_stop()
        yield cluster.folder / "pg"
    finally:
        cluster.stop()
        shutil.rmtree(cluster.folder, ignore_errors=True)


@pytest.fixture
def services(request, redis_mode, migrated_cluster):
    _skip_without_services()
    cluster = _new_services("fives-faults-", persistent=redis_mode == "persistent")
    folder = cluster.folder
    try:
        cluster.redis_start()
        cluster.pg_init(template=migrated_cluster)
        cluster.pg_start()
        cluster.worker_start()
        cluster.stats_worker_start()
        yield cluster
    finally:
        cluster.stop()
        for name in ("worker.log", "gunicorn.log"):
            log = folder / name
            if log.exists():
                kept = pathlib.Path(tempfile.gettempdir()) / (
                    f"fives-faults-{request.node.callspec.id}-{name}"
                )
                shutil.copy(log, kept)  # for a look after a failure
        shutil.rmtree(folder, ignore_errors=True)


def _kill_the_worker(services: Services) -> float:
    """SIGKILL the worker in the middle of a task: while it holds an upload's lease."""
    held = "SELECT id FROM games_upload WHERE lease_until > now() AND status = 'pending'"
    import psycopg

    left: list = []
    for _attempt in range(KILL_TRIES):
        deadline = time.monotonic() + 30
        with psycopg.connect(services.env["DATABASE_URL"], autocommit=True) as conn:
            while not conn.execute(held).fetchall():
                assert time.monotonic() < deadline, "the worker never held an upload"
            services.worker_kill()
        left = services.sql(held.replace("lease_until > now() AND ", "lease_holder <> '' AND "))
        if left:
            break
        # An upload takes some 40 ms: it finished between the look and the kill, which hit
        # an idle worker (nothing to lose). Start it again and aim again.
        services.worker_start()
    print(f"killed holding upload(s) {[row[0] for row in left]}")
    assert left, f"the worker was not killed mid-task in {KILL_TRIES} tries"
    time.sleep(2)
    services.worker_start()
    return time.monotonic()


def _empty_the_broker(services: Services) -> float:
    """Lose a backlog with the broker: the worker paused while uploads queue up, then Redis
    without persistence restarted (it comes back empty), or Redis with persistence flushed."""
    services.worker_pause(True)
    time.sleep(3)
    lost = services.broker_backlog()
    if services.persistent:
        services.redis_client().flushall()
    else:
        services.redis_kill()
        time.sleep(3)
        services.redis_start()
    print(f"the broker lost {lost} messages")
    assert lost > 0, "nothing was in the broker to lose"
    services.worker_pause(False)
    return time.monotonic()


def _stop_postgres(services: Services) -> float:
    services.pg_stop()
    time.sleep(15)
    services.pg_start()
    return time.monotonic()


# Redis's persistence only plays a part where the broker itself loses what it held: the
# broker's fault is tried with and without it, the worker's and the database's once each.
@pytest.mark.parametrize(
    ("fault", "redis_mode"),
    [
        (_kill_the_worker, "ephemeral"),
        (_empty_the_broker, "ephemeral"),
        (_empty_the_broker, "persistent"),
        (_stop_postgres, "persistent"),
    ],
    ids=["worker-ephemeral", "broker-ephemeral", "broker-persistent", "postgres-persistent"],
)
def test_every_accepted_upload_is_finished_once_after_the_fault(services, fault, redis_mode):
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
        timeline.append(f"{time.monotonic() - recovered_at:.0f}s:{state.get('pending')}")
        if state and state["pending"] == 0:
            break
        time.sleep(2)
    print(f"pending after recovery: {' '.join(timeline)}")
    finished_after = time.monotonic() - recovered_at
    print(
        f"recovery: {fault.__name__}, Redis {redis_mode}: {len(accepted)} accepted, "
        f"{refused} refused, state {state}, all final {finished_after:.0f} s after recovery"
    )
    assert state["found"] == len(accepted)  # none lost
    assert state["pending"] == 0  # none stuck
    assert state["accepted"] == len(accepted)  # every log valid: every upload accepted
    assert state["matches"] == len(accepted) == state["all_matches"]  # none stored twice
    assert state["items_twice"] == 0
    assert len(accepted) >= UPLOADS - 100  # the fault did not simply refuse everything


# --- the database away, seen through the production web server ---------------------------

OUTAGE_SECONDS = 15
UPLOADERS = 6
READERS = 2
# docs/deploy.md's production gunicorn (its worker class, threads and timeout), two workers on
# this two-core machine.
GUNICORN = ["--worker-class", "gthread", "--workers", "2", "--threads", "8", "--timeout", "120"]
# What a client reads as the connection dropped under it, rather than an answer.
RESETS = (ConnectionError, http.client.RemoteDisconnected, http.client.IncompleteRead)


class Web:
    """The archive served docs/deploy.md's production way (gunicorn, threaded workers) against
    the throwaway services, an account with a token and a club to upload for."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.port = _free_port()
        self.env = services.env | {
            "FIVES_HTTPS": "0",
            # The fault pass measures outages, not the budgets: its clients send far more
            # than a person may.
            "FIVES_THROTTLE_UPLOAD": "1000000/min",
            "FIVES_THROTTLE_READ": "1000000/min",
            "FIVES_THROTTLE_EXPORT": "1000000/min",
        }
        self.server: subprocess.Popen | None = None
        self.token = ""

    def start(self) -> None:
        subprocess.run(
            [
                *(sys.executable, "manage.py", "shell", "-c"),
                "from django.contrib.auth.models import User; "
                "from clubs.services import club_create; "
                "club_create(owner=User.objects.create_user('web-client'), "
                "name='Outage club', slug='outage-club')",
            ],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )
        self.token = subprocess.run(
            [sys.executable, "manage.py", "api_token", "web-client"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        gunicorn = pathlib.Path(sys.executable).with_name("gunicorn")
        log = open(self.services.folder / "gunicorn.log", "ab")  # noqa: SIM115
        self.server = subprocess.Popen(
            [str(gunicorn), "fivesite.wsgi", *GUNICORN, "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while self.ask("GET", "/api/v1/ping/")[0] != 200:
            assert self.server.poll() is None, "gunicorn stopped"
            assert time.monotonic() < deadline, "gunicorn did not answer"
            time.sleep(0.3)

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(30)

    def ask(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        conn: http.client.HTTPConnection | None = None,
    ) -> tuple[int | str, dict[str, str], bytes]:
        """Return the status, headers and body of one request, or ``("reset", ...)`` when the
        connection dropped instead of answering (``("refused", ...)`` before gunicorn
        listens). A connection given is used and left open as the answer allows."""
        own = conn is None
        conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            content = answer.read()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, content
        except ConnectionRefusedError:
            return "refused", {}, b""
        except RESETS as error:
            conn.close()
            return "reset", {}, repr(error).encode()
        finally:
            if own:
                conn.close()


def _outage_client(web: Web, number: int, stop, seen: list, accepted: dict) -> None:
    """Upload distinct logs until ``stop``, as a client that tries a refused log again: one
    log (about 9 kB, clients 0 and 1), eight as NDJSON (about 70 kB, clients 2 and 3) or
    each in turn (4 and 5), on a connection of its own for each (as urllib, even clients) or
    one kept alive (as requests' sessions, odd ones). Every outcome is kept in ``seen``; each
    log answered 202 in ``accepted`` (upload id by log id)."""
    from fives_engine.simulate import simulate_match

    headers = {"Authorization": f"Bearer {web.token}"}
    kept = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30) if number % 2 else None
    sent = 0
    while not stop.is_set():
        many = {0: False, 1: True}.get(number // 2, sent % 2 == 1)
        ids = [f"outage-{number}-{sent}-{line}" for line in range(8 if many else 1)]
        docs = [
            simulate_match("muggins", 2, seed=number * 100_000 + sent * 10 + line) | {"id": log_id}
            for line, log_id in enumerate(ids)
        ]
        body = (
            "\n".join(json.dumps(doc) for doc in docs).encode()
            if many
            else json.dumps(docs[0]).encode()
        )
        kind = "application/x-ndjson" if many else "application/json"
        while not stop.is_set():  # the same document until it is taken
            began = time.monotonic()
            status, answer_headers, content = web.ask(
                "POST",
                "/api/v1/uploads/?club=outage-club",
                body,
                headers | {"Content-Type": kind},
                kept,
            )
            what = f"upload {'kept' if kept else 'fresh'} {'ndjson' if many else 'json'}"
            seen.append((what, status, answer_headers.get("retry-after"), began, content))
            if status == 202:
                upload = json.loads(content)["id"]
                accepted.update(dict.fromkeys(ids, upload))
                break
            time.sleep(0.05)
        sent += 1
    if kept is not None:
        kept.close()


def _outage_reader(web: Web, stop, seen: list) -> None:
    paths = [
        "/api/v1/matches/",
        "/api/v1/clubs/",
        "/",
        "/clubs/outage-club/",
        "/api/v1/ping/",
        "/api/v1/matches/export?limit=3",
    ]
    turn = 0
    while not stop.is_set():
        path = paths[turn % len(paths)]
        began = time.monotonic()
        status, headers, content = web.ask("GET", path, headers={"Accept-Language": "en"})
        seen.append((path, status, headers.get("retry-after"), began, content))
        turn += 1
        time.sleep(0.05)


def _health_prober(web: Web, stop, seen: list) -> None:
    while not stop.is_set():
        began = time.monotonic()
        status, _, content = web.ask("GET", "/healthz")
        seen.append(("/healthz", status, time.monotonic() - began, began, content))
        time.sleep(0.25)


@pytest.fixture
def web(services):
    served = Web(services)
    try:
        served.start()
        yield served
    finally:
        served.stop()


@pytest.mark.parametrize("redis_mode", ["ephemeral"])
def test_a_database_outage_through_gunicorn_is_503s_never_a_reset(services, web, redis_mode):
    """Issue 34, item 7: during a database outage some uploads through gunicorn got a TCP
    reset instead of an answer (6 of 83 and 3 of 78 failed attempts). Now, for 15 s of
    PostgreSQL stopped under clients uploading (with bodies) and reading: no reset, every
    failure a 503 with Retry-After, ping alive throughout; afterwards every log answered 202
    stored once."""
    import threading

    stop = threading.Event()
    seen: list[tuple] = []
    health: list[tuple] = []
    accepted: dict[str, int] = {}
    threads = [
        threading.Thread(target=_outage_client, args=(web, number, stop, seen, accepted))
        for number in range(UPLOADERS)
    ]
    threads += [
        threading.Thread(target=_outage_reader, args=(web, stop, seen)) for _ in range(READERS)
    ]
    threads.append(threading.Thread(target=_health_prober, args=(web, stop, health)))
    try:
        for thread in threads:
            thread.start()
        time.sleep(4)
        down_at = time.monotonic()
        services.pg_stop()
        time.sleep(OUTAGE_SECONDS)
        restart_at = time.monotonic()
        services.pg_start()
        up_at = time.monotonic()
        # Until every client has had an answer again, and a little more.
        time.sleep(6)
        stop.set()
        for thread in threads:
            thread.join(60)
    finally:
        stop.set()

    during = [row for row in seen if down_at <= row[3] < up_at]
    resets = [row for row in seen if row[1] == "reset"]
    unavailable = [row for row in seen if row[1] == 503]
    failed = [row for row in seen if row[1] not in (200, 202, 404)]
    ping = [row for row in seen if row[0] == "/api/v1/ping/" and down_at <= row[3] < up_at]
    # Asked while it was surely down: from a second after it stopped until it was started.
    health_down = [row for row in health if down_at + 1 <= row[3] < restart_at]
    print(
        f"database outage through gunicorn: {len(seen)} requests ({len(during)} while it was "
        f"down), {len(resets)} resets, {len(unavailable)} 503s, {len(failed)} failed, "
        f"{len(accepted)} logs answered 202; /healthz while down: max "
        f"{max((row[2] for row in health_down), default=0):.2f} s over {len(health_down)}"
    )
    print("answers:", sorted(collections.Counter(row[:2] for row in seen).items(), key=str))
    assert resets == [], resets[:5]
    assert len(failed) == len(unavailable), [row[:3] for row in failed if row[1] != 503][:5]
    assert {row[2] for row in unavailable} == {"30"}  # every 503 says when to come back
    assert unavailable, "the outage was not seen"
    assert ping and {row[1] for row in ping} == {200}  # alive, though not ready
    # Not ready, and why: /healthz names the database (issue 25, item 2), the API answers in
    # its error shape, a page is a short one in the reader's language.
    assert health_down and {row[1] for row in health_down} == {503}
    for row in health_down:
        state = json.loads(row[4])
        assert state["database"].startswith("down: ") and state["broker"] == "ok"
    for row in unavailable:
        if row[0].startswith(("upload", "/api/")):
            assert json.loads(row[4])["error"]["code"] == "unavailable", row[4][:300]
        else:
            assert b"The archive is away for a moment" in row[4], row[4][:300]
    # Back: every answer a second after it was started again (a connection kept from before
    # the outage is checked before it is used again, never failing a first request).
    back = [row[:4] for row in seen + health if row[3] > up_at + 1 and row[1] not in (200, 202)]
    assert back == [], [(what, status, round(at - up_at, 1)) for what, status, _, at in back]

    # Afterwards every log answered 202 is stored, once.
    logs = list(accepted)
    deadline = up_at + RECOVERY_SECONDS
    while True:
        pending = services.sql(
            "SELECT count(*) FROM games_upload WHERE status = 'pending' AND id = ANY(ARRAY["
            + ",".join(map(str, set(accepted.values())))
            + "]::bigint[])"
        )[0][0]
        if not pending or time.monotonic() > deadline:
            break
        time.sleep(2)
    recovered = time.monotonic() - up_at
    stored = dict(
        services.sql(
            "SELECT external_id, count(*) FROM games_match GROUP BY external_id",
        )
    )
    print(f"recovery: all final {recovered:.0f} s after the database came back")
    assert pending == 0
    assert [log for log in logs if stored.get(log) != 1] == []  # none lost, none twice
    assert sum(stored.values()) == len(logs)  # nothing stored but what was answered 202

    # A restart between two requests: every web thread's kept connection is stale, and is
    # checked before it is used (each thread's first request answered 503 without).
    services.pg_stop()
    services.pg_start()
    answers: list = []
    for _ in range(3):
        asked = [
            threading.Thread(target=lambda: answers.append(web.ask("GET", "/api/v1/clubs/")[0]))
            for _ in range(24)
        ]
        for thread in asked:
            thread.start()
        for thread in asked:
            thread.join(60)
    print(f"after a restart: {collections.Counter(answers)}")
    assert set(answers) == {200}


# --- /healthz answers within a second, whatever is down ------------------------------------

# How the database and Redis (the broker and the cache) are, for each fault kind: up, refusing
# connections (nothing listens), or hung (a port that takes connections and never answers).
HEALTH_FAULTS = [
    ("up", "up"),
    ("refused", "up"),
    ("hung", "up"),
    ("up", "refused"),
    ("up", "hung"),
    ("refused", "refused"),
    ("hung", "hung"),
]
# The bound /healthz promises (games.health.HEALTH_BUDGET is 0.6 s of it).
HEALTH_WITHIN = 1.0


@pytest.fixture
def bare_services(request):
    """The throwaway Redis and PostgreSQL alone: no schema, no workers."""
    _skip_without_services()
    cluster = _new_services("fives-faults-")
    try:
        cluster.redis_start()
        cluster.pg_init()
        cluster.pg_start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.folder, ignore_errors=True)


def test_healthz_answers_within_a_second_whatever_is_down(bare_services):
    """Issue 34, item 9: /healthz took up to 2.5 s with Redis away (its parts were asked one
    after the other, the broker with a retry 2 s later), and a Redis that takes connections
    but never answers held it for good. Now each fault kind is answered within the check's
    bound, naming what is down, and the API's ping (liveness) answers ok throughout."""
    services = bare_services
    hung = socket.socket()  # takes connections (the kernel's backlog) and never answers
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)
    refused = _free_port()  # nothing listens there
    ports = {"hung": hung.getsockname()[1], "refused": refused}
    database = services.env["DATABASE_URL"]
    redis = services.env["REDIS_URL"]
    figures = []
    try:
        for db_state, redis_state in HEALTH_FAULTS:
            env = {
                "DATABASE_URL": database
                if db_state == "up"
                else f"postgres://postgres@127.0.0.1:{ports[db_state]}/postgres",
                "REDIS_URL": redis
                if redis_state == "up"
                else f"redis://127.0.0.1:{ports[redis_state]}/0",
                "CACHE_URL": "",  # the cache on the broker's Redis
            }
            paths = ["/healthz", "/api/v1/ping/"] * 3
            # The first request of a process loads the URLs and the views: not counted.
            asked = services.client("web", "/api/v1/ping/", *paths, env=env)
            out, _ = asked.communicate(timeout=120)
            rows = [json.loads(line) for line in out.splitlines()][1:]
            assert len(rows) == len(paths), (db_state, redis_state, out)
            health = [row for row in rows if row["path"] == "/healthz"]
            states = [json.loads(row["body"]) for row in health]
            ping = [row for row in rows if row["path"] == "/api/v1/ping/"]
            kind = f"database {db_state}, Redis {redis_state}"
            figures.append(
                f"{kind}: /healthz {', '.join(f'{row["seconds"]:.2f}' for row in health)} s "
                f"(its checks {', '.join(f'{state["seconds"]:.2f}' for state in states)} s), "
                f"ping {', '.join(f'{row["seconds"]:.2f}' for row in ping)} s"
            )
            # The bound the check enforces on itself, measured by it.
            assert max(state["seconds"] for state in states) < HEALTH_WITHIN, kind
            expected = 200 if (db_state, redis_state) == ("up", "up") else 503
            assert {row["status"] for row in health} == {expected}, (kind, states)
            for state in states:
                assert (state["database"] == "ok") == (db_state == "up"), (kind, state)
                assert (state["broker"] == "ok") == (redis_state == "up"), (kind, state)
                assert (state["cache"] == "ok") == (redis_state == "up"), (kind, state)
            assert {row["retry_after"] for row in health} == {None if expected == 200 else "30"}
            # Alive, whatever is down: the ping asks neither the database nor (for long) the
            # cache.
            assert {row["status"] for row in ping} == {200}, (kind, ping)
    finally:
        hung.close()
        print("\n".join(["/healthz by fault kind:", *figures]))
