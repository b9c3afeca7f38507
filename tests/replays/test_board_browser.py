"""The board and the review as a player wants them, in Debian's chromium (issue 12).

No tile overlaps another or leaves the board at any position; the board keeps one size and
the buttons stay still while stepping; keys act only for the replay; the player's view hides
what that player could not see; the embed shows the board first at 720x480 without moving
its host page; a phone at 390x844 never scrolls sideways; a 200-hand match opens fast.
Screenshots land in test-artifacts/.
"""

from __future__ import annotations

import json
import time

import pytest

from fives_engine import PRESETS as ENGINE_PRESETS
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match

from .test_replay_browser import ARTIFACTS, engine_states, open_replay, store

pytestmark = pytest.mark.django_db(transaction=True)

PRESETS = list(ENGINE_PRESETS)
TABLES = [(2, False), (3, False), (4, False), (4, True)]

# Every tile of the board, in the board's own units, and the board's viewBox.
READ_BOARD = """() => {
  const board = document.querySelector('#board');
  const [x, y, w, h] = board.getAttribute('viewBox').split(' ').map(Number);
  const tiles = [...board.querySelectorAll('.tile')].map((n) => {
    const r = n.querySelector('rect').getBBox();
    const g = n.parentNode.transform.baseVal.consolidate();
    const dx = g ? g.matrix.e : 0, dy = g ? g.matrix.f : 0;
    return {x: r.x + dx, y: r.y + dy, w: r.width, h: r.height, id: n.dataset.arm + n.dataset.index};
  });
  return {view: {x, y, w, h}, tiles};
}"""


def problems(board: dict) -> list[str]:
    view = board["view"]
    wrong = []
    tiles = board["tiles"]
    for t in tiles:
        if not (
            t["x"] >= view["x"] - 0.01
            and t["y"] >= view["y"] - 0.01
            and t["x"] + t["w"] <= view["x"] + view["w"] + 0.01
            and t["y"] + t["h"] <= view["y"] + view["h"] + 0.01
        ):
            wrong.append(f"{t['id']} off the board")
    for i, p in enumerate(tiles):
        for q in tiles[i + 1 :]:
            if (
                p["x"] < q["x"] + q["w"] - 0.01
                and q["x"] < p["x"] + p["w"] - 0.01
                and p["y"] < q["y"] + q["h"] - 0.01
                and q["y"] < p["y"] + p["h"] - 0.01
            ):
                wrong.append(f"{p['id']} overlaps {q['id']}")
    return wrong


# tests/js/test_js.py checks layout.js under node over seeds 0 to 49 of every preset and table;
# the page, where each match costs a simulation and a replay in pure Python, takes six more.
PAGE_SEEDS = range(50, 56)


