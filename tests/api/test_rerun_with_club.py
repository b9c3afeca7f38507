"""A rejected upload can be put right (issue 25, item 10): logs refused as club-missing (or
club-not-member) go into a club when the same document is sent again naming it, or when the
upload is run again with ``?club=``; the recorder's send, refused before its sender joined,
goes through once they have."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from clubs.models import Club, Membership
from games.models import Match, Upload
from tests.archive.helpers import valid_log
from tests.recorder.test_recorder_engine import record

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubless(owner_api, django_capture_on_commit_callbacks):
    doc = valid_log(5)
    del doc["club"]
    body = json.dumps(doc)
    with django_capture_on_commit_callbacks(execute=True):
        answer = owner_api.post("/api/v1/uploads/", body, content_type="application/json")
    upload = Upload.objects.get(pk=answer.json()["id"])
    [item] = upload.items.all()
    assert item.report["errors"][0]["code"] == "club-missing"
    return upload, body


def test_the_same_document_sent_again_for_a_club_goes_into_it(
    owner_api, clubless, django_capture_on_commit_callbacks
):
    upload, body = clubless
    with django_capture_on_commit_callbacks(execute=True):
        again = owner_api.post(
            "/api/v1/uploads/?club=tbilisi-fives-club", body, content_type="application/json"
        )
    assert again.json()["id"] == upload.pk  # the same upload, put right
    upload.refresh_from_db()
    assert upload.club.slug == "tbilisi-fives-club" and upload.status == "accepted"
    assert Match.objects.get().club.slug == "tbilisi-fives-club"


def test_a_rerun_with_a_club_goes_into_it(owner_api, clubless, django_capture_on_commit_callbacks):
    upload, _ = clubless
    with django_capture_on_commit_callbacks(execute=True):
        answer = owner_api.post(f"/api/v1/uploads/{upload.pk}/rerun/?club=tbilisi-fives-club")
    assert answer.status_code == 202
    upload.refresh_from_db()
    assert upload.status == "accepted" and Match.objects.count() == 1


def test_a_rerun_into_a_club_not_ones_own_is_refused(owner_api, clubless, outsider):
    from clubs.services import club_create

    club_create(owner=outsider, name="Elsewhere", slug="elsewhere")
    upload, _ = clubless
    answer = owner_api.post(f"/api/v1/uploads/{upload.pk}/rerun/?club=elsewhere")
    assert answer.status_code == 400 and "club" in answer.json()["error"]["fields"]
    assert Match.objects.count() == 0


def test_the_recorders_refused_send_goes_through_once_its_sender_joined(
    outsider, owner, django_capture_on_commit_callbacks
):
    text = json.dumps({**record(), "id": "rec-join", "club": "Tbilisi Fives Club"})
    body = json.dumps({"club": "tbilisi-fives-club", "log": text})
    phone = Client()
    phone.force_login(outsider)
    with django_capture_on_commit_callbacks(execute=True):
        refused = phone.post("/record/send/", body, content_type="application/json")
    assert refused.status_code == 403
    Membership.objects.create(club=Club.objects.get(slug="tbilisi-fives-club"), user=outsider)
    with django_capture_on_commit_callbacks(execute=True):
        sent = phone.post("/record/send/", body, content_type="application/json")
    assert sent.status_code == 201 and sent.json()["upload"] == refused.json()["upload"]
    assert Upload.objects.get().status == "accepted"
    assert Match.objects.get().club.slug == "tbilisi-fives-club"
