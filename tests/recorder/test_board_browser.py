"""The analysis board in a real browser (Debian's chromium, a phone's 390x844 screen): a
position opened from a match's play, every legal play valued by the engine in the page's
worker (Pyodide), refined over more layouts while the reader looks; then a position set up by
taps (the hand, a lead, the other seat's play) and valued; a hidden tile in the address
refused with its reason. Screenshots go to test-artifacts/."""

from __future__ import annotations

import base64
import copy
import json
import os
import pathlib

import pytest

from fives_engine.position import analyse, position_document
from tests.engine.test_position import WORKED
from tests.recorder.test_board_page import play_with_a_choice
from tests.replays.helpers import store_match

from .helpers import PHONE, launch

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    yield page
    context.close()


def layouts(page) -> int:
    return int(page.evaluate("() => document.body.dataset.layouts || '0'"))


def test_a_position_from_a_match_every_play_valued(page, owner):
    match = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")
    h, m, doc = play_with_a_choice(match)
    legal = [play["play"] for play in analyse(doc, 1)["plays"]]
    page.goto(f"/analyse/?match={match.pk}&hand={h + 1}&move={m + 1}")
    page.wait_for_function(
        "() => Number(document.body.dataset.layouts || 0) >= 24", timeout=180_000
    )
    rows = page.locator("#plays tr")
    assert [rows.nth(i).get_attribute("data-play") for i in range(rows.count())] == legal
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        assert "±" in cells.nth(1).inner_text() and "±" in cells.nth(2).inner_text()
    assert page.locator("#plays tr.an-best").count() == 1
    # Refining while the reader looks: more layouts, the same plays.
    page.wait_for_function(
        "() => Number(document.body.dataset.layouts || 0) >= 96", timeout=180_000
    )
    assert layouts(page) >= 96
    assert page.locator("#replay-link").get_attribute("href") == f"/matches/{match.pk}/"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analyse-board-from-match.png"), full_page=True)


def test_a_position_set_up_by_taps(page):
    page.goto("/analyse/")
    page.wait_for_function("() => document.body.dataset.engine === 'ready'", timeout=180_000)
    page.select_option("#ruleset", "muggins")
    for tile in WORKED["tiles"]:
        page.click(f"#tiles button[data-tile='{'-'.join(sorted(tile.split('-')))}']")
    page.check("input[name=mode][value=play]")
    # The moves of the worked example: 5-5 led, 5-0 on E, 3-5 on W, two draws, 3-4 on W.
    page.click("#tiles button[data-tile='5-5']")
    page.check("input[name=end][value=E]")
    page.click("#tiles button[data-tile='0-5']")
    page.check("input[name=end][value=W]")
    page.click("#tiles button[data-tile='3-5']")
    page.click("#draw")
    page.click("#draw")
    page.click("#tiles button[data-tile='3-4']")
    page.wait_for_function(
        "() => document.querySelectorAll('#plays tr').length === 2", timeout=180_000
    )
    rows = page.locator("#plays tr")
    assert sorted(rows.nth(i).get_attribute("data-play") for i in range(2)) == [
        "0-0 on E",
        "4-6 on W",
    ]
    # The address holds the position: opened again, the same position.
    address = page.url
    assert "?position=" in address
    text = address.split("?position=", 1)[1]
    shared = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    assert shared["moves"][3] == {"seat": 1, "draw": "?"} and shared["seat"] == 0
    page.screenshot(path=str(ARTIFACTS / "analyse-board-taps.png"), full_page=True)


def test_a_hidden_tile_is_refused_with_its_reason(page):
    doc = copy.deepcopy(WORKED)
    doc["moves"][3]["draw"] = "1-4"
    text = base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")
    page.goto(f"/analyse/?position={text}")
    page.wait_for_function("() => document.body.dataset.refused === 'hidden-tile'", timeout=180_000)
    assert "could not have seen" in page.locator("#refused").inner_text()
    assert page.locator("#plays tr").count() == 0


def test_analyse_from_here_follows_the_replay(page, owner):
    """The replay's "Analyse from here" is a plain path whose hand and move follow the reader's
    steps: the position before the next play, opened on the board and valued."""
    match = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")
    page.goto(f"/matches/{match.pk}/#h1m2")
    link = page.locator("#analyse-here")
    page.wait_for_function(
        "() => document.getElementById('analyse-here').href.includes('&move=3')", timeout=60_000
    )
    assert link.get_attribute("href") == f"/analyse/?match={match.pk}&hand=1&move=3"
    page.click("#next")
    page.wait_for_function(
        "() => document.getElementById('analyse-here').href.includes('&move=4')", timeout=60_000
    )
    log = match.log()
    wanted = position_document(log, 0, 3) if log.hands[0].moves[3].kind == "play" else None
    link.click()
    page.wait_for_url(f"**/analyse/?match={match.pk}&hand=1&move=4")
    if wanted is None:
        page.wait_for_function("() => document.body.dataset.refused === 'no-position'")
        return
    page.wait_for_function(
        "() => Number(document.body.dataset.layouts || 0) >= 24", timeout=180_000
    )
    rows = page.locator("#plays tr")
    assert rows.count() == len(analyse(wanted, 1)["plays"])
