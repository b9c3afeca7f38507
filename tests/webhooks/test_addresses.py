"""Production settings (private addresses not allowed): an endpoint whose address resolves to
a loopback, private or link-local address is refused when registered, by its page and the
API; and one that resolves there later (registered when its name led elsewhere) gets
nothing: the attempt resolves again, refuses, and no connection is made to it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club
from games.tokens import token_create
from recorder.models import LiveMatch
from webhooks.addresses import AddressRefused
from webhooks.models import Delivery, Endpoint
from webhooks.services import attempt, endpoint_create, events_emit

from .receiver import Receiver

pytestmark = pytest.mark.django_db

REFUSED = [
    "http://localhost/hooks",  # a name that resolves to 127.0.0.1
    "http://127.0.0.1:8000/hooks",
    "http://10.1.2.3/hooks",
    "http://172.16.0.9/hooks",
    "http://192.168.1.1/hooks",
    "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata, link-local
    "http://[::1]/hooks",
    "http://[::ffff:127.0.0.1]/hooks",
    "http://0.0.0.0/hooks",
    "http://240.0.0.1/hooks",  # reserved
]


@pytest.fixture(autouse=True)
def production(settings):
    settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = False


@pytest.mark.parametrize("url", REFUSED)
def test_a_private_address_is_refused_at_registration(owner, url):
    club = Club.objects.get(slug="tbilisi-fives-club")
    with pytest.raises(AddressRefused):
        endpoint_create(actor=owner, club=club, url=url, events=["match.stored"])
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("url", ["http://localhost:9/", "http://10.0.0.1/", "http://169.254.1.1/"])
def test_the_api_and_the_page_refuse_it_in_words(owner, client, url):
    api = APIClient()
    _, key = token_create(user=owner, name="t", scopes=["read", "manage"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    answer = api.post(
        "/api/v1/clubs/tbilisi-fives-club/webhooks/",
        {"url": url, "events": ["match.stored"]},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "webhook-address"
    client.force_login(owner)
    page = client.post(
        "/clubs/tbilisi-fives-club/webhooks/", {"url": url, "events": ["match.stored"]}
    )
    assert page.status_code == 200 and "private or reserved network" in page.content.decode()
    assert not Endpoint.objects.exists()


def test_a_name_that_resolves_to_loopback_after_registration_gets_nothing(owner, settings):
    receiver = Receiver().start()
    try:
        club = Club.objects.get(slug="tbilisi-fives-club")
        # Registered while allowed (as if "localhost" then led to a public address)...
        settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = True
        url = receiver.url.replace("127.0.0.1", "localhost")
        made = endpoint_create(actor=owner, club=club, url=url, events=["live.started"])
        receiver.secrets.append(made.secret)
        settings.FIVES_WEBHOOKS_ALLOW_PRIVATE = False  # ...now it resolves to 127.0.0.1
        live = LiveMatch.objects.create(club=club, recorder=owner, record_id="r1", setup={})
        [made] = events_emit(type="live.started", ids=[live.pk])
        delivery = attempt(made)
        assert receiver.got == []  # 0 deliveries to a loopback address
        assert delivery.answer_status is None and delivery.answer.startswith("refused:")
        assert Delivery.objects.get().status == "pending"  # tried again later, refused again
    finally:
        receiver.stop()
