# ruff: noqa: F811 (the fixtures imported from other tests are arguments here)
"""Issue 36, goal: a league's whole life on a phone (390x844, Debian's chromium), as its
people would live it. The organiser makes a league, invites two clubs, makes a team of each
and generates the schedule; the home captain submits the first fixture's leg; the away
captain is told by an email (a real SMTP server the test starts) and in the inbox, follows
the email's link and confirms; everyone reads the table. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.conf import settings

from competitions.league_services import league_accept
from competitions.models import Fixture, League
from tests.competitions.test_events_browser import ARTIFACTS, fits, signed_in
from tests.competitions.test_inbox import body, smtp  # noqa: F401 (the SMTP server)
from tests.competitions.test_leagues import club, people, players  # noqa: F401
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)
# The league's match night: the next Wednesday (a schedule is a plan, from today on).
FIRST = date.today() + timedelta(days=(2 - date.today().weekday()) % 7 or 7)


def shot(page, name: str) -> None:
    fits(page)
    page.screenshot(path=str(ARTIFACTS / f"league-walk-{name}.png"), full_page=True)


def test_a_league_from_its_making_to_its_table_on_a_phone(browser, live_server, people, smtp):
    p = people
    ARTIFACTS.mkdir(exist_ok=True)
    players(p["owner"], "tbilisi-fives-club", ["Nino", "Tamar"])
    players(p["owner"], "moscow", ["Ivan", "Olga"])
    for who in ("levan", "sopho"):
        p[who].email = f"{who}@example.org"
        p[who].save(update_fields=["email"])
    errors: list[str] = []

    # The organiser makes the league, invites the two clubs and makes their teams.
    organiser = signed_in(browser, live_server, p["giorgi"])
    page = organiser.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/leagues/")
    page.get_by_label("Name").fill("Two rivers")
    page.get_by_label("Singles legs a fixture").fill("1")
    page.get_by_label("Pairs legs a fixture").fill("0")
    page.get_by_label("Points scheme").select_option("leek")
    assert page.get_by_label("Points for each leg won").input_value() == "1"  # filled in
    shot(page, "1-new-league")
    page.get_by_role("button", name="Make the league").click()
    page.wait_for_url(re.compile(r".*/leagues/\d+/$"))
    league = League.objects.get(name="Two rivers")
    assert (league.legs, league.leg_points, league.win_points) == (["singles"], 1, 2)
    for name in ("Tbilisi Fives Club", "Moscow"):
        page.get_by_label("Club: its name or address name").fill(name)
        page.get_by_role("button", name="Invite", exact=True).click()
        page.wait_for_url(f"**/leagues/{league.pk}/")
    for slug in ("tbilisi-fives-club", "moscow"):  # each club's owner accepts
        league_accept(actor=p["owner"], league=league, club=club(slug))
    teams = {
        "tbilisi-fives-club": ("Tbilisi", "Nino", "levan"),
        "moscow": ("Moscow", "Ivan", "sopho"),
    }
    for slug, (name, player, captain) in teams.items():
        page.goto(f"/leagues/{league.pk}/clubs/{slug}/team/")
        page.get_by_label("Name").fill(name)
        page.get_by_label(player, exact=True).check()
        page.get_by_label(f"{captain} (no handle claimed)", exact=True).check()
        page.get_by_role("button", name="Make the team").click()
        page.wait_for_url(f"**/leagues/{league.pk}/")

    # The schedule: shown, then made.
    page.get_by_role("link", name="Make the whole schedule at once").click()
    page.get_by_label("First match night").fill(FIRST.isoformat())
    page.get_by_role("button", name="Show the fixtures").click()
    assert page.locator("#schedule-planned li").count() == 2  # home and away
    shot(page, "2-schedule")
    page.get_by_role("button", name="Make these fixtures").click()
    page.wait_for_url(f"**/leagues/{league.pk}/")
    fixtures = list(league.fixtures.order_by("day"))
    assert [f.day for f in fixtures] == [FIRST, FIRST + timedelta(weeks=1)]
    first = fixtures[0]
    organiser.close()

    # The night is played: the home club stores the leg, its log naming it.
    home, away = first.home, first.away
    home_player, away_player = teams[home.club.slug][1], teams[away.club.slug][1]
    match = store_match(
        p["owner"],
        [home_player, away_player],
        seed=36,
        played_at=f"{FIRST.isoformat()}T16:00:00Z",
        club=home.club.name,
        event=f"Two rivers, {home.name} v {away.name}, leg 1",
    )

    # The home captain submits it.
    home_captain = p[teams[home.club.slug][2]]
    away_captain = p[teams[away.club.slug][2]]
    context = signed_in(browser, live_server, home_captain)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/leagues/{league.pk}/fixtures/{first.pk}/")
    page.locator("#leg-1").select_option(str(match.pk))
    shot(page, "3-submit")
    page.get_by_role("button", name="Submit the legs").click()
    page.wait_for_url(f"**/fixtures/{first.pk}/")
    assert page.locator("#fixture-status").inner_text() == "awaiting confirmation"
    context.close()

    # The away captain: one email, and the inbox; the email's link, then confirm.
    [mail] = smtp.to(away_captain.email)
    link = next(line.strip() for line in body(mail).splitlines() if "/fixtures/" in line)
    path = link.removeprefix(settings.FIVES_SITE_URL)
    assert path == f"/leagues/{league.pk}/fixtures/{first.pk}/"
    assert smtp.to(home_captain.email) == []
    context = signed_in(browser, live_server, away_captain)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/inbox/")
    assert page.locator("[data-menu-button] .badge").inner_text() == "1"
    assert page.locator('#inbox [data-kind="fixture-confirm"]').count() == 1
    shot(page, "4-inbox")
    page.goto(path)
    page.get_by_role("button", name="Confirm the legs").click()
    page.wait_for_url(f"**{path}")
    assert page.locator("#fixture-status").inner_text() == "confirmed"
    assert page.locator("[data-menu-button] .badge").count() == 0
    context.close()

    # Everyone reads the table: the winner of the leg won the fixture, 2 + 1 points.
    winner_side = Fixture.objects.get(pk=first.pk).legs.get().winner
    winner = home if winner_side == "home" else away
    loser = away if winner is home else home
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, base_url=live_server.url
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/leagues/{league.pk}/")
    rows = page.locator("#league-table tbody tr")
    first_row = rows.nth(0).locator("td")
    assert first_row.nth(1).inner_text() == winner.name
    assert first_row.nth(2).inner_text() == "3"
    assert rows.nth(1).locator("td").nth(1).inner_text() == loser.name
    # The points are inside the first screen, with no sideways scroll.
    box = page.locator("#league-table th").nth(2).bounding_box()
    assert box["x"] + box["width"] <= 390
    shot(page, "5-table")
    context.close()
    assert errors == []
