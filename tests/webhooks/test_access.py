"""Only a club's owner and admins see and manage its webhooks, on the page and through the
API: its members and other people are refused (403 for a public club, 404 for a private
one, which they may not know of), the signed out sent to sign in (the page) or refused (the
API). The owner's and an admin's whole round: register (the secret said once), list, change,
a new secret, the log, send again, delete."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from clubs.services import club_update
from games.tokens import token_create
from webhooks.models import Delivery, Endpoint
from webhooks.services import endpoint_create

pytestmark = pytest.mark.django_db

PAGE = "/clubs/tbilisi-fives-club/webhooks/"
API = "/api/v1/clubs/tbilisi-fives-club/webhooks/"
URL = "http://93.184.215.14/hooks"  # a public address: not reached, nothing is sent here


@pytest.fixture(autouse=True)
def no_network(settings):
    settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = False


def api_of(user) -> APIClient:
    client = APIClient()
    if user is not None:
        _, key = token_create(user=user, name="t", scopes=["read", "manage"])
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def page_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def made(owner):
    club = Club.objects.get(slug="tbilisi-fives-club")
    endpoint = endpoint_create(actor=owner, club=club, url=URL, events=["match.stored"])
    Delivery.objects.create(
        endpoint=endpoint, message_id="msg_1", event="match.stored", body='{"type": "x"}'
    )
    return endpoint


@pytest.fixture
def people(owner, club_admin, member, outsider):
    return {"owner": owner, "admin": club_admin, "member": member, "other": outsider, "none": None}


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize(
    ("who", "page", "api"),
    [
        ("owner", 200, 200),
        ("admin", 200, 200),
        ("member", 403, 403),
        ("other", 403, 403),
        ("none", 302, 401),
    ],
)
def test_who_sees_the_webhooks(people, made, owner, who, page, api, private):
    if private:
        club_update(actor=owner, club=made.club, is_private=True)
        page, api = {"other": (404, 404)}.get(who, (page, api))
    user = people[who]
    detail = f"{PAGE}{made.pk}/"
    for path in (PAGE, detail):
        answer = page_of(user).get(path)
        assert answer.status_code == page, path
        assert (URL in answer.content.decode()) is (page == 200)
    for path in (API, f"{API}{made.pk}/", f"{API}{made.pk}/deliveries/"):
        answer = api_of(user).get(path)
        assert answer.status_code in (api, 403 if api == 401 else api), path
        assert (made.secret in answer.content.decode()) is False  # never said again


@pytest.mark.parametrize("who", ["member", "other", "none"])
def test_no_one_else_manages_them(people, made, who):
    user = people[who]
    api = api_of(user)
    writes = [
        api.post(API, {"url": URL, "events": ["match.stored"]}, format="json"),
        api.patch(f"{API}{made.pk}/", {"active": False}, format="json"),
        api.post(f"{API}{made.pk}/secret/"),
        api.post(f"{API}{made.pk}/deliveries/{made.deliveries.get().pk}/resend/"),
        api.delete(f"{API}{made.pk}/"),
    ]
    assert all(answer.status_code in (401, 403) for answer in writes)
    page = page_of(user)
    page.post(PAGE, {"url": URL, "events": ["match.stored"]})
    page.post(f"{PAGE}{made.pk}/change/", {"action": "delete"})
    page.post(f"{PAGE}{made.pk}/change/", {"action": "roll"})
    assert list(Endpoint.objects.values_list("pk", "secret", "active")) == [
        (made.pk, made.secret, True)
    ]


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_an_admin_manages_them_through_the_api(people, who, django_capture_on_commit_callbacks):
    api = api_of(people[who])
    answer = api.post(API, {"url": URL, "events": ["match.stored", "live.started"]}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert body["secret"].startswith("whsec_") and body["events"] == [
        "match.stored",
        "live.started",
    ]
    pk = body["id"]
    sent = Delivery.objects.create(
        endpoint_id=pk,
        message_id="msg_2",
        event="match.stored",
        body='{"type": "x"}',
        status="failed",
        attempts=11,
    )
    again = api.post(f"{API}{pk}/deliveries/{sent.pk}/resend/")
    assert again.status_code == 202 and again.json()["status"] == "pending"
    assert again.json()["webhook_id"] == "msg_2"  # the same id, sent again
    [logged] = api.get(f"{API}{pk}/deliveries/").json()["results"]
    assert logged["attempts"] == 11 and logged["payload"] == {"type": "x"}
    [listed] = api.get(API).json()["results"]
    assert listed["url"] == URL and "secret" not in listed
    changed = api.patch(
        f"{API}{pk}/", {"events": ["fixture.confirmed"], "active": False}, format="json"
    )
    assert changed.json()["events"] == ["fixture.confirmed"] and changed.json()["active"] is False
    rolled = api.post(f"{API}{pk}/secret/").json()
    assert rolled["secret"] != body["secret"] and rolled["previous_until"]
    bad = api.post(API, {"url": URL, "events": ["match.eaten"]}, format="json")
    assert bad.status_code == 400
    assert api.delete(f"{API}{pk}/").status_code == 204
    assert not Endpoint.objects.exists()
    trail = api.get("/api/v1/clubs/tbilisi-fives-club/audit/").json()["results"]
    said = [entry for entry in trail if entry["action"].startswith("webhook-")]
    assert [entry["action"] for entry in said] == [
        "webhook-deleted",
        "webhook-secret",
        "webhook-changed",
        "webhook-created",
    ]
    assert all(entry["detail"]["url"] == URL for entry in said)


def test_an_admin_manages_them_on_the_page(club_admin, owner):
    page = page_of(club_admin)
    answer = page.post(PAGE, {"url": URL, "events": ["match.stored"]})
    endpoint = Endpoint.objects.get()
    assert endpoint.secret in answer.content.decode()  # said once, here
    assert endpoint.secret not in page.get(PAGE).content.decode()
    assert endpoint.secret not in page.get(f"{PAGE}{endpoint.pk}/").content.decode()
    page.post(f"{PAGE}{endpoint.pk}/change/", {"action": "events", "events": ["live.finished"]})
    page.post(f"{PAGE}{endpoint.pk}/change/", {"action": "off"})
    endpoint.refresh_from_db()
    assert endpoint.events == ["live.finished"] and not endpoint.active
    rolled = page.post(f"{PAGE}{endpoint.pk}/change/", {"action": "roll"})
    new = Endpoint.objects.get().secret
    assert new != endpoint.secret and new in rolled.content.decode()
    failed = Delivery.objects.create(
        endpoint=endpoint, message_id="msg_3", event="live.finished", body="{}", status="failed"
    )
    page.post(f"{PAGE}{endpoint.pk}/change/", {"action": "on"})
    log = page.get(f"{PAGE}{endpoint.pk}/").content.decode()
    assert "msg_3" in log and "Send again" in log
    page.post(f"{PAGE}{endpoint.pk}/deliveries/{failed.pk}/resend/")
    failed.refresh_from_db()
    assert failed.status == "pending" and failed.message_id == "msg_3"
    settings_page = page.get("/clubs/tbilisi-fives-club/settings/").content.decode()
    assert PAGE in settings_page
    page.post(f"{PAGE}{endpoint.pk}/change/", {"action": "delete"})
    assert not Endpoint.objects.exists()
