"""Table records go through the archive like any log: stored, exported back unchanged,
replayed with the unseen tiles as counts, and reviewed."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from fives_engine import parse_log, to_table_record
from games.models import Match
from games.services.uploads import upload_create
from tests.archive.helpers import valid_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_match(owner, django_capture_on_commit_callbacks):
    doc = to_table_record(valid_log(3))
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    upload.refresh_from_db()
    assert upload.status == "accepted", upload.items.get().report
    return doc, upload.items.get().match


def test_the_export_writes_a_table_record_back_unchanged(owner, table_match):
    doc, _match = table_match
    api = APIClient()
    api.force_authenticate(owner)
    body = b"".join(api.get("/api/v1/matches/export").streaming_content)
    [line] = body.splitlines()
    assert json.loads(line) == parse_log(doc).as_json()
    assert json.loads(line)["record"] == "table"


def test_a_table_record_replays_with_hidden_tiles_and_its_hands_api_has_no_deal(owner, table_match):
    _doc, match = table_match
    api = APIClient()
    api.force_authenticate(owner)
    states = api.get(f"/api/v1/matches/{match.pk}/replay/").json()["states"]
    assert "hidden" in states[0] and sum(states[0]["hidden"]) == 14
    hands = api.get(f"/api/v1/matches/{match.pk}/hands/").json()
    assert hands[0]["deal"] is None and hands[0]["left"] is not None
    assert Match.objects.get().record == "table"
