"""My uploads: a person's uploads with status and counts, filtered, with delete and re-run
where they may; club admins see and manage their club's. The audit trail of admin actions,
for the club's admins only."""

from __future__ import annotations

import pytest

from clubs.models import AuditEntry, Club
from games.models import Upload
from tests.archive.helpers import illegal_log
from tests.clubs.conftest import error_of, log, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def uploads(owner, member, outsider, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        good = send(member, log(1))
        bad = send(member, illegal_log() | {"club": "Tbilisi Fives Club"})
        elsewhere = send(owner, log(2, club="Moscow"))
    return good, bad, elsewhere


def test_my_uploads_lists_mine_with_status_and_counts(uploads, page_as):
    good, bad, elsewhere = uploads
    text = page_as("member").get("/uploads/").content.decode()
    assert f"/uploads/{good.pk}/" in text and f"/uploads/{bad.pk}/" in text
    assert f"/uploads/{elsewhere.pk}/" not in text
    rejected = page_as("member").get("/uploads/?status=rejected").content.decode()
    assert f"/uploads/{bad.pk}/" in rejected and f"/uploads/{good.pk}/" not in rejected


def test_a_club_admin_sees_the_clubs_uploads_an_outsider_none(uploads, page_as):
    good, _bad, elsewhere = uploads
    text = page_as("club_admin").get("/uploads/").content.decode()
    assert f"/uploads/{good.pk}/" in text and f"/uploads/{elsewhere.pk}/" not in text
    assert "Delete" in text
    assert f"/uploads/{good.pk}/" not in page_as("outsider").get("/uploads/").content.decode()
    assert page_as(None).get("/uploads/").status_code == 302


@pytest.mark.parametrize(
    ("persona", "expected"), [("outsider", 404), ("club_admin", 302), ("member", 302)]
)
def test_who_may_delete_an_upload_from_the_page(uploads, page_as, persona, expected):
    good = uploads[0]
    assert page_as(persona).post(f"/uploads/{good.pk}/delete/").status_code == expected
    assert Upload.objects.filter(pk=good.pk).exists() == (expected == 404)


def test_a_rerun_from_the_page(uploads, page_as, django_capture_on_commit_callbacks):
    bad = uploads[1]
    assert page_as("outsider").post(f"/uploads/{bad.pk}/rerun/").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        assert page_as("member").post(f"/uploads/{bad.pk}/rerun/").status_code == 302
    bad.refresh_from_db()
    assert bad.status == "rejected"


def test_admin_actions_are_in_the_audit_trail_for_admins_only(uploads, api_as, page_as, member):
    good = uploads[0]
    api_as("club_admin").delete(f"/api/v1/uploads/{good.pk}/")
    api_as("owner").delete(f"/api/v1/clubs/tbilisi-fives-club/members/{member.pk}/")
    trail = api_as("club_admin").get("/api/v1/clubs/tbilisi-fives-club/audit/").json()["results"]
    assert [(e["action"], e["actor"], e["subject"]) for e in trail[:2]] == [
        ("member-removed", "nino", "levan"),
        ("upload-deleted", "tamar", "levan"),
    ]
    assert AuditEntry.objects.filter(club=Club.objects.get(slug="tbilisi-fives-club")).count() >= 3
    page = page_as("owner").get("/clubs/tbilisi-fives-club/audit/").content.decode()
    assert "removed levan from the club" in page
    denied = api_as("member").get("/api/v1/clubs/tbilisi-fives-club/audit/")  # removed: outsider
    assert denied.status_code == 403 and error_of(denied)["code"] == "permission_denied"
    assert page_as("outsider").get("/clubs/tbilisi-fives-club/audit/").status_code == 403
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    assert api_as("outsider").get("/api/v1/clubs/tbilisi-fives-club/audit/").status_code == 404


def test_my_uploads_names_the_club_its_logs_went_to_and_offers_a_rerun_where_one_helps(
    uploads, page_as
):
    good, bad, _elsewhere = uploads
    assert good.club is None  # the log named its club; the upload itself named none
    page = page_as("member").get("/uploads/").content.decode()
    row_of = {
        pk: page.split(f'href="/uploads/{pk}/"')[1].split("</tr>")[0] for pk in (good.pk, bad.pk)
    }
    assert "<td>Tbilisi Fives Club</td>" in row_of[good.pk]
    assert "Run again" not in row_of[good.pk]  # every log accepted: nothing to look at again
    assert "Run again" in row_of[bad.pk]
    detail = page_as("member").get(f"/uploads/{good.pk}/").content.decode()
    assert "Run again" not in detail and "Delete" in detail


def test_an_upload_page_says_how_many_logs_were_in_the_archive_already(
    member, page_as, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send(member, log(3))
        again = send(member, log(3) | {"event": "sent again"})  # another text, the same id
    again.refresh_from_db()
    assert (again.accepted_count, again.items.get().status) == (1, "duplicate")
    page = page_as("member").get(f"/uploads/{again.pk}/").content.decode()
    assert "1 in all: 1 accepted, 0 rejected (1 of them already in the archive)" in page
