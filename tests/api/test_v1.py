"""API v1: every endpoint's happy path, filters, cursor pages, permissions, error shape."""

from __future__ import annotations

import pytest

from clubs.models import Membership
from fives_engine import validate_log
from games.models import Match, Player, Upload
from replays.models import SeatResult
from tests.archive.helpers import as_bytes, illegal_log, valid_log

pytestmark = pytest.mark.django_db


def error_of(response):
    body = response.json()
    assert set(body) == {"error"}
    assert {"code", "message"} <= set(body["error"])
    return body["error"]


def test_the_first_endpoints_work_under_v1(anonymous_api, archive):
    assert anonymous_api.get("/api/v1/matches/").status_code == 200
    match = Match.objects.first()
    assert anonymous_api.get(f"/api/v1/matches/{match.pk}/").json()["id"] == match.pk
    assert anonymous_api.get(f"/api/v1/matches/{match.pk}/replay/").status_code == 200
    assert anonymous_api.get("/api/v1/ping/").json() == {"ok": True}


def test_matches_filter_by_club_player_ruleset_status_date_and_result(anonymous_api, archive):
    def ids(query):
        response = anonymous_api.get(f"/api/v1/matches/?{query}")
        assert response.status_code == 200, response.json()
        return {m["external_id"] for m in response.json()["results"]}

    assert len(ids("")) == 6
    assert ids("club=moscow") == {"api-4-Olga-Ivan", "api-5-Olga-Ivan-Anna"}
    nino = Player.objects.get(handle="Nino", club__name="Tbilisi Fives Club").pk
    assert len(ids(f"player={nino}")) == 4
    assert ids("ruleset=all-fives") == set()
    assert len(ids("status=complete")) == 6
    assert ids("date_from=2026-09-01&date_to=2026-09-30") == {"api-5-Olga-Ivan-Anna"}
    wins, losses = ids(f"player={nino}&result=win"), ids(f"player={nino}&result=loss")
    assert wins | losses == ids(f"player={nino}") and not wins & losses
    for doc in archive:
        report = validate_log(doc)
        if "Nino" in doc["players"] and doc["id"] in wins:
            seat = doc["players"].index("Nino")
            team = seat % 2 if doc.get("teams") else seat
            assert report.winner == team
    # Counted from the seat results' own ``won``: one player (read on their own seat) and a
    # part of a name that is several players' ("an": Ivan, Anna, Levan).
    for name, named in (
        ("Nino", {"player__handle": "Nino"}),
        ("an", {"player__handle__icontains": "an"}),
    ):
        for result, won in (("win", True), ("loss", False)):
            counted = set(
                SeatResult.objects.filter(
                    won=won, match__winner__isnull=False, **named
                ).values_list("match__external_id", flat=True)
            )
            assert ids(f"player={name}&result={result}") == counted and counted


def test_bad_filters_answer_400_in_the_error_shape(anonymous_api, archive):
    response = anonymous_api.get("/api/v1/matches/?date_from=yesterday&ruleset=chess")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert set(error["fields"]) == {"date_from", "ruleset"}
    assert error_of(anonymous_api.get("/api/v1/matches/?result=win"))["fields"]["result"]
    # A field error names the parameter the query wrote: status (outcome's other name).
    assert set(error_of(anonymous_api.get("/api/v1/matches/?status=weird"))["fields"]) == {"status"}
    assert set(error_of(anonymous_api.get("/api/v1/matches/?outcome=weird"))["fields"]) == {
        "outcome"
    }


def test_lists_are_cursor_paginated_and_ordered(anonymous_api, archive):
    seen = []
    url = "/api/v1/matches/?page_size=4&ordering=played_at"
    while url:
        body = anonymous_api.get(url).json()
        assert len(body["results"]) <= 4
        seen += body["results"]
        url = body["next"]
    assert len(seen) == 6
    assert [m["played_at"] for m in seen] == sorted(m["played_at"] for m in seen)
    clubs = anonymous_api.get("/api/v1/clubs/?ordering=name").json()["results"]
    assert [c["name"] for c in clubs] == ["Kutaisi", "Moscow", "Tbilisi Fives Club"]
    players = anonymous_api.get("/api/v1/players/?club=moscow&ordering=handle").json()["results"]
    assert [p["handle"] for p in players] == ["Anna", "Ivan", "Olga"]


def test_a_match_has_its_hands_and_moves(anonymous_api, archive):
    match = Match.objects.get(external_id="api-1-Nino-Giorgi")
    hands = anonymous_api.get(f"/api/v1/matches/{match.pk}/hands/").json()
    report = validate_log(archive[0]).as_dict()
    assert [h["scores"] for h in hands] == [h["scores"] for h in report["hands"]]
    assert [len(h["moves"]) for h in hands] == [len(h["moves"]) for h in archive[0]["hands"]]
    assert hands[0]["moves"][0]["kind"] == "play"


def test_clubs_players_rankings_and_stats(anonymous_api, archive):
    assert anonymous_api.get("/api/v1/clubs/moscow/").json()["name"] == "Moscow"
    ranking = anonymous_api.get("/api/v1/clubs/moscow/ranking/").json()
    assert {row["player"] for row in ranking["provisional"]} == {"Olga", "Ivan", "Anna"}
    olga = Player.objects.get(handle="Olga")
    assert anonymous_api.get(f"/api/v1/players/{olga.pk}/").json()["handle"] == "Olga"
    assert anonymous_api.get(f"/api/v1/players/{olga.pk}/stats/").json()["figures"]["matches"] == 2


def test_missing_things_answer_404_in_the_error_shape(anonymous_api):
    for path in [
        "/api/v1/matches/999/",
        "/api/v1/clubs/nowhere/",
        "/api/v1/players/999/",
        "/api/v1/uploads/999/",
        "/api/v1/matches/999/hands/",
    ]:
        response = anonymous_api.get(path)
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"


