"""fives/1 in, stored, fives/1 out, exactly: simulated matches of every preset, option, table
and partnership, with claims, metadata and table records, go through ingest into the
database and come back the same from the stored match, the export and the hands endpoint."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import check_document
from fives_engine.convert import to_table_record
from games.export import export_lines
from games.models import Match, UploadItem
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from tests.archive.test_codec import logs_with_claims

pytestmark = pytest.mark.django_db

NUMBERS = itertools.count()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(doc=logs_with_claims(), table=st.booleans(), event=st.sampled_from([None, "Кубок", "თასი"]))
def test_a_stored_match_comes_back_as_the_log_it_was(owner, client, doc, table, event):
    if table:
        doc = to_table_record(doc)
    doc["id"] = f"round-trip-{next(NUMBERS)}"
    doc["club"] = "Tbilisi Fives Club"
    if event is not None:
        doc["event"] = event
    expected = check_document(json.dumps(doc)).log.as_json()

    upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    upload_process(upload_id=upload.pk)
    item = upload.items.get()
    assert item.status == UploadItem.Status.ACCEPTED, item.full_report
    match = Match.objects.with_log().get(pk=item.match_id)

    assert match.log().as_json() == expected
    [line] = export_lines(Match.objects.filter(pk=match.pk))
    assert json.loads(line) == expected
    hands = client.get(f"/api/v1/matches/{match.pk}/hands/").json()
    assert [hand["deal"] for hand in hands] == [hand.get("deal") for hand in expected["hands"]]
    assert [[move["claimed"] for move in hand["moves"]] for hand in hands] == [
        [move.get("points") for move in hand["moves"]] for hand in expected["hands"]
    ]
    checked = check_document(json.dumps(doc))
    assert item.full_report["hands"] == [hand.as_dict() for hand in checked.report.hands]
