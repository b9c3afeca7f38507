"""Make the match-equity samples: the ``expected`` bot plays hands against itself.

``python -m fives_engine equity --preset muggins --players 2 --hands 2000`` writes
``engine/fives_engine/equity/muggins-2.json``: each hand led by seat 0 (side 0), dealt at random,
played from 0-0 with the target out of reach, kept as ``equity.HandSample``. The table of a
target is solved from them when a review asks (``equity.table_for``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from .bots import BOTS
from .equity import DATA, EQUITY_VERSION, EquityTable, HandSample, config_name, solve
from .game import PLAY, MatchState
from .limits import MAX_NUMBER
from .rules import resolve_ruleset
from .simulate import PARTNERSHIPS, simulate_hand

# The configurations the archive publishes: every preset, two players and two partnerships.
CONFIGS = [
    (base, players, players == 4)
    for base in ("all-fives", "muggins", "all-threes", "fives-and-threes")
    for players in (2, 4)
]


def sample_hands(
    base: str,
    players: int,
    teams: bool,
    count: int,
    *,
    seed: int = 0,
    bot: str = "expected-points",
    progress: Callable[[int], None] | None = None,
) -> list[HandSample]:
    """Return ``count`` hands of the preset, each led by seat 0, played by ``bot``."""
    rules = resolve_ruleset({"base": base, "target": MAX_NUMBER}, players)
    rng = random.Random(seed)
    seat_bots = [BOTS[bot]] * players
    samples: list[HandSample] = []
    for index in range(count):
        match = MatchState.create(rules, players, PARTNERSHIPS if teams else None)
        hand = simulate_hand(match, 0, rng, seat_bots)
        team = match.team_of
        plays = tuple(
            (team[move.seat], int(move.points))
            for move in hand.moves
            if move.kind == PLAY and move.points
        )
        settled = match.results[-1].settlement
        leaders = match.leaders
        sides = {team[seat] for seat in leaders} if leaders is not None else {0, 1}
        next_side = sides.pop() if len(sides) == 1 else -1
        samples.append(HandSample(plays, (settled[0], settled[1]), next_side))
        if progress is not None:
            progress(index + 1)
    return samples


def make(base: str, players: int, teams: bool, count: int, *, seed: int = 0) -> dict[str, Any]:
    """Sample the hands of one configuration, write its file, return what was written."""
    started = time.perf_counter()
    samples = sample_hands(base, players, teams, count, seed=seed)
    seconds = time.perf_counter() - started
    rules = resolve_ruleset(base, players)
    table = solve(samples, rules.target, rules.end_at_target, rules.target_exact)
    data = {
        "version": EQUITY_VERSION,
        "preset": base,
        "players": players,
        "teams": teams,
        "bot": "expected-points",
        "seed": seed,
        "seconds": round(seconds, 1),
        # The table at the preset's own target, for readers of the file; the archive solves
        # it again from the samples.
        "table": table.as_dict(rules.end_at_target, rules.target_exact),
        "samples": [sample.as_list() for sample in samples],
    }
    DATA.mkdir(exist_ok=True)
    path = DATA / f"{config_name(base, players, teams)}.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    return data


def chart_svg(table: EquityTable, others: tuple[int, ...], title: str) -> str:
    """Return an SVG line chart of the leading side's chance (y, percent) against its own
    score (x), one line for each of the other side's scores ``others``."""
    width, height, left, right, top, bottom = 640, 360, 48, 100, 30, 310
    target = table.target
    colours = ("#1b6ca8", "#c0392b", "#27ae60", "#8e44ad", "#d35400")

    def x(score: float) -> float:
        return left + (score - table.low) * (width - left - right) / (target - table.low)

    def y(chance: float) -> float:
        return bottom - chance * (bottom - top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" font-size="12">',
        f"<title>{title}</title>",
        f'<text x="{left}" y="18" font-size="14">{title}</text>',
    ]
    for tick in range(0, 101, 25):
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick / 100):.1f}" '
            f'y2="{y(tick / 100):.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y(tick / 100) + 4:.1f}" text-anchor="end">{tick} %</text>'
        )
    step = 50 if target > 100 else 10
    for score in range(-(-table.low // step) * step, target + 1, step):
        out.append(
            f'<text x="{x(score):.1f}" y="{bottom + 16}" text-anchor="middle">{score}</text>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">'
        "the leading side's score</text>"
    )
    scores = [table.low + i * table.step for i in range(len(table.leading))]
    for index, (colour, other) in enumerate(zip(colours, others, strict=False)):
        points = " ".join(
            f"{x(score):.1f},{y(table.chance([score, other], 0, 0)):.1f}" for score in scores
        )
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(
            f'<text x="{width - right + 8}" y="{top + 20 + 18 * index}" fill="{colour}">'
            f"other {other}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
