"""The pipeline end to end: uploads go through a real Celery worker on a real Redis broker
into a real PostgreSQL. Skipped without those services, unless FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import os
import time
from urllib.parse import urlparse, urlunparse

import pytest
from django.db import connection
from django.db.models import Sum

from games.models import Match, Upload, UploadItem
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, illegal_log, ndjson, valid_log
from tests.celery_worker import Worker, real_broker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REDIS_TEST_DB = 15


def _redis_url() -> str:
    parsed = urlparse(os.environ["REDIS_URL"])
    return urlunparse(parsed._replace(path=f"/{REDIS_TEST_DB}"))


@pytest.fixture
def broker(real_services):
    """This process's Celery app on the test broker, emptied, off eager mode; a task not
    acknowledged is handed out again after 3 s."""
    with real_broker(_redis_url(), {"visibility_timeout": 3}) as url:
        yield url


@pytest.fixture
def worker(broker, transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    env = dict(
        FIVES_BROKER_VISIBILITY_TIMEOUT="3",
        # A killed run's lease runs out in 5 s: the task delivered again takes it then.
        FIVES_LEASE_SECONDS="5",
        FIVES_BROKER_RESTORE_INTERVAL="1",
        FIVES_BROKER_RESTORE_THROTTLE="1",
        FIVES_INGEST_BATCH="10",
    )
    worker = Worker(broker=broker, env=env)
    worker.start()
    yield worker
    worker.stop()


def wait_until_done(upload: Upload, timeout: float = 120) -> Upload:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        upload.refresh_from_db()
        if upload.is_done:
            return upload
        time.sleep(0.2)
    raise AssertionError(f"{upload} is still pending after {timeout} s")


def test_valid_invalid_mixed_and_repeated_uploads_through_a_real_worker(worker, owner, member):
    valid = wait_until_done(upload_create(uploader=owner, data=as_bytes(valid_log(1)), kind="json"))
    assert valid.status == Upload.Status.ACCEPTED
    match = valid.items.get().match
    assert len(match.hands) == len(valid_log(1)["hands"])
    assert sum(hand.move_count for hand in match.hands) == match.move_count
    assert match.log().as_json()["hands"] == valid_log(1)["hands"]

    invalid = wait_until_done(
        upload_create(uploader=owner, data=as_bytes(illegal_log()), kind="json")
    )
    assert invalid.status == Upload.Status.REJECTED
    assert invalid.items.get().report["errors"][0]["code"] == "wrong-turn"

    mixed = wait_until_done(
        upload_create(
            uploader=owner, data=ndjson(valid_log(2), illegal_log(3), b"{nope"), kind="ndjson"
        )
    )
    assert mixed.status == Upload.Status.PARTIAL
    assert [(i.index, i.status) for i in mixed.items.order_by("index")] == [
        (1, "accepted"),
        (2, "rejected"),
        (3, "rejected"),
    ]

    again = wait_until_done(
        upload_create(uploader=member, data=as_bytes(valid_log(1)), kind="json")
    )
    assert again.items.get().status == UploadItem.Status.DUPLICATE
    assert again.items.get().match == match
    assert Match.objects.count() == 2


def test_a_repeated_task_run_changes_nothing(worker, owner):
    from games.tasks import upload_process_task

    upload = wait_until_done(
        upload_create(uploader=owner, data=ndjson(valid_log(4), valid_log(5)), kind="ndjson")
    )
    before = (
        Match.objects.count(),
        Match.objects.aggregate(n=Sum("move_count"))["n"],
        UploadItem.objects.count(),
    )
    upload_process_task.delay(upload.pk)
    upload_process_task.delay(upload.pk)
    # The worker takes tasks in order, one at a time: once this later upload is done, the
    # repeated runs before it are done too.
    wait_until_done(upload_create(uploader=owner, data=as_bytes(valid_log(6)), kind="json"))
    after = (
        Match.objects.count() - 1,
        Match.objects.aggregate(n=Sum("move_count"))["n"]
        - sum(len(h["moves"]) for h in valid_log(6)["hands"]),
        UploadItem.objects.count() - 1,
    )
    assert after == before


def test_a_killed_workers_upload_is_taken_again_and_stored_once(worker, owner):
    docs = [valid_log(seed) for seed in range(10, 130)]
    upload = upload_create(uploader=owner, data=ndjson(*docs), kind="ndjson")
    deadline = time.monotonic() + 60
    while not UploadItem.objects.filter(upload=upload).exists():
        assert time.monotonic() < deadline, "the worker never started on the upload"
        time.sleep(0.05)
    worker.kill()
    upload.refresh_from_db()
    assert upload.status == Upload.Status.PENDING
    assert UploadItem.objects.filter(upload=upload).count() < len(docs)
    worker.start()  # the task was never acknowledged: the broker hands it out again
    upload = wait_until_done(upload)
    assert upload.status == Upload.Status.ACCEPTED
    assert upload.item_count == len(docs)
    assert Match.objects.count() == len(docs)
    assert UploadItem.objects.filter(upload=upload).count() == len(docs)
