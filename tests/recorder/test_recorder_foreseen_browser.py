"""A tap drawn before the engine's round trip (issue 56, item 9), in a real browser (Debian's
chromium, 390x844): the engine in the page's worker answers, with each answer, the taps that
may come next (recorder.table.foresee), and the page draws a tap from that answer in the tap's
own frame. Here the worker's answers are held back (the page's Worker wrapped by an init
script) to show the move on the board, in the scores and in the call while the engine has not
answered; and altered, to show a disagreement drawn again from the engine's answer, and a tap
the engine refuses taken back in its words."""

from __future__ import annotations

import copy
import os

import pytest
from django.test import Client

from recorder.table import analyse_ahead

from .helpers import PHONE, launch, quiet, tile_name
from .test_recorder_browser import (
    MODEL_BACKEND,
    MUGGINS_2,
    moves_of,
    open_recorder,
    record_of,
    stored_steps,
)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)

# The page's Worker, wrapped: while window.fivesHold is set, the engine's answers wait in
# window.fivesHeld until window.fivesRelease(); window.fivesTamper, when set, changes each
# answer before the page has it.
HOLD = """
(() => {
  const Real = window.Worker;
  window.fivesHold = false;
  window.fivesHeld = [];
  window.fivesTamper = null;
  window.Worker = class extends Real {
    set onmessage(handler) {
      super.onmessage = (event) => {
        const data = event.data;
        if (data && data.answer && window.fivesTamper) window.fivesTamper(data.answer);
        if (data && data.answer && window.fivesHold) {
          window.fivesHeld.push(() => handler.call(this, event));
          return;
        }
        handler.call(this, event);
      };
    }
    get onmessage() {
      return super.onmessage;
    }
  };
  window.fivesRelease = () => {
    window.fivesHold = false;
    for (const answer of window.fivesHeld.splice(0)) answer();
  };
})();
"""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server, owner):
    """A phone-sized browser signed in as Nino (who owns the Tbilisi Fives Club), its engine's
    answers held back or changed at the test's word (HOLD)."""
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    context.add_init_script(HOLD)
    yield context
    quiet(context)
    context.close()


def scoring_play(doc: dict) -> tuple[int, dict, dict]:
    """The first play of the first hand after the third move that scores and fits one end:
    its index, the move and the engine's answer foreseen for it."""
    head = {key: value for key, value in doc.items() if key != "final_scores"}
    hand = doc["hands"][0]
    for index, move in enumerate(hand["moves"]):
        if index < 3 or "play" not in move or not move.get("points"):
            continue
        partial = copy.deepcopy(head)
        partial["hands"] = [{"leader": hand["leader"], "moves": hand["moves"][:index]}]
        answer = analyse_ahead(partial)["ahead"][f"play {tile_name(move['play'])}"]
        if not answer["report"]["errors"]:
            return index, move, answer
    raise AssertionError("no scoring play that fits one end")


def shows(recorder, move: dict, answer: dict, players: list[str]) -> None:
    """The page shows ``move`` as the engine's ``answer`` says it: the tile on the board, the
    scores, the call."""
    page, expect = recorder.page, recorder.expect
    laid = tile_name(move["play"])
    low, high = laid.split("-")
    on_board = f"#board [data-tile='{low}-{high}'], #board [data-tile='{high}-{low}']"
    expect(page.locator(on_board)).to_have_count(1)
    expect(page.locator(f"#picker [data-tile='{laid}']")).to_be_disabled()
    scores = answer["state"]["scores"]
    expect(page.locator("#scores li")).to_have_text(
        [f"{name}: {score}" for name, score in zip(players, scores, strict=True)]
    )
    who = players[move["seat"]]
    expect(page.locator("#call")).to_contain_text(f"{who} scores {move['points']}")


