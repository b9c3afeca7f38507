"""One upload budget for every way in (issue 34, item 3): the API's uploads and re-runs, the
upload form and its re-run, and the recorder's send spend the same count per person. The
recorder's send spent none: one member sent 80 matches in 4.9 s while the API still said 59
left."""

from __future__ import annotations

import itertools
import json

import pytest
from django.test import Client

from games.models import Upload
from games.services import uploads
from games.services.uploads import upload_create
from tests.archive.helpers import illegal_log, valid_log

from .conftest import client_with

pytestmark = pytest.mark.django_db

BUDGET = 9
ACCEPTED = {"api": 202, "form": 302, "recorder": 201, "api-rerun": 202, "page-rerun": 302}


@pytest.fixture
def budget_a_day(settings):
    """Nine uploads a day: no test lasts long enough for a day's sliding count to let one
    more through."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": "1000/min", "upload": f"{BUDGET}/d", "export": "30/min"},
    }
    from rest_framework.settings import api_settings

    api_settings.reload()
    yield
    api_settings.reload()


@pytest.fixture
def reruns(monkeypatch):
    """The uploads handed to the pipeline, by id, as the service queues them: a re-run
    queues the upload it runs again, a new send a new upload."""
    seen: list[int] = []
    queue = uploads._queue

    def count(upload):
        seen.append(upload.pk)
        return queue(upload)

    monkeypatch.setattr(uploads, "_queue", count)
    return seen


def test_the_api_the_form_the_recorder_and_reruns_share_one_budget(owner, budget_a_day, reruns):
    # A rejected upload of Nino's to run again (stored by the service: it spent nothing).
    rejected = upload_create(uploader=owner, data=json.dumps(illegal_log()).encode(), kind="json")
    browser = Client()
    browser.force_login(owner)
    api = client_with(owner, ["read", "upload", "manage"])
    seeds = itertools.count(100)

    def send(way: str):
        if way == "api":
            body = json.dumps(valid_log(next(seeds)))
            return api.post("/api/v1/uploads/", body, content_type="application/json")
        if way == "form":
            return browser.post("/uploads/new/", {"text": json.dumps(valid_log(next(seeds)))})
        if way == "recorder":
            text = json.dumps(valid_log(next(seeds)))
            body = json.dumps({"club": "tbilisi-fives-club", "log": text})
            return browser.post("/record/send/", body, content_type="application/json")
        if way == "api-rerun":
            return api.post(f"/api/v1/uploads/{rejected.pk}/rerun/")
        return browser.post(f"/uploads/{rejected.pk}/rerun/")

    ways = list(ACCEPTED) * 6  # 30 tries, the ways taken in turn
    answers = [(way, send(way)) for way in ways]

    passed = [way for way, answer in answers if answer.status_code == ACCEPTED[way]]
    refused = [answer for _, answer in answers if answer.status_code == 429]
    assert len(passed) == BUDGET
    assert len(refused) == len(ways) - BUDGET
    # The first nine pass, whichever way; every later one is refused, whichever way.
    assert [answer.status_code == 429 for _, answer in answers] == [False] * 9 + [True] * 21
    # Each answer says where the person stands in the one count, as the API's do.
    remaining = [int(answer["X-RateLimit-Remaining"]) for _, answer in answers]
    assert remaining == [8, 7, 6, 5, 4, 3, 2, 1, 0] + [0] * 21
    assert {answer["X-RateLimit-Limit"] for _, answer in answers} == {str(BUDGET)}
    for answer in refused:
        wait = int(answer["Retry-After"])
        assert wait >= 1
        if answer["Content-Type"].startswith("application/json"):
            body = answer.json()
            said = (
                body["error"]["retry_after"]
                if "retry_after" in body.get("error", {})
                else (body["retry_after"])
            )
            assert said == wait
    # Nothing kept of what was refused: one upload per passed send, one re-run per passed
    # re-run, and the rejected upload made first.
    sends = sum(way in ("api", "form", "recorder") for way in passed)
    assert Upload.objects.count() == 1 + sends
    # (The rejected upload was queued once when it was stored, then once a re-run.)
    assert reruns.count(rejected.pk) == 1 + sum(way.endswith("rerun") for way in passed)


def test_the_recorders_send_past_the_budget_is_429_and_keeps_nothing(owner, budget_a_day):
    phone = Client()
    phone.force_login(owner)
    codes = []
    for seed in range(BUDGET + 3):
        text = json.dumps(valid_log(seed + 1))
        body = json.dumps({"club": "tbilisi-fives-club", "log": text})
        codes.append(phone.post("/record/send/", body, content_type="application/json"))
    assert [answer.status_code for answer in codes] == [201] * BUDGET + [429] * 3
    refused = codes[-1]
    assert refused.json()["retry_after"] == int(refused["Retry-After"]) >= 1
    assert "as many uploads as a minute allows" in refused.json()["error"]
    assert Upload.objects.count() == BUDGET
    # The API reads the same count: nothing left.
    api = client_with(owner, ["upload"])
    answer = api.post(
        "/api/v1/uploads/", json.dumps(valid_log(99)), content_type="application/json"
    )
    assert answer.status_code == 429 and answer["X-RateLimit-Remaining"] == "0"


def test_a_send_signed_out_spends_nothing(owner, budget_a_day):
    phone = Client()
    body = json.dumps({"club": "tbilisi-fives-club", "log": json.dumps(valid_log(1))})
    for _ in range(BUDGET + 2):
        assert phone.post("/record/send/", body, content_type="application/json").status_code == 401
