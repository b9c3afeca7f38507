"""The recorder's call into the engine (``recorder.table.analyse``) for Fives and Threes:
what a play scored as the engine scored it (the go-out bonus in, nothing for a bust), the
bust said apart, no drawing, and the pegs of the cribbage board."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest

from fives_engine import to_table_record, validate_log
from fives_engine.simulate import simulate_match
from fives_engine.tiles import NAME
from recorder.table import analyse

from .test_recorder_browser import (  # browser and phone: the fixtures
    ARTIFACTS,
    browser,  # noqa: F401
    check_stored,
    open_recorder,
    phone,  # noqa: F401
    save_and_wait,
)

CASES = pathlib.Path(__file__).resolve().parents[1] / "engine" / "cases"
# A four-player partnership match (seed 6): a bust at 60 (hand 3, move 12), a hand ended by
# going out that scores only its bonus (hand 2, move 26: a count of 17), a seat out skipped.
SEED = 6


def partnership():
    return to_table_record(simulate_match("fives-and-threes", 4, teams=True, seed=SEED))


def cut(doc, hand, moves, left=False):
    """The record as it stands after ``moves`` moves of hand ``hand`` (its ``left`` only
    with ``left``)."""
    doc = copy.deepcopy(doc)
    doc.pop("final_scores", None)
    doc["hands"] = doc["hands"][: hand + 1]
    last = doc["hands"][hand]
    last["moves"] = last["moves"][:moves]
    if not left:
        last.pop("left", None)
    return doc


def test_going_out_past_61_is_a_bust_scored_nothing_while_the_tiles_shown_are_asked():
    # RULES.md's case: at 59, a count of 6 (2 points) and 1 for going out would make 62.
    doc = to_table_record(
        json.loads((CASES / "fives_and_threes_bust_going_out_at_59.json").read_text())
    )
    hands = len(doc["hands"])
    waiting = cut(doc, hands - 1, len(doc["hands"][-1]["moves"]))
    answer = analyse(waiting)
    assert answer["phase"] == "left" and answer["report"]["errors"] == []
    state = answer["state"]
    assert state["hand_end"] == "domino" and state["count"] == 6
    # Not the count's 2 points (what the recorder said before it asked the engine).
    assert state["points"] == 0
    assert answer["bust"] == {"would": 62, "target": 61} and answer["bonus"] == 0
    assert answer["pegs"] == {"target": 61, "scores": [59, 31], "back": [58, 29]}
    assert validate_log(doc).scores == [59, 31]


def test_a_bust_mid_hand_scores_nothing_and_says_so():
    doc = partnership()
    answer = analyse(cut(doc, 2, 12))
    assert answer["phase"] == "play"
    state = answer["state"]
    assert state["action"]["play"] == "5-5" and state["count"] == 10  # 2 points at 60
    assert state["points"] == 0 and state["scores"] == [41, 60]
    assert answer["bust"] == {"would": 62, "target": 61}
    # The play before it scored: no bust said there.
    assert analyse(cut(doc, 2, 11))["bust"] is None


def test_going_out_scores_its_bonus_while_the_tiles_shown_are_asked():
    doc = partnership()
    answer = analyse(cut(doc, 1, 26))
    assert answer["phase"] == "left"
    state = answer["state"]
    # A count of 17 scores nothing; going out scores 1 (the count's points alone were 0).
    assert state["count"] == 17 and state["hand_end"] == "domino"
    assert state["points"] == 1 and answer["bonus"] == 1 and answer["bust"] is None
    assert state["scores"] == [31, 46]
    # The pegs: each side's score and its score before its last scoring play.
    assert answer["pegs"] == {"target": 61, "scores": [31, 46], "back": [25, 45]}
    # With the tiles shown, the hand is over (nothing settled) and the next seat leads.
    answer = analyse(cut(doc, 1, 26, left=True))
    assert answer["phase"] == "next-hand" and answer["state"]["scores"] == [31, 46]
    assert answer["next_leaders"] == [doc["hands"][2]["leader"]]


def test_a_seat_out_is_skipped_and_nobody_draws():
    doc = partnership()
    answer = analyse(cut(doc, 1, 18))  # seat 2 lays its last tile; its partner plays on
    assert answer["held"][2] == 0 and answer["state"]["turn"] == 3
    answer = analyse(cut(doc, 1, 21))  # seat 1 knocks: seat 2 is out, seat 3 plays
    assert answer["state"]["action"] == {"seat": 1, "pass": True}
    assert answer["state"]["turn"] == 3
    assert answer["draws"] is False and answer["may_draw"] is False
    # A draw is refused by the engine all the same.
    drawn = cut(doc, 1, 21)
    drawn["hands"][-1]["moves"].append({"seat": 3, "draw": "?"})
    assert analyse(drawn)["report"]["errors"][0]["code"] == "boneyard-empty"


def test_a_ruleset_that_draws_offers_the_draw_while_the_boneyard_allows():
    doc = to_table_record(simulate_match("muggins", 2, seed=383))
    answer = analyse(cut(doc, 0, 1))
    assert answer["draws"] is True and answer["may_draw"] is True
    assert answer["bust"] is None and answer["bonus"] == 0


def test_the_engine_says_the_tile_set_and_that_nobody_draws_or_knocks_before_the_lead():
    doc = to_table_record(simulate_match("muggins", 2, seed=383))
    before = analyse(cut(doc, 0, 0))
    assert before["tiles"] == NAME and len(set(before["tiles"])) == 28
    assert before["draws"] is True
    assert before["may_draw"] is False and before["may_knock"] is False
    after = analyse(cut(doc, 0, 1))
    assert after["may_knock"] is True


# --- in a phone's browser, by taps only ----------------------------------------------------


def pegs(page, selector: str) -> tuple[list[int], list[int]]:
    """The holes of each side's front and back pegs on the cribbage board ``selector``."""
    front, back = page.evaluate(
        """(s) => {
          const holes = (cls) => Array.from(document.querySelectorAll(s + " ." + cls),
            (peg) => Number(peg.dataset.hole));
          return [holes("crib-front"), holes("crib-back")];
        }""",
        selector,
    )
    return front, back


