"""The standings of a season on a phone (390x844): the page never scrolls sideways, the
table scrolls inside its box, in English and Georgian (screenshots in test-artifacts/)."""

from __future__ import annotations

import pathlib
import re
from datetime import date

import pytest

from clubs.models import Club
from competitions.seasons import season_open
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.parametrize("language", ["en", "ka"])
def test_the_standings_fit_a_phone(browser, live_server, owner, language):
    names = ["Anastasia", "Bekauri", "Ciko", "Dachi"]
    for seed in range(1, 7):
        pair = [names[seed % 4], names[(seed + 1) % 4]]
        store_match(owner, pair, seed=seed, played_at=f"2026-10-{seed + 1:02d}T19:00:00+00:00")
    club = Club.objects.get(slug="tbilisi-fives-club")
    season = season_open(
        actor=owner,
        club=club,
        name="Autumn 2026",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        extra_http_headers={"Accept-Language": language},
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/")
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == 4
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator(".table-scroll").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"season-standings-phone-{language}.png"))
    finally:
        context.close()


def test_an_organiser_opens_reads_and_closes_a_season_on_a_phone(browser, live_server, owner):
    from django.test import Client

    from competitions.models import Season

    for seed in range(1, 4):
        store_match(owner, ["Ana", "Beka"], seed=seed, played_at=f"2026-10-{seed:02d}T19:00:00Z")
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        page.goto("/clubs/tbilisi-fives-club/")
        page.get_by_role("link", name="Seasons").click()
        page.get_by_label("Name").fill("October")
        page.get_by_label("First day").fill("2026-10-01")
        page.get_by_label("Last day").fill("2026-10-31")
        page.get_by_label("Points for a win").fill("2")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "season-open-phone.png"), full_page=True)
        page.get_by_role("button", name="Open the season").click()
        page.wait_for_url("**/seasons/*/")
        assert page.locator("h1").inner_text() == "October"
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == 2
        assert sorted(rows.nth(i).locator("td").nth(3).inner_text() for i in range(2)) == [
            "3",
            "3",
        ]
        page.get_by_role("button", name="Close the season").click()
        page.wait_for_load_state()
        assert "Closed on" in page.locator("main").inner_text()
        page.screenshot(path=str(ARTIFACTS / "season-closed-phone.png"), full_page=True)
        season = Season.objects.get(name="October")
        assert season.win_points == 2 and season.closed_at is not None
        assert len(season.frozen) == 2
    finally:
        context.close()


def test_the_printable_tables_come_one_a_page_on_a4(browser, live_server, owner):
    """The season's printable page: the standings, then each event's table, each on an A4
    page of its own, without the site's menu or forms (chromium prints it to PDF)."""
    from competitions.tournaments import tournament_make

    names = ["Anastasia", "Bekauri", "Ciko"]
    for seed in range(1, 4):
        pair = [names[seed % 3], names[(seed + 1) % 3]]
        store_match(owner, pair, seed=seed, played_at=f"2026-10-{seed + 1:02d}T19:00:00+00:00")
    club = Club.objects.get(slug="tbilisi-fives-club")
    season = season_open(
        actor=owner,
        club=club,
        name="Autumn 2026",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    players = list(club.matches.values_list("seats__player_id", flat=True).distinct())
    for name in ("Club night", "Cup night"):
        tournament_make(
            actor=owner,
            season=season,
            name=name,
            kind="round-robin",
            first_day=date(2026, 10, 1),
            last_day=date(2026, 10, 31),
            player_ids=players,
        )
    detail = f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(detail)
        page.get_by_role("link", name="Printable tables (A4)").click()
        page.wait_for_url(detail + "print/", wait_until="load")
        assert page.locator(".print-page").count() == 3
        assert page.locator(".print-page table.standings tbody tr").count() == 3 + 3 + 3
        page.emulate_media(media="print")
        assert not page.locator("#menu").is_visible()
        assert not page.locator(".no-print").is_visible()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "season-print.png"), full_page=True)
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        (ARTIFACTS / "season-print.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 3  # one a table
    finally:
        context.close()
