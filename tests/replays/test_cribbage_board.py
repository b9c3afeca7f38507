"""The cribbage board beside the match page's score chart (issue 27), in Debian's chromium at
a phone's 390x844: a match to 61 pegged as pub players peg it, each side's front peg at its
score and its back peg at its score before its last scoring play, following the replay move
by move; any other match's board folded, scaled to its target when opened; its words in the
reader's language; none in the embed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fives_engine.simulate import simulate_match

from .test_replay_browser import ARTIFACTS, engine_states, open_replay, store

pytestmark = pytest.mark.django_db(transaction=True)


def expected_pegs(states: list[dict], i: int, target: int) -> tuple[list[int], list[int]]:
    """The holes of the front and back pegs at position ``i``, from the engine's states."""
    now = states[i]["scores"]
    back = [0] * len(now)
    for team, score in enumerate(now):
        for earlier in reversed(states[:i]):
            if earlier["scores"][team] != score:
                back[team] = earlier["scores"][team]
                break

    def hole(score: int) -> int:
        if score >= target:
            return 61
        return min(60, score * 61 // target) if score > 0 else 0

    return [hole(s) for s in now], [hole(s) for s in back]


def pegs(page) -> tuple[list[int], list[int]]:
    front, back = page.evaluate(
        """() => ["crib-front", "crib-back"].map((cls) => Array.from(
          document.querySelectorAll("#cribbage ." + cls), (peg) => Number(peg.dataset.hole)))"""
    )
    return front, back


def test_a_fives_and_threes_match_is_pegged_move_by_move(phone, live_server, owner):
    match = store(owner, simulate_match("fives-and-threes", 4, teams=True, seed=6))
    states = engine_states(match)
    assert states[-1]["scores"] == [41, 61]
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/")
    board = phone.locator("#cribbage-box")
    expect(board).to_have_attribute("open", "")  # a match to 61: shown as it is pegged
    expect(phone.locator("#cribbage .crib-track")).to_have_count(2)
    expect(phone.locator("#cribbage .crib-name")).to_have_text(["Nino & Olga", "Giorgi & Ivan"])
    phone.focus("#replay")
    moved = 0
    for i in range(len(states)):
        if i:
            phone.keyboard.press("j")
        front, back = expected_pegs(states, i, 61)
        assert pegs(phone) == (front, back), i
        scores = [int(n) for n in phone.locator("#cribbage .crib-score").all_text_contents()]
        assert scores == states[i]["scores"], i
        moved += states[i]["points"] > 0
    assert moved > 20  # the pegs moved with every scoring play
    # At the bust (hand 3, move 12: 62 would pass 61) nothing moved; at the end, 61 is out.
    phone.goto(f"{live_server.url}/matches/{match.pk}/#h3m12")
    phone.wait_for_selector("#replay[data-complete='1']")
    assert pegs(phone) == ([41, 60], [40, 58])
    board.scroll_into_view_if_needed()
    board.screenshot(path=str(ARTIFACTS / "phone-cribbage-board-bust.png"))
    # The board fits the phone, beside (under, on a phone) the score chart.
    svg = phone.locator("#cribbage").bounding_box()
    chart = phone.locator(".score-chart svg").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= 390, svg
    assert svg["y"] >= chart["y"] + chart["height"], (svg, chart)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_any_other_match_has_the_board_folded_and_scaled_to_its_target(phone, live_server, owner):
    match = store(owner, simulate_match("muggins", 4, seed=21))  # four alone, to 250
    states = engine_states(match)
    open_replay(phone, f"{live_server.url}/matches/{match.pk}/")
    board = phone.locator("#cribbage-box")
    expect(board).not_to_have_attribute("open", "")
    assert phone.locator("#cribbage .crib-track").count() == 0  # not drawn while folded
    phone.locator("#last").click()
    board.locator("summary").click()
    expect(phone.locator("#cribbage .crib-track")).to_have_count(4)
    assert pegs(phone) == expected_pegs(states, len(states) - 1, 250)
    assert "Played to 250" in board.inner_text()
    board.scroll_into_view_if_needed()
    board.screenshot(path=str(ARTIFACTS / "phone-cribbage-board-scaled.png"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_board_is_said_in_the_readers_language_and_not_in_the_embed(client, owner):
    match = store(owner, simulate_match("fives-and-threes", 2, seed=3))
    said = {
        "en": "The scores on a cribbage board",
        "ru": "Счёт на доске для криббиджа",
        "ka": "ანგარიში კრიბიჯის დაფაზე",
    }
    for language, words in said.items():
        client.cookies["django_language"] = language
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert words in page and 'data-target="61"' in page, language
        assert "replays/cribbage" in page
    embed = client.get(f"/embed/matches/{match.pk}/").content.decode()
    assert "cribbage" not in embed


def test_on_a_wide_screen_the_board_is_beside_the_score_chart(page, live_server, owner):
    match = store(owner, simulate_match("fives-and-threes", 4, teams=True, seed=6))
    open_replay(page, f"{live_server.url}/matches/{match.pk}/")
    page.locator("#last").click()
    views = page.locator(".score-views")
    views.scroll_into_view_if_needed()
    chart = page.locator(".score-chart").bounding_box()
    board = page.locator("#cribbage-box").bounding_box()
    assert board["x"] >= chart["x"] + chart["width"], (chart, board)
    assert abs(board["y"] - chart["y"]) < 40, (chart, board)
    assert pegs(page) == ([41, 61], [40, 60])
    views.screenshot(path=str(ARTIFACTS / "wide-cribbage-beside-chart.png"))
