"""The production way: matches stored by a real Celery worker (its own process, on the
test's PostgreSQL and a real Redis broker), their webhooks sent by it on the ``webhooks``
queue to a real receiver. The receiver is down when the events happen, then up: every event
arrives, each once by its webhook-id, and every delivery verifies with ``standardwebhooks``.
(The issue's ten minutes down are seconds here: the waits between attempts are the
settings', shortened for the worker.) Skipped without the services, unless
FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from django.db import connection

from clubs.models import Club
from games.models import Match, Upload
from games.services.uploads import upload_create
from tests.archive.helpers import ndjson, valid_log
from tests.celery_worker import Worker, real_broker
from webhooks.models import Delivery

from .conftest import register
from .receiver import Receiver, down_port

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

MATCHES = 8
WORKER_ENV = {
    "FIVES_WEBHOOKS_ALLOW_PRIVATE": "1",  # the receiver is on 127.0.0.1
    "FIVES_WEBHOOK_RETRIES": ",".join(["1"] + ["2"] * 40),
}


def settled(done, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the worker did not finish in time"
        time.sleep(0.2)


def test_the_receiver_down_then_up_gets_every_event_once(real_services, owner, settings):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = True
    receiver = Receiver(port=down_port())  # nobody listens there yet
    register(owner, receiver, events=["match.stored", "upload.finished"])
    club = Club.objects.get(slug="tbilisi-fives-club")
    with real_broker() as url:
        worker = Worker(broker=url, queues="uploads,webhooks", env=WORKER_ENV)
        worker.start()
        try:
            logs = [valid_log(seed) for seed in range(1, MATCHES + 1)]
            for log in logs:  # one upload a match: a match.stored and an upload.finished each
                upload_create(uploader=owner, data=ndjson(log), kind=Upload.Kind.NDJSON, club=club)
            settled(lambda: Delivery.objects.filter(attempts__gte=2).count() == 2 * MATCHES)
            down = Delivery.objects.filter(status="delivered").count()
            receiver.start()  # up again, on the same port
            settled(lambda: Delivery.objects.filter(status="delivered").count() == 2 * MATCHES)
        finally:
            worker.stop()
            receiver.stop()
    assert down == 0 and Match.objects.count() == MATCHES
    ids = Counter(item.webhook_id for item in receiver.got)
    assert len(ids) == 2 * MATCHES and set(ids.values()) == {1}  # every event, each once
    assert all(item.verified for item in receiver.got)  # 100% verify
    stored = {item.body["data"]["id"] for item in receiver.got if item.type == "match.stored"}
    assert stored == set(Match.objects.values_list("pk", flat=True))
    attempts = sorted(Delivery.objects.values_list("attempts", flat=True))
    print(
        f"\n{2 * MATCHES} events while the receiver was down: each delivered once, after "
        f"{attempts[0]} to {attempts[-1]} attempts"
    )