def test_the_geometry_in_the_page_over_six_matches_of_every_preset_and_table(
    page, live_server, owner
):
    """layout.js as the page loads it, over every position of six simulated matches of each
    preset and player count (others than node's): each hand framed once, centred in the
    match's board."""
    match = store(owner, simulate_match("muggins", 4, teams=True, seed=21))
    open_replay(page, f"{live_server.url}/matches/{match.pk}/")
    checked = 0
    for preset in PRESETS:
        for players, teams in TABLES:
            matches = []
            for seed in PAGE_SEEDS:
                hands: list[list[dict]] = []
                for state in replay_log(
                    simulate_match(preset, players, teams=teams, seed=seed)
                ).states:
                    if state["move"] is None:
                        hands.append([])
                    hands[-1].append(state["layout"])
                matches.append(hands)
            result = page.evaluate(
                """(matches) => {
                  const L = window.FivesLayout; const wrong = []; let positions = 0;
                  for (const [m, hands] of matches.entries()) {
                    const frames = hands.map((h) => L.place(h[h.length - 1]));
                    const boxes = frames.map((f) => f.box).filter(Boolean);
                    const W = Math.max(...boxes.map((b) => b.x1 - b.x0));
                    const H = Math.max(...boxes.map((b) => b.y1 - b.y0));
                    hands.forEach((hand, h) => hand.forEach((layout) => {
                      positions += 1;
                      const tiles = L.visible(frames[h], layout);
                      const [cx, cy] = frames[h].centre;
                      for (const [i, p] of tiles.entries()) {
                        if (p.x - cx < -W / 2 - 1e-9 || p.x + p.w - cx > W / 2 + 1e-9 ||
                            p.y - cy < -H / 2 - 1e-9 || p.y + p.h - cy > H / 2 + 1e-9)
                          wrong.push(`match ${m} hand ${h}: ${p.arm}${p.index} off the board`);
                        for (const q of tiles.slice(i + 1))
                          if (L.overlap(p, q))
                            wrong.push(`match ${m} hand ${h}: ${p.arm}${p.index} on ${q.index}`);
                      }
                    }));
                  }
                  return {positions, wrong: wrong.slice(0, 10)};
                }""",
                matches,
            )
            assert result["wrong"] == [], (preset, players, teams, result["wrong"])
            checked += result["positions"]
    count = len(PRESETS) * len(TABLES) * len(PAGE_SEEDS)
    print(
        f"\nboard in the page: {checked} positions of {count} matches, no overlap,"
        " none off the board"
    )
    assert checked > 50 * count


def test_every_position_of_stored_matches_draws_inside_the_board_and_holds_still(
    page, live_server, owner
):
    """Step through whole matches in the page: the drawn tiles never overlap or leave the
    board, the board keeps its size and the buttons under it never move."""
    for preset, players, teams, seed in [("muggins", 4, True, 21), ("all-fives", 2, False, 7)]:
        match = store(owner, simulate_match(preset, players, teams=teams, seed=seed))
        states = engine_states(match)
        open_replay(page, f"{live_server.url}/matches/{match.pk}/")
        page.focus("#replay")
        first = page.evaluate(
            "() => [document.querySelector('#board').getBoundingClientRect().toJSON(),"
            " document.querySelector('#next').getBoundingClientRect().toJSON()]"
        )
        for i in range(len(states)):
            if i:
                page.keyboard.press("j")
            board = page.evaluate(READ_BOARD)
            assert len(board["tiles"]) == (
                (1 if states[i]["layout"]["lead"] else 0)
                + sum(len(a) for a in states[i]["layout"]["arms"].values())
            )
            assert problems(board) == [], (preset, i, problems(board))
            now = page.evaluate(
                "() => [document.querySelector('#board').getBoundingClientRect().toJSON(),"
                " document.querySelector('#next').getBoundingClientRect().toJSON()]"
            )
            assert now == first, f"the board or the buttons moved at position {i}"


