"""One person's flood of analyses never holds back another's (issue 34, item 4: a normal
request waited 144 s behind 101 queued analyses of one person). A real Celery worker, one
task at a time, on a real Redis broker and PostgreSQL: person A asks for 40 analyses, then
person B for one; B's is run with at most one other analysis started between B's request
and B's run. Parallel claims never take the same analysis, and an analysis whose worker was
killed mid-way is handed back and done once.
Skipped without the services, unless FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings
from django.db import connection, connections

from clubs.models import Club
from games.models import Match
from replays import analysis as service
from replays.models import MatchAnalysis, SeatAnalysis
from tests.celery_worker import Worker, real_broker
from tests.replays.helpers import store_matches

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FLOOD = 40
Status = MatchAnalysis.Status


@pytest.fixture
def worker(real_services, transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    with real_broker() as url:
        # Many samples per play: each analysis takes a good part of a second, so A's flood
        # is still queued when B asks (the test says so before it measures anything).
        worker = Worker(broker=url, queues="analysis", env={"FIVES_ANALYSIS_SAMPLES": "200"})
        worker.start()
        try:
            yield worker
        finally:
            worker.stop()


def stored_matches(owner, count: int) -> list[int]:
    return store_matches(owner, count, first_seed=2000)


def wait_until_done(analysis_id: int, timeout: float = 300) -> MatchAnalysis:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        analysis = MatchAnalysis.objects.get(pk=analysis_id)
        if analysis.status in (Status.DONE, Status.FAILED):
            return analysis
        time.sleep(0.2)
    raise AssertionError(f"analysis {analysis_id} is not done after {timeout} s")


def test_a_persons_first_analysis_waits_behind_at_most_one_other(
    worker, owner, member, outsider, monkeypatch
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", FLOOD + 10)
    assert not Club.objects.filter(analyse_every_match=True).exists()
    matches = list(Match.objects.filter(pk__in=stored_matches(owner, FLOOD + 1)).order_by("pk"))
    for match in matches[:FLOOD]:  # A, Levan: forty requests, each its own prompt
        service.analysis_request(match=match, user=member)
    queued = MatchAnalysis.objects.filter(requested_by=member, status=Status.QUEUED).count()
    b = service.analysis_request(match=matches[FLOOD], user=outsider)  # B, Giorgi: one
    b = wait_until_done(b.pk)
    assert b.status == Status.DONE, b.failure

    between = MatchAnalysis.objects.filter(
        started_at__gt=b.requested_at, started_at__lt=b.started_at
    ).exclude(pk=b.pk)
    print(
        f"\nB asked with {queued} of A's {FLOOD} analyses queued; "
        f"{between.count()} other analyses started between B's request and B's run"
    )
    assert queued >= FLOOD // 2, "the worker drained A's flood before B asked: no test"
    assert between.count() <= 1


def test_an_analysis_whose_worker_was_killed_is_handed_back_and_done_once(
    real_services, transactional_db, owner, member, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    match = Match.objects.get(pk=stored_matches(owner, 1)[0])
    env = {
        # Slow enough to be killed mid-way; the prompt it held comes back within seconds.
        "FIVES_ANALYSIS_SAMPLES": "3000",
        "FIVES_BROKER_VISIBILITY_TIMEOUT": "3",
        "FIVES_BROKER_RESTORE_INTERVAL": "1",
        "FIVES_BROKER_RESTORE_THROTTLE": "1",
    }
    with real_broker() as url:
        first = Worker(broker=url, queues="analysis", env=env)
        first.start()
        try:
            analysis = service.analysis_request(match=match, user=member)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                analysis.refresh_from_db()
                if analysis.status == Status.RUNNING and analysis.done > 0:
                    break
                time.sleep(0.1)
            assert analysis.status == Status.RUNNING and analysis.done < analysis.total
            dead = analysis.holder
            first.kill()
        finally:
            first.stop()
        second = Worker(broker=url, queues="analysis", env=env)
        second.start()
        try:
            # The prompt the dead worker held comes back, and finds nothing queued: the
            # analysis is still held by the dead run. Once it has shown no sign of life for
            # FIVES_ANALYSIS_STUCK_AFTER, the periodic sweep hands it back to the queue.
            monkeypatch.setattr(settings, "FIVES_ANALYSIS_STUCK_AFTER", 2)
            time.sleep(3)
            assert service.analyses_requeue_stuck() == 1
            done = wait_until_done(analysis.pk)
        finally:
            second.stop()
    assert done.status == Status.DONE and done.holder != dead
    assert done.done == done.total > 0
    assert SeatAnalysis.objects.filter(match=match).count() == 2
    assert MatchAnalysis.objects.count() == 1


def test_parallel_claims_never_take_the_same_analysis(
    real_services, transactional_db, owner, member, outsider, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's: needs PostgreSQL")
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 50)
    matches = list(Match.objects.filter(pk__in=stored_matches(owner, 40)).order_by("pk"))
    with real_broker():  # the prompts wait there: the threads below are the workers
        for index, match in enumerate(matches):
            service.analysis_request(match=match, user=member if index % 2 else outsider)
    claimed: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def claim(name: str) -> None:
        try:
            start.wait()
            while (analysis_id := service.analysis_claim(holder=name)) is not None:
                with lock:
                    claimed.append(analysis_id)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim, args=(f"worker-{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claimed) == sorted(MatchAnalysis.objects.values_list("pk", flat=True))
    assert len(claimed) == len(set(claimed)) == 40
    assert not MatchAnalysis.objects.filter(status=Status.QUEUED).exists()
