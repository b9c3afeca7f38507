"""An organiser on a phone (390x844, Debian's chromium): makes a club night from the club
page, reads its schedule, sees a result fill in as a match arrives; a cup's bracket; a
player's rating history chart. The page never scrolls sideways (screenshots in
test-artifacts/, looked at)."""

from __future__ import annotations

import os
import pathlib
from datetime import date

import pytest
from django.test import Client

from clubs.models import Club
from competitions.models import Tournament
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["Anastasia", "Bekauri", "Ciko", "Dachi", "Eteri"]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def signed_in(browser, live_server, user):
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    context = browser.new_context(**PHONE, base_url=live_server.url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.fixture
def autumn(owner):
    for seed, name in enumerate(NAMES, start=1):  # each player has a match in September
        other = NAMES[seed % len(NAMES)]
        store_match(owner, [name, other], seed=seed, played_at=f"2026-09-{seed:02d}T16:00:00Z")
    club = Club.objects.get(slug="tbilisi-fives-club")
    return season_open(
        actor=owner,
        club=club,
        name="Autumn 2026",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )


def test_an_organiser_makes_a_club_night_and_reads_its_schedule_on_a_phone(
    browser, live_server, owner, autumn
):
    context = signed_in(browser, live_server, owner)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/clubs/tbilisi-fives-club/")
        page.get_by_role("link", name="Events").click()
        page.get_by_label("Name").fill("Friday night")
        page.get_by_label("round-robin").check()
        page.get_by_label("First day").fill("2026-10-09")
        page.get_by_label("Last day").fill("2026-10-09")
        page.get_by_label("once").check()
        for name in NAMES:
            page.get_by_label(name, exact=True).check()
        fits(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "event-make-phone.png"), full_page=True)
        page.get_by_role("button", name="Make the event").click()
        page.wait_for_url("**/events/*/")
        assert page.locator("h1").inner_text() == "Friday night"
        assert (
            page.locator("#event-progress")
            .inner_text()
            .startswith("0 matches played, 10 still to play.")
        )
        assert page.locator(".fixture.to-play").count() == 10
        assert page.locator(".fixture.bye").count() == 5
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "event-schedule-phone.png"), full_page=True)

        # A match of the night arrives: its fixture shows the score, the table the points.
        event = Tournament.objects.get(name="Friday night")
        first = page.locator(".fixture.to-play").first
        a, b = (first.locator(".who").nth(i).inner_text() for i in range(2))
        match = store_match(
            owner, [a, b], seed=40, played_at="2026-10-09T16:00:00Z", event="Friday night"
        )
        page.reload()
        assert (
            page.locator("#event-progress")
            .inner_text()
            .startswith("1 match played, 9 still to play.")
        )
        played = page.locator(".fixture.played")
        assert played.count() == 1
        scores = {s.player.handle: match.scores[s.team] for s in match.seats.all()}
        assert played.locator(".score").inner_text() == f"{scores[a]}–{scores[b]}"
        winner = match.seats.get(team=match.winner).player.handle
        assert played.locator(".who.won").inner_text() == winner
        top = page.locator("table.event-table tbody tr").first
        assert top.locator("td").nth(1).inner_text() == winner
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "event-result-phone.png"), full_page=True)
        assert event.entries.count() == 5

        # The season's page lists the event, and its table ends with the ratings.
        page.get_by_role("link", name="Autumn 2026").click()
        # The click waits only for the new page's first bytes: count once all of it is read.
        page.wait_for_url("**/seasons/*/", wait_until="load")
        assert page.get_by_role("link", name="Friday night").count() == 1
        headers = page.locator("table.standings th").all_inner_texts()
        assert headers[-2:] == ["Rating, start", "Rating, end"]
        page.locator(".table-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "season-ratings-phone.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_the_schedule_reads_in_georgian_on_a_phone(browser, live_server, owner, autumn):
    from clubs.capitals import mtavruli_count

    night = tournament_make(
        actor=owner,
        season=autumn,
        name="პარასკევი",
        kind="round-robin",
        first_day=date(2026, 10, 9),
        last_day=date(2026, 10, 9),
        player_ids=list(autumn.club.players.filter(handle__in=NAMES).values_list("pk", flat=True)),
    )
    context = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": "ka"})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/{autumn.club.slug}/events/{night.pk}/")
        text = page.locator("main").inner_text()
        assert "ტური 1" in text and "განრიგი" in text
        assert mtavruli_count(text) == 0
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "event-schedule-phone-ka.png"), full_page=True)
    finally:
        context.close()


def test_a_cup_bracket_and_a_rating_chart_fit_a_phone(browser, live_server, owner, autumn):
    cup = tournament_make(
        actor=owner,
        season=autumn,
        name="Autumn cup",
        kind="knockout",
        first_day=date(2026, 10, 10),
        last_day=date(2026, 10, 11),
        player_ids=list(autumn.club.players.filter(handle__in=NAMES).values_list("pk", flat=True)),
    )
    context = signed_in(browser, live_server, owner)
    page = context.new_page()
    try:
        page.goto(f"/clubs/{autumn.club.slug}/events/{cup.pk}/")
        assert page.locator(".event-round h3").all_inner_texts() == [
            "Round 1",
            "Semi-finals",
            "Final",
        ]
        assert page.locator(".fixture.bye").count() == 3  # five players in eight places
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "event-cup-phone.png"), full_page=True)
        seeds = page.locator("ol.seeds li").all_inner_texts()
        assert seeds[0].split()[-1].isdigit()  # each seed with its shown rating
        assert all(1000 < int(text.split()[-1]) < 2000 for text in seeds)

        player = autumn.club.players.get(handle=NAMES[0])
        for seed in range(50, 56):
            store_match(
                owner,
                [NAMES[0], NAMES[1 + seed % 4]],
                seed=seed,
                played_at=f"2026-10-{seed - 30}T16:00:00Z",
            )
        page.goto(f"/players/{player.pk}/")
        chart = page.locator("figure.rating-chart")
        assert chart.locator("svg > title").text_content() == "Rating after each match"
        assert "rating after each match" in chart.locator("figcaption").inner_text()
        box = chart.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        fits(page)
        chart.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "rating-chart-phone.png"))
    finally:
        context.close()
