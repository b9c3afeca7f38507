"""Outages said honestly (issue 25, item 2): the database away answers 503 with Retry-After,
in the API's error shape on the API and as a short page on the site, never a 500; /healthz
says which part is down, for a load balancer (the API's ping answered ok through it all)."""

from __future__ import annotations

import pytest
from django.db.backends.utils import CursorWrapper
from django.db.utils import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_away(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    monkeypatch.setattr(CursorWrapper, "executemany", refuse)


@pytest.fixture
def browser_client():
    return Client(raise_request_exception=False)


def test_healthz_says_ok_when_everything_answers(browser_client):
    answer = browser_client.get("/healthz")
    assert answer.status_code == 200
    state = answer.json()
    assert 0 <= state.pop("seconds") < 1  # how long the checks took, all together
    assert state == {"ok": True, "database": "ok", "broker": "ok", "cache": "ok"}
    assert answer["Cache-Control"] == "no-store"


def test_the_database_away_is_a_503_on_the_api_with_retry_after(database_away, browser_client):
    for path in ("/api/v1/matches/", "/api/v1/clubs/", "/api/v1/players/"):
        answer = browser_client.get(path)
        assert answer.status_code == 503, path
        assert answer["Retry-After"] == "30"
        error = answer.json()["error"]
        assert error["code"] == "unavailable" and error["retry_after"] == 30
        assert "database" in error["message"]


def test_the_database_away_is_a_short_translated_page_on_the_site(database_away, browser_client):
    answer = browser_client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "30"
    page = answer.content.decode()
    assert '<html lang="ru">' in page
    assert "База данных архива сейчас недоступна" in page


def test_healthz_names_the_database_when_it_is_away(database_away, browser_client):
    answer = browser_client.get("/healthz")
    assert answer.status_code == 503 and answer["Retry-After"] == "30"
    state = answer.json()
    assert state["ok"] is False
    assert state["database"].startswith("down: OperationalError")
    assert state["broker"] == "ok"


def test_healthz_names_the_broker_when_it_is_away(browser_client):
    from fivesite.celery import app

    before = app.conf.broker_url
    app.conf.task_always_eager = False  # the tasks_in_process fixture puts it back
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
    try:
        state = browser_client.get("/healthz").json()
    finally:
        app.conf.broker_url = before
    assert state["ok"] is False
    assert state["database"] == "ok"
    assert state["broker"].startswith("down: ")


def test_a_fault_of_the_code_is_still_a_500_in_the_apis_shape(browser_client, monkeypatch):
    from api import clubs

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(clubs.ClubListCreate, "get_queryset", broken)
    answer = browser_client.get("/api/v1/clubs/")
    assert answer.status_code == 500
    assert answer.json()["error"]["code"] == "server_error"
    assert "Retry-After" not in answer
