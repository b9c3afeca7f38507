"""The archive against a real PostgreSQL primary and its streaming replica (issue 39,
"Past one machine"; fivesite/db_router.py): pages read the replica, whatever follows a
person's own write reads the primary, and the replica's loss sends the reads to the primary.

The test starts two clusters of its own in a temporary folder (``initdb``, then
``pg_basebackup -R`` of the first, each on a free port, as the ``postgres`` user when run as
root), migrates the primary (the replica follows by streaming) and serves the archive with
gunicorn as production does, tasks in-process. It skips saying why without PostgreSQL's
programs, unless FIVES_REQUIRE_SERVICES=1. About 11 s here (9 of them to start it all).
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import http.cookies
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import time
from urllib.parse import urlencode

import pytest

from bench.served import (
    NO_THROTTLES,
    SIGNED_IN,
    TEST_GUNICORN,
    Gunicorn,
    free_port,
    gunicorn_missing,
    manage,
    production_env,
)
from tests.archive.helpers import valid_log
from tests.conftest import REQUIRE_SERVICES

pytestmark = pytest.mark.services

CLUB = "Tbilisi Fives Club"
SLUG = "tbilisi-fives-club"


def _postgres_bin() -> pathlib.Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_basebackup"))
    return pathlib.Path(found[-1]).parent if found else None


def _missing() -> str | None:
    if _postgres_bin() is None:
        return "needs PostgreSQL's initdb, pg_ctl and pg_basebackup (/usr/lib/postgresql/*/bin)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "needs runuser to start PostgreSQL as its own user"
    return gunicorn_missing()


class Clusters:
    """A primary and its streaming replica in ``folder``, each on a port of its own."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.folder = folder
        self.bin = _postgres_bin()
        self.ports = {"primary": free_port(), "replica": free_port()}
        self.started: list[str] = []

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.ports[name]}/postgres"

    def _as_postgres(self, program: str, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*prefix, str(self.bin / program), *args], check=True, capture_output=True, cwd="/"
        )

    def init_primary(self) -> None:
        data = self.folder / "primary"
        self._as_postgres("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync")
        with (data / "postgresql.conf").open("a") as conf:
            # Streaming replication, and no fsync: a throwaway cluster.
            conf.write("wal_level = replica\nmax_wal_senders = 4\nfsync = off\n")
        # Trust on 127.0.0.1, replication included (the system's cluster has no such line).
        (data / "pg_hba.conf").write_text(
            "local all all trust\n"
            "host all all 127.0.0.1/32 trust\n"
            "host replication all 127.0.0.1/32 trust\n"
        )

    def copy_replica(self) -> None:
        """``pg_basebackup -R``: the replica's data, and its standby.signal and connection."""
        self._as_postgres(
            "pg_basebackup",
            *("-h", "127.0.0.1", "-p", str(self.ports["primary"]), "-U", "postgres"),
            *("-D", str(self.folder / "replica"), "-R", "-X", "stream", "-c", "fast"),
            "--no-sync",
        )

    def start(self, name: str) -> None:
        options = f"-p {self.ports[name]} -k {self.folder} -c listen_addresses=127.0.0.1"
        if name == "replica":
            options += " -c hot_standby=on"
        self._as_postgres(
            "pg_ctl",
            *("-D", str(self.folder / name), "-o", options),
            *("-l", str(self.folder / f"{name}.log"), "-w", "start"),
        )
        self.started.append(name)

    def stop(self, name: str, mode: str = "fast") -> None:
        self._as_postgres("pg_ctl", "-D", str(self.folder / name), "-m", mode, "-w", "stop")
        self.started.remove(name)

    def sql(self, name: str, query: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(name), connect_timeout=5, autocommit=True) as conn:
            cursor = conn.execute(query)
            return cursor.fetchall() if cursor.description else []

    def caught_up(self, seconds: float = 20) -> None:
        """Wait until the replica has replayed all the primary has written."""
        (target,) = self.sql("primary", "SELECT pg_current_wal_lsn()")[0]
        deadline = time.monotonic() + seconds
        query = f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"
        while not self.sql("replica", query)[0][0]:
            assert time.monotonic() < deadline, "the replica did not catch up"
            time.sleep(0.1)

    def replay(self, paused: bool) -> None:
        self.sql("replica", f"SELECT pg_wal_replay_{'pause' if paused else 'resume'}()")
        if paused:
            deadline = time.monotonic() + 10
            while self.sql("replica", "SELECT pg_get_wal_replay_pause_state()")[0][0] != "paused":
                assert time.monotonic() < deadline, "the replica's replay did not pause"
                time.sleep(0.05)


