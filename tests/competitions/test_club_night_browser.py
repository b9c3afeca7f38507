"""A whole club night on a phone (390x844, Debian's chromium): an admin of the club signs in,
opens a season with the form (its name, days, the ruleset counted and its points), makes a
round-robin of three players in it, reads its schedule with what is still to play, uploads a
match of the night between two of them with the upload form, and reads the event's table and
the season's standings with that result, figure by figure. The page never scrolls sideways
(screenshots in test-artifacts/, looked at).

Skipped where /usr/bin/chromium is missing (``make browser`` installs it), unless
FIVES_REQUIRE_BROWSER=1 (CI) makes that a failure (the ``browser`` fixture).
"""

from __future__ import annotations

import json
import os
import pathlib
import re

import pytest

from fives_engine.simulate import simulate_match
from games.models import Match
from replays.ratings import shown_rating
from tests.replays.helpers import openskill_in_order, store_match

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
NIGHT = "2026-10-09"


def fits(page) -> None:
    """Nothing is wider than the phone: the page never scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def rows(page, selector: str) -> list[list[str]]:
    """Return each row of the table as the cells' texts, as a person reads them."""
    return page.locator(f"{selector} tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.innerText.trim()))"
    )


def the_nights_match() -> dict:
    """The log of the night's match between Ana and Beka, as the organiser's file holds it."""
    doc = simulate_match({"base": "muggins", "target": 50}, 2, seed=40, names=["Ana", "Beka"])
    doc.update(
        id="friday-night-1",
        club="Tbilisi Fives Club",
        played_at=f"{NIGHT}T16:00:00Z",
        event="Friday night",
    )
    return doc


