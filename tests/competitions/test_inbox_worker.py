"""The emails of what waits on a person go the production way: the action commits, its task
goes to the ``notices`` queue of a real Redis broker, a real Celery worker (its own process,
on the test's PostgreSQL) sends the email through ``EMAIL_URL`` to a real SMTP server the
test starts; it arrives within the issue's 60 s, once, in the person's language.
Skipped without the services, unless FIVES_REQUIRE_SERVICES=1."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from clubs.services import join_request_create
from competitions.models import Notice
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
