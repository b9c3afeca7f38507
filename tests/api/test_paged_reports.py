"""Bounded answers (issue 25, item 9): an upload's answer carries its counts, the reports of
its first logs and the address of all of them, paged; the upload list carries no reports;
the export stops where ``limit`` says."""

from __future__ import annotations

import json

import pytest

from api.serializers import ITEMS_SHOWN
from tests.archive.helpers import ndjson, valid_log

pytestmark = pytest.mark.django_db

LOGS = 45  # more than an answer shows, fewer than a page of items


@pytest.fixture
def big_upload(owner_api, django_capture_on_commit_callbacks):
    docs = [valid_log(seed) for seed in range(1, LOGS)] + [b"not json"]
    with django_capture_on_commit_callbacks(execute=True):
        answer = owner_api.post(
            "/api/v1/uploads/", ndjson(*docs), content_type="application/x-ndjson"
        )
    assert answer.status_code == 202
    assert answer.json()["items_url"].endswith(f"/api/v1/uploads/{answer.json()['id']}/items/")
    return owner_api.get(answer.json()["url"]).json()  # processed once the request committed


def test_an_uploads_answer_shows_its_first_reports_and_pages_the_rest(owner_api, big_upload):
    assert big_upload["item_count"] == LOGS
    assert (big_upload["accepted_count"], big_upload["rejected_count"]) == (LOGS - 1, 1)
    assert [item["index"] for item in big_upload["items"]] == list(range(1, ITEMS_SHOWN + 1))
    page = owner_api.get(big_upload["items_url"]).json()
    assert [item["index"] for item in page["results"]] == list(range(1, LOGS + 1))
    assert page["next"] is None
    last = page["results"][-1]
    assert last["status"] == "rejected" and last["report"]["errors"][0]["code"] == "schema"


def test_the_items_page_in_hundreds(owner_api, owner, django_capture_on_commit_callbacks):
    docs = [b"{}"] * 130
    with django_capture_on_commit_callbacks(execute=True):
        upload = owner_api.post(
            "/api/v1/uploads/", ndjson(*docs), content_type="application/x-ndjson"
        )
    first = owner_api.get(upload.json()["items_url"]).json()
    assert len(first["results"]) == 100
    second = owner_api.get(first["next"]).json()
    assert [item["index"] for item in second["results"]] == list(range(101, 131))


def test_the_upload_list_carries_counts_not_reports(owner_api, big_upload):
    [listed] = owner_api.get("/api/v1/uploads/").json()["results"]
    assert "items" not in listed
    assert listed["item_count"] == LOGS and listed["items_url"] == big_upload["items_url"]


def test_someone_elses_upload_items_are_not_found(outsider_api, big_upload):
    assert outsider_api.get(big_upload["items_url"]).status_code == 404


def test_the_export_stops_at_its_limit(owner_api, big_upload):
    answer = owner_api.get("/api/v1/matches/export?limit=3")
    lines = b"".join(answer.streaming_content).splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["test-1", "test-2", "test-3"]
    for bad in ("0", "-1", "abc", "1.5", "٣", "1000001", "9" * 5000):
        refused = owner_api.get(f"/api/v1/matches/export?limit={bad}")
        assert refused.status_code == 400, bad
        assert "limit" in refused.json()["error"]["fields"]


def test_the_export_starts_past_its_offset(owner_api, big_upload):
    """Where a broken download resumes: past that many, with a limit counted from there."""
    every = b"".join(owner_api.get("/api/v1/matches/export").streaming_content).splitlines()
    answer = owner_api.get("/api/v1/matches/export?offset=2&limit=2")
    assert b"".join(answer.streaming_content).splitlines() == every[2:4]
    answer = owner_api.get(f"/api/v1/matches/export?offset={len(every) - 1}")
    assert b"".join(answer.streaming_content).splitlines() == every[-1:]
    answer = owner_api.get(f"/api/v1/matches/export?offset={len(every)}")
    assert b"".join(answer.streaming_content) == b""
    for bad in ("-1", "x", "1e3", "9" * 5000, "1000000001"):
        refused = owner_api.get(f"/api/v1/matches/export?offset={bad}")
        assert refused.status_code == 400, bad
        assert "offset" in refused.json()["error"]["fields"]
