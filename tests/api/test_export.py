"""Bulk export streams fives/1 NDJSON in constant memory, and re-imports as the same matches."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from fives_engine import validate_log
from games import export
from games.models import Match, UploadItem
from games.services.ingest import upload_process
from games.services.matches import match_log
from games.services.uploads import upload_create
from tests.api.conftest import make_doc

pytestmark = pytest.mark.django_db


def test_the_export_is_the_stored_logs_and_takes_the_filters(anonymous_api, archive):
    response = anonymous_api.get("/api/v1/matches/export?club=moscow")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = b"".join(response.streaming_content).splitlines()
    assert len(lines) == 2
    for line in lines:
        doc = json.loads(line)
        match = Match.objects.with_log().get(external_id=doc["id"])
        assert doc == match_log(match=match)
        assert validate_log(doc).valid


def test_an_export_reimports_as_the_same_matches(
    owner, anonymous_api, archive, django_capture_on_commit_callbacks
):
    data = b"".join(anonymous_api.get("/api/v1/matches/export").streaming_content)
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(uploader=owner, data=data, kind="ndjson")
        upload_process(upload_id=upload.pk)
    items = upload.items.all()
    assert {item.status for item in items} == {UploadItem.Status.DUPLICATE}
    assert Match.objects.count() == len(archive)


def test_exporting_thousands_of_matches_holds_one_chunk_in_memory(owner, monkeypatch):
    base = [make_doc(seed) for seed in range(20)]
    lines = []
    for n in range(2000):
        doc = dict(base[n % 20], id=f"bulk-{n}")
        lines.append(json.dumps(doc).encode())
    upload = upload_create(uploader=owner, data=b"\n".join(lines), kind="ndjson")
    upload_process(upload_id=upload.pk)
    assert Match.objects.count() == 2000
    monkeypatch.setattr(export, "CHUNK", 100)

    def peak_of(matches):
        tracemalloc.start()
        count = sum(1 for _ in export.export_lines(matches))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return count, peak

    ids = list(Match.objects.order_by("id").values_list("id", flat=True))
    small_count, small_peak = peak_of(Match.objects.filter(id__lte=ids[499]).order_by("id"))
    all_count, all_peak = peak_of(Match.objects.order_by("id"))
    assert (small_count, all_count) == (500, 2000)
    # Four times the matches, not four times the memory: one chunk at a time.
    assert all_peak < small_peak * 1.5, (small_peak, all_peak)
