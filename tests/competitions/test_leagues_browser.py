"""Two captains on phones (390x844, Debian's chromium): the home captain chooses a fixture's
legs among the day's matches and submits them; the away captain reads them and confirms; the
league's table then counts the fixture. The pages never scroll sideways (screenshots in
test-artifacts/, looked at)."""

from __future__ import annotations

import pytest

from tests.competitions.test_events_browser import ARTIFACTS, fits, signed_in
from tests.competitions.test_leagues import match_day, people  # noqa: F401 (fixtures)

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
        page.wait_for_url("**/leagues/*/", wait_until="load")  # all of it, not its first bytes
        rows = page.locator("#league-table tbody tr")
        assert rows.count() == 2
        assert [rows.nth(i).locator("td").nth(3).inner_text() for i in range(2)] == ["1", "1"]
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-table-phone.png"), full_page=True)
    finally:
        away.close()
    home_legs, away_legs = (int(n) for n in score.split("–"))
    assert home_legs + away_legs <= 2
    assert errors == []


def test_the_organiser_changes_a_team_resets_and_moves_a_fixture_on_a_phone(
    browser, live_server, request
):
    from competitions.league_results import fixture_confirm, fixture_submit

    fixture, singles, pairs = request.getfixturevalue("match_day")
    who = request.getfixturevalue("people")
    fixture_submit(actor=who["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    fixture_confirm(actor=who["sopho"], fixture=fixture)
    league = f"/leagues/{fixture.league_id}/"
    where = f"{league}fixtures/{fixture.pk}/"
    ARTIFACTS.mkdir(exist_ok=True)
    context = signed_in(browser, live_server, who["giorgi"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        # The team: a new name, its roster and captain as they were.
        page.goto(league)
        page.get_by_role("link", name="Change or delete Tbilisi").click()
        assert page.locator("h1").inner_text() == "Change the team Tbilisi"
        assert page.get_by_label("Nino", exact=True).is_checked()
        # A captain who claimed no handle, by username (the organiser's form only).
        assert page.get_by_label("levan (no handle claimed)", exact=True).is_checked()
        page.get_by_label("Name").fill("Tbilisi Lions")
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-team-edit-phone.png"), full_page=True)
        page.get_by_role("button", name="Save the team").click()
        page.wait_for_url(f"**{league}")
        assert page.locator(".league-team h3").all_inner_texts() == [
            "Moscow Moscow",
            "Tbilisi Lions Tbilisi Fives Club",
        ]
        played = page.locator("#league-table tbody tr td:nth-child(4)").all_inner_texts()
        assert played == ["1", "1"]

        # The fixture, confirmed: kept from deletion, reset to be played, then moved a week.
        page.goto(where)
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-fixture-reset-phone.png"), full_page=True)
        page.get_by_role("button", name="Reset the fixture").click()
        page.wait_for_url(f"**{where}")
        assert page.locator("#fixture-status").inner_text() == "to play"
        assert page.locator(".league-legs li").count() == 0
        page.get_by_role("link", name="Change or delete the fixture").click()
        page.get_by_label("Day").fill("2026-10-10")
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-fixture-edit-phone.png"), full_page=True)
        page.get_by_role("button", name="Save the fixture").click()
        page.wait_for_url(f"**{where}")
        assert "2026-10-10" in page.locator("main p").first.inner_text()
        page.goto(league)
        played = page.locator("#league-table tbody tr td:nth-child(4)").all_inner_texts()
        assert played == ["0", "0"]
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-after-reset-phone.png"), full_page=True)

        # The league itself goes only with its box ticked.
        page.get_by_role("link", name="Change or delete", exact=True).click()
        assert page.locator("h1").inner_text() == "Change the league City league"
        assert page.get_by_label("Name").input_value() == "City league"
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "league-edit-phone.png"), full_page=True)
        page.get_by_label("Yes, delete the league, its teams and its fixtures.").check()
        page.get_by_role("button", name="Delete the league").click()
        page.wait_for_url("**/leagues/")
        assert "The league is deleted" in page.locator(".messages").inner_text()
        assert errors == []
    finally:
        context.close()
