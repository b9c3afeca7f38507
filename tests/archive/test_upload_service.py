"""The upload service: what is sent is kept, valid logs are stored move by move, once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import override_settings

from clubs.models import Club
from fives_engine import validate_log
from games.forms import UploadForm
from games.models import Match, Player, Seat, Upload, UploadItem, UploadWorkCopy
from games.services.ingest import upload_fail, upload_process
from games.services.matches import match_delete, match_log
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, illegal_log, ndjson, valid_log

pytestmark = pytest.mark.django_db


def moves_stored() -> int:
    return sum(hand.move_count for match in Match.objects.all() for hand in match.hands)


@pytest.fixture
def send(owner, django_capture_on_commit_callbacks):
    def send(data: bytes, filename: str = "", user=None, **kwargs) -> Upload:
        kind = UploadForm.kind(data, filename)
        with django_capture_on_commit_callbacks(execute=True):
            upload = upload_create(
                uploader=user or owner, data=data, kind=kind, filename=filename, **kwargs
            )
        upload.refresh_from_db()
        return upload

    return send


def test_a_valid_log_is_stored_with_every_hand_and_move(send):
    doc = valid_log()
    upload = send(as_bytes(doc))
    assert upload.status == Upload.Status.ACCEPTED
    assert (upload.item_count, upload.accepted_count, upload.rejected_count) == (1, 1, 0)
    [item] = upload.items.all()
    assert item.status == UploadItem.Status.ACCEPTED
    report = validate_log(doc).as_dict()
    assert item.report is None  # an accepted log's report is its match's, kept once
    assert item.full_report == report  # no issue, so nothing beyond FORMAT.md's report
    match = item.match
    assert match.scores == report["scores"]
    assert match.winner == report["winner"]
    assert match.outcome == "complete"
    assert match.preset == "muggins"
    assert match.club.name == "Tbilisi Fives Club"
    assert match.external_id == "test-1"
    assert match.played_at.isoformat() == "2026-11-20T15:05:00+00:00"
    assert [s.player.handle for s in match.seats.order_by("seat")] == ["Nino", "Giorgi"]
    assert len(match.hands) == len(doc["hands"])
    moves = sum(len(hand["moves"]) for hand in doc["hands"])
    assert sum(hand.move_count for hand in match.hands) == moves == match.move_count
    assert [(hand.end, hand.points, hand.settlement, hand.scores) for hand in match.hands] == [
        (h["end"], h["points"], h["settlement"], h["scores"]) for h in report["hands"]
    ]


def test_each_stored_move_holds_the_count_and_the_points_and_the_claim(send):
    doc = valid_log()
    match = send(as_bytes(doc)).items.get().match
    first_hand = match.hands[0]
    rows = [SimpleNamespace(**move) for move in first_hand.moves()]
    logged = doc["hands"][0]["moves"]
    assert [(m.seat, m.kind, m.tile or None, m.end or None) for m in rows] == [
        (
            move["seat"],
            next(k for k in ("play", "draw", "pass") if k in move),
            move.get("play") or move.get("draw"),
            move.get("end"),
        )
        for move in logged
    ]
    assert [m.points for m in rows] == [move.get("points", 0) for move in logged]
    assert [m.claimed for m in rows] == [move.get("points") for move in logged]
    assert all((m.count is None) == (m.kind != "play") for m in rows)


def test_the_stored_match_gives_back_the_log_that_was_sent(send):
    doc = valid_log()
    match = send(as_bytes(doc)).items.get().match
    rebuilt = match_log(match=Match.objects.with_log().get(pk=match.pk))
    assert rebuilt == doc | {"club": "Tbilisi Fives Club"}
    assert validate_log(rebuilt).as_dict() == validate_log(doc).as_dict()


def test_an_illegal_log_is_kept_with_its_report_and_stores_no_match(send):
    upload = send(as_bytes(illegal_log()))
    assert upload.status == Upload.Status.REJECTED
    [item] = upload.items.all()
    assert item.status == UploadItem.Status.REJECTED
    [error] = item.report["errors"]
    assert (error["code"], error["hand"], error["move"]) == ("wrong-turn", 0, 1)
    assert error["message"].startswith("hand 1, move 2: ")
    assert Match.objects.count() == 0
    assert upload.document == as_bytes(illegal_log())


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'{"format": "fives/1", "players": [', "schema"),
        (b'{"format": "fives/2"}', "schema"),
        (b"[1, 2, 3]", "schema"),
        (b"\xff\xfe\x00", "schema"),
    ],
)
def test_bad_documents_are_kept_with_a_schema_error(send, data, code):
    upload = send(data)
    assert upload.status == Upload.Status.REJECTED
    assert upload.document == data
    [item] = upload.items.all()
    assert [e["code"] for e in item.report["errors"]] == [code]


def test_an_empty_document_is_kept_and_rejected_saying_so(send):
    upload = send(b"  \n")
    assert upload.status == Upload.Status.REJECTED
    assert "empty" in upload.problem
    assert upload.items.count() == 0


@override_settings(FIVES_UPLOAD_MAX_BYTES=1000)
def test_an_oversized_document_is_recorded_and_rejected_with_the_limit(send):
    upload = send(b" " * 900 + as_bytes(valid_log()))
    assert upload.status == Upload.Status.REJECTED
    assert "limit is 1000 bytes" in upload.problem
    assert upload.size > 1000
    assert Match.objects.count() == 0


@override_settings(FIVES_UPLOAD_MAX_MATCHES=2)
def test_an_ndjson_file_with_too_many_matches_is_rejected_with_the_limit(send):
    upload = send(ndjson(valid_log(1), valid_log(2), valid_log(3)), "three.ndjson")
    assert upload.status == Upload.Status.REJECTED
    assert "limit is 2" in upload.problem


@override_settings(FIVES_INGEST_BATCH=2)
def test_an_ndjson_file_gives_each_line_its_own_result(send):
    data = ndjson(valid_log(1), illegal_log(), b"", b"{broken", valid_log(3), valid_log(1))
    upload = send(data, "mixed.ndjson")
    assert upload.status == Upload.Status.PARTIAL
    assert (upload.item_count, upload.accepted_count, upload.rejected_count) == (5, 3, 2)
    items = {item.index: item for item in upload.items.all()}
    assert sorted(items) == [1, 2, 4, 5, 6]  # line 3 is blank
    assert items[1].status == UploadItem.Status.ACCEPTED
    assert items[2].status == UploadItem.Status.REJECTED
    assert items[4].report["errors"][0]["code"] == "schema"
    assert items[5].status == UploadItem.Status.ACCEPTED
    # Line 6 repeats line 1: found, not stored twice.
    assert items[6].status == UploadItem.Status.DUPLICATE
    assert items[6].match_id == items[1].match_id
    assert Match.objects.count() == 2


def test_the_same_document_sent_again_is_the_same_upload(send):
    first = send(as_bytes(valid_log()))
    again = send(as_bytes(valid_log()))
    assert again.pk == first.pk
    assert Upload.objects.count() == 1
    assert Match.objects.count() == 1


def test_a_reupload_by_someone_else_finds_the_existing_match(send, member):
    first = send(as_bytes(valid_log()))
    other = send(as_bytes(valid_log()), user=member)
    assert other.pk != first.pk
    [item] = other.items.all()
    assert item.status == UploadItem.Status.DUPLICATE
    assert item.match_id == first.items.get().match_id
    assert Match.objects.count() == 1


def test_a_reupload_with_the_same_club_and_id_finds_the_existing_match(send):
    first = send(as_bytes(valid_log(1)))
    changed = valid_log(1, event="typo fixed")
    item = send(as_bytes(changed)).items.get()
    assert item.status == UploadItem.Status.DUPLICATE
    assert item.match_id == first.items.get().match_id
    assert Match.objects.count() == 1


def test_processing_an_upload_twice_changes_nothing(send):
    upload = send(ndjson(valid_log(1), valid_log(2), illegal_log()), "three.ndjson")
    counts = (Match.objects.count(), moves_stored())
    items = list(UploadItem.objects.values_list("index", "status", "match_id"))
    again = upload_process(upload_id=upload.pk)
    assert again.status == upload.status
    # Even forced to start over, it finds its items done and stores nothing twice.
    Upload.objects.filter(pk=upload.pk).update(status=Upload.Status.PENDING)
    upload_process(upload_id=upload.pk)
    assert (Match.objects.count(), moves_stored()) == counts
    assert list(UploadItem.objects.values_list("index", "status", "match_id")) == items
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.PARTIAL


def test_a_worker_stopped_half_way_finishes_the_rest_without_doubling(send, owner):
    upload = send(ndjson(*(valid_log(seed) for seed in range(1, 5))), "four.ndjson")
    # Pretend the worker died after the first two lines: their items and matches stay.
    late = UploadItem.objects.filter(upload=upload, index__gt=2)
    Match.objects.filter(upload_items__in=late).delete()
    late.delete()
    Upload.objects.filter(pk=upload.pk).update(status=Upload.Status.PENDING)
    upload_process(upload_id=upload.pk)
    assert Match.objects.count() == 4
    assert UploadItem.objects.filter(upload=upload).count() == 4
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.ACCEPTED


def test_a_pending_upload_has_a_work_copy_that_processing_reads_then_drops(owner):
    data = ndjson(valid_log(1), valid_log(2))
    upload = upload_create(uploader=owner, data=data, kind=Upload.Kind.NDJSON)
    assert UploadWorkCopy.document_of(upload.pk) == data
    # The work copy is what the worker reads: the kept document is not read back.
    Upload.objects.filter(pk=upload.pk).update(raw=b"not read", raw_codec="bz2")
    upload_process(upload_id=upload.pk)
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.ACCEPTED
    assert Match.objects.count() == 2
    assert not UploadWorkCopy.objects.filter(upload_id=upload.pk).exists()


def test_an_upload_without_a_work_copy_is_read_from_the_document_as_kept(owner):
    # An upload sent before work copies existed, or run again once processed.
    upload = upload_create(uploader=owner, data=ndjson(valid_log(1)), kind=Upload.Kind.NDJSON)
    UploadWorkCopy.drop(upload.pk)
    upload_process(upload_id=upload.pk)
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.ACCEPTED
    assert Match.objects.count() == 1


def test_a_rejected_document_and_a_failed_upload_keep_no_work_copy(send, owner):
    send(b"")
    upload = upload_create(uploader=owner, data=ndjson(valid_log(1)), kind=Upload.Kind.NDJSON)
    upload_fail(upload_id=upload.pk, reason="a bug")
    assert not UploadWorkCopy.objects.exists()


def test_players_are_unique_within_a_club(send):
    send(ndjson(valid_log(1), valid_log(2)), "two.ndjson")
    assert sorted(Player.objects.values_list("handle", flat=True)) == ["Giorgi", "Nino"]
    assert Seat.objects.count() == 4


def test_each_seat_keeps_its_matchs_time_as_written_or_none(send):
    # The player's list reads a player's matches by their seats' time (games.selectors).
    send(ndjson(valid_log(1), valid_log(2, played_at="2025-01-02"), valid_log(3, played_at="")))
    seats = Seat.objects.values_list("match__played_at", "played_at", "match__played_at_text")
    assert sorted((str(ours), str(theirs), text) for theirs, ours, text in seats) == [
        ("2025-01-02 00:00:00+00:00", "2025-01-02 00:00:00+00:00", "2025-01-02"),
        ("2025-01-02 00:00:00+00:00", "2025-01-02 00:00:00+00:00", "2025-01-02"),
        ("2026-11-20 15:05:00+00:00", "2026-11-20 15:05:00+00:00", "2026-11-20T19:05:00+04:00"),
        ("2026-11-20 15:05:00+00:00", "2026-11-20 15:05:00+00:00", "2026-11-20T19:05:00+04:00"),
        ("None", "None", ""),
        ("None", "None", ""),
    ]


def test_the_upload_form_club_overrides_the_club_of_the_log(send):
    club = Club.objects.get(slug="kutaisi")
    match = send(as_bytes(valid_log()), club=club).items.get().match
    assert match.club == club


def test_an_accepted_items_report_outlives_its_deleted_match(send, client, owner):
    upload = send(as_bytes(valid_log()))
    item = upload.items.get()
    assert item.report is None  # its match's report, kept once
    report = item.full_report
    assert report["hands"] and report["valid"]

    match_delete(match_id=item.match_id)
    item.refresh_from_db()
    assert item.match is None
    assert item.full_report == report
    client.force_login(owner)
    assert client.get(f"/api/v1/uploads/{upload.pk}/").json()["items"][0]["report"]["hands"]
    assert client.get(f"/uploads/{upload.pk}/").status_code == 200