def test_an_admin_runs_a_club_night_on_a_phone(browser, live_server, owner, club_admin):
    # The club knows its three players from the summer (before the season: not counted).
    summer = [
        store_match(owner, pair, seed=seed, played_at=f"2026-08-{seed:02d}T16:00:00Z")
        for seed, pair in enumerate([["Ana", "Beka"], ["Beka", "Ciko"], ["Ciko", "Ana"]], 1)
    ]
    context = browser.new_context(**PHONE, base_url=live_server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        # Tamar, an admin of the club, signs in.
        page.goto("/accounts/login/?next=/clubs/tbilisi-fives-club/")
        page.get_by_label("Username").fill("tamar")
        page.get_by_label("Password").fill("a-long-password-3")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url("**/clubs/tbilisi-fives-club/")

        # She opens the autumn season: Muggins only, 2 points a win, 0 a loss.
        page.get_by_role("link", name="Seasons").click()
        page.get_by_label("Name").fill("Autumn 2026")
        page.get_by_label("First day").fill("2026-09-01")
        page.get_by_label("Last day").fill("2026-11-30")
        page.get_by_label("Muggins").check()
        page.get_by_label("Points for a win").fill("2")
        page.get_by_label("Points for a loss").fill("0")
        fits(page)
        shot(page, "club-night-1-season-form-phone.png")
        page.get_by_role("button", name="Open the season").click()
        page.wait_for_url("**/seasons/*/")
        assert page.locator("h1").inner_text() == "Autumn 2026"
        assert rows(page, "table.standings") == [["No counted match in this season yet."]]

        # From the season she makes Friday night, a round-robin of the three, each pair once.
        page.get_by_role("link", name="Make an event").click()
        assert page.get_by_label("Season").input_value() != ""
        page.get_by_label("Name").fill("Friday night")
        page.get_by_label("round-robin").check()
        page.get_by_label("First day").fill(NIGHT)
        page.get_by_label("Last day").fill(NIGHT)
        page.get_by_label("once").check()
        for name in ("Ana", "Beka", "Ciko"):
            page.get_by_label(name, exact=True).check()
        fits(page)
        shot(page, "club-night-2-event-form-phone.png")
        page.get_by_role("button", name="Make the event").click()
        # (the address keeps the link's #make-event: a browser carries it over a redirect)
        page.wait_for_url(re.compile(r"/events/\d+/(#make-event)?$"))
        assert page.locator("h1").inner_text() == "Friday night"

        # The schedule: three rounds, one pair to play and one player out in each.
        progress = page.locator("#event-progress")
        assert progress.inner_text() == "0 matches played, 3 still to play."
        assert page.locator(".event-round h3").all_inner_texts() == [
            "Round 1",
            "Round 2",
            "Round 3",
        ]
        to_play = page.locator(".fixture.to-play")
        pairs = [sorted(to_play.nth(i).locator(".who").all_inner_texts()) for i in range(3)]
        assert sorted(pairs) == [["Ana", "Beka"], ["Ana", "Ciko"], ["Beka", "Ciko"]]
        byes = page.locator(".fixture.bye .who").all_inner_texts()
        assert sorted(byes) == ["Ana", "Beka", "Ciko"]
        assert page.locator(".fixture.played").count() == 0
        event_url = page.url
        fits(page)
        shot(page, "club-night-3-schedule-phone.png")

        # Ana and Beka play; Tamar uploads the log with the upload form.
        doc = the_nights_match()
        page.get_by_role("button", name="Menu").click()
        page.get_by_role("link", name="Upload", exact=True).click()
        page.get_by_label("Paste a match log").fill(json.dumps(doc))
        fits(page)
        page.get_by_role("button", name="Upload").click()
        page.wait_for_url("**/uploads/*/")
        match = Match.objects.get(external_id="friday-night-1")
        assert match.approval == Match.Approval.APPROVED  # an admin's upload needs no approval

        # The event: the pair's fixture shows the score and the winner, the table the points.
        assert doc["final_scores"] == [40, 69]  # what the organiser's file says: Beka won
        page.goto(event_url)
        assert progress.inner_text() == "1 match played, 2 still to play."
        played = page.locator(".fixture.played")
        assert played.count() == 1
        # Beka, seeded first (the higher rating), is named first.
        assert played.locator(".who").all_inner_texts() == ["Beka", "Ana"]
        assert played.locator(".score").inner_text() == "69–40"
        assert played.locator(".who.won").inner_text() == "Beka"
        assert page.locator(".fixture.to-play").count() == 2
        # position, player, points, played, won, lost, difference
        assert rows(page, "table.event-table") == [
            ["1", "Beka", "2", "1", "1", "0", "29"],
            ["2", "Ana", "0", "1", "0", "1", "-29"],
            ["3", "Ciko", "0", "0", "0", "0", "0"],
        ]
        fits(page)
        shot(page, "club-night-4-event-result-phone.png")

        # The season's standings: the two who played, with the ratings before and after.
        ratings = {}
        for counted, after in openskill_in_order([*summer, match]):
            ratings[counted.pk] = {h: shown_rating(r.mu) for h, r in after.items()}
        start, end = ratings[summer[-1].pk], ratings[match.pk]

        def rated(name: str) -> list[str]:  # before the season, and after the night
            return [str(start[name]), str(end[name])]

        page.get_by_role("link", name="Autumn 2026").click()
        page.wait_for_url("**/seasons/*/")
        # position, player, points, P, W, L, for, against, diff., last five, ratings
        assert rows(page, "table.standings") == [
            ["1", "Beka", "2", "1", "1", "0", "69", "40", "29", "W", *rated("Beka")],
            ["2", "Ana", "0", "1", "0", "1", "40", "69", "-29", "L", *rated("Ana")],
        ]
        assert page.get_by_role("link", name="Friday night").count() == 1
        fits(page)
        box = page.locator(".table-scroll").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shot(page, "club-night-5-standings-phone.png")
        # Scrolled to the ratings at its far end, the table keeps the names in sight.
        page.locator(".table-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        for row, name in enumerate(["Beka", "Ana"]):
            cell = page.locator("table.standings tbody tr").nth(row).locator("td").nth(1)
            assert (
                page.evaluate(
                    """cell => {
                  const box = cell.getBoundingClientRect();
                  const seen = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
                  return box.left >= 0 && cell.contains(seen) ? cell.innerText : null;
                }""",
                    cell.element_handle(),
                )
                == name
            )
        fits(page)
        page.screenshot(path=str(ARTIFACTS / "club-night-6-standings-ratings-phone.png"))
        assert errors == []
    finally:
        context.close()