def test_only_a_token_with_the_upload_scope_uploads(
    anonymous_api, reader_api, owner_api, django_capture_on_commit_callbacks
):
    body = as_bytes(valid_log())
    response = anonymous_api.post("/api/v1/uploads/", body, content_type="application/json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert error_of(response)["code"] == "not_authenticated"
    response = reader_api.post("/api/v1/uploads/", body, content_type="application/json")
    assert response.status_code == 403
    assert error_of(response)["code"] == "permission_denied"
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_api.post("/api/v1/uploads/", body, content_type="application/json")
    assert response.status_code == 202
    assert owner_api.get(f"/api/v1/uploads/{response.json()['id']}/").json()["status"] == "accepted"


def test_a_revoked_or_unknown_token_is_refused(owner, anonymous_api):
    from games.tokens import token_create, token_revoke

    token, key = token_create(user=owner, name="old", scopes=["read"])
    token_revoke(user=owner, token_id=token.pk)
    for header in (f"Bearer {key}", "Bearer fives_nonsense", "Bearer a b"):
        anonymous_api.credentials(HTTP_AUTHORIZATION=header)
        response = anonymous_api.get("/api/v1/matches/")
        assert response.status_code == 401
        assert error_of(response)["code"] == "authentication_failed"


def test_your_uploads_are_listed_for_you_only(
    owner_api, outsider_api, anonymous_api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        owner_api.post("/api/v1/uploads/", as_bytes(valid_log(1)), content_type="application/json")
    assert len(owner_api.get("/api/v1/uploads/").json()["results"]) == 1
    assert outsider_api.get("/api/v1/uploads/").json()["results"] == []
    assert anonymous_api.get("/api/v1/uploads/").status_code == 401


@pytest.fixture
def owners_upload(owner_api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_api.post(
            "/api/v1/uploads/",
            as_bytes(illegal_log()) + b"\n" + as_bytes(valid_log(7)),
            content_type="application/x-ndjson",
        )
    return Upload.objects.get(pk=response.json()["id"])


def test_only_the_uploader_or_a_club_admin_deletes_an_upload(
    owners_upload, outsider, outsider_api, reader_api, anonymous_api, owner_api
):
    path = f"/api/v1/uploads/{owners_upload.pk}/"
    assert anonymous_api.delete(path).status_code == 401
    assert outsider_api.delete(path).status_code == 404  # not theirs to see: no such upload
    assert reader_api.delete(path).status_code == 403  # the owner's token, without "manage"
    club = Match.objects.get().club
    owners_upload.club = club
    owners_upload.save()
    Membership.objects.create(club=club, user=outsider, role=Membership.Role.ADMIN)
    assert outsider_api.delete(path).status_code == 204
    assert not Upload.objects.filter(pk=owners_upload.pk).exists()
    assert Match.objects.count() == 0


def test_the_uploader_reruns_the_rejected_lines(
    owners_upload, owner_api, outsider_api, django_capture_on_commit_callbacks
):
    path = f"/api/v1/uploads/{owners_upload.pk}/rerun/"
    assert outsider_api.post(path).status_code == 404  # not theirs to see: no such upload
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_api.post(path)
    assert response.status_code == 202
    upload = owner_api.get(f"/api/v1/uploads/{owners_upload.pk}/").json()
    assert upload["status"] == "partial"
    assert [(i["index"], i["status"]) for i in upload["items"]] == [
        (1, "rejected"),
        (2, "accepted"),
    ]
    assert Match.objects.count() == 1


def test_cached_answers_follow_the_archive(
    anonymous_api, archive, owner_api, django_capture_on_commit_callbacks
):
    first = anonymous_api.get("/api/v1/matches/").json()
    assert anonymous_api.get("/api/v1/matches/").json() == first  # from the cache
    with django_capture_on_commit_callbacks(execute=True):
        owner_api.post("/api/v1/uploads/", as_bytes(valid_log(40)), content_type="application/json")
    assert len(anonymous_api.get("/api/v1/matches/").json()["results"]) == len(first["results"]) + 1
    match = Match.objects.first()
    before = anonymous_api.get(f"/api/v1/matches/{match.pk}/").json()
    from games.services.matches import match_delete

    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=match.pk)
    assert before["id"] == match.pk
    assert anonymous_api.get(f"/api/v1/matches/{match.pk}/").status_code == 404


def test_your_uploads_filter_by_status(owner_api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        owner_api.post("/api/v1/uploads/", as_bytes(valid_log(1)), content_type="application/json")
        owner_api.post("/api/v1/uploads/", as_bytes(illegal_log()), content_type="application/json")
    statuses = [
        u["status"] for u in owner_api.get("/api/v1/uploads/?status=rejected").json()["results"]
    ]
    assert statuses == ["rejected"]
    assert error_of(owner_api.get("/api/v1/uploads/?status=lost"))["fields"]["status"]


@pytest.mark.django_db(transaction=True)
def test_the_202_of_an_upload_processed_in_process_agrees_with_its_items(owner_api):
    # Tasks in-process (a machine without Redis): the upload is processed as soon as its row
    # commits, inside the request; the answer says so, its counts agreeing with its items.
    body = b"\n".join(as_bytes(valid_log(seed)) for seed in (1, 2)) + b"\n"
    response = owner_api.post("/api/v1/uploads/", body, content_type="application/x-ndjson")
    assert response.status_code == 202
    answer = response.json()
    assert [item["status"] for item in answer["items"]] == ["accepted", "accepted"]
    assert (answer["status"], answer["item_count"], answer["accepted_count"]) == ("accepted", 2, 2)
