"""What the recorder keeps in the phone: an append-only log of its taps, one key a step, so a
tap writes as little at the end of a 500-point match as at its start; and a match kept by the
recorder before the log (one key, every earlier version kept for undo) is taken over on load,
not lost, even when the old store leaves no room for the log."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from bench.phone_storage import long_match
from bench.phone_storage import so_far as bench_so_far
from games.models import Upload

from . import test_recorder_browser as table
from .helpers import tile_name
from .test_recorder_browser import (
    MUGGINS_2,
    check_stored,
    open_recorder,
    record_of,
    save_and_wait,
)

# The phone of the recorder's browser tests (Nino's, 390x844, in Tbilisi's time).
browser = table.browser
phone = table.phone

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)

OLD_KEY = "fives-recorder/nino"
# Every byte the page writes to localStorage (key and value, UTF-8), counted as it writes.
COUNT_WRITES = """
(() => {
  const setItem = Storage.prototype.setItem;
  const encoder = new TextEncoder();
  window.fivesWritten = 0;
  Storage.prototype.setItem = function (key, value) {
    window.fivesWritten += encoder.encode(String(key) + String(value)).length;
    return setItem.call(this, key, value);
  };
})();
"""


def so_far(doc: dict[str, Any], hand: int, moves: int) -> dict[str, Any]:
    """The phone's record of ``doc`` after ``moves`` moves of hand ``hand``."""
    return bench_so_far(doc, "Tbilisi Fives Club", hand, moves, record_id="rec-kept-before-the-log")


def old_store(current: dict[str, Any], *, left=None, history: list[str] = (), outbox=()) -> str:
    """The recorder's store before the log: one key, the match with its undo history."""
    return json.dumps(
        {
            "current": {
                "club": "tbilisi-fives-club",
                "doc": current,
                "left": left,
                "drawShown": False,
                "history": list(history),
            },
            "outbox": list(outbox),
            "sent": [],
        }
    )


def keep_before_opening(context, store: str, *, fill: bool = False) -> None:
    """Put ``store`` where the recorder before the log kept it (``fill``: and take the rest
    of the origin's storage, a phone whose storage is full)."""
    page = context.new_page()
    page.goto("/")
    page.evaluate(
        "([key, value]) => { localStorage.clear(); localStorage.setItem(key, value); }",
        [OLD_KEY, store],
    )
    if fill:
        page.evaluate(
            """() => {
              let low = 0, high = 12000000;
              while (high - low > 200) {
                const mid = Math.floor((low + high) / 2);
                try { localStorage.setItem("filler", "x".repeat(mid)); low = mid; }
                catch (e) { localStorage.removeItem("filler"); high = mid; }
              }
              localStorage.setItem("filler", "x".repeat(low));
            }"""
        )
        # No room left for a log of even a few steps.
        room = page.evaluate(
            """() => {
              try { localStorage.setItem("probe", "x".repeat(1000)); } catch (e) { return false; }
              localStorage.removeItem("probe");
              return true;
            }"""
        )
        assert not room
    page.close()


def written_per_move(recorder, moves: list[dict[str, Any]]) -> list[int]:
    """Tap ``moves``; return the bytes the page wrote to localStorage for each."""
    page = recorder.page
    out = []
    for move in moves:
        before = page.evaluate("window.fivesWritten")
        recorder.move(move)
        out.append(page.evaluate("window.fivesWritten") - before)
    return out


def test_a_tap_writes_as_little_at_the_end_of_a_500_point_match_as_at_its_start(phone, owner):
    doc = long_match()
    phone.add_init_script(COUNT_WRITES)
    recorder = open_recorder(phone)
    recorder.set_up(doc, "tbilisi-fives-club")
    start = written_per_move(recorder, doc["hands"][0]["moves"][:10])
    recorder.page.close()
    # The phone holds the match up to the last ten moves of its last hand (kept by the
    # recorder before the log: it is taken over on load), and the table goes on.
    last = len(doc["hands"]) - 1
    cut = len(doc["hands"][last]["moves"]) - 10
    keep_before_opening(phone, old_store(so_far(doc, last, cut)))
    recorder = open_recorder(phone)
    recorder.ready()
    recorder.expect(recorder.page.locator("#table")).to_be_visible()
    end = written_per_move(recorder, doc["hands"][last]["moves"][cut:])
    recorder.show_left(doc["hands"][last]["left"])
    print(f"bytes written per tap: start {start}, end of a 500-point match {end}")
    # A step and the number of steps: a few dozen bytes, the index's digits more at the end.
    assert max(start) < 160 and max(end) < 160
    assert max(end) <= max(start) + 6
    recorder.expect(recorder.page.locator("#over")).to_be_visible()
    save_and_wait(recorder)
    check_stored(owner, doc)
    assert recorder.errors == []


