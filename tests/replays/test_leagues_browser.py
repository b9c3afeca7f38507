"""Two captains on phones (390x844, Debian's chromium): the home captain chooses a fixture's
legs among the day's matches and submits them; the away captain reads them and confirms; the
league's table then counts the fixture. The pages never scroll sideways (screenshots in
test-artifacts/, looked at)."""

from __future__ import annotations

import pytest

from tests.replays.test_events_browser import ARTIFACTS, fits, signed_in
from tests.replays.test_leagues import match_day, people  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_captain_submits_a_fixture_and_the_other_confirms_on_a_phone(
    browser, live_server, request
):
    fixture, singles, pairs = request.getfixturevalue("match_day")
    who = request.getfixturevalue("people")
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    ARTIFACTS.mkdir(exist_ok=True)
    home = signed_in(browser, live_server, who["levan"])
    page = home.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"/leagues/{fixture.league_id}/")
        page.get_by_role("link", name="Tbilisi v Moscow").click()
        page.wait_for_url(f"**{where}")
        page.get_by_label("Leg 1 (singles)").select_option(str(singles.pk))
        page.get_by_label("Leg 2 (pairs)").select_option(str(pairs.pk))
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-submit-phone.png"), full_page=True)
        page.get_by_role("button", name="Submit the legs").click()
        page.wait_for_url(f"**{where}")
        assert page.locator("#fixture-status").inner_text() == "awaiting confirmation"
        assert page.locator(".league-legs li").count() == 2
        assert page.get_by_role("button", name="Confirm the legs").count() == 0
    finally:
        home.close()
    away = signed_in(browser, live_server, who["sopho"])
    page = away.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(where)
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-confirm-phone.png"), full_page=True)
        page.get_by_role("button", name="Confirm the legs").click()
        page.wait_for_url(f"**{where}")
        assert page.locator("#fixture-status").inner_text() == "confirmed"
        score = page.locator("#fixture-score").inner_text()
        page.get_by_role("link", name="City league").click()
        rows = page.locator("#league-table tbody tr")
        assert rows.count() == 2
        assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(2)] == ["1", "1"]
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-table-phone.png"), full_page=True)
    finally:
        away.close()
    home_legs, away_legs = (int(n) for n in score.split("–"))
    assert home_legs + away_legs <= 2
    assert errors == []
