"""``manage.py demo`` the production way: a real Celery worker serving every queue, on a real
Redis broker and the test's PostgreSQL, takes each of the demo's uploads before the command
looks at it (as an idle worker takes a prompt at once). The command waits for the worker's
runs and the demo comes out whole: no upload left pending, every match stored once, the
league's fixture of each kind. Skipped without the services, unless FIVES_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import io
import os
import time
from urllib.parse import urlparse, urlunparse

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from competitions.management.commands import demo
from games.models import Match, Upload, UploadItem
from tests.celery_worker import Worker, real_broker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# A Redis database of its own: emptied before and after, so no other test's broker is touched.
REDIS_TEST_DB = 13


@pytest.fixture
def worker(real_services, transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    url = urlunparse(urlparse(os.environ["REDIS_URL"])._replace(path=f"/{REDIS_TEST_DB}"))
    with real_broker(url) as broker:
        worker = Worker(broker=broker)  # every queue, as docs/deploy.md's workers serve them
        worker.start()
        try:
            yield worker
        finally:
            worker.stop()


def taken_by_the_worker_first(monkeypatch) -> list[int]:
    """Make the demo's ``upload_create`` return only once the worker has taken the upload
    (or already stored it); return the uploads it saw held by the worker, filled in as the
    demo sends them."""
    held: list[int] = []
    upload_create = demo.upload_create

    def sent_and_taken(**kwargs):
        upload = upload_create(**kwargs)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = Upload.objects.filter(pk=upload.pk).values("status", "lease_holder").get()
            if found["status"] != Upload.Status.PENDING:
                break
            if found["lease_holder"]:
                held.append(upload.pk)
                break
            time.sleep(0.005)
        return upload

    monkeypatch.setattr(demo, "upload_create", sent_and_taken)
    return held


@override_settings(DEBUG=True)
def test_the_demo_waits_for_the_uploads_a_worker_took_and_comes_out_whole(worker, monkeypatch):
    held = taken_by_the_worker_first(monkeypatch)
    out = io.StringIO()
    started = time.monotonic()
    call_command("demo", matches=9, stdout=out)
    print(
        f"the demo took {time.monotonic() - started:.1f} s; {len(held)} uploads held by the worker"
    )
    assert held, "the worker took none of the uploads first: the test tried nothing"
    assert not Upload.objects.filter(status=Upload.Status.PENDING).exists()
    assert not Upload.objects.filter(status=Upload.Status.FAILED).exists()
    # Each match once: one per log accepted, whoever stored it.
    accepted = UploadItem.objects.filter(status=UploadItem.Status.ACCEPTED)
    assert Match.objects.count() == accepted.count() >= 9
    assert "pending" not in out.getvalue(), out.getvalue()  # each upload said as stored
    from competitions.models import League, Tournament

    league = League.objects.get()
    assert [f.status for f in league.fixtures.order_by("day")] == [
        "confirmed",
        "disputed",
        "conceded",
        "to-play",
    ]
    assert all(
        f.legs.count() == 3 for f in league.fixtures.filter(status__in=["confirmed", "disputed"])
    )
    assert set(Tournament.objects.values_list("name", flat=True)) == {"Club night", "Autumn cup"}
    assert Match.objects.filter(event="Autumn cup").count() == 1  # the semi-final
    assert Match.objects.filter(approval="pending").count() == 6  # the night to approve