def test_keys_act_only_for_the_replay(page, live_server, owner):
    match = store(owner, simulate_match("muggins", 2, seed=3))
    open_replay(page, f"{live_server.url}/matches/{match.pk}/#h1m2")
    # Reading the hands table: focus and pointer elsewhere; keys scroll the page, not the replay.
    page.mouse.move(5, 5)
    page.click("table.hands tbody tr th")
    for key in ["j", "ArrowRight", "End", "ArrowDown"]:
        page.keyboard.press(key)
    assert page.evaluate("location.hash") == "#h1m2"
    # The pointer over the replay, or the replay focused: keys step.
    page.hover("#board")
    page.keyboard.press("j")
    assert page.evaluate("location.hash") == "#h1m3"
    page.mouse.move(5, 5)
    page.focus("#replay")
    page.keyboard.press("k")
    assert page.evaluate("location.hash") == "#h1m2"
    # A visible focus ring when the replay is reached by keyboard.
    page.focus("#next")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    outline = page.evaluate(
        "() => { const e = document.activeElement; const s = getComputedStyle(e);"
        " return [e.id, s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert outline[1] != "none" and outline[2] >= 2, outline


def test_the_players_view_shows_no_hidden_tile(page, live_server, owner):
    match = store(owner, simulate_match("muggins", 4, seed=8))
    states = engine_states(match)
    open_replay(page, f"{live_server.url}/matches/{match.pk}/")
    page.select_option("#view", "1")
    page.focus("#replay")
    mine = set()
    for i, state in enumerate(states):
        if i:
            page.keyboard.press("j")
        seen = page.evaluate(
            """() => ({
              faces: [...document.querySelectorAll('#hands .seat')].map(
                  (s) => s.querySelectorAll('[data-tile]').length),
              said: document.querySelector('#last-move').textContent})"""
        )
        assert seen["faces"] == [
            len(t) if seat == 1 else 0 for seat, t in enumerate(state["hands"])
        ]
        action = state["action"] or {}
        if "draw" in action and state["seat"] != 1:
            assert action["draw"] not in seen["said"]
        if state["move"] is None:
            mine = set(state["hands"][1])
        if (
            "play" in action
            and state["seat"] != 1
            and state.get("best", 0) > (state["points"] or 0)
        ):
            assert state["best_play"] not in seen["said"]
        if state["move"] is None:
            # The move list (this hand's) names neither others' draws nor better plays
            # from others' hands.
            listed = page.evaluate(
                "() => [...document.querySelectorAll('#move-list li button')]"
                ".map((b) => [b.textContent, b.title])"
            )
            moves = [s for s in states if s["hand"] == state["hand"] and s["move"] is not None]
            for (text, title), move in zip(listed, moves, strict=True):
                action = move["action"]
                if move["seat"] != 1 and "draw" in action:
                    assert action["draw"] not in text
                if move["seat"] != 1:
                    assert title == ""
    assert mine


def test_the_embed_shows_the_board_first_at_720x480_and_never_scrolls_its_host(
    page, live_server, owner
):
    match = store(owner, simulate_match("muggins", 4, teams=True, seed=21))
    page.set_viewport_size({"width": 1000, "height": 900})
    page.set_content(
        '<p style="height: 300px">host text</p>'
        f'<iframe id="f" src="{live_server.url}/embed/matches/{match.pk}/" width="720" height="480"'
        ' style="border: 0"></iframe><div style="height: 2000px"></div>'
    )
    frame = page.frame_locator("#f")
    frame.locator("#replay[data-complete='1']").wait_for()
    inner = page.frames[1]
    board = inner.evaluate(
        "() => document.querySelector('#board').getBoundingClientRect().toJSON()"
    )
    assert board["top"] >= 0 and board["bottom"] <= 480 and board["height"] > 150, board
    assert board["width"] > 400
    controls = inner.evaluate(
        "() => document.querySelector('#next').getBoundingClientRect().toJSON()"
    )
    assert controls["bottom"] <= 480
    scroll = page.evaluate("window.scrollY")
    for _ in range(40):
        frame.locator("#next").click()
    frame.locator("#last").click()
    inner.focus("#replay")
    for key in ["Home", "j", "j", "End", "ArrowUp"]:
        inner.press("#replay", key)
    assert page.evaluate("window.scrollY") == scroll
    page.screenshot(path=str(ARTIFACTS / "embed-720x480.png"))


def test_a_phone_never_scrolls_sideways_and_the_buttons_take_a_thumb(browser, live_server, owner):
    match = store(owner, simulate_match("muggins", 4, teams=True, seed=21))
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone = context.new_page()
    try:
        open_replay(phone, f"{live_server.url}/matches/{match.pk}/#h2m5")
        for _ in range(5):
            phone.tap("#next")
        sizes = phone.evaluate(
            "() => [...document.querySelectorAll('#replay .controls button')]"
            ".map((b) => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
        )
        assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
        # The board closes in on the tiles laid so far: on a phone a tile is big enough to
        # count its pips (its short side was 12 px here when the board showed the whole match).
        short = phone.evaluate(
            "() => Math.min(...[...document.querySelectorAll('#board .tile rect')]"
            ".map((r) => Math.min(r.getBoundingClientRect().width,"
            " r.getBoundingClientRect().height)))"
        )
        assert short >= 16, short
        print(f"\nphone: a tile's short side is {short:.1f} px")
        wide = phone.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert wide[0] <= wide[1], wide
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "replay-phone-390x844.png"), full_page=False)
    finally:
        context.close()


