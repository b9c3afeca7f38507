"""The match page on a phone (issue 23), in Debian's chromium at 390x844 with touch.

The board and its buttons come first, under a one-bar menu; a swipe on the board steps; the
score chart fits the screen and a tap says a hand's scores; the hands table scrolls
sideways; the embed code is there to copy; the move list holds one hand, however long the
match. Pages are gzipped. Timings are bench/phone_match.py's, not asserted here.
"""

from __future__ import annotations

import gzip
import html
import re

import pytest
from playwright.sync_api import expect

from fives_engine.convert import to_table_record
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from games.models import Match
from games.services.matches import match_log

from .test_replay_browser import ARTIFACTS, assert_shows, engine_states, open_replay, store

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match(owner):
    # Four players alone: four teams of three columns each make the widest hands table.
    return store(owner, simulate_match("muggins", 4, seed=21))


def box(page, selector: str) -> dict:
    return page.evaluate(
        "(s) => document.querySelector(s).getBoundingClientRect().toJSON()", selector
    )


def swipe(page, x0: float, y0: float, x1: float, y1: float) -> None:
    """A finger put down at (x0, y0) and lifted at (x1, y1), as the phone's screen sends it."""
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for k in range(1, 6):
        point = {"x": x0 + (x1 - x0) * k / 5, "y": y0 + (y1 - y0) * k / 5}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_the_board_and_its_buttons_are_the_first_screen_under_a_one_bar_menu(
    phone, live_server, match
):
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/#h1m3")
    header = box(phone, "header.top")
    assert header["height"] <= 60, header
    assert not phone.is_visible("header.top nav a[href='/clubs/']")
    board = box(phone, "#board")
    assert 0 < board["top"] < 200 and board["bottom"] < 844, board
    assert box(phone, "#next")["bottom"] < 844
    ARTIFACTS.mkdir(exist_ok=True)
    # The README's and the docs' home's match page is this picture (docs/img/readme-match.png).
    phone.screenshot(path=str(ARTIFACTS / "phone-match-first-screen.png"))
    # The menu opens under its button, and closes again.
    phone.tap("header.top [data-menu-button]")
    assert phone.is_visible("header.top nav a[href='/clubs/']")
    assert phone.get_attribute("[data-menu-button]", "aria-expanded") == "true"
    assert phone.evaluate("location.hash") == "#h1m3"  # the replay keeps its position
    phone.screenshot(path=str(ARTIFACTS / "phone-menu-open.png"))
    phone.tap("header.top [data-menu-button]")
    assert not phone.is_visible("header.top nav a[href='/clubs/']")
    # The ruleset and the facts follow the replay, the ruleset folded.
    assert box(phone, "dl.facts")["top"] > board["bottom"]
    assert not phone.is_visible("ul.ruleset li")


def test_a_swipe_on_the_board_steps_and_the_buttons_still_do(phone, live_server, match):
    states = engine_states(match)
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/#h1m3")
    board = box(phone, "#board")
    y = board["top"] + board["height"] / 2
    swipe(phone, 300, y, 80, y + 10)  # to the left: the next move
    assert phone.evaluate("location.hash") == "#h1m4"
    assert phone.inner_text("#count") == str(states[4]["count"])
    swipe(phone, 80, y, 300, y)  # to the right: the move before
    swipe(phone, 80, y, 300, y)
    assert phone.evaluate("location.hash") == "#h1m2"
    swipe(phone, 200, y + 60, 210, y - 60)  # up the page: no step
    assert phone.evaluate("location.hash") == "#h1m2"
    # A tap and a key are answered in the page's next frames: on a busy machine the address
    # may change a moment after the call returns, so it is waited for (5 s at most).
    phone.tap("#next")
    phone.wait_for_function("location.hash === '#h1m3'", timeout=5000)
    phone.focus("#replay")
    phone.keyboard.press("j")
    phone.wait_for_function("location.hash === '#h1m4'", timeout=5000)


