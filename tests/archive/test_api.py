"""Token uploads, upload status, match list and match detail through v1; the first API's
addresses redirect to v1."""

from __future__ import annotations

import gzip
import re

import pytest
from rest_framework.test import APIClient

from fives_engine import validate_log
from games.models import Match, Upload
from games.tokens import token_create
from tests.archive.helpers import as_bytes, illegal_log, ndjson, valid_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(owner):
    client = APIClient()
    _, key = token_create(user=owner, name="test", scopes=["read", "upload"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.fixture
def post(api, django_capture_on_commit_callbacks):
    def post(data: bytes, content_type: str = "application/json"):
        with django_capture_on_commit_callbacks(execute=True):
            return api.generic("POST", "/api/v1/uploads/", data, content_type=content_type)

    return post


def test_a_token_uploads_a_json_log_and_polls_its_status(post, api):
    response = post(as_bytes(valid_log()))
    assert response.status_code == 202
    body = response.json()
    assert response["Location"] == body["url"]
    assert isinstance(response["Location"], str)
    assert body["url"].endswith(f"/api/v1/uploads/{body['id']}/")
    status = api.get(f"/api/v1/uploads/{body['id']}/").json()
    assert status["status"] == "accepted"
    [item] = status["items"]
    assert item["report"] == validate_log(valid_log()).as_dict()
    assert item["match"] == Match.objects.get().pk


def test_an_ndjson_body_gives_a_result_per_line(post, api):
    response = post(ndjson(valid_log(1), illegal_log()), "application/x-ndjson")
    body = api.get(f"/api/v1/uploads/{response.json()['id']}/").json()
    assert body["kind"] == "ndjson"
    assert [(i["index"], i["status"]) for i in body["items"]] == [(1, "accepted"), (2, "rejected")]
    assert body["items"][1]["report"]["errors"][0]["code"] == "wrong-turn"


def test_anonymous_uploads_are_refused(client):
    response = client.post(
        "/api/v1/uploads/", as_bytes(valid_log()), content_type="application/json"
    )
    assert response.status_code in (401, 403)
    assert Upload.objects.count() == 0


def test_matches_are_listed_with_filters_and_pages(post, client):
    post(ndjson(valid_log(1), valid_log(2)), "application/x-ndjson")
    body = client.get("/api/v1/matches/").json()
    assert len(body["results"]) == 2
    assert {m["players"][0] for m in body["results"]} == {"Nino"}
    assert client.get("/api/v1/matches/?ruleset=all-fives").json()["results"] == []
    assert len(client.get("/api/v1/matches/?outcome=complete").json()["results"]) == 2
    assert client.get("/api/v1/matches/?ruleset=chess").status_code == 400


def test_a_match_gives_its_fives_log_and_the_computed_results(post, client):
    post(as_bytes(valid_log()))
    match = Match.objects.get()
    body = client.get(f"/api/v1/matches/{match.pk}/").json()
    report = validate_log(valid_log()).as_dict()
    assert body["scores"] == report["scores"]
    assert body["winner"] == report["winner"]
    assert [
        {k: h[k] for k in ("end", "points", "settlement", "scores")} for h in body["hands"]
    ] == report["hands"]
    assert validate_log(body["log"]).as_dict() == report
    assert body["rules"] == report["ruleset"]


def test_the_openapi_schema_and_its_page_are_served_without_a_cdn(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/uploads/" in schema.content
    page = client.get("/api/docs/").content.decode()
    assert "swagger" in page.lower()
    assert "cdn" not in page.lower() and "unpkg" not in page.lower()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/api/uploads/", "/api/v1/uploads/"),
        ("/api/uploads/7/", "/api/v1/uploads/7/"),
        ("/api/matches/?ruleset=muggins", "/api/v1/matches/?ruleset=muggins"),
        ("/api/matches/3/replay/", "/api/v1/matches/3/replay/"),
        ("/api/clubs/tbilisi/ranking/", "/api/v1/clubs/tbilisi/ranking/"),
        ("/api/players/5/stats/", "/api/v1/players/5/stats/"),
    ],
)
def test_the_first_api_redirects_to_v1_keeping_the_method(client, old, new):
    for method in ("get", "post"):
        response = getattr(client, method)(old)
        assert (response.status_code, response["Location"]) == (308, new)


def test_an_upload_through_the_first_address_lands_in_v1(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/uploads/",
            as_bytes(valid_log()),
            content_type="application/json",
            follow=True,
        )
    assert response.status_code == 202
    assert Match.objects.count() == 1


def test_every_json_answer_of_v1_is_a_typed_model_in_the_schema(client):
    """A client generated from the schema gets a model for each answer, not a bare object."""
    schema = client.get("/api/schema/?format=json").json()
    untyped = []
    for path, operations in schema["paths"].items():
        if path in ("/api/v1/ping/", "/api/v1/matches/export"):
            continue  # a health check, and NDJSON text
        for method, operation in operations.items():
            for code, answer in operation.get("responses", {}).items():
                if not code.startswith("2") or "content" not in answer:
                    continue
                body = answer["content"]["application/json"]["schema"]
                if "$ref" not in body and "$ref" not in body.get("items", {}):
                    untyped.append(f"{method.upper()} {path} {code}")
    assert untyped == []


def test_api_answers_and_pages_are_gzipped_for_clients_that_ask(client, post):
    post(as_bytes(valid_log()))
    match = Match.objects.get()
    answer = client.get(f"/api/v1/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer["Content-Encoding"] == "gzip"
    plain = client.get(f"/api/v1/matches/{match.pk}/replay/")
    assert len(answer.content) * 4 < len(plain.content)
    # Pages too (fivesite/compression.py): their CSRF token is masked afresh in every
    # answer, so compressed sizes give an attacker (BREACH) no fixed secret to guess at.
    pages = [client.get("/", HTTP_ACCEPT_ENCODING="gzip") for _ in range(2)]
    assert all(page["Content-Encoding"] == "gzip" for page in pages)
    tokens = [
        re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', gzip.decompress(page.content))[1]
        for page in pages
    ]
    assert tokens[0] != tokens[1]
