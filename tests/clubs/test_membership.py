"""Membership and roles: invitation links, join requests, leaving, roles, removing, handing
the ownership over; what each persona may do, in pages and in the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import Club, Invitation, JoinRequest, Membership
from tests.clubs.conftest import error_of

pytestmark = pytest.mark.django_db
CLUB = "/api/v1/clubs/tbilisi-fives-club"


@pytest.fixture
def club(owner):
    return Club.objects.get(slug="tbilisi-fives-club")


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("owner", 201), ("club_admin", 201), ("member", 403), ("outsider", 403), (None, 401)],
)
def test_owner_and_admins_make_invitation_links(
    api_as, club, club_admin, member, persona, expected
):
    response = api_as(persona).post(
        f"{CLUB}/invitations/", {"days": 3, "max_uses": 2}, format="json"
    )
    assert response.status_code == expected
    if expected == 201:
        assert response.json()["link"].endswith(f"/join/{response.json()['token']}/")
    else:
        assert error_of(response)["code"] in ("permission_denied", "not_authenticated")


def test_an_invitation_link_lets_people_join_until_used_up(
    api_as, page_as, club, outsider, django_user_model
):
    link = api_as("owner").post(f"{CLUB}/invitations/", {"max_uses": 1}, format="json").json()
    page = page_as("outsider")
    assert "Join the club" in page.get(f"/join/{link['token']}/").content.decode()
    assert page.post(f"/join/{link['token']}/").status_code == 302
    assert club.role_of(outsider) == "member"
    late = django_user_model.objects.create_user("late", password="a-long-password-9")
    from tests.api.conftest import client_with

    refused = client_with(late, ["manage"]).post(f"/api/v1/invitations/{link['token']}/accept/")
    assert refused.status_code == 409 and error_of(refused)["code"] == "invitation-unusable"
    assert not club.is_member(late)


def test_an_expired_or_revoked_link_is_refused(api_as, club, outsider):
    link = api_as("owner").post(f"{CLUB}/invitations/", {}, format="json").json()
    Invitation.objects.filter(pk=link["id"]).update(expires_at=timezone.now() - timedelta(1))
    response = api_as("outsider").post(f"/api/v1/invitations/{link['token']}/accept/")
    assert response.status_code == 409
    other = api_as("owner").post(f"{CLUB}/invitations/", {}, format="json").json()
    assert api_as("member").delete(f"{CLUB}/invitations/{other['id']}/").status_code == 403
    assert api_as("club_admin").delete(f"{CLUB}/invitations/{other['id']}/").status_code == 204
    assert (
        api_as("outsider").post(f"/api/v1/invitations/{other['token']}/accept/").status_code == 409
    )
    assert not club.is_member(outsider)


def test_a_join_request_is_accepted_by_an_admin_and_not_by_a_member(
    api_as, club, club_admin, member, outsider
):
    asked = api_as("outsider").post(
        f"{CLUB}/join-requests/", {"message": "<b>hi</b>"}, format="json"
    )
    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    pk = asked.json()["id"]
    assert api_as("member").get(f"{CLUB}/join-requests/").status_code == 403
    assert api_as("member").post(f"{CLUB}/join-requests/{pk}/accept/").status_code == 403
    assert api_as(None).post(f"{CLUB}/join-requests/", {}, format="json").status_code == 401
    listed = api_as("club_admin").get(f"{CLUB}/join-requests/").json()["results"]
    assert [r["user"] for r in listed] == ["giorgi"]
    accepted = api_as("club_admin").post(f"{CLUB}/join-requests/{pk}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert club.role_of(outsider) == "member"
    again = api_as("owner").post(f"{CLUB}/join-requests/{pk}/decline/")
    assert again.status_code == 409 and error_of(again)["code"] == "already-decided"


def test_join_requests_on_the_pages(page_as, club, outsider):
    page_as("outsider").post("/clubs/tbilisi-fives-club/join/", {"message": "<script>x</script>"})
    request = JoinRequest.objects.get(user=outsider)
    manage = page_as("owner").get("/clubs/tbilisi-fives-club/manage/").content.decode()
    assert "&lt;script&gt;x&lt;/script&gt;" in manage and "<script>x" not in manage
    assert page_as("member").get("/clubs/tbilisi-fives-club/manage/").status_code == 403
    assert page_as("outsider").get("/clubs/tbilisi-fives-club/manage/").status_code == 403
    assert page_as(None).get("/clubs/tbilisi-fives-club/manage/").status_code == 302
    page_as("owner").post(
        f"/clubs/tbilisi-fives-club/requests/{request.pk}/", {"decision": "decline"}
    )
    request.refresh_from_db()
    assert request.status == "declined" and not club.is_member(outsider)


def test_members_see_the_member_list_and_outsiders_do_not(api_as, club, club_admin, member):
    listed = api_as("member").get(f"{CLUB}/members/").json()["results"]
    assert {(m["user"], m["role"]) for m in listed} == {
        ("nino", "owner"),
        ("tamar", "admin"),
        ("levan", "member"),
    }
    assert api_as("outsider").get(f"{CLUB}/members/").status_code == 403
    assert api_as(None).get(f"{CLUB}/members/").status_code == 401


def test_a_member_leaves_and_the_owner_cannot_before_handing_over(api_as, club, member, owner):
    assert api_as("member").post(f"{CLUB}/leave/").status_code == 204
    assert not club.is_member(member)
    refused = api_as("owner").post(f"{CLUB}/leave/")
    assert refused.status_code == 409 and "hand the ownership over" in error_of(refused)["message"]


def test_only_the_owner_changes_roles_and_hands_the_ownership_over(
    api_as, club, owner, club_admin, member
):
    path = f"{CLUB}/members/{member.pk}/"
    assert api_as("club_admin").patch(path, {"role": "admin"}, format="json").status_code == 403
    assert (
        api_as("member")
        .post(f"{CLUB}/transfer/", {"user_id": member.pk}, format="json")
        .status_code
        == 403
    )
    assert api_as("owner").patch(path, {"role": "admin"}, format="json").json()["role"] == "admin"
    handed = api_as("owner").post(f"{CLUB}/transfer/", {"user_id": member.pk}, format="json")
    assert handed.status_code == 200
    assert (club.role_of(member), club.role_of(owner)) == ("owner", "admin")
    assert api_as("owner").post(f"{CLUB}/leave/").status_code == 204  # an admin now


def test_admins_remove_members_only_the_owner_removes_admins_nobody_the_owner(
    api_as, club, owner, club_admin, member, outsider
):
    assert api_as("member").delete(f"{CLUB}/members/{club_admin.pk}/").status_code == 403
    assert api_as("club_admin").delete(f"{CLUB}/members/{owner.pk}/").status_code == 409
    second = Membership.objects.create(club=club, user=outsider, role="admin")
    assert api_as("club_admin").delete(f"{CLUB}/members/{outsider.pk}/").status_code == 403
    assert api_as("club_admin").delete(f"{CLUB}/members/{member.pk}/").status_code == 204
    assert api_as("owner").delete(f"{CLUB}/members/{outsider.pk}/").status_code == 204
    assert not Membership.objects.filter(pk=second.pk).exists()


def test_the_owner_and_admins_change_the_settings_members_do_not(api_as, club, club_admin, member):
    response = api_as("club_admin").patch(CLUB + "/", {"requires_approval": True}, format="json")
    assert response.status_code == 200 and response.json()["requires_approval"] is True
    assert (
        api_as("member").patch(CLUB + "/", {"is_private": True}, format="json").status_code == 403
    )
    assert api_as(None).patch(CLUB + "/", {"is_private": True}, format="json").status_code == 401
