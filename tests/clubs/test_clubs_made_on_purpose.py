"""Clubs are made on purpose: a signed-in person creates one and owns it; a log lands only in
a club that exists and whose member sent it, else it is refused saying how to fix that."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership
from games.models import Match
from tests.archive.helpers import as_bytes, valid_log
from tests.clubs.conftest import error_of, log, send

pytestmark = pytest.mark.django_db


def test_a_signed_in_person_creates_a_club_and_owns_it(page_as, outsider):
    page = page_as("outsider")
    response = page.post(
        "/clubs/new/",
        {
            "name": "Batumi <Dominoes>",
            "slug": "batumi",
            "time_zone": "Asia/Tbilisi",
            "language": "ka",
            "default_ruleset": "muggins",
            "is_private": "on",
        },
    )
    club = Club.objects.get(slug="batumi")
    assert response.status_code == 302 and response["Location"] == "/clubs/batumi/"
    assert (club.time_zone, club.language, club.default_ruleset, club.is_private) == (
        "Asia/Tbilisi",
        "ka",
        "muggins",
        True,
    )
    assert club.role_of(outsider) == "owner"
    text = page.get("/clubs/batumi/").content.decode()
    assert "Batumi &lt;Dominoes&gt;" in text and "<Dominoes>" not in text


def test_a_club_is_made_as_typed_a_city_for_its_zone_its_address_in_lower_case(page_as):
    page = page_as("outsider")
    made = {"language": "en", "default_ruleset": "muggins"}
    for name, slug, typed, zone in (
        ("Kutaisi Two", "Kutaisi-Two", " tbilisi ", "Asia/Tbilisi"),
        ("Queens", "queens", "new york", "America/New_York"),
        ("Porteños", "portenos", "Buenos Aires", "America/Argentina/Buenos_Aires"),
    ):
        answer = page.post("/clubs/new/", {"name": name, "slug": slug, "time_zone": typed, **made})
        assert answer["Location"] == f"/clubs/{slug.lower()}/", name
        assert Club.objects.get(name=name).time_zone == zone
    refused = page.post(
        "/clubs/new/", {"name": "Nowhere", "slug": "nowhere", "time_zone": "Atlantis", **made}
    )
    assert "Not a time zone" in refused.content.decode()
    assert not Club.objects.filter(slug="nowhere").exists()
    # An address typed again in other capitals is the same address.
    again = page.post(
        "/clubs/new/", {"name": "Other", "slug": "KUTAISI-two", "time_zone": "UTC", **made}
    )
    assert "A club with that address exists already." in again.content.decode()


def test_someone_signed_out_cannot_create_a_club(page_as, api_as):
    assert page_as(None).get("/clubs/new/").status_code == 302  # to the sign-in page
    response = api_as(None).post("/api/v1/clubs/", {"name": "X", "slug": "x"}, format="json")
    assert response.status_code == 401 and error_of(response)["code"] == "not_authenticated"
    assert not Club.objects.filter(slug="x").exists()


def test_the_api_creates_a_club_and_refuses_a_name_taken(api_as, owner, outsider):
    api = api_as("outsider")
    made = api.post(
        "/api/v1/clubs/", {"name": "Batumi", "slug": "batumi", "is_private": True}, format="json"
    )
    assert made.status_code == 201
    assert made.json()["your_role"] == "owner" and made.json()["is_private"] is True
    again = api.post("/api/v1/clubs/", {"name": "Moscow", "slug": "moscow-2"}, format="json")
    assert again.status_code == 409 and error_of(again)["code"] == "club-exists"
    bad = api.post("/api/v1/clubs/", {"name": "Y", "slug": "y", "time_zone": "Mars"}, format="json")
    assert bad.status_code == 400 and "time_zone" in error_of(bad)["fields"]


def test_a_token_without_the_manage_scope_cannot_create_a_club(outsider):
    from tests.api.conftest import client_with

    response = client_with(outsider, ["read", "upload"]).post(
        "/api/v1/clubs/", {"name": "Z", "slug": "z"}, format="json"
    )
    assert response.status_code == 403 and error_of(response)["code"] == "permission_denied"


@pytest.mark.parametrize(
    ("club", "code", "words"),
    [
        ("Tbilisi Fives Clb", "club-unknown", "create the club first"),
        ("", "club-missing", "create a club first"),
    ],
)
def test_a_log_for_no_club_or_an_unknown_club_is_refused_and_makes_no_club(
    owner, club, code, words
):
    before = Club.objects.count()
    upload = send(owner, log(1, club=club))
    [item] = upload.items.all()
    assert item.status == "rejected"
    [error] = item.report["errors"]
    assert error["code"] == code and words in error["message"]
    assert Club.objects.count() == before and Match.objects.count() == 0


def test_a_log_for_a_club_the_uploader_is_not_in_is_refused_saying_how_to_join(outsider, owner):
    upload = send(outsider, log(1))
    [error] = upload.items.get().report["errors"]
    assert error["code"] == "club-not-member"
    assert "invitation" in error["message"] and "ask to join" in error["message"]
    assert Match.objects.count() == 0


def test_a_private_club_is_answered_to_an_outsider_as_if_it_did_not_exist(outsider, owner):
    """Issue 25, item 7: an outsider's log naming a private club got club-not-member while an
    unknown name got club-unknown, so anyone could learn which private clubs exist."""
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    private = send(outsider, log(1)).items.get().report["errors"]
    unknown = send(outsider, log(2, club="No Such Club")).items.get().report["errors"]
    assert [e["code"] for e in private] == [e["code"] for e in unknown] == ["club-unknown"]
    assert private[0]["message"] == unknown[0]["message"].replace(
        "No Such Club", "Tbilisi Fives Club"
    )
    assert Match.objects.count() == 0


def test_the_refusal_shows_on_the_upload_page_in_words(outsider, owner, page_as):
    upload = send(outsider, log(1))
    text = page_as("outsider").get(f"/uploads/{upload.pk}/").content.decode()
    assert "Not a member of the club" in text and "Tbilisi Fives Club" in text


def test_once_a_member_the_refused_upload_runs_again_and_is_stored(
    outsider, owner, django_capture_on_commit_callbacks, api_as
):
    upload = send(outsider, log(1))
    Membership.objects.create(club=Club.objects.get(slug="tbilisi-fives-club"), user=outsider)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as("outsider").post(f"/api/v1/uploads/{upload.pk}/rerun/")
    assert response.status_code == 202
    upload.refresh_from_db()
    assert upload.status == "accepted" and Match.objects.count() == 1


def test_the_api_upload_takes_one_of_your_clubs_by_slug(
    api_as, owner, member, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as("member").post(
            "/api/v1/uploads/?club=tbilisi-fives-club",
            as_bytes(valid_log(1, club="Moscow")),
            content_type="application/json",
        )
    assert response.status_code == 202
    assert Match.objects.get().club.slug == "tbilisi-fives-club"  # the chosen club wins
    refused = api_as("member").post(
        "/api/v1/uploads/?club=moscow", as_bytes(valid_log(2)), content_type="application/json"
    )
    assert refused.status_code == 400
    assert "invitation" in error_of(refused)["fields"]["club"][0]


def test_the_upload_form_offers_only_your_clubs(page_as, owner, member):
    text = page_as("member").get("/uploads/new/").content.decode()
    assert "Tbilisi Fives Club" in text and "Moscow" not in text
    response = page_as("member").post(
        "/uploads/new/",
        {"text": "{}", "club": Club.objects.get(slug="moscow").pk},
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