class Browser:
    """One browser: its cookies, kept as a browser keeps them; no redirect followed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def ask(self, method: str, path: str, fields: dict | None = None):
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            content = answer.read().decode(errors="replace")
            for line in answer.headers.get_all("Set-Cookie") or []:
                for name, morsel in http.cookies.SimpleCookie(line).items():
                    if morsel["max-age"] == "0" or not morsel.value:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return answer.status, answer.headers, content
        finally:
            conn.close()

    def get(self, path: str):
        return self.ask("GET", path)


@pytest.fixture(scope="module")
def archive():
    """The two clusters, the archive migrated on the primary, a club with its owner (Ana,
    signed in: the key of her session) and gunicorn serving it; all stopped at the end."""
    if reason := _missing():
        if REQUIRE_SERVICES:
            pytest.fail(f"FIVES_REQUIRE_SERVICES=1 but the replica test cannot run: {reason}")
        pytest.skip(reason)
    began = time.monotonic()
    # A folder PostgreSQL's user may enter and own (pytest's are private to root).
    folder = pathlib.Path(tempfile.mkdtemp(prefix="fives-replica-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    clusters = Clusters(folder)
    server = None
    try:
        clusters.init_primary()
        clusters.start("primary")
        env = production_env(
            folder,
            DATABASE_URL=clusters.url("primary"),
            DATABASE_REPLICA_URL=clusters.url("replica"),
            FIVES_STATIC_SOURCES="1",  # no collectstatic: the pages are what is looked at
            **NO_THROTTLES,
        )
        # Migrated before the copy: the replica starts with the tables.
        manage(env | {"DATABASE_REPLICA_URL": ""}, "migrate", "--noinput")
        clusters.copy_replica()
        clusters.start("replica")
        session = manage(
            env,
            "shell",
            "-c",
            SIGNED_IN + "from django.contrib.auth.models import User\n"
            "from clubs.services import club_create\n"
            "ana = User.objects.create_user('ana')\n"
            f"club_create(owner=ana, name={CLUB!r}, slug={SLUG!r})\n"
            "print(signed_in(ana))",
        ).splitlines()[-1]  # after what the shell says of its imports
        port = free_port()
        server = Gunicorn(env, port, TEST_GUNICORN, log=folder / "gunicorn.log")
        server.start()
        clusters.caught_up()
        print(f"two clusters and gunicorn ready in {time.monotonic() - began:.1f} s")
        yield clusters, port, session, folder / "gunicorn.log"
    finally:
        if server is not None:
            server.stop()
        for name in reversed(clusters.started[:]):
            with contextlib.suppress(subprocess.CalledProcessError):
                clusters.stop(name, "immediate")
        shutil.rmtree(folder, ignore_errors=True)


def _until(check, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not seen in time"
        time.sleep(0.2)


def test_pages_read_the_replica(archive):
    clusters, port, *_ = archive
    reader = Browser(port)
    status, _, page = reader.get(f"/clubs/{SLUG}/")
    assert status == 200 and CLUB in page
    clusters.replay(paused=True)
    try:
        clusters.sql(
            "primary", f"UPDATE clubs_club SET name = 'Kutaisi Fives' WHERE slug = '{SLUG}'"
        )
        # Not yet on the replica: the page, read from it, still has the old name.
        status, _, page = reader.get(f"/clubs/{SLUG}/")
        assert status == 200 and CLUB in page and "Kutaisi Fives" not in page
    finally:
        clusters.replay(paused=False)
    _until(lambda: "Kutaisi Fives" in reader.get(f"/clubs/{SLUG}/")[2])


def test_a_lagging_replica_never_hides_a_persons_own_upload(archive):
    clusters, port, session, _ = archive
    ana = Browser(port)
    ana.cookies["sessionid"] = session
    clusters.caught_up()
    (club_id,) = clusters.sql("primary", f"SELECT id FROM clubs_club WHERE slug = '{SLUG}'")[0]
    clusters.replay(paused=True)
    try:
        status, _, form = ana.get("/uploads/new/")
        assert status == 200, "Ana is signed in (her session is on the replica)"
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
        status, headers, _ = ana.ask(
            "POST",
            "/uploads/new/",
            {"text": json.dumps(valid_log(7)), "club": club_id, "csrfmiddlewaretoken": csrf},
        )
        assert status == 302 and "fives_primary" in ana.cookies
        # Her upload's page, the match it stored, the list: all show it to her.
        status, _, detail = ana.get(headers["Location"])
        assert status == 200
        match = re.search(r'href="/matches/(\d+)/"', detail)
        assert match, "the upload's page links to its stored match"
        match_page = f"/matches/{match[1]}/"
        assert ana.get(match_page)[0] == 200
        assert f'href="{match_page}"' in ana.get("/")[2]
        # Anyone else reads the replica, which has not replayed it yet.
        stranger = Browser(port)
        assert stranger.get(match_page)[0] == 404
        assert f'href="{match_page}"' not in stranger.get("/")[2]
    finally:
        clusters.replay(paused=False)
    _until(lambda: Browser(port).get(match_page)[0] == 200)


def test_the_replica_lost_the_pages_read_the_primary(archive):
    clusters, port, _, log = archive
    clusters.stop("replica", "immediate")
    clusters.sql("primary", f"UPDATE clubs_club SET name = 'Batumi Fives' WHERE slug = '{SLUG}'")
    reader = Browser(port)
    began = time.monotonic()
    for _ in range(12):  # each of gunicorn's workers, and its threads' kept connections
        status, _, page = reader.get(f"/clubs/{SLUG}/")
        assert status == 200 and "Batumi Fives" in page
        assert reader.get("/")[0] == 200
    assert time.monotonic() - began < 15, "a replica down costs no connection a request"
    assert "the replica cannot be reached, reading the primary" in log.read_text()
