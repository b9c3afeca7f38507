"""Waiting on you on a phone (390x844, Debian's chromium, in Georgian): the menu's button
shows how many things wait, the inbox lists them without scrolling sideways, and an item's
link leads to where it is done: a league's invitation declined there, and a fixture confirmed
from the email's link by the other side's captain (screenshots in test-artifacts/, looked
at)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail

from clubs.models import Club
from clubs.services import join_request_create
from competitions import inbox
from competitions.league_results import fixture_submit
from competitions.league_services import league_invite, league_make
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
        # One box a kind of email (the apps' waiting kinds: webhooks' made it eight).
        assert page.locator("input[type=checkbox]").count() == len(inbox.email_kinds()) == 8
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "email-settings-phone-ka.png"), full_page=True)
    finally:
        context.close()
    assert errors == []


def test_the_other_captain_confirms_from_the_email_s_link_on_a_phone(
    browser, live_server, people, request
):
    p = people
    fixture, singles, pairs = request.getfixturevalue("match_day")
    p["sopho"].email = "sopho@example.org"
    p["sopho"].save(update_fields=["email"])
    mail.outbox.clear()
    fixture_submit(actor=p["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    [sent] = [message for message in mail.outbox if message.to == ["sopho@example.org"]]
    link = next(line.strip() for line in sent.body.splitlines() if "/fixtures/" in line)
    path = link.removeprefix(settings.FIVES_SITE_URL)
    assert path == f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    context = signed_in(browser, live_server, p["sopho"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/inbox/")
        assert page.locator("[data-menu-button] .badge").inner_text() == "1"
        assert page.locator('#inbox [data-kind="fixture-confirm"]').count() == 1
        page.goto(path)  # the email's link
        fits(page)
        page.get_by_role("button", name="Confirm the legs").click()
        page.wait_for_url(f"**{path}")
        assert page.locator("#fixture-status").inner_text() == "confirmed"
        assert page.locator("[data-menu-button] .badge").count() == 0
        page.goto("/inbox/")
        assert page.locator("#inbox").count() == 0
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "inbox-empty-phone.png"), full_page=True)
    finally:
        context.close()
    assert errors == []
