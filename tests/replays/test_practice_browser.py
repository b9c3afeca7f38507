"""The practice drill on a phone (390x844, chromium) in English and Georgian: the player
opens it from their page, taps a play and reads the verdict, then taps on to the next
position; nothing is wider than the screen and every button is big enough for a thumb
(screenshots in /tmp/lane-b/ and test-artifacts/, looked at)."""

from __future__ import annotations

import pathlib

import pytest

from games.models import Player
from replays import analysis as service
from replays.models import PracticeAttempt
from tests.replays.helpers import store_match
from tests.replays.test_analysis_browser import PHONE, signed_in

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
SHOTS = pathlib.Path("/tmp/lane-b")


def shoot(page, name: str) -> None:
    for folder in (SHOTS, ARTIFACTS):
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / name), full_page=True)


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("language", ["en", "ka"])
def test_a_player_taps_a_play_on_a_phone_and_reads_the_verdict(
    browser, live_server, owner, member, language
):
    from playwright.sync_api import expect

    match = store_match(owner, ["Levan", "Nino"], seed=2, played_at="2026-05-01T19:00:00Z")
    service.analysis_request(match=match, user=member)  # runs in-process (no broker)
    player = Player.objects.get(handle="Levan")
    player.user = member
    player.save()
    context, page, errors = signed_in(browser, live_server, member, PHONE, language)
    try:
        page.goto(f"{live_server.url}/players/{player.pk}/")
        page.locator("#practice-link a").tap()
        expect(page.locator("#practice-choices")).to_be_visible()
        fits(page)
        shoot(page, f"practice-{language}-position.png")
        buttons = page.locator("#practice-choices button")
        assert buttons.count() >= 2
        for index in range(buttons.count()):
            box = buttons.nth(index).bounding_box()
            assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
        # The tiles and the table are on the first screen, above the choices.
        assert page.locator(".practice-hand").bounding_box()["y"] < 844
        shown = page.locator("#practice").get_attribute("data-position")
        buttons.first.tap()
        verdict = page.locator("#verdict")
        expect(verdict).to_be_visible()
        expect(verdict.locator("a", has_text="")).not_to_have_count(0)
        assert f"/matches/{match.pk}/#h" in verdict.locator("a").first.get_attribute("href")
        fits(page)
        shoot(page, f"practice-{language}-verdict.png")
        assert PracticeAttempt.objects.filter(user=member).count() == 1
        page.locator("#practice-next").tap()
        expect(page.locator("#practice-choices")).to_be_visible()
        assert page.locator("#practice").get_attribute("data-position") != shown
        assert errors == []
    finally:
        context.close()