def test_a_200_hand_match_opens_light_and_fast(page, live_server, owner):
    """Prints the page's weight and its time to ready (the time printed, not asserted:
    machines are noisy; ``bench.replay`` compares the server's part, as ratios)."""
    doc = simulate_match({"base": "all-fives", "target": 100_000}, 2, seed=5, max_hands=200)
    assert len(doc["hands"]) == 200
    match = store(owner, doc)
    url = f"{live_server.url}/matches/{match.pk}/"
    page.request.get(url)  # the replay is computed once per version of the match, then cached
    sizes, wire = {}, {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body()) if r.ok else 0))
    page.on(
        "requestfinished",
        lambda r: wire.__setitem__(r.url, r.sizes()["responseBodySize"]),
    )
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#replay[data-ready='1']")
    ready_ms = page.evaluate("performance.getEntriesByName('replay-ready')[0].startTime")
    wall_ms = (time.perf_counter() - started) * 1000
    html = sizes[url]
    page.wait_for_selector("#replay[data-complete='1']", timeout=30_000)
    complete_ms = page.evaluate("performance.now()")
    first_load = sum(size for u, size in wire.items())
    states = page.evaluate("document.querySelectorAll('#move-list [data-state]').length")
    print(
        f"\n200-hand match ({states} listed): HTML {html / 1024:.0f} KB ({wire[url] / 1024:.0f}"
        f" KB gzipped), page with its scripts and styles {first_load / 1024:.0f} KB over the"
        f" wire; ready {ready_ms:.0f} ms after navigation ({wall_ms:.0f} ms wall); every hand"
        f" loaded at {complete_ms:.0f} ms"
    )
    # Every position is in the page (packed), gzipped: sizes are not noisy.
    assert wire[url] < 120 * 1024
    page.focus("#replay")
    page.keyboard.press("End")
    assert page.evaluate("location.hash").startswith("#h200m")


def _best(states, measure):
    return max(range(len(states)), key=lambda i: measure(states[i]["layout"]))


def test_screenshots_of_a_long_arm_and_a_cross(page, live_server, owner):
    """A long 2-player arm (no spinner: the line is all there is) and a 4-player cross."""
    ARTIFACTS.mkdir(exist_ok=True)
    shots = [
        (
            "board-long-arm-2p.png",
            {"base": "muggins", "spinner": False},
            2,
            False,
            lambda layout: max(len(a) for a in layout["arms"].values()),
        ),
        (
            "board-cross-4p.png",
            "all-fives",
            4,
            False,
            lambda layout: (
                min(len(layout["arms"][a]) for a in "WENS") * 100
                + sum(len(a) for a in layout["arms"].values())
            ),
        ),
    ]
    for name, ruleset, players, teams, measure in shots:
        best = None
        for seed in range(40):
            doc = simulate_match(ruleset, players, teams=teams, seed=seed)
            states = replay_log(doc).states
            i = _best(states, measure)
            if best is None or measure(states[i]["layout"]) > measure(best[1][best[2]]["layout"]):
                best = (doc, states, i)
        doc, states, i = best
        match = store(owner, json.loads(json.dumps(doc)))
        state = states[i]
        address = f"#h{state['hand'] + 1}m{0 if state['move'] is None else state['move'] + 1}"
        open_replay(page, f"{live_server.url}/matches/{match.pk}/{address}")
        assert problems(page.evaluate(READ_BOARD)) == []
        page.locator(".replay-main").screenshot(path=str(ARTIFACTS / name))
        print(
            f"\n{name}: {address}, arms "
            + ", ".join(f"{a} {len(t)}" for a, t in state["layout"]["arms"].items())
        )