def test_a_match_kept_before_the_log_is_taken_over_with_its_tiles_shown_and_undo(phone, owner):
    doc = record_of(*MUGGINS_2)
    # The second hand is over and its first tile shown (of Giorgi's two) when the new
    # recorder arrives.
    hand = doc["hands"][1]
    seat = next(s for s, tiles in enumerate(hand["left"]) if tiles)
    count = len(hand["left"][seat])
    assert count > 1
    shown = [[] for _ in hand["left"]]
    shown[seat] = hand["left"][seat][:1]
    kept = so_far(doc, 1, len(hand["moves"]))
    history = [json.dumps({"club": "tbilisi-fives-club", "doc": kept, "left": None})] * 30
    keep_before_opening(phone, old_store(kept, left=shown, history=history))
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.ready()
    heading = page.locator("#left-heading")
    expect(heading).to_contain_text(f"{doc['players'][seat]} shows (1 of {count})")
    # The old key is gone; the log holds the match, a step a tap.
    assert page.evaluate(f"localStorage.getItem({OLD_KEY!r})") is None
    steps = page.evaluate("Number(localStorage.getItem('fives-recorder/nino/steps'))")
    first = doc["hands"][0]
    assert steps == len(first["moves"]) + 1 + 1 + len(hand["moves"]) + 1
    # Undo goes on past what was migrated: the tile shown, then the last move.
    recorder.tap("#undo")
    expect(heading).to_contain_text(f"(0 of {count})")
    recorder.tap("#undo")
    expect(heading).to_be_hidden()
    recorder.move(hand["moves"][-1])
    recorder.show_left(hand["left"])
    for index, later in enumerate(doc["hands"][2:], start=2):
        recorder.hand(index, later)
    recorder.expect(page.locator("#over")).to_be_visible()
    save_and_wait(recorder)
    check_stored(owner, doc)
    assert recorder.errors == []


def test_a_full_phone_keeps_its_old_match_and_outbox(phone, owner):
    # The old store with a long undo history and the rest of the storage taken: the log
    # finds no room until the history, which the log makes useless, is dropped.
    doc = record_of(*MUGGINS_2)
    kept = so_far(doc, 1, 4)
    waiting = {**so_far(doc, 0, 3), "id": "rec-waiting"}
    entry = {
        "id": "rec-waiting",
        "club": "tbilisi-fives-club",
        "user": "nino",
        "text": json.dumps(waiting),
    }
    history = [json.dumps({"club": "tbilisi-fives-club", "doc": kept, "left": None})] * 200
    keep_before_opening(phone, old_store(kept, history=history, outbox=[entry]), fill=True)
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.ready()
    expect(page.locator("#table")).to_be_visible()
    assert page.evaluate(f"localStorage.getItem({OLD_KEY!r})") is None
    played = {tile_name(m["play"]) for m in kept["hands"][1]["moves"] if "play" in m}
    disabled = page.locator("#picker button:disabled")
    assert played <= set(disabled.evaluate_all("bs => bs.map(b => b.dataset.tile)"))
    # The match that waited in the old outbox is sent, once.
    expect(page.locator("body[data-outbox='0']")).to_have_count(1, timeout=30000)
    upload = Upload.objects.get(uploader=owner)
    assert json.loads(upload.document)["id"] == "rec-waiting"
    recorder.hand(1, doc["hands"][1], slice(4, None))
    for index, hand in enumerate(doc["hands"][2:], start=2):
        recorder.hand(index, hand)
    expect(page.locator("#over")).to_be_visible()
    assert recorder.errors == []
