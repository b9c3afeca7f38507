"""The replay's JavaScript under node's own test runner (``node --test``, no npm package).

The board's geometry (replays/static/replays/layout.js) is checked over every position of
simulated matches of every preset and player count, fed to node from the engine's states,
and over constructed layouts with the longest arms the rules allow (tests/js/layout.test.js).
Skipped, saying so, where node is missing.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

from fives_engine import PRESETS as ENGINE_PRESETS
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match

HERE = pathlib.Path(__file__).resolve().parent
NODE = shutil.which("node")
PRESETS = list(ENGINE_PRESETS)
TABLES = [(2, False), (3, False), (4, False), (4, True)]
SEEDS = range(50)


def layouts_by_hand(doc: dict) -> list[list[dict]]:
    """Return the layout of every position of a match, hand by hand."""
    hands: list[list[dict]] = []
    for state in replay_log(doc).states:
        if state["move"] is None:
            hands.append([])
        hands[-1].append(state["layout"])
    return hands


def simulated_matches() -> list[dict]:
    matches = []
    for preset in PRESETS:
        for players, teams in TABLES:
            for seed in SEEDS:
                doc = simulate_match(preset, players, teams=teams, seed=seed)
                name = f"{preset} {players}{'t' if teams else ''} seed {seed}"
                matches.append({"name": name, "hands": layouts_by_hand(doc)})
    # Without a spinner the line is all there is: it grows longest.
    for players in (2, 3, 4):
        for seed in range(10):
            doc = simulate_match({"base": "muggins", "spinner": False}, players, seed=seed)
            matches.append(
                {"name": f"no spinner {players} seed {seed}", "hands": layouts_by_hand(doc)}
            )
    return matches


@pytest.mark.skipif(NODE is None, reason="needs node (v18 or newer) on PATH for node --test")
def test_the_layout_geometry_under_node(tmp_path):
    states = tmp_path / "layouts.json"
    matches = simulated_matches()
    states.write_text(json.dumps({"matches": matches}))
    result = subprocess.run(
        [NODE, "--test", str(HERE / "layout.test.js")],
        env={"FIVES_LAYOUT_STATES": str(states), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(result.stdout[-3000:])
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# pass 2" in result.stdout