def test_a_tap_is_drawn_before_the_engine_answers_it(phone, owner):
    doc = record_of(*MUGGINS_2)
    hand = doc["hands"][0]
    index, move, answer = scoring_play(doc)
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.hand(0, hand, slice(0, index))
    page.evaluate("() => { window.fivesHold = true; }")
    page.locator(f"#picker [data-tile='{tile_name(move['play'])}']").click()
    # The engine's check of the tap is held back: the page shows the move all the same.
    shows(recorder, move, answer, doc["players"])
    expect(page.locator("body[data-busy='1']")).to_have_count(1)
    page.wait_for_function("() => window.fivesHeld.length === 1")
    shows(recorder, move, answer, doc["players"])
    # Written to the phone's storage once the engine has checked it, as the engine keeps it
    # (its end and points).
    steps = len(stored_steps(page))
    page.evaluate("() => window.fivesRelease()")
    recorder.settled()
    shows(recorder, move, answer, doc["players"])
    assert len(stored_steps(page)) == steps + 1
    assert moves_of(stored_steps(page))[-1] == {**move, "play": tile_name(move["play"])}
    assert page.locator("body[data-reconciled]").count() == 0
    # The rest of the hand, each tap drawn from the answers the engine gave with its check.
    recorder.hand(0, hand, slice(index + 1, None))
    expect(page.locator("body[data-phase=next-hand]")).to_have_count(1)
    assert page.locator("body[data-reconciled]").count() == 0
    assert recorder.errors == []


def test_what_the_engine_answers_otherwise_is_drawn_again_from_its_answer(phone, owner):
    doc = record_of(*MUGGINS_2)
    hand = doc["hands"][0]
    index, move, answer = scoring_play(doc)
    tile = tile_name(move["play"])
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.hand(0, hand, slice(0, index - 1))
    # The answer foreseen for the tile says other scores than the engine's check will.
    page.evaluate(
        """(tile) => {
          window.fivesTamper = (answer) => {
            const said = answer.ahead && answer.ahead["play " + tile];
            if (said) said.state.scores = said.state.scores.map(() => 999);
          };
        }""",
        tile,
    )
    recorder.hand(0, hand, slice(index - 1, index))
    page.evaluate("() => { window.fivesTamper = null; window.fivesHold = true; }")
    page.locator(f"#picker [data-tile='{tile}']").click()
    expect(page.locator("#scores li")).to_have_text([f"{name}: 999" for name in doc["players"]])
    page.wait_for_function("() => window.fivesHeld.length === 1")
    page.evaluate("() => window.fivesRelease()")
    recorder.settled()
    # Drawn again from the engine's answer, the move kept.
    shows(recorder, move, answer, doc["players"])
    expect(page.locator("body[data-reconciled='1']")).to_have_count(1)
    assert moves_of(stored_steps(page))[-1] == {**move, "play": tile}

    # A tile that fits no open end, foreseen (wrongly) as an accepted move: drawn at once,
    # then taken back in the engine's words when its check refuses it.
    pips = {end["pip"] for end in answer["state"]["open_ends"]}
    laid = set(answer["laid"])
    wrong = next(
        t
        for t in (f"{a}-{b}" for a in range(7) for b in range(a, 7))
        if t not in laid and not ({int(p) for p in t.split("-")} & pips)
    )
    page.evaluate(
        """(wrong) => {
          window.fivesTamper = (answer) => {
            const ahead = answer.ahead || {};
            const taken = Object.values(ahead).find((said) => !said.report.errors.length);
            if (!taken) return;
            const move = { seat: taken.move.seat, play: wrong };
            ahead["play " + wrong] = { ...taken, move: move };
          };
        }""",
        wrong,
    )
    # The tamper meets the answer the page draws from: the tap's check is asked again.
    recorder.tap("#undo")
    recorder.tap(f"#picker [data-tile='{tile}']")
    steps = len(stored_steps(page))
    page.evaluate("() => { window.fivesTamper = null; window.fivesHold = true; }")
    page.locator(f"#picker [data-tile='{wrong}']").click()
    # Drawn from the (wrong) answer foreseen, the engine's check held back: not written.
    expect(page.locator("body[data-busy='1']")).to_have_count(1)
    assert len(stored_steps(page)) == steps
    page.wait_for_function("() => window.fivesHeld.length === 1")
    page.evaluate("() => window.fivesRelease()")
    recorder.settled()
    expect(page.locator("#error")).to_contain_text(f"{wrong} matches no open end")
    expect(page.locator("body[data-reconciled='2']")).to_have_count(1)
    expect(page.locator(f"#picker [data-tile='{wrong}']")).to_be_enabled()
    assert len(stored_steps(page)) == steps
    shows(recorder, move, answer, doc["players"])
    # The table goes on from the engine's answer.
    recorder.hand(0, hand, slice(index + 1, None))
    expect(page.locator("body[data-phase=next-hand]")).to_have_count(1)
    assert recorder.errors == []


