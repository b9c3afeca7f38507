"""Issue 36, item 9: copy buttons for an invitation link and a new token (Debian's chromium
on a phone, the clipboard read back), and a new club's language starting as the browser's."""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client

from clubs.models import Club
from clubs.services import invitation_create
from tests.competitions.test_events_browser import PHONE, signed_in
from tests.replays.test_replay_browser import browser  # noqa: F401 (a fixture)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "chosen"), [("ka", "ka"), ("ru-RU,ru;q=0.9", "ru"), ("fr", "en")]
)
def test_a_new_clubs_language_starts_as_the_browsers(owner, accept, chosen):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    client.force_login(owner)
    form = client.get("/clubs/new/").content.decode()
    selected = re.search(r'<select name="language"[^>]*>(.*?)</select>', form, re.S).group(1)
    assert re.findall(r'<option value="(\w+)" selected>', selected) == [chosen]


@pytest.mark.django_db(transaction=True)
def test_copy_buttons_copy_the_invitation_link_and_the_new_token(browser, live_server, owner):  # noqa: F811
    club = Club.objects.get(slug="tbilisi-fives-club")
    invitation = invitation_create(actor=owner, club=club)
    context = signed_in(browser, live_server, owner)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"/clubs/{club.slug}/manage/")
    button = page.locator(f"[data-copy='invitation-{invitation.pk}']")
    assert button.is_visible()
    button.click()
    page.wait_for_function("b => b.textContent === 'Copied'", arg=button.element_handle())
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server.url}{invitation.get_absolute_url()}"
    page.goto("/settings/tokens/")
    page.fill("input[name=name]", "scoreboard")
    page.click("form.token-form button[type=submit]")
    new_key = page.inner_text("#new-token")
    page.click("[data-copy='new-token']")
    page.wait_for_function(
        "() => document.querySelector('[data-copy=new-token]').textContent === 'Copied'"
    )
    assert page.evaluate("navigator.clipboard.readText()") == new_key
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    context.close()
