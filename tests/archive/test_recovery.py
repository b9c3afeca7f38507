"""Recovery without the broker's help: a run holds its upload with a short lease renewed by
each batch; the periodic sweep hands over again the uploads whose lease ran out and those
handed over but never started, so a lost task is back within two minutes whatever the
broker kept, and nothing is stored twice."""

from __future__ import annotations

import os
import pickle
import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, connections
from django.test import override_settings
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games import tasks
from games.models import Match, Upload, UploadItem
from games.periodic import uploads_requeue_task
from games.services import ingest
from games.services.ingest import LeaseLost, UploadHeld, lease_take, upload_process
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, ndjson, valid_log

pytestmark = pytest.mark.django_db


def broker_down(*args, **kwargs):
    raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def kept(owner, commit):
    """Return a function making an upload of ``docs`` that was handed over and lost (the
    broker took the message, nothing ever ran it), with its hand-over ``age`` seconds ago."""

    def make(*docs: dict, age: float = 0) -> Upload:
        with mock.patch.object(tasks.upload_process_task, "delay"), commit():
            upload = upload_create(uploader=owner, data=ndjson(*docs), kind="ndjson")
        Upload.objects.filter(pk=upload.pk).update(
            queued_at=timezone.now() - timedelta(seconds=age)
        )
        upload.refresh_from_db()
        return upload

    return make


def hold(upload: Upload, holder: str, seconds: float) -> None:
    """Make ``holder``'s lease on the upload run out in ``seconds`` (negative: ran out)."""
    Upload.objects.filter(pk=upload.pk).update(
        lease_holder=holder, lease_until=timezone.now() + timedelta(seconds=seconds)
    )


def sweep(commit) -> int:
    with commit():
        return uploads_requeue_task.apply().get()


def test_a_run_holds_the_upload_while_it_works_and_gives_it_back_when_done(kept):
    upload = kept(valid_log(1), valid_log(2))
    seen = []
    renew = ingest.lease_renew

    def watch(*, upload_id, holder):
        renew(upload_id=upload_id, holder=holder)
        row = Upload.objects.get(pk=upload_id)
        seen.append((row.lease_holder, row.lease_until > timezone.now()))

    with mock.patch.object(ingest, "lease_renew", watch):
        upload_process(upload_id=upload.pk, holder="worker-a:1")
    assert seen and all(entry == ("worker-a:1", True) for entry in seen)
    upload.refresh_from_db()
    assert (upload.status, upload.lease_holder, upload.lease_until) == ("accepted", "", None)


def test_of_two_takers_only_one_gets_the_lease(kept):
    upload = kept(valid_log(1))
    assert lease_take(upload_id=upload.pk, holder="worker-a:1")
    assert not lease_take(upload_id=upload.pk, holder="worker-b:2")
    assert lease_take(upload_id=upload.pk, holder="worker-a:1")  # its own: renewed
    hold(upload, "worker-a:1", -1)  # ran out: free for anyone
    assert lease_take(upload_id=upload.pk, holder="worker-b:2")
    assert not lease_take(upload_id=upload.pk, holder="worker-a:1")


@pytest.mark.django_db(transaction=True)
def test_of_two_takers_at_the_same_moment_only_one_gets_the_lease(kept):
    if connection.vendor != "postgresql":
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail("FIVES_REQUIRE_SERVICES=1 but the database is not PostgreSQL")
        pytest.skip("concurrent writers need PostgreSQL (SQLite allows one writer at a time)")
    for round_ in range(20):
        upload = kept(valid_log(round_ + 1))
        start = threading.Barrier(4)
        won: list[str] = []

        def take(name: str, upload_id: int = upload.pk, start=start, won=won) -> None:
            try:
                start.wait()
                if lease_take(upload_id=upload_id, holder=name):
                    won.append(name)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=take, args=(f"worker-{n}",)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(won) == 1, won
        assert Upload.objects.get(pk=upload.pk).lease_holder == won[0]


def test_a_run_finding_the_upload_held_by_another_does_nothing(kept):
    upload = kept(valid_log(1))
    hold(upload, "worker-a:1", 40)
    with pytest.raises(UploadHeld) as held:
        upload_process(upload_id=upload.pk, holder="worker-b:2")
    assert 38 < held.value.seconds_left <= 40
    # It crosses to another process whole (a pool of loading processes sends it back).
    again = pickle.loads(pickle.dumps(held.value))
    assert (again.upload_id, again.seconds_left) == (upload.pk, held.value.seconds_left)
    assert str(again) == str(held.value) == f"upload {upload.pk} is held by another run for 40 s"
    assert not UploadItem.objects.exists() and not Match.objects.exists()
    # The task does not fail the upload: it looks again when the lease would run out.
    tasks.upload_process_task.apply(args=(upload.pk,))
    upload.refresh_from_db()
    assert (upload.status, upload.lease_holder) == ("pending", "worker-a:1")


def test_a_run_whose_lease_was_taken_over_stops_before_its_next_batch(kept):
    docs = [valid_log(seed) for seed in range(1, 7)]
    upload = kept(*docs)
    check = ingest.log_checked
    calls = 0

    def taken_over_after_the_first_batch(index, text):
        nonlocal calls
        calls += 1
        if calls == 3:  # the first batch (two logs) is stored; its lease runs out, B takes it
            hold(upload, "worker-a:1", -1)
            assert lease_take(upload_id=upload.pk, holder="worker-b:2")
        return check(index, text)

    with (
        override_settings(FIVES_INGEST_BATCH=2),
        mock.patch.object(ingest, "log_checked", taken_over_after_the_first_batch),
        pytest.raises(LeaseLost),
    ):
        upload_process(upload_id=upload.pk, holder="worker-a:1")
    # A stored its first batch only, and validated no further than the batch it lost.
    assert sorted(UploadItem.objects.values_list("index", flat=True)) == [1, 2]
    assert calls == 4
    with override_settings(FIVES_INGEST_BATCH=2):
        upload = upload_process(upload_id=upload.pk, holder="worker-b:2")
    assert (upload.status, upload.item_count) == ("accepted", 6)
    assert Match.objects.count() == 6
    assert UploadItem.objects.count() == 6


