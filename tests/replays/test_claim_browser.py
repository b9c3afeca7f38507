"""Claiming oneself on a phone (390x844, Debian's chromium): a member of the club opens their
handle's page, taps "This is me" and is back on the same page, which says the claim waits for
a club admin and that the practice opens once it is confirmed; nothing is wider than the screen
and the button is big enough for a thumb (screenshots in test-artifacts/, looked at)."""

from __future__ import annotations

import pathlib

import pytest

from games.models import HandleClaim, Player
from tests.replays.helpers import store_match
from tests.replays.test_analysis_browser import PHONE, signed_in

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"


def test_a_member_claims_their_handle_from_its_page_on_a_phone(browser, live_server, owner, member):
    from playwright.sync_api import expect

    store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    player = Player.objects.get(handle="Levan")
    context, page, errors = signed_in(browser, live_server, member, PHONE)
    try:
        address = f"{live_server.url}/players/{player.pk}/"
        page.goto(address)
        button = page.locator("#claim-button")
        expect(button).to_have_text("This is me")
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "claim-phone-before.png"), full_page=True)
        button.tap()
        expect(page.locator("#claim-pending")).to_be_visible()
        assert page.url == address
        expect(page.locator("body")).to_contain_text("Your claim is sent to the club's admins.")
        expect(page.locator("#claim-pending")).to_contain_text("your practice opens here")
        expect(page.locator("#claim-button")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(ARTIFACTS / "claim-phone-after.png"), full_page=True)
        assert HandleClaim.objects.get(player=player, user=member).status == "pending"
        assert errors == []
    finally:
        context.close()
