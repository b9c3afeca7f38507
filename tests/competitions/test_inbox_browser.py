"""Waiting on you on a phone (390x844, Debian's chromium, in Georgian): the menu's button
shows how many things wait, the inbox lists them without scrolling sideways, and an item's
link leads to where it is done: a league's invitation declined there (screenshots in
test-artifacts/, looked at)."""

from __future__ import annotations

import pytest

from clubs.models import Club
from clubs.services import join_request_create
from competitions.leagues import league_invite, league_make
from tests.competitions.test_events_browser import ARTIFACTS, fits, signed_in
from tests.competitions.test_leagues import club
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_inbox_on_a_phone_in_georgian(browser, live_server, people, django_user_model):
    p = people
    Club.objects.filter(slug="tbilisi-fives-club").update(requires_approval=True)
    store_match(p["levan"], ["Nino", "Levan"], seed=91, played_at="2026-11-01T18:00:00Z")
    dato = django_user_model.objects.create_user("dato", password="a-long-password-7")
    join_request_create(user=dato, club=club("tbilisi-fives-club"))
    league = league_make(actor=p["giorgi"], name="Winter league", legs=["singles"])
    league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    ARTIFACTS.mkdir(exist_ok=True)
    context = signed_in(browser, live_server, p["owner"])
    context.add_cookies([{"name": "django_language", "value": "ka", "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/leagues/")
        assert page.locator("[data-menu-button] .badge").inner_text() == "3"
        page.locator("[data-menu-button]").click()
        page.get_by_role("link", name="თქვენ გელოდებათ").click()
        page.wait_for_url("**/inbox/")
        assert page.locator("h1").inner_text() == "თქვენ გელოდებათ"
        items = page.locator("#inbox li")
        assert items.count() == 3
        kinds = sorted(items.nth(i).get_attribute("data-kind") for i in range(3))
        assert kinds == ["approval", "join-request", "league-invitation"]
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "inbox-phone-ka.png"), full_page=True)
        page.locator('[data-kind="league-invitation"] a').click()
        page.wait_for_url(f"**/leagues/{league.pk}/")
        page.get_by_role("button", name="უარყოფა").click()
        page.wait_for_url(f"**/leagues/{league.pk}/")
        page.goto("/inbox/")
        assert page.locator("#inbox li").count() == 2
        assert page.locator("[data-menu-button] .badge").inner_text() == "2"
        page.get_by_role("link", name="რომელ წერილებს იღებთ").click()
        page.wait_for_url("**/settings/emails/")
        assert page.locator("input[type=checkbox]").count() == 6
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "email-settings-phone-ka.png"), full_page=True)
    finally:
        context.close()
    assert errors == []
