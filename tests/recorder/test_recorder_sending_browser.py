"""What a phone is told of its matches, in a real browser at a phone's size: the banner with
the stored match's link after a send (from the queue too), the matches sent from this phone
on the start screen, a refusal said with what to do, and a match abandoned in one confirmed
action, kept as a draft until the next match starts."""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client

from clubs.models import Membership
from games.models import Match, Upload

from .helpers import PHONE, Recorder, quiet
from .test_live_browser import short_match
from .test_recorder_browser import (
    ARTIFACTS,
    MODEL_BACKEND,
    browser,  # noqa: F401 (the fixture)
)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def phone(browser, live_server, owner, settings):  # noqa: F811 (the fixture)
    settings.FIVES_LIVE_STREAMS = False
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    yield context
    quiet(context)
    context.close()


def recorder_page(context) -> Recorder:
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto("/record/")
    return Recorder(page, expect)


def test_a_sent_match_shows_its_link_and_is_listed_on_the_start_screen(phone, owner):
    doc = short_match()
    recorder = recorder_page(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.record(doc)
    phone.set_offline(True)  # saved offline: sent from the queue when the line is back
    recorder.tap("#save")
    expect(page.locator("body[data-outbox='1']")).to_have_count(1)
    phone.set_offline(False)
    banner = page.locator("#banner")
    expect(banner).to_be_visible(timeout=20000)
    match = Match.objects.get()
    expect(banner).to_have_text(f"Stored in the archive: match {match.pk} — open")
    expect(banner.get_by_role("link")).to_have_attribute("href", f"/matches/{match.pk}/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "recorder-sent-banner.png"))
    recorder.tap("#new-match")
    sent = page.locator("#sent-list li")
    expect(sent).to_have_count(1)
    expect(sent.first).to_contain_text(f"Match {match.pk}: Nino – Giorgi")
    page.screenshot(path=str(ARTIFACTS / "recorder-sent-list.png"))
    # Opened again: the list is the phone's.
    page.reload()
    expect(page.locator("#sent-list li")).to_have_count(1)


def test_a_refused_match_says_why_and_what_to_do(phone, owner):
    doc = short_match()
    recorder = recorder_page(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    phone.set_offline(True)
    recorder.record(doc)
    recorder.tap("#save")
    # Nino hands the club over and leaves it while the match waits in the phone.
    club = Membership.objects.get(user=owner, club__slug="tbilisi-fives-club").club
    Membership.objects.filter(user=owner, club=club).delete()
    phone.set_offline(False)
    banner = page.locator("#banner.refused")
    expect(banner).to_be_visible(timeout=20000)
    expect(banner).to_contain_text("You are not a member of this club.")
    expect(banner).to_contain_text("join the club")
    upload = Upload.objects.get()
    expect(banner.get_by_role("link")).to_have_attribute("href", f"/uploads/{upload.pk}/")
    expect(page.locator("body[data-outbox='0']")).to_have_count(1)  # not sent again and again
    page.screenshot(path=str(ARTIFACTS / "recorder-refused-banner.png"))


def test_abandon_in_one_confirmed_action_kept_as_a_draft_until_the_next_match(phone):
    doc = short_match()
    recorder = recorder_page(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    for move in doc["hands"][0]["moves"][:3]:
        recorder.move(move)
    recorder.tap("#abandon")
    expect(page.locator("#abandon-confirm")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "recorder-abandon-confirm.png"))
    recorder.tap("#abandon-no")  # kept playing: nothing changed
    expect(page.locator("#table")).to_be_visible()
    recorder.tap("#abandon")
    recorder.tap("#abandon-yes")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#draft-text")).to_contain_text("Nino – Giorgi, 3 steps")
    recorder.tap("#draft-resume")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#picker [data-tile]:disabled")).to_have_count(3)  # its tiles laid
    recorder.tap("#abandon")
    recorder.tap("#abandon-yes")
    # A new match drops the draft.
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.tap("#abandon")
    recorder.tap("#abandon-yes")
    expect(page.locator("#draft-text")).to_contain_text(re.compile(r"0 steps"))
