"""Throttling: past the limit, 429 with Retry-After, per token and per address."""

from __future__ import annotations

import pytest

from api.common import ClientThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_limits(monkeypatch):
    monkeypatch.setattr(
        ClientThrottle, "THROTTLE_RATES", {"read": "3/min", "upload": "1/min", "export": "2/min"}
    )


def test_reading_past_the_limit_answers_429_with_retry_after(anonymous_api, low_limits):
    for _ in range(3):
        assert anonymous_api.get("/api/v1/matches/").status_code == 200
    response = anonymous_api.get("/api/v1/matches/")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response.json()["error"]["code"] == "throttled"
    assert response.json()["error"]["retry_after"] >= 1


def test_each_token_has_its_own_count(owner_api, outsider_api, low_limits):
    for _ in range(3):
        assert owner_api.get("/api/v1/clubs/").status_code == 200
    assert owner_api.get("/api/v1/clubs/").status_code == 429
    assert outsider_api.get("/api/v1/clubs/").status_code == 200


def test_uploads_and_exports_have_limits_of_their_own(
    owner_api, low_limits, django_capture_on_commit_callbacks
):
    from tests.archive.helpers import as_bytes, valid_log

    with django_capture_on_commit_callbacks(execute=True):
        assert (
            owner_api.post(
                "/api/v1/uploads/", as_bytes(valid_log(1)), content_type="application/json"
            ).status_code
            == 202
        )
    assert (
        owner_api.post(
            "/api/v1/uploads/", as_bytes(valid_log(2)), content_type="application/json"
        ).status_code
        == 429
    )
    assert owner_api.get("/api/v1/matches/export").status_code == 200
    assert owner_api.get("/api/v1/matches/export").status_code == 200
    assert owner_api.get("/api/v1/matches/export").status_code == 429
    assert owner_api.get("/api/v1/matches/").status_code == 200  # reading still allowed
