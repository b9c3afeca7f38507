"""Every 429 the site gives carries ``Retry-After``, in whole seconds, and where the answer is
JSON its ``retry_after`` says the same number (issue 34, item 8): the sign-in lock-outs and
the sign-up limit said none, and an upload's 429 said 28 s in the header and 29 in the body.
A page that says the wait in minutes says the header's seconds rounded up."""

from __future__ import annotations

import json
import math
import re

import pytest
from django.test import Client

from games.services.uploads import upload_create
from tests.api.conftest import client_with
from tests.archive.helpers import illegal_log, valid_log
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": "3/min", "upload": "1/min", "export": "1/min"},
    }
    from rest_framework.settings import api_settings

    api_settings.reload()
    yield
    api_settings.reload()


def seconds_of(answer) -> int:
    """The answer's Retry-After, which must be there and be whole seconds, at least 1."""
    assert answer.status_code == 429
    header = answer.get("Retry-After")
    assert header is not None and re.fullmatch(r"[1-9][0-9]*", header), header
    return int(header)


def agreeing(answer) -> int:
    """Retry-After, checked against the JSON body's retry_after."""
    seconds = seconds_of(answer)
    body = answer.json()
    said = body["error"]["retry_after"] if "error" in body and "code" in body["error"] else None
    said = said if said is not None else body["retry_after"]
    assert said == seconds, (said, seconds)
    return seconds


def minutes_said(answer) -> int:
    found = re.search(r"Try again in (\d+) minute", answer.content.decode())
    assert found, answer.content.decode()
    return int(found.group(1))


def last_of(tries):
    answers = [tries() for _ in range(6)]
    assert answers[-1].status_code == 429, [a.status_code for a in answers]
    return answers[-1]


def test_the_api_reading_throttle(low_rates):
    client = Client(REMOTE_ADDR="192.0.2.31")
    agreeing(last_of(lambda: client.get("/api/v1/matches/")))


def test_the_api_upload_throttle(owner, low_rates):
    api = client_with(owner, ["upload"])
    seeds = iter(range(1, 10))
    answer = last_of(
        lambda: api.post(
            "/api/v1/uploads/", json.dumps(valid_log(next(seeds))), content_type="application/json"
        )
    )
    agreeing(answer)


def test_the_api_rerun_throttle(owner, low_rates):
    upload = upload_create(uploader=owner, data=json.dumps(illegal_log()).encode(), kind="json")
    api = client_with(owner, ["manage"])
    agreeing(last_of(lambda: api.post(f"/api/v1/uploads/{upload.pk}/rerun/")))


def test_the_api_export_throttle(owner, low_rates):
    api = client_with(owner, ["read"])
    agreeing(last_of(lambda: api.get("/api/v1/matches/export")))


def test_the_analysis_quota(owner, member, settings, django_capture_on_commit_callbacks):
    settings.FIVES_ANALYSES_PER_DAY = 1
    with django_capture_on_commit_callbacks(execute=True):
        first = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")
        second = store_match(owner, ["Levan", "Nino"], seed=6, played_at="2026-04-02T19:00:00Z")
    api = client_with(member, ["read"])
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/api/v1/matches/{first.pk}/analysis/").status_code in (200, 202)
    agreeing(api.post(f"/api/v1/matches/{second.pk}/analysis/"))


def test_the_upload_form(owner, low_rates):
    browser = Client()
    browser.force_login(owner)
    seeds = iter(range(1, 10))
    answer = last_of(
        lambda: browser.post("/uploads/new/", {"text": json.dumps(valid_log(next(seeds)))})
    )
    seconds = seconds_of(answer)
    assert f"Try again in {seconds} second" in answer.content.decode()


def test_the_upload_pages_rerun(owner, low_rates):
    upload = upload_create(uploader=owner, data=json.dumps(illegal_log()).encode(), kind="json")
    browser = Client()
    browser.force_login(owner)
    answer = last_of(lambda: browser.post(f"/uploads/{upload.pk}/rerun/"))
    seconds = seconds_of(answer)
    assert f"Try again in {seconds} second" in answer.content.decode()


def test_the_recorders_send(owner, low_rates):
    phone = Client()
    phone.force_login(owner)
    seeds = iter(range(1, 10))

    def send():
        text = json.dumps(valid_log(next(seeds)))
        body = json.dumps({"club": "tbilisi-fives-club", "log": text})
        return phone.post("/record/send/", body, content_type="application/json")

    answer = last_of(send)
    seconds = agreeing(answer)
    assert f"Try again in {seconds} second" in answer.json()["error"]


@pytest.fixture
def ketevan(django_user_model):
    return django_user_model.objects.create_user("ketevan", password="the-right-password-9")


def sign_in(client, username, password, address="198.51.100.20", page="/accounts/login/"):
    return client.post(page, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("page", ["/accounts/login/", "/admin/login/"])
def test_the_sign_in_lock_of_an_account_at_an_address(client, ketevan, settings, page):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "ketevan", "wrong", page=page)
    answer = sign_in(client, "ketevan", "the-right-password-9", page=page)
    seconds = seconds_of(answer)
    # What is left of the 15 minutes' cool-off: a moment less, never more.
    cool_off = round(settings.AXES_COOLOFF_TIME * 3600)
    assert cool_off - 60 < seconds <= cool_off
    assert minutes_said(answer) == math.ceil(seconds / 60)


def test_the_sign_in_limit_of_an_address(client, ketevan, settings):
    settings.FIVES_SIGNIN_ADDRESS_FAILURES = "4/h"
    for number in range(4):
        assert sign_in(client, f"someone-{number}", "guess").status_code == 200
    answer = sign_in(client, "ketevan", "the-right-password-9")
    seconds = seconds_of(answer)
    assert seconds <= 2 * 3600  # a sliding count: the rest of this hour and part of the next
    assert minutes_said(answer) == math.ceil(seconds / 60)


def test_the_sign_up_limit(settings):
    settings.FIVES_SIGNUP_RATE = "2/h"
    password = "lazy-tiles-on-the-table"
    answers = [
        Client().post(
            "/accounts/signup/",
            {"username": f"player{n}", "password1": password, "password2": password},
        )
        for n in range(3)
    ]
    assert [answer.status_code for answer in answers] == [302, 302, 429]
    seconds = seconds_of(answers[-1])
    assert seconds <= 2 * 3600  # a sliding count: the rest of this hour and part of the next
    assert minutes_said(answers[-1]) == math.ceil(seconds / 60)