def test_the_score_chart_fits_the_phone_and_a_tap_says_a_hand(phone, live_server, match):
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/")
    figure = box(phone, ".score-chart")
    chart = box(phone, ".score-chart svg")
    assert chart["width"] <= figure["width"] + 0.5 and chart["right"] <= 390, (chart, figure)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    caption = phone.inner_text(".score-chart figcaption")
    assert "Tap a hand" in caption and "Hover" not in caption, caption
    columns = phone.locator(".score-chart .hits rect")
    last = columns.nth(columns.count() - 1)
    last.scroll_into_view_if_needed()
    hit = last.bounding_box()
    assert hit["x"] + hit["width"] <= 390.5  # the last hand is on the screen
    last.tap()
    said = phone.inner_text(".score-chart .chart-readout")
    assert re.match(rf"Hand {columns.count()}: ", said), said
    phone.locator(".score-chart").first.screenshot(path=str(ARTIFACTS / "phone-score-chart.png"))


def test_the_hands_table_scrolls_sideways_rather_than_being_cut(phone, live_server, match):
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/")
    scroller = phone.locator("table.hands").locator("xpath=..")
    sizes = scroller.evaluate(
        "(e) => ({scroll: e.scrollWidth, client: e.clientWidth,"
        " overflow: getComputedStyle(e).overflowX})"
    )
    assert sizes["scroll"] > sizes["client"] and sizes["overflow"] in ("auto", "scroll"), sizes
    last = phone.locator("table.hands thead tr:first-child th").last
    assert last.inner_text() == match.seats.order_by("seat").last().player.handle
    scroller.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    edge = last.bounding_box()
    assert edge["width"] > 20 and edge["x"] >= 0 and edge["x"] + edge["width"] <= 391, edge
    phone.locator("table.hands").scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "phone-hands-table.png"))


def test_the_embed_code_is_an_iframe_of_the_replay_to_copy(phone, live_server, match):
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/")
    phone.tap(".embed-code summary")
    code = phone.input_value("#embed-code")
    assert phone.get_attribute("#embed-code", "readonly") is not None
    found = re.fullmatch(
        r'<iframe src="([^"]+)" title="([^"]+)" width="720" height="480"'
        r' style="[^"]*" loading="lazy"></iframe>',
        code,
    )
    assert found, code
    src = html.unescape(found[1])
    assert src == f"{live_server.url}/embed/matches/{match.pk}/"
    phone.tap("[data-copy-from='embed-code']")
    expect(phone.locator("[data-copy-from='embed-code']")).to_have_text("Code copied")
    assert phone.evaluate("navigator.clipboard.readText()") == code
    # The code works: pasted into a page, it shows the replay.
    phone.set_content(code)
    phone.frame_locator("iframe").locator("#replay[data-ready='1']").wait_for()


def test_the_move_list_holds_one_hand_of_a_200_hand_match(page, live_server, owner):
    doc = simulate_match({"base": "all-fives", "target": 100_000}, 2, seed=5, max_hands=200)
    match = store(owner, doc)
    states = engine_states(match)
    open_replay(page, f"{live_server.url}/matches/{match.pk}/#h150m5")
    assert page.inner_text("#position") == "Hand 150, move 5"
    in_hand = sum(1 for s in states if s["hand"] == 149 and s["move"] is not None)
    count = page.evaluate("document.querySelectorAll('#move-list *').length")
    assert count <= 2 * in_hand + 10, count
    listed = page.locator("#move-list li button")
    assert listed.count() == in_hand
    assert page.locator("#move-list [aria-current]").inner_text() == listed.nth(4).inner_text()
    # Stepping past the hand's end lists the next hand; the first hand is a click away.
    page.focus("#replay")
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#move-list h3") == "Hand 151 of 200"
    page.keyboard.press("Home")
    assert page.inner_text("#move-list h3") == "Hand 1 of 200"
    page.click("#move-list .other-hand")  # the next hand
    assert page.evaluate("location.hash") == "#h2m0"


def test_pages_and_api_answers_are_gzipped_but_static_files_are_left_to_whitenoise(client, match):
    page = client.get(f"/matches/{match.pk}/", headers={"Accept-Encoding": "gzip"})
    assert page["Content-Encoding"] == "gzip"
    assert b'id="replay-data"' in gzip.decompress(page.content)
    api = client.get(f"/api/v1/matches/{match.pk}/replay/", headers={"Accept-Encoding": "gzip"})
    assert api["Content-Encoding"] == "gzip"
    static = client.get("/static/replays/replay.js", headers={"Accept-Encoding": "gzip"})
    assert static.status_code == 200 and "Content-Encoding" not in static


