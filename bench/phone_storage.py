"""Benchmark section ``storage``: what the recorder writes to the phone's storage per tap, at
the start and at the end of a 500-point match (issue 23: "storage per tap independent of the
match's length").

Measured in chromium on the archive ``bench.phonekit`` serves: every ``localStorage.setItem``
of the page is counted (key and value, UTF-8) while the first ten moves of a two-player Muggins
match to 500 are tapped, then the last ten (the phone holding the match up to there, kept by
the recorder before the log and taken over on load). Beside it, what the store before the log
wrote on those taps, computed from its format (the whole store, every earlier version of the
match kept for undo, written on every tap).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from fives_engine import to_table_record
from fives_engine.simulate import simulate_match

USER = "bench-phone"
STORE = f"fives-recorder/{USER}"
TAPS = 10
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
# What the log holds: every key of the user's recorder, in bytes.
HELD = f"""() => {{
  let bytes = 0;
  for (let i = 0; i < localStorage.length; i += 1) {{
    const key = localStorage.key(i);
    if (key.startsWith({json.dumps(STORE + "/")}))
      bytes += new TextEncoder().encode(key + localStorage.getItem(key)).length;
  }}
  return bytes;
}}"""


def long_match() -> dict[str, Any]:
    """A two-player Muggins match to 500 as a table record: 15 hands, 346 moves."""
    return to_table_record(simulate_match({"base": "muggins", "target": 500}, 2, seed=0))


def so_far(
    doc: dict[str, Any], club: str, hand: int, moves: int, *, record_id: str = "rec-bench"
) -> dict[str, Any]:
    """The phone's record of ``doc`` after ``moves`` moves of hand ``hand`` (its own id, club
    and date, as the recorder writes them). The recorder's storage tests use it too."""
    hands = [dict(h) for h in doc["hands"][:hand]]
    hands.append(
        {"leader": doc["hands"][hand]["leader"], "moves": doc["hands"][hand]["moves"][:moves]}
    )
    played = datetime.now(timezone(timedelta(hours=4))).replace(microsecond=0)
    return {
        "format": "fives/1",
        "record": "table",
        "id": record_id,
        "ruleset": doc["ruleset"],
        "players": doc["players"],
        "teams": doc.get("teams"),
        "club": club,
        "played_at": played.isoformat(),
        "source": "fives recorder",
        "hands": hands,
    }


def before_the_log(doc: dict[str, Any], club: str) -> list[int]:
    """Bytes the store before the log wrote on each tap of ``doc``: the whole store, the
    match with one snapshot per earlier tap."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    history = 0
    written = []
    for index, hand in enumerate(doc["hands"]):
        taps = len(hand["moves"]) + (1 if "left" in hand else 0) + (1 if index else 0)
        for tap in range(taps):
            moves = min(tap + (0 if index else 1), len(hand["moves"]))
            current = {"club": club, "doc": so_far(doc, club, index, moves), "left": None}
            store = {"current": {**current, "history": []}, "outbox": [], "sent": []}
            written.append(len(STORE) + len(json.dumps(store, **compact).encode()) + history)
            # Each state is kept for undo as a JSON string, escaped inside the store's JSON.
            history += len(json.dumps(json.dumps(current, **compact), **compact).encode()) + 1
    return written


def per_tap(recorder, moves: list[dict[str, Any]]) -> list[int]:
    page = recorder.page
    out = []
    for move in moves:
        before = page.evaluate("window.fivesWritten")
        recorder.move(move)
        out.append(page.evaluate("window.fivesWritten") - before)
    return out


def summary(values: list[int]) -> str:
    return f"{max(values)} B (mean {sum(values) / len(values):.0f})"


def run(kit) -> list[tuple[str, str, str]]:
    from playwright.sync_api import expect

    from tests.recorder.helpers import Recorder

    doc = long_match()
    moves = sum(len(hand["moves"]) for hand in doc["hands"])
    rows: list[tuple[str, str, str]] = []
    with kit.chromium() as browser:
        context = kit.context(browser, user=USER)
        context.add_init_script(COUNT_WRITES)
        page = kit.page(context)
        page.goto("/record/")
        recorder = Recorder(page, expect)
        recorder.ready()
        slug = page.locator("#club option").first.get_attribute("value")
        club = page.locator("#club option").first.text_content()
        recorder.set_up(doc, slug)
        start = per_tap(recorder, doc["hands"][0]["moves"][:TAPS])
        # The phone holding the match up to its last ten moves, in the store before the log.
        last = len(doc["hands"]) - 1
        cut = len(doc["hands"][last]["moves"]) - TAPS
        current = {
            "club": slug,
            "doc": so_far(doc, club, last, cut),
            "left": None,
            "drawShown": False,
            "history": [],
        }
        page.evaluate(
            "([key, value]) => { localStorage.clear(); localStorage.setItem(key, value); }",
            [STORE, json.dumps({"current": current, "outbox": [], "sent": []})],
        )
        page.reload()
        recorder.ready()
        expect(page.locator("#table")).to_be_visible()
        end = per_tap(recorder, doc["hands"][last]["moves"][cut:])
        recorder.show_left(doc["hands"][last]["left"])
        held = page.evaluate(HELD)
        context.close()
    old = before_the_log(doc, club)
    goal = "the same at the start and the end"
    title = f"a Muggins match to 500 ({len(doc['hands'])} hands, {moves} moves)"
    rows.append((f"written per tap, first {TAPS} taps of {title}", summary(start), goal))
    rows.append((f"written per tap, last {TAPS} taps", summary(end), goal))
    rows.append(
        (
            "  before the log (computed): per tap, first / last",
            f"{old[TAPS - 1] / 1000:.0f} KB / {old[-1] / 1_000_000:.1f} MB",
            "",
        )
    )
    rows.append(("held in the phone at the end of that match", f"{held / 1000:.1f} KB", "< 5 MB"))
    return rows
