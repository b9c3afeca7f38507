"""The webhooks pages in Russian and Georgian: every message translated (no English message of
the catalogue shown, as the crawl checks in a browser), no Mtavruli letter in Georgian, the
club's name never declined."""

from __future__ import annotations

import html
from html.parser import HTMLParser

import pytest
from django.test import Client

from clubs.models import Club
from tests.crawl.browse import english_shown
from tests.test_georgian import mtavruli_in
from webhooks.models import Delivery, Endpoint
from webhooks.sending import secret_new

pytestmark = pytest.mark.django_db

URL = "https://results.example.org/fives"


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data) -> None:
        if not self.hidden and data.strip():
            self.texts.append(data)


def texts_of(content: str) -> list[str]:
    parser = Texts()
    parser.feed(content)
    return parser.texts


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_the_pages_speak_the_readers_language(owner, language):
    club = Club.objects.get(slug="tbilisi-fives-club")
    endpoint = Endpoint.objects.create(
        club=club, url=URL, events=["match.stored"], secret=secret_new(), failing_since=None
    )
    for status, answer_status in (("delivered", 204), ("pending", 503), ("failed", None)):
        Delivery.objects.create(
            endpoint=endpoint,
            message_id=f"msg_{status}",
            event="match.stored",
            body="{}",
            status=status,
            answer_status=answer_status,
        )
    client = Client()
    client.force_login(owner)
    # (The language menu names each language in its own, marked so: the crawl skips it.)
    names = (URL, club.name, "match.stored", "owner", "nino", "English")
    for path in (
        f"/clubs/{club.slug}/webhooks/",
        f"/clubs/{club.slug}/webhooks/{endpoint.pk}/",
        f"/clubs/{club.slug}/settings/",
    ):
        answer = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200 and answer["Content-Language"] == language
        content = html.unescape(answer.content.decode())
        assert english_shown(texts_of(content), language, names) == [], path
        if language == "ka":
            assert mtavruli_in(content) == [], path
