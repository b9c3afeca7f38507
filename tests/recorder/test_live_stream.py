"""The live tables' event streams served the production way: an ASGI server (uvicorn, as
gunicorn's workers run it) on the test's PostgreSQL, fed from a real Redis; the match stored
by a real Celery worker when its last tile is recorded. Skipped without those services,
unless FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest
from django.db import connection
from django.test import Client

from bench.served import free_port
from clubs.models import Club
from games.models import Match
from recorder import live
from recorder.models import LiveMatch
from tests.celery_worker import ROOT, Worker, database_url, real_broker

from .test_live import CLUB, match_record, phone_send

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class EventStream:
    """A watcher: reads a Server-Sent Events stream in a thread, each event's data parsed
    into ``events`` (with its ``id``)."""

    def __init__(self, port: int, path: str, cookie: str, last_event_id: str | None = None):
        self.events: queue.Queue = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": cookie, "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event: dict = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if not line:
                    if "data" in event:
                        self.events.put(event)
                    event = {}
                elif line.startswith("id: "):
                    event["id"] = line[4:]
                elif line.startswith("data: "):
                    event["data"] = json.loads(line[6:])
        except (OSError, ValueError, AttributeError):  # closed by the test
            pass
        self.events.put(None)  # the stream ended

    def next(self, timeout: float = 10) -> dict | None:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.connection.close()


@pytest.fixture
def broker(real_services):
    with real_broker(os.environ["REDIS_URL"]) as url:
        yield url


@pytest.fixture
def streams(broker, transactional_db, settings):
    """The ASGI server on the test database and broker; this process publishes there."""
    if connection.vendor != "postgresql":
        pytest.skip("the server shares the test database: needs PostgreSQL")
    settings.REDIS_URL = broker
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url(), REDIS_URL=broker, FIVES_DATABASE_POOL="4")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "fivesite.asgi:application",
            "--port",
            str(port),
            "--no-access-log",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("HEAD", "/healthz")
            break
        except OSError:
            time.sleep(0.2)
    yield port
    server.terminate()
    server.wait(10)


def signed_in(user) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, f"sessionid={client.cookies['sessionid'].value}"


def test_a_watcher_sees_each_step_as_it_is_sent_and_catches_up_after_a_drop(streams, owner):
    phone, cookie = signed_in(owner)
    doc = match_record()
    _, steps = live.steps_of(doc)
    phone_send(phone, doc, 0, steps[:1])
    current = LiveMatch.objects.get()
    watcher = EventStream(streams, f"/live/stream/{current.pk}/?after=0", cookie)
    assert watcher.status == 200
    first = watcher.next()
    assert first["id"] == "1" and first["data"]["count"] == 1
    for number in range(1, 8):
        phone_send(phone, doc, number, steps[number : number + 1])
        event = watcher.next()
        assert event["data"]["count"] == number + 1
        assert [s["n"] for s in event["data"]["steps"]] == [number]
    # The watcher's connection drops; three steps and an undo happen meanwhile.
    watcher.close()
    phone_send(phone, doc, 8, steps[8:11])
    phone_send(phone, doc, 10, [])
    back = EventStream(streams, f"/live/stream/{current.pk}/", cookie, last_event_id="8")
    caught = back.next()
    assert caught["data"]["count"] == 10
    assert sorted(s["n"] for s in caught["data"]["steps"]) == [8, 9]
    back.close()


def test_a_club_nights_stream_tells_a_table_from_its_set_up_before_its_first_tile(
    streams, owner, member
):
    """A watcher of the club night before any table: the phone's set-up (no step yet) is
    told at once, as its first tile is (it was told only from the first tile)."""
    phone, _ = signed_in(owner)
    _, cookie = signed_in(member)
    tables = EventStream(streams, f"/live/stream/clubs/{CLUB}/", cookie)
    try:
        assert tables.next()["data"] == {"tables": []}
        doc = match_record()
        _, steps = live.steps_of(doc)
        sent = time.monotonic()
        assert phone_send(phone, doc, 0, []).status_code == 200
        answered = time.monotonic()
        table = tables.next(timeout=5)["data"]["table"]
        told = time.monotonic()
        assert table["steps"] == 0 and table["sides"] and table["end"] is None
        phone_send(phone, doc, 0, steps[:1])
        assert tables.next(timeout=5)["data"]["table"]["steps"] == 1
        print(
            f"\nthe set-up answered in {(answered - sent) * 1000:.0f} ms (this process's first "
            f"request) and told to the club night's stream {(told - answered) * 1000:.0f} ms later"
        )
    finally:
        tables.close()


def test_nobody_outside_a_private_club_gets_its_streams(streams, owner, outsider):
    club = Club.objects.get(slug=CLUB)
    club.is_private = True
    club.save()
    phone, _ = signed_in(owner)
    doc = match_record()
    phone_send(phone, doc, 0, live.steps_of(doc)[1][:3])
    current = LiveMatch.objects.get()
    _, stranger = signed_in(outsider)
    for cookie in ("", stranger):
        for path in (f"/live/stream/{current.pk}/", f"/live/stream/clubs/{CLUB}/"):
            stream = EventStream(streams, path, cookie)
            assert stream.status == 404, path
            stream.close()


def test_the_last_tile_sends_the_watchers_to_the_stored_rated_match(streams, broker, owner):
    worker = Worker(broker=broker)
    worker.start()
    try:
        phone, cookie = signed_in(owner)
        doc = match_record()
        _, steps = live.steps_of(doc)
        phone_send(phone, doc, 0, steps[:-1])
        current = LiveMatch.objects.get()
        watcher = EventStream(streams, f"/live/stream/{current.pk}/", cookie)
        tables = EventStream(streams, f"/live/stream/clubs/{CLUB}/", cookie)
        assert watcher.next()["data"]["count"] == len(steps) - 1
        assert [t["id"] for t in tables.next()["data"]["tables"]] == [current.pk]
        phone_send(phone, doc, len(steps) - 1, steps[-1:])
        ends = []
        while (event := watcher.next(timeout=30)) is not None:
            ends.append(event["data"]["end"])
        # The last step, then "storing", then the stored match once rated: the stream ends.
        match = Match.objects.get()
        assert ends[-1] == {"match": match.pk, "url": match.get_absolute_url(), "waiting": False}
        assert {"storing": True} in ends
        seen = [tables.next()["data"]["table"] for _ in range(3)]
        assert seen[-1]["end"]["url"] == match.get_absolute_url()
        tables.close()
    finally:
        worker.stop()
