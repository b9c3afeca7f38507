"""The upload form spends the API's upload budget (issue 25, item 4): 200 uploads went
through the form in 5.4 s from one account while the API allowed 60 a minute. One budget per
person, across the form and the API."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.api.conftest import client_with
from tests.archive.helpers import valid_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": "1000/min", "upload": "3/min", "export": "30/min"},
    }
    from rest_framework.settings import api_settings

    api_settings.reload()
    yield
    api_settings.reload()


def form_upload(client, seed):
    return client.post("/uploads/new/", {"text": json.dumps(valid_log(seed))})


def test_the_form_refuses_past_the_budget_with_429(owner, three_a_minute):
    client = Client()
    client.force_login(owner)
    codes = [form_upload(client, seed).status_code for seed in range(1, 5)]
    assert codes == [302, 302, 302, 429]
    refused = form_upload(client, 9)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "as many uploads as a minute allows" in refused.content.decode()


def test_the_form_and_the_api_share_one_budget(owner, three_a_minute):
    client = Client()
    client.force_login(owner)
    assert form_upload(client, 1).status_code == 302
    assert form_upload(client, 2).status_code == 302
    api = client_with(owner, ["upload"])
    first = api.post("/api/v1/uploads/", json.dumps(valid_log(3)), content_type="application/json")
    second = api.post("/api/v1/uploads/", json.dumps(valid_log(4)), content_type="application/json")
    assert (first.status_code, second.status_code) == (202, 429)