def page_fields(state: dict) -> dict:
    """What the page draws of an engine state (replays.wire.state_flat keeps these)."""
    missed = (state.get("best") or 0) > (state["points"] or 0)
    layout = state["layout"]
    return {
        "hand": state["hand"],
        "move": state["move"],
        "action": state["action"],
        "seat": state["seat"],
        "placed": state["placed"],
        "count": state["count"],
        "points": state["points"],
        "scores": state["scores"],
        "lead": layout["lead"],
        "arms": {arm: [t["tile"] for t in tiles] for arm, tiles in layout["arms"].items()}
        if layout["lead"]
        else {arm: [] for arm in "WENS"},
        "spinner": layout["spinner"],
        "open_ends": state["open_ends"],
        "hands": state["hands"],
        "pips": state["pips"] if state["hand_end"] else None,
        "boneyard": state["boneyard"],
        "turn": state["turn"],
        "hand_end": state["hand_end"],
        "settlement": state["settlement"],
        "winner": state["winner"],
        "best": state["best"] if missed else None,
        "best_play": state["best_play"] if missed else None,
    }


UNPACKED = """() => window.replayStates().map((s) => ({
  hand: s.hand, move: s.move, action: s.action, seat: s.seat, placed: s.placed,
  count: s.count, points: s.points, scores: s.scores, lead: s.layout.lead,
  arms: Object.fromEntries(
    Object.entries(s.layout.arms).map(([a, t]) => [a, t.map((e) => e.tile)])),
  spinner: s.layout.spinner, open_ends: s.open_ends, hands: s.hands, pips: s.pips,
  boneyard: s.boneyard, turn: s.turn, hand_end: s.hand_end, settlement: s.settlement,
  winner: s.winner, best: s.best, best_play: s.best_play,
}))"""


@pytest.mark.parametrize(
    ("ruleset", "players", "teams", "table_record"),
    [
        ("muggins", 4, True, False),
        ("all-fives", 3, False, False),
        ("all-threes", 2, False, False),
        ("muggins", 2, False, True),
    ],
)
def test_the_page_unpacks_every_state_the_engine_computed(
    page, live_server, owner, ruleset, players, teams, table_record
):
    """The page carries the states packed (what changed, less what it works out itself):
    unpacked, every field the page draws is the engine's, at every position."""
    doc = simulate_match(ruleset, players, teams=teams, seed=4, bots=("random",))
    match = store(owner, to_table_record(doc) if table_record else doc)
    log = match_log(match=Match.objects.with_log().get(pk=match.pk))
    states = replay_log(log, review=True).states
    open_replay(page, f"{live_server.url}/matches/{match.pk}/")
    unpacked = page.evaluate(UNPACKED)
    assert len(unpacked) == len(states)
    for i, (seen, state) in enumerate(zip(unpacked, states, strict=True)):
        assert seen == page_fields(state), i


def test_a_very_long_match_holds_its_first_hand_and_fetches_the_rest(
    page, live_server, owner, monkeypatch
):
    """Past PAGE_STATES positions the page holds the first hand, packed, and fetches the
    others from the replay API: an address in a later hand opens there once they come."""
    monkeypatch.setattr("replays.wire.PAGE_STATES", 50)
    match = store(owner, simulate_match("muggins", 4, teams=True, seed=21))
    states = engine_states(match)
    assert len(states) > 50
    at = next(i for i, s in enumerate(states) if s["hand"] == 2 and s["move"] == 1)
    open_replay(page, f"{live_server.url}/matches/{match.pk}/#h3m2")
    held = "JSON.parse(document.getElementById('replay-data').textContent).packed.length"
    assert page.evaluate(held) == next(i for i, s in enumerate(states) if s["hand"] == 1)
    assert_shows(page, states[at])
    page.focus("#replay")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert_shows(page, next(s for s in states if s["hand"] == 1 and s["move"] is None))
    page.keyboard.press("End")
    assert_shows(page, states[-1])