def test_a_lease_that_ran_out_is_handed_back_and_finished_storing_nothing_twice(kept, commit):
    docs = [valid_log(seed) for seed in range(1, 6)]
    upload = kept(*docs, age=5)
    # A worker took it, stored the first batch, and was killed: its lease is left behind.
    with override_settings(FIVES_INGEST_BATCH=2):
        real = ingest._process_batch
        runs = 0

        def killed_after_one_batch(*args):
            nonlocal runs
            runs += 1
            if runs == 2:
                raise SystemExit("killed")
            real(*args)

        with (
            mock.patch.object(ingest, "_process_batch", killed_after_one_batch),
            pytest.raises(SystemExit),
        ):
            upload_process(upload_id=upload.pk, holder="worker-a:1")
    assert UploadItem.objects.count() == 2
    hold(upload, "worker-a:1", 20)
    assert sweep(commit) == 0  # the lease is live: the run may still be working
    hold(upload, "worker-a:1", -1)
    assert sweep(commit) == 1  # ran out: handed back at once, not after the hand-over time
    upload.refresh_from_db()
    assert (upload.status, upload.item_count, upload.lease_until) == ("accepted", 5, None)
    assert Match.objects.count() == 5 and UploadItem.objects.count() == 5


def test_a_pending_upload_never_started_is_sent_again_after_the_hand_over_time(kept, commit):
    with override_settings(FIVES_HANDOVER_AFTER=60):
        upload = kept(valid_log(1), age=50)
        assert sweep(commit) == 0  # handed over 50 s ago: maybe still waiting in the queue
        Upload.objects.filter(pk=upload.pk).update(queued_at=timezone.now() - timedelta(seconds=61))
        assert sweep(commit) == 1
    upload.refresh_from_db()
    assert upload.status == Upload.Status.ACCEPTED
    assert Match.objects.count() == 1


def test_an_upload_sent_again_by_the_sweep_is_not_sent_again_before_its_time(kept, commit):
    upload = kept(valid_log(1), age=120)
    with mock.patch.object(tasks.upload_process_task, "delay") as delay:
        assert sweep(commit) == 1
        assert sweep(commit) == 0  # its new hand-over is recent
    delay.assert_called_once_with(upload.pk)
    upload.refresh_from_db()
    assert upload.queued_at > timezone.now() - timedelta(seconds=5)


def test_finished_and_held_uploads_are_left_alone_by_the_sweep(kept, commit):
    done = kept(valid_log(1), age=0)
    upload_process(upload_id=done.pk)
    Upload.objects.filter(pk=done.pk).update(queued_at=timezone.now() - timedelta(hours=1))
    working = kept(valid_log(2), age=3600)
    hold(working, "worker-a:1", 30)  # taken long after its hand-over, still renewed
    with mock.patch.object(tasks.upload_process_task, "delay") as delay:
        assert sweep(commit) == 0
    delay.assert_not_called()


def test_a_retried_run_takes_its_own_lease_back_at_once(kept):
    upload = kept(valid_log(1))
    assert lease_take(upload_id=upload.pk, holder="worker-a:1")  # then the database went away
    upload = upload_process(upload_id=upload.pk, holder="worker-a:1")  # the retry, same name
    assert upload.status == Upload.Status.ACCEPTED


def test_an_upload_lost_with_the_broker_is_sent_again_when_its_uploader_sends_it_again(
    owner, commit
):
    with mock.patch.object(tasks.upload_process_task, "delay", broker_down), commit():
        first = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    Upload.objects.filter(pk=first.pk).update(queued_at=timezone.now() - timedelta(seconds=61))
    with commit():
        again = upload_create(uploader=owner, data=as_bytes(valid_log()), kind="json")
    again.refresh_from_db()
    assert (again.pk, again.status) == (first.pk, Upload.Status.ACCEPTED)


def test_settling_an_upload_waits_out_a_dead_runs_lease_then_stores_it_here(kept):
    """``upload_settle`` (the demo's wait): a run that died holding the upload is outlasted,
    and the upload stored here once its lease runs out, its matches once."""
    upload = kept(valid_log(1), valid_log(2))
    hold(upload, "worker-a:1", 0.6)
    started = timezone.now()
    settled = ingest.upload_settle(upload_id=upload.pk, wait=10, every=0.05)
    assert settled.status == "accepted"
    assert (timezone.now() - started).total_seconds() >= 0.5
    assert Match.objects.count() == 2 and settled.lease_holder == ""


def test_settling_an_upload_a_live_run_holds_gives_up_after_its_wait(kept):
    upload = kept(valid_log(1))
    hold(upload, "worker-a:1", 40)
    with pytest.raises(UploadHeld):
        ingest.upload_settle(upload_id=upload.pk, wait=0.2, every=0.05)
    upload.refresh_from_db()
    assert (upload.status, upload.lease_holder) == ("pending", "worker-a:1")
    assert not Match.objects.exists()
