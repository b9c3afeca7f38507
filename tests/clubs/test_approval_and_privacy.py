"""A club may require approval: a member's match is stored but neither listed nor rated until
an admin accepts it. A private club's matches, players and ranking are for its members only:
one test per way in."""

from __future__ import annotations

import pytest

from clubs.models import Club
from games.models import Player
from games.services.matches import match_review
from replays.models import Rating, SeatResult
from tests.clubs.conftest import error_of, log, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def approving(owner):
    Club.objects.filter(slug="tbilisi-fives-club").update(requires_approval=True)


@pytest.fixture
def waiting(approving, member, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        upload = send(member, log(1))
    return upload.items.get().match


def test_a_members_match_waits_stored_but_not_listed_nor_rated(waiting, api_as, page_as):
    assert waiting.approval == "pending"
    assert SeatResult.objects.count() == 0 and Rating.objects.count() == 0
    assert api_as(None).get("/api/v1/matches/").json()["results"] == []
    assert api_as("outsider").get(f"/api/v1/matches/{waiting.pk}/").status_code == 404
    assert page_as(None).get(f"/matches/{waiting.pk}/").status_code == 404
    # its uploader and the club's admins see it
    assert api_as("member").get(f"/api/v1/matches/{waiting.pk}/").status_code == 200
    assert page_as("club_admin").get(f"/matches/{waiting.pk}/").status_code == 200


def test_an_admins_own_upload_counts_at_once(
    approving, club_admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = send(club_admin, log(2)).items.get().match
    assert match.approval == "approved" and SeatResult.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(("persona", "expected"), [("member", 403), ("outsider", 404), (None, 401)])
def test_only_admins_approve(waiting, api_as, persona, expected):
    response = api_as(persona).post(f"/api/v1/matches/{waiting.pk}/approve/")
    assert response.status_code == expected and "error" in response.json()
    assert api_as("member").get("/api/v1/clubs/tbilisi-fives-club/review/").status_code == 403


def test_an_approved_match_is_listed_and_rated(waiting, api_as, django_capture_on_commit_callbacks):
    queue = api_as("club_admin").get("/api/v1/clubs/tbilisi-fives-club/review/").json()["results"]
    assert [m["id"] for m in queue] == [waiting.pk]
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as("club_admin").post(f"/api/v1/matches/{waiting.pk}/approve/")
    assert response.status_code == 200 and response.json()["approval"] == "approved"
    assert [m["id"] for m in api_as(None).get("/api/v1/matches/").json()["results"]] == [waiting.pk]
    assert Rating.objects.filter(scope__club__slug="tbilisi-fives-club").count() == 2


def test_a_rejected_match_says_why_to_its_uploader(waiting, api_as, page_as):
    refused = api_as("owner").post(f"/api/v1/matches/{waiting.pk}/reject/", {}, format="json")
    assert refused.status_code == 409 and error_of(refused)["code"] == "reason"
    page_as("owner").post(
        f"/matches/{waiting.pk}/review/", {"decision": "reject", "reason": "Not <our> night"}
    )
    waiting.refresh_from_db()
    assert waiting.approval == "rejected"
    text = page_as("member").get(f"/uploads/{waiting.upload_id}/").content.decode()
    assert "Not &lt;our&gt; night" in text
    assert api_as(None).get("/api/v1/matches/").json()["results"] == []
    assert SeatResult.objects.count() == 0


# --- private clubs --------------------------------------------------------------------------


@pytest.fixture
def secret(owner, member, django_capture_on_commit_callbacks):
    """A match of the Tbilisi Fives Club, made private."""
    with django_capture_on_commit_callbacks(execute=True):
        match = send(owner, log(3, names=("Secret", "Agent"))).items.get().match
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    return match


def _player(secret):
    return Player.objects.get(handle="Secret").pk


PATHS = {
    "match list": lambda m: "/api/v1/matches/",
    "search by player": lambda m: f"/api/v1/matches/?player={_player(m)}",
    "export": lambda m: "/api/v1/matches/export",
    "match API": lambda m: f"/api/v1/matches/{m.pk}/",
    "hands API": lambda m: f"/api/v1/matches/{m.pk}/hands/",
    "replay API": lambda m: f"/api/v1/matches/{m.pk}/replay/",
    "player API": lambda m: f"/api/v1/players/{_player(m)}/",
    "player list API": lambda m: "/api/v1/players/",
    "player stats API": lambda m: f"/api/v1/players/{_player(m)}/stats/",
    "club API": lambda m: "/api/v1/clubs/tbilisi-fives-club/",
    "club list API": lambda m: "/api/v1/clubs/",
    "ranking API": lambda m: "/api/v1/clubs/tbilisi-fives-club/ranking/",
    "match list page": lambda m: "/",
    "search page": lambda m: f"/?player={_player(m)}",
    "match page": lambda m: f"/matches/{m.pk}/",
    "embed": lambda m: f"/embed/matches/{m.pk}/",
    "player page": lambda m: f"/players/{_player(m)}/",
    "club page": lambda m: "/clubs/tbilisi-fives-club/",
    "club list page": lambda m: "/clubs/",
    "ranking page": lambda m: "/clubs/tbilisi-fives-club/ranking/",
}


LISTS = {
    "match list",
    "search by player",
    "export",
    "player list API",
    "club list API",
    "match list page",
    "search page",
    "club list page",
}


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("persona", [None, "outsider"])
def test_a_private_clubs_match_never_leaks(secret, api_as, page_as, path, persona):
    url = PATHS[path](secret)
    client = api_as(persona) if "API" in path or url.startswith("/api/") else page_as(persona)
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == (200 if path in LISTS else 404)
    text = body.decode()
    assert "Secret" not in text and "Tbilisi Fives Club" not in text


@pytest.mark.parametrize("path", list(PATHS))
def test_its_members_see_it_everywhere(secret, api_as, page_as, path):
    url = PATHS[path](secret)
    client = api_as("member") if url.startswith("/api/") else page_as("member")
    response = client.get(url)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert any(word in body.decode() for word in ("Secret", "Tbilisi Fives Club", '"deal"'))


def test_handles_a_waiting_match_brought_are_for_the_clubs_admins_only(
    approving, owner, member, api_as, page_as, django_capture_on_commit_callbacks
):
    """Issue 25, item 8: anyone who could upload published names no admin had seen, on the
    club page, the player page, the players API and its statistics."""
    with django_capture_on_commit_callbacks(execute=True):
        upload = send(member, log(7, names=("Nino", "Unseen Handle")))
    waiting = upload.items.get().match
    assert waiting.approval == "pending"
    unseen = Player.objects.get(handle="Unseen Handle")
    for who in (None, "outsider"):
        assert (
            "Unseen Handle" not in page_as(who).get("/clubs/tbilisi-fives-club/").content.decode()
        )
        assert page_as(who).get(f"/players/{unseen.pk}/").status_code == 404
        api = api_as(who)
        handles = [p["handle"] for p in api.get("/api/v1/players/").json()["results"]]
        assert "Unseen Handle" not in handles
        assert api.get(f"/api/v1/players/{unseen.pk}/").status_code == 404
        assert api.get(f"/api/v1/players/{unseen.pk}/stats/").status_code == 404
        assert api.get("/players/names/?q=unseen").json() == {"players": []}
    # The club's admins see it (to approve it), and so does the member who uploaded it.
    assert page_as("club_admin").get(f"/players/{unseen.pk}/").status_code == 200
    assert api_as("member").get(f"/api/v1/players/{unseen.pk}/").status_code == 200
    # Approved, the handle is the club's like any other.
    with django_capture_on_commit_callbacks(execute=True):
        match_review(match=waiting, actor=owner, approve=True)
    assert page_as(None).get(f"/players/{unseen.pk}/").status_code == 200