def test_a_tap_is_drawn_on_its_press_and_plays_once_when_let_go_over_its_button(phone, owner):
    """A tap the engine foresaw is drawn when its button goes down (issue 56); it plays once,
    let go over the button, as a button's click does; a press let go elsewhere, or cancelled,
    plays nothing and the table is drawn back; Enter on a button plays as a click did."""
    doc = record_of(*MUGGINS_2)
    hand = doc["hands"][0]
    index, move, answer = scoring_play(doc)
    tile = tile_name(move["play"])
    low, high = tile.split("-")
    on_board = f"#board [data-tile='{low}-{high}'], #board [data-tile='{high}-{low}']"
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.hand(0, hand, slice(0, index))
    scores_before = page.locator("#scores li").all_text_contents()
    call_before = page.locator("#call").text_content()
    steps = len(stored_steps(page))
    button = page.locator(f"#picker [data-tile='{tile}']")
    box = button.bounding_box()
    away = page.locator("#turn").bounding_box()

    def drawn_back() -> None:
        expect(page.locator(on_board)).to_have_count(0)
        expect(page.locator("#scores li")).to_have_text(scores_before)
        expect(page.locator("#call")).to_have_text(call_before)
        expect(button).to_be_enabled()
        recorder.settled()
        assert len(stored_steps(page)) == steps

    # Pressed: the move is drawn while the button is down, and not played yet.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(page.locator(on_board)).to_have_count(1)
    expect(page.locator("#call")).to_contain_text(f"{doc['players'][move['seat']]} scores")
    assert page.evaluate("() => document.body.dataset.busy || '0'") == "0"
    # Let go elsewhere: nothing played, the table as it was.
    page.mouse.move(away["x"] + 5, away["y"] + 5, steps=4)
    page.mouse.up()
    drawn_back()
    # Cancelled (as the browser does when a finger's press turns into a scroll).
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(page.locator(on_board)).to_have_count(1)
    page.evaluate(
        "() => document.dispatchEvent(new PointerEvent('pointercancel',"
        " { pointerId: 1, isPrimary: true, pointerType: 'mouse' }))"
    )
    drawn_back()
    page.mouse.move(away["x"] + 5, away["y"] + 5, steps=4)
    page.mouse.up()
    drawn_back()
    # Pressed and let go over the button: played once (its click is the same tap).
    page.evaluate("() => { window.fivesHold = true; }")
    button.click()
    shows(recorder, move, answer, doc["players"])
    page.wait_for_function("() => window.fivesHeld.length === 1")
    page.evaluate("() => window.fivesRelease()")
    recorder.settled()
    assert len(stored_steps(page)) == steps + 1
    assert moves_of(stored_steps(page))[-1] == {**move, "play": tile}
    shows(recorder, move, answer, doc["players"])
    # The keyboard: Enter (and Space) on the next move's buttons play it, once.
    following = hand["moves"][index + 1]
    keyboard_move(recorder, following)
    assert len(stored_steps(page)) == steps + 2
    played = moves_of(stored_steps(page))[-1]
    if "play" in following:
        following = {**following, "play": tile_name(following["play"])}
    assert played == following
    # The rest of the hand as taps.
    recorder.hand(0, hand, slice(index + 2, None))
    expect(page.locator("body[data-phase=next-hand]")).to_have_count(1)
    assert page.locator("body[data-reconciled]").count() == 0
    assert recorder.errors == []


def keyboard_move(recorder, move: dict) -> None:
    """A move made from the keyboard: Enter on its buttons (Space on an end's)."""
    page = recorder.page
    if "play" in move:
        page.locator(f"#picker [data-tile='{tile_name(move['play'])}']").press("Enter")
        if page.locator("#end-picker").is_visible():
            page.locator(f"#end-buttons [data-end='{move['end']}']").press("Space")
    elif move.get("draw") == "?":
        page.locator("#drew").press("Enter")
    elif "draw" in move:
        page.locator("#drew-shown").press("Enter")
        page.locator(f"#picker [data-tile='{tile_name(move['draw'])}']").press("Enter")
    else:
        page.locator("#knock").press("Enter")
    recorder.settled()
