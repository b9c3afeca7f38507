"""The emails of what waits on a person go the production way: the action commits, its task
goes to the ``notices`` queue of a real Redis broker, a real Celery worker (its own process,
on the test's PostgreSQL) sends the email through ``EMAIL_URL`` to a real SMTP server the
test starts; it arrives within the issue's 60 s, once, in the person's language. A captain
offering and withdrawing a postponement in a loop reaches the other captain at most three
times, then in one digest (issue 55). Skipped without the services, unless
FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

import pytest
import redis
from django.db import connection
from django.utils import timezone

from clubs.services import join_request_create
from competitions.models import Notice, NoticeSettings
from competitions.postponements import postponement_offer, postponement_withdraw
from competitions.tasks import notices_digest_task
from tests.celery_worker import Worker, real_broker
from tests.competitions.test_inbox import body, smtp, speaks  # noqa: F401 (smtp: a fixture)
from tests.competitions.test_leagues import club

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_join_request_reaches_the_owner_by_a_worker_within_a_minute(
    real_services, request, owner, django_user_model
):
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL")
    kept = request.getfixturevalue("smtp")  # a real SMTP server; the worker is pointed at it
    speaks(owner, "ka")
    dato = django_user_model.objects.create_user("dato", password="a-long-password-7")
    with real_broker() as url:
        worker = Worker(
            broker=url, queues="notices", env={"EMAIL_URL": f"smtp://127.0.0.1:{kept.port}"}
        )
        worker.start()
        try:
            started = time.monotonic()
            join_request_create(user=dato, club=club("tbilisi-fives-club"))  # commits
            deadline = started + 60  # the goal
            while not kept.messages and time.monotonic() < deadline:
                time.sleep(0.1)
            took = time.monotonic() - started
        finally:
            worker.stop()
    print(f"the email arrived {took:.2f} s after the request was made")
    [mail] = kept.to(owner.email)
    assert "dato ითხოვს კლუბში გაწევრებას." in body(mail)
    assert Notice.objects.get(user=owner).sent_at is not None


def test_a_captain_offering_and_withdrawing_in_a_loop_mails_three_times_then_one_digest(
    real_services, request, people, match_day
):
    """Two real workers share the ``notices`` queue (the hour's count is the database's,
    decided under a lock, whichever takes a task); an offer and its withdrawal every 0.1 s
    (fifteen times the issue's pace); then the hour is made to pass and the digest task
    goes to the workers."""
    if connection.vendor != "postgresql":
        pytest.skip("the workers share the test database: needs PostgreSQL")
    kept = request.getfixturevalue("smtp")
    fixture, *_ = match_day
    levan, sopho = people["levan"], people["sopho"]
    speaks(levan, "en")
    speaks(sopho, "en")
    today = timezone.localdate()
    with real_broker() as url:
        env = {"EMAIL_URL": f"smtp://127.0.0.1:{kept.port}"}
        workers = [Worker(broker=url, queues="notices", env=env) for _ in range(2)]
        for worker in workers:
            worker.start()
            # Read what it logs, so a full pipe never stops it.
            threading.Thread(target=worker.process.stdout.read, daemon=True).start()
        try:
            for step in range(81):  # 41 offers, 40 withdrawals: the last offer stands
                if step % 2:
                    postponement_withdraw(actor=levan, fixture=fixture)
                else:
                    days = [today + timedelta(days=5 + step % 7)]
                    postponement_offer(actor=levan, fixture=fixture, days=days)  # commits
                time.sleep(0.1)
            broker = redis.Redis.from_url(url)
            settled(lambda: broker.llen("notices") == 0 and not in_flight(sopho))
            emails = len(kept.to(sopho.email))
            # The hour passes: the times counted are an hour older.
            mine = NoticeSettings.objects.get(user=sopho)
            mine.emailed = [
                (datetime.fromisoformat(t) - timedelta(hours=1)).isoformat() for t in mine.emailed
            ]
            mine.save(update_fields=["emailed"])
            notices_digest_task.delay()
            settled(lambda: len(kept.to(sopho.email)) > emails)
            time.sleep(2)  # and nothing more comes
        finally:
            for worker in workers:
                worker.stop()
    mails = kept.to(sopho.email)
    digests = [mail for mail in mails if "only a few emails an hour" in body(mail)]
    print(
        f"\n41 offers and 40 withdrawals in {81 * 0.1:.0f} s, two notices workers: the away "
        f"captain got {emails} emails, then {len(digests)} digest ({len(mails)} in all)"
    )
    assert 1 <= emails <= 3 and len(digests) == 1 and len(mails) == emails + 1
    fixture.refresh_from_db()
    text = body(digests[0])
    assert text.count("offers other days") == 1
    assert f"({', '.join(fixture.offered_days)})" in text
    assert kept.to(levan.email) == []


def in_flight(user) -> bool:
    """Whether a worker took an item of ``user``'s and has not yet sent it."""
    return Notice.objects.filter(user=user, sent_at__isnull=True, held=False).exists()


def settled(done, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the workers did not finish in time"
        time.sleep(0.2)
    time.sleep(0.5)
