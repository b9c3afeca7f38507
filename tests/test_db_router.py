"""Where reads go with a replica (fivesite/db_router.py), rule by rule, without one: the
middleware's say, the pinning cookie, transactions and a replica that does not answer.
tests/test_replica.py runs the archive against a real primary and its replica."""

from __future__ import annotations

import pytest
from django.core import signing
from django.db import transaction
from django.db.utils import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from clubs.reads import PRIMARY, REPLICA, pin_to_primary, primary_reads, reads_from
from fivesite import db_router
from fivesite.db_router import (
    PIN_COOKIE,
    ReplicaHealth,
    ReplicaReadsMiddleware,
    ReplicaRouter,
)


class Up:
    """A replica that always answers."""

    def usable(self) -> bool:
        return True


class Down:
    def usable(self) -> bool:
        return False


def served(request, view=None):
    """Run ``request`` through the middleware; return the answer and where the view's reads
    went (with a replica that answers)."""
    seen = {}

    def respond(request):
        answer = view(request) if view else HttpResponse()
        seen["read"] = ReplicaRouter(Up()).db_for_read(None)
        return answer

    response = ReplicaReadsMiddleware(respond)(request)
    return response, seen["read"]


def test_without_a_request_reads_go_to_the_primary():
    # A Celery worker, a management command, the shell.
    assert ReplicaRouter(Up()).db_for_read(None) == PRIMARY


def test_writes_and_migrations_go_to_the_primary_alone():
    router = ReplicaRouter(Up())
    token = reads_from.set(REPLICA)
    try:
        assert router.db_for_write(None) == PRIMARY
    finally:
        reads_from.reset(token)
    assert router.allow_migrate(PRIMARY, "games") is True
    assert router.allow_migrate(REPLICA, "games") is False


def test_a_reading_request_reads_the_replica_and_sets_no_cookie():
    for method in ("get", "head"):
        response, read = served(getattr(RequestFactory(), method)("/"))
        assert read == REPLICA
        assert PIN_COOKIE not in response.cookies
    assert reads_from.get() == PRIMARY  # the request's say ends with it


def test_a_writing_request_reads_the_primary_and_pins_the_browser():
    for method in ("post", "put", "patch", "delete"):
        response, read = served(getattr(RequestFactory(), method)("/"))
        assert read == PRIMARY
        cookie = response.cookies[PIN_COOKIE]
        assert cookie["max-age"] == 15 and cookie["httponly"]


def test_a_write_that_failed_pins_nobody():
    response, _ = served(RequestFactory().post("/"), lambda request: HttpResponse(status=500))
    assert PIN_COOKIE not in response.cookies
    response, _ = served(RequestFactory().post("/"), lambda request: HttpResponse(status=403))
    assert PIN_COOKIE in response.cookies  # refused, but answered: it may have written


def test_a_pinned_browser_reads_the_primary_until_the_pin_runs_out(monkeypatch):
    pinned, _ = served(RequestFactory().post("/"))
    factory = RequestFactory()
    factory.cookies[PIN_COOKIE] = pinned.cookies[PIN_COOKIE].value
    assert served(factory.get("/"))[1] == PRIMARY
    # The signature's own time counts, whatever the browser kept: 16 s later, the replica.
    later = signing.time.time() + 16
    monkeypatch.setattr(signing.time, "time", lambda: later)
    assert served(factory.get("/"))[1] == REPLICA


def test_a_forged_pin_counts_for_nothing():
    factory = RequestFactory()
    factory.cookies[PIN_COOKIE] = "1"
    assert served(factory.get("/"))[1] == REPLICA


@override_settings(FIVES_REPLICA_PIN_SECONDS=40)
def test_the_pin_lasts_as_the_setting_says():
    response, _ = served(RequestFactory().post("/"))
    assert response.cookies[PIN_COOKIE]["max-age"] == 40


def test_a_view_may_pin_or_read_the_primary_alone():
    def pinning(request):
        pin_to_primary(request)
        return HttpResponse()

    response, read = served(RequestFactory().get("/"), pinning)
    assert read == PRIMARY and PIN_COOKIE in response.cookies

    def primary(request):
        primary_reads()
        return HttpResponse()

    response, read = served(RequestFactory().get("/"), primary)
    assert read == PRIMARY and PIN_COOKIE not in response.cookies


@pytest.mark.django_db(transaction=True)
def test_reads_inside_a_transaction_on_the_primary_read_the_primary():
    token = reads_from.set(REPLICA)
    try:
        assert ReplicaRouter(Up()).db_for_read(None) == REPLICA
        with transaction.atomic():
            assert ReplicaRouter(Up()).db_for_read(None) == PRIMARY
    finally:
        reads_from.reset(token)


def test_a_replica_that_does_not_answer_sends_the_reads_to_the_primary():
    token = reads_from.set(REPLICA)
    try:
        assert ReplicaRouter(Down()).db_for_read(None) == PRIMARY
    finally:
        reads_from.reset(token)


def test_a_replica_down_is_tried_again_after_a_few_seconds_not_every_read(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(db_router.time, "monotonic", lambda: now[0])
    tries = []

    class Connection:
        answers = False

        def close_if_health_check_failed(self):
            pass

        def ensure_connection(self):
            tries.append(now[0])
            if not self.answers:
                raise OperationalError("connection refused")

        def close(self):
            pass

    connection = Connection()
    monkeypatch.setattr(db_router, "connections", {"replica": connection})
    health = ReplicaHealth(retry_after=5)
    assert not health.usable()
    now[0] += 4
    assert not health.usable() and len(tries) == 1  # not asked again meanwhile
    connection.answers = True
    now[0] += 2
    assert health.usable() and len(tries) == 2
