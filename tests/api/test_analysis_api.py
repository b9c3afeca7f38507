"""GET and POST /api/v1/matches/{id}/analysis/: the analysis's status, progress and result,
typed in the schema; asked for by a signed-in person within the daily quota (429 past it)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client

from api.analysis import MatchAnalysisSerializer
from clubs.models import Club
from fives_engine.expected import ANALYSIS_VERSION
from replays.models import MatchAnalysis
from tests.replays.helpers import store_match

from .conftest import client_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")


def url(match) -> str:
    return f"/api/v1/matches/{match.pk}/analysis/"


def test_a_match_never_analysed_answers_none(match, anonymous_api):
    answer = anonymous_api.get(url(match))
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "none" and body["result"] is None
    assert body["current_version"] == str(ANALYSIS_VERSION)


def test_asking_runs_the_analysis_and_the_answer_carries_every_play(
    match, member, django_capture_on_commit_callbacks
):
    api = client_with(member, ["read"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(url(match))
    # With tasks in-process the analysis is done when the answer is made: 200, else 202.
    assert answer.status_code in (200, 202)
    body = api.get(url(match)).json()
    assert body["status"] == "done" and body["stale"] is False
    result = body["result"]
    assert result["players"] == ["Levan", "Nino"]
    assert body["done"] == body["total"] == len(result["plays"]) > 0
    play = result["plays"][0]
    assert set(play) == {
        "hand", "move", "seat", "played", "value", "stderr", "best", "best_value",
        "loss", "mark", "exact", "layouts", "alternatives", "loss_stderr", "chance",
        "chance_best", "best_chance", "chance_loss", "chance_loss_stderr", "chance_before",
        "unit",
    }  # fmt: skip
    assert play["loss"] == pytest.approx(play["best_value"] - play["value"], abs=1e-6)
    # A two-player match has an equity table: every play's winning chance beside its points.
    assert result["unit"] == play["unit"] == "chance"
    assert play["chance_loss"] == pytest.approx(play["best_chance"] - play["chance"], abs=1e-6)
    # Per side: the result, the chance at the start, the luck and the skill, which add up.
    assert [side["side"] for side in result["sides"]] == [0, 1]
    for side in result["sides"]:
        assert side["result"] in (0.0, 100.0)
        total = side["expected_start"] + side["luck"] + side["skill"]
        assert total == pytest.approx(side["result"], abs=1e-6)
    assert play["mark"] in (None, "inaccuracy", "mistake", "blunder")
    assert {alt["play"] for alt in play["alternatives"]} >= {play["played"], play["best"]}
    assert len(result["accuracy"]) == len(result["mean_loss"]) == 2
    # Hands and moves from 1, as the replay's addresses and the mistakes count them (the
    # review keeps them from 0): each play, each luck event, each point of the chances.
    stored = MatchAnalysis.objects.get(match=match).result
    assert [(p["hand"], p["move"]) for p in result["plays"]] == [
        (p["hand"] + 1, p["move"] + 1) for p in stored["plays"]
    ]
    assert result["plays"][0]["hand"] == 1
    assert [point[:2] for point in result["chances"]] == [
        [point[0] + 1, point[1] + 1] for point in stored["chances"]
    ]
    for side, kept in zip(result["sides"], stored["sides"], strict=True):
        assert [event[:2] for event in side["events"]] == [
            [event[0] + 1, None if event[1] is None else event[1] + 1] for event in kept["events"]
        ]
    # The answer is the serializer's shape, which is the schema's.
    checked = MatchAnalysisSerializer(data=body)
    assert checked.is_valid(), checked.errors


def test_asking_needs_an_account(match, anonymous_api):
    answer = anonymous_api.post(url(match))
    assert answer.status_code == 401
    assert not MatchAnalysis.objects.exists()


def test_a_private_clubs_match_is_not_found_by_outsiders(match, owner, outsider):
    club = Club.objects.get(slug="tbilisi-fives-club")
    club.is_private = True
    club.save()
    api = client_with(outsider, ["read"])
    assert api.get(url(match)).status_code == 404
    assert api.post(url(match)).status_code == 404


def test_past_the_quota_the_answer_is_429_saying_why(match, owner, member, monkeypatch):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 1)
    other = store_match(owner, ["Levan", "Nino"], seed=6, played_at="2026-04-02T19:00:00Z")
    api = client_with(member, ["read"])
    assert api.post(url(match)).status_code in (200, 202)
    refused = api.post(url(other))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert "1 a day" in error["message"]
    # The wait in words, rounded up to the hour, and in seconds once, in retry_after: never
    # DRF's "Expected available in 86307 seconds." (in English, whatever the language).
    assert error["message"].endswith("you may ask for the next in 24 hours.")
    assert "seconds" not in error["message"]
    assert error["retry_after"] == int(refused["Retry-After"])
    russian = api.post(url(other), HTTP_ACCEPT_LANGUAGE="ru").json()["error"]["message"]
    assert russian.endswith("следующий можно запросить через 24 часа.")
    assert not MatchAnalysis.objects.filter(match=other).exists()


def test_the_schema_types_the_analysis_endpoint():
    answer = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(answer.content)
    path = schema["paths"]["/api/v1/matches/{id}/analysis/"]
    assert set(path) >= {"get", "post"}
    ref = path["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    analysis = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"status", "done", "total", "stale", "result"} <= set(analysis["properties"])
    assert "429" in path["post"]["responses"]
    # A play's hand and move are numbered from 1, and the schema says so.
    play = schema["components"]["schemas"]["PlayReview"]["properties"]
    for name in ("hand", "move"):
        assert play[name]["minimum"] == 1 and "from 1" in play[name]["description"]
