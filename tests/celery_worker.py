"""The real broker and a real Celery worker, for the tests of the pipeline and the analysis
queue: a Redis database (REDIS_URL's unless named; emptied before and after), and
``celery -A fivesite worker`` on the test's PostgreSQL database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _reset_connections(app) -> None:
    """Forget the app's cached broker pools, so the next task uses the broker now set."""
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def real_broker(url: str | None = None, transport_options: dict | None = None) -> Iterator[str]:
    """Point this process's Celery app at ``url`` (else REDIS_URL's database), emptied, off
    eager mode, with ``transport_options`` when given."""
    import redis

    from fivesite.celery import app

    url = url or os.environ["REDIS_URL"]
    redis.Redis.from_url(url).flushdb()
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    saved_options = app.conf.broker_transport_options
    app.conf.broker_url = url
    if transport_options is not None:
        app.conf.broker_transport_options = transport_options
    app.conf.task_always_eager = False
    _reset_connections(app)
    try:
        yield url
    finally:
        _reset_connections(app)
        app.conf.broker_url, app.conf.task_always_eager = saved
        app.conf.broker_transport_options = saved_options
        redis.Redis.from_url(url).flushdb()


def database_url() -> str:
    """The test database's address, for a worker in a process of its own."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """One ``celery -A fivesite worker`` process (solo pool: one task at a time) serving
    ``queues`` (every queue when None), on the test database and broker."""

    def __init__(
        self, *, broker: str, queues: str | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.env = dict(os.environ, DATABASE_URL=database_url(), REDIS_URL=broker, **(env or {}))
        self.queues = queues
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "fivesite",
                "worker",
                "--pool=solo",
                *(["-Q", self.queues] if self.queues else []),
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                "-l",
                "info",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if " ready." in line:
                return
            if time.monotonic() > deadline:
                break
        raise AssertionError("the Celery worker did not start")

    def kill(self) -> None:
        """Kill the worker at once (SIGKILL), as a machine lost would: its task unfinished."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
