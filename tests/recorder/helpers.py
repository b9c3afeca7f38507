"""Driving the recorder page by taps only, from a table record: what a person at the table
would tap for each move (the tile laid and, only when asked, its end; "drew"; "knocked"),
the tiles shown at the end of each hand, and the next hand's leader."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
from typing import Any

import pytest

CHROMIUM = os.environ.get("FIVES_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}


def tile_name(text: str) -> str:
    """The picker's spelling of a tile: low pip first ("5-3" and "3-5" are one tile)."""
    if text == "?":
        return text
    a, b = sorted(int(pip) for pip in text.split("-"))
    return f"{a}-{b}"


def normalised(doc: dict[str, Any]) -> dict[str, Any]:
    """Return the match of a table record, tiles spelt as the picker spells them, without
    the metadata the phone adds (id, club, date, source)."""
    hands = []
    for hand in doc["hands"]:
        moves = []
        for move in hand["moves"]:
            move = dict(move)
            for key in ("play", "draw"):
                if key in move:
                    move[key] = tile_name(move[key])
            moves.append(move)
        out = {"leader": hand["leader"], "moves": moves}
        if "left" in hand:
            out["left"] = [[tile_name(tile) for tile in tiles] for tiles in hand["left"]]
        hands.append(out)
    return {
        "format": doc["format"],
        "record": doc.get("record"),
        "ruleset": doc["ruleset"],
        "players": doc["players"],
        "teams": doc.get("teams"),
        "hands": hands,
        "final_scores": doc.get("final_scores"),
    }


def launch(playwright):
    if not shutil.which(CHROMIUM):
        if os.environ.get("FIVES_REQUIRE_BROWSER") == "1":
            pytest.fail(f"FIVES_REQUIRE_BROWSER=1 but there is no {CHROMIUM}")
        pytest.skip(f"needs Debian's chromium at {CHROMIUM} (make browser installs it)")
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    )


def quiet(context) -> None:
    """Wait until every page of ``context`` has had its live steps answered: a step that
    ends a match stores it, and the test's database must not go while that is under way."""
    for page in context.pages:
        # A page closed or gone elsewhere has nothing in flight.
        with contextlib.suppress(Exception):
            page.evaluate("() => window.fivesLive ? window.fivesLive.idle() : null")


class Recorder:
    """One phone's recorder page, tapped as a person would."""

    def __init__(self, page, expect):
        self.page = page
        self.expect = expect

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.settled()

    def settled(self) -> None:
        """Wait until the engine (in its worker) has answered every tap so far."""
        idle = self.page.locator("body:not([data-busy]), body[data-busy='0']")
        self.expect(idle).to_have_count(1)

    def no_error(self) -> None:
        error = self.page.locator("#error").text_content()
        assert error == "", error

    def ready(self) -> None:
        self.expect(self.page.locator("body[data-engine=ready]")).to_have_count(1, timeout=60000)

    def set_up(self, doc: dict[str, Any], club: str) -> None:
        page = self.page
        self.ready()
        page.select_option("#club", value=club)
        ruleset = doc["ruleset"]
        if isinstance(ruleset, dict):  # a preset played to another target
            page.select_option("#ruleset", value=ruleset["base"])
            if "target" in ruleset:
                page.select_option("#target", value=str(ruleset["target"]))
            if ruleset.get("end_at_target") == "immediately":
                page.locator("#at-once").check()
        else:
            page.select_option("#ruleset", value=ruleset)
        page.locator(f"input[name=count][value='{len(doc['players'])}']").check()
        for seat, name in enumerate(doc["players"]):
            page.fill(f"#seat-{seat}", name)
        if doc.get("teams"):
            page.locator("#teams").check()
        page.select_option("#first-leader", index=doc["hands"][0]["leader"])
        self.tap("#start")
        self.expect(page.locator("#table")).to_be_visible()

    def move(self, move: dict[str, Any]) -> None:
        if "play" in move:
            self.tap(f"#picker [data-tile='{tile_name(move['play'])}']")
            if "end" not in move and tile_name(move["play"]) != move["play"]:
                # The lead as written: its first pip faces W (the picker lays it low first).
                self.tap("#turn-lead")
            if self.page.locator("#end-picker").is_visible():
                self.tap(f"#end-buttons [data-end='{move['end']}']")
        elif "draw" in move:
            if move["draw"] == "?":
                self.tap("#drew")
            else:
                self.tap("#drew-shown")
                self.tap(f"#picker [data-tile='{tile_name(move['draw'])}']")
        else:
            self.tap("#knock")
        self.no_error()

    def show_left(self, left: list[list[str]]) -> None:
        for tiles in left:
            for tile in tiles:
                self.tap(f"#picker [data-tile='{tile_name(tile)}']")
                self.no_error()

    def next_hand(self, leader: int) -> None:
        self.tap(f"#leaders [data-leader='{leader}']")
        self.tap("#next-hand")
        self.no_error()

    def hand(self, index: int, hand: dict[str, Any], moves: slice | None = None) -> None:
        """Tap a hand's moves (``moves``: some of them) and, at its end, its tiles shown."""
        if index > 0 and (moves is None or moves.start in (None, 0)):
            self.next_hand(hand["leader"])
        chosen = hand["moves"][moves] if moves is not None else hand["moves"]
        for move in chosen:
            self.move(move)
        if "left" in hand and (moves is None or moves.stop is None):
            self.show_left(hand["left"])

    def record(self, doc: dict[str, Any]) -> None:
        for index, hand in enumerate(doc["hands"]):
            self.hand(index, hand)


def expected_json(doc: dict[str, Any]) -> str:
    return json.dumps(normalised(copy.deepcopy(doc)), sort_keys=True)
