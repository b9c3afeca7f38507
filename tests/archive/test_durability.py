"""An upload answered 202 is finished whatever fails in between: the broker unreachable, a
task lost, a bug, a log the database refuses, a cache that is down."""

from __future__ import annotations

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.db import DataError
from django.test import override_settings
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from fives_engine.simulate import simulate_match
from games import tasks
from games.models import Match, Upload, UploadItem
from games.periodic import uploads_requeue_task
from games.services import ingest
from games.services.uploads import upload_create, upload_rerun
from replays.models import SeatResult
from replays.periodic import statistics_catch_up_task
from tests.archive.helpers import as_bytes, ndjson, valid_log
from tests.conftest import home_club

pytestmark = pytest.mark.django_db

UNREACHABLE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers there
    }
}


def broker_down(*args, **kwargs):
    raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def age(upload: Upload, seconds: int = 3600) -> None:
    Upload.objects.filter(pk=upload.pk).update(
        queued_at=timezone.now() - timedelta(seconds=seconds)
    )


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_an_upload_made_while_the_broker_is_down_is_kept_and_sent_again_later(owner, commit):
    with mock.patch.object(tasks.upload_process_task, "delay", broker_down), commit():
        upload = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    upload.refresh_from_db()
    assert (upload.status, upload.queued_at is not None) == (Upload.Status.PENDING, True)
    with commit():
        assert uploads_requeue_task.apply().get() == 0  # not lost yet: too recent
    age(upload)
    with commit():
        assert uploads_requeue_task.apply().get() == 1
    upload.refresh_from_db()
    assert upload.status == Upload.Status.ACCEPTED
    assert Match.objects.count() == 1


def test_sending_the_same_document_again_revives_a_lost_upload(owner, commit):
    with mock.patch.object(tasks.upload_process_task, "delay", broker_down), commit():
        first = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    age(first)
    with commit():
        again = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    assert again.pk == first.pk
    again.refresh_from_db()
    assert again.status == Upload.Status.ACCEPTED


def test_a_bug_ends_the_upload_failed_with_its_reason_and_it_can_run_again(owner, commit):
    boom = RuntimeError("a bug in the archive")
    with mock.patch.object(ingest, "log_checked", side_effect=boom), commit():
        upload = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    upload.refresh_from_db()
    assert upload.status == Upload.Status.FAILED
    assert upload.failure == "RuntimeError: a bug in the archive"
    with commit():
        upload_rerun(upload_id=upload.pk)
    upload.refresh_from_db()
    assert (upload.status, upload.failure) == (Upload.Status.ACCEPTED, "")


def test_a_log_the_database_refuses_is_rejected_alone_and_the_rest_is_stored(owner, commit):
    docs = [valid_log(seed) for seed in range(1, 6)]
    docs[2]["id"] = "poison"
    store = ingest._store_matches

    def refuse_poison(upload, items, clubs):
        if any(item.log.id == "poison" for item in items):
            raise DataError("value too long for type character varying(100)")
        return store(upload, items, clubs)

    with mock.patch.object(ingest, "_store_matches", refuse_poison), commit():
        upload = upload_create(uploader=owner, data=ndjson(*docs), kind="ndjson")
    upload.refresh_from_db()
    assert (upload.status, upload.accepted_count, upload.rejected_count) == ("partial", 4, 1)
    refused = upload.items.get(index=3)
    assert refused.status == UploadItem.Status.REJECTED
    assert refused.report["errors"][0]["code"] == "not-stored"
    assert "DataError" in refused.report["errors"][0]["message"]
    assert Match.objects.count() == 4


def test_matches_whose_review_was_lost_are_reviewed_by_the_catch_up(owner, commit):
    doc = simulate_match("muggins", 2, seed=3)
    with mock.patch("replays.receivers.matches_review_task.delay", broker_down), commit():
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    assert Match.objects.count() == 1 and SeatResult.objects.count() == 0
    assert statistics_catch_up_task.apply().get() == 0  # too recent to count as lost
    Match.objects.update(created_at=timezone.now() - timedelta(hours=1))
    with commit():
        assert statistics_catch_up_task.apply().get() >= 1
    assert SeatResult.objects.count() == 2


@override_settings(CACHES=UNREACHABLE)
def test_pages_and_the_read_api_answer_from_the_database_when_the_cache_is_down(owner, client):
    with mock.patch.object(tasks.upload_process_task, "delay", broker_down):
        upload = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    ingest.upload_process(upload_id=upload.pk)
    match = Match.objects.get()
    for path in ("/", match.get_absolute_url(), f"/embed/matches/{match.pk}/"):
        assert client.get(path).status_code == 200, path


def test_a_failed_upload_says_why_on_its_page_and_in_the_api(owner, client, commit):
    with mock.patch.object(ingest, "log_checked", side_effect=RuntimeError("a bug")), commit():
        upload = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    client.force_login(owner)
    page = client.get(upload.get_absolute_url()).content.decode()
    assert "RuntimeError: a bug" in page and "can be run again" in page
    body = client.get(f"/api/v1/uploads/{upload.pk}/").json()
    assert (body["status"], body["failure"]) == ("failed", "RuntimeError: a bug")