def no_overlap(page, selector: str) -> None:
    """No two pegs of the board cover each other, nor a side's name its score."""
    boxes = page.evaluate(
        """(s) => Array.from(document.querySelectorAll(s + " .crib-peg"))
          .filter((peg) => peg.style.display !== "none")
          .map((peg) => peg.getBoundingClientRect().toJSON())""",
        selector,
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["right"] <= b["left"] + 0.5
                or b["right"] <= a["left"] + 0.5
                or a["bottom"] <= b["top"] + 0.5
                or b["bottom"] <= a["top"] + 0.5
            )
            assert apart, (a, b)
    texts = page.evaluate(
        """(s) => Array.from(document.querySelectorAll(s + " .crib-track"), (g) =>
          [g.querySelector(".crib-name").getBBox(), g.querySelector(".crib-score").getBBox()]
          .map((b) => ({ left: b.x, right: b.x + b.width })))""",
        selector,
    )
    for name, score in texts:
        assert name["right"] < score["left"], (name, score)


@pytest.mark.django_db(transaction=True)
def test_record_a_partnership_hand_at_a_phone_by_taps_and_see_its_replay_pegged(
    phone,  # noqa: F811
    owner,
):
    ARTIFACTS.mkdir(exist_ok=True)
    doc = partnership()
    hands = doc["hands"]
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    # Nobody draws: no draw buttons, a knock button; the board of 61 holes, pegs at the start.
    expect(page.locator("#drew")).to_be_hidden()
    expect(page.locator("#drew-shown")).to_be_hidden()
    expect(page.locator("#knock")).to_be_visible()
    expect(page.locator("#cribbage-box")).to_be_visible()
    assert pegs(page, "#cribbage") == ([0, 0], [0, 0])
    recorder.hand(0, hands[0])
    recorder.hand(1, hands[1], slice(0, 18))  # the next hand, led by the rules' seat
    # Olga (seat 2) laid her last tile; her partner plays on, and her turn is skipped.
    expect(page.locator("#held li[data-seat='2']")).to_have_text("Olga is out")
    recorder.hand(1, hands[1], slice(18, 21))
    assert hands[1]["moves"][20] == {"seat": 1, "pass": True}
    expect(page.locator("#turn")).to_have_attribute("data-seat", "3")
    # Giorgi goes out with a count of 17: 1 point, for going out, as the engine scores it.
    recorder.hand(1, hands[1], slice(21, 26))
    expect(page.locator("#call")).to_have_text("Giorgi scores 1! (1 for going out)")
    assert pegs(page, "#cribbage") == ([31, 46], [25, 45])
    recorder.show_left(hands[1]["left"])
    recorder.hand(2, hands[2], slice(0, 12))
    # Giorgi's 5-5 makes a count of 10 (2 points) at 60: a bust, said on screen.
    expect(page.locator("#call")).to_have_text(
        "Giorgi plays 5-5. Bust: 62 would pass 61, nothing scored"
    )
    expect(page.locator("#scores li[data-team='1']")).to_have_text("Giorgi & Ivan: 60")
    assert pegs(page, "#cribbage") == ([41, 60], [40, 58])
    no_overlap(page, "#cribbage")
    page.screenshot(path=str(ARTIFACTS / "fives-and-threes-recorder-bust.png"))
    recorder.hand(2, hands[2], slice(12, None))
    expect(page.locator("#over")).to_be_visible()
    assert pegs(page, "#cribbage") == ([41, 61], [40, 60])
    page.screenshot(path=str(ARTIFACTS / "fives-and-threes-recorder-over.png"))
    save_and_wait(recorder)
    upload = check_stored(owner, doc)
    assert recorder.errors == []

    # Its replay, the cribbage board beside the score chart, its pegs following the replay.
    match = upload.items.get().match
    page.goto(match.get_absolute_url())
    page.wait_for_selector("#replay[data-complete='1']")
    board = page.locator("#cribbage-box")
    expect(board).to_have_attribute("open", "")
    board.scroll_into_view_if_needed()
    assert pegs(page, "#cribbage") == ([0, 0], [0, 0])  # the replay opens at the deal
    page.goto(match.get_absolute_url() + "#h3m12")
    page.wait_for_selector("#replay[data-complete='1']")
    expect(page.locator("#cribbage .crib-track[data-team='1']")).to_have_attribute(
        "data-score", "60"
    )
    assert pegs(page, "#cribbage") == ([41, 60], [40, 58])
    page.locator("#last").click()
    expect(page.locator("#cribbage .crib-track[data-team='1']")).to_have_attribute(
        "data-score", "61"
    )
    assert pegs(page, "#cribbage") == ([41, 61], [40, 60])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    no_overlap(page, "#cribbage")
    board.scroll_into_view_if_needed()
    board.screenshot(path=str(ARTIFACTS / "fives-and-threes-match-cribbage.png"))
    page.locator(".score-views").screenshot(
        path=str(ARTIFACTS / "fives-and-threes-match-scores.png")
    )
