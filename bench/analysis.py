"""Benchmark: the expected-value review's bot against the greedy bot, and the review's time.

    python -m bench.analysis [--matches 60] [--seed 2026] [--jobs 1] [--no-plain]
    python -m bench.analysis --matches 1000 --jobs 2     # the issue's figures (a long run)

(a) Two-player All Fives and Muggins: ``--matches`` simulated matches each, the ``expected``
bot (games/engine/expected.py, docs/analysis.md) against the ``greedy`` bot, the expected bot
in seat 0 in even matches and seat 1 in odd ones; the share of matches it wins, with a 95%
interval. The ``plain`` bot (the issue's plain method: 16 sampled layouts, no inference from
draws and passes, greedy rollouts, points minus pips left) plays the same deals in the same
run, beside it. A match nobody won in 200 hands counts as not won.
(b) The whole review (``review_match``) of a typical two-player All Fives match of about 10
hands (greedy against greedy; the first of the seeds with 9 to 11 hands), best of
``--repeat`` runs, on one core, as a multiple of ``validate_log`` on the same match.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.engine import best_time
from games.engine import parse_log, validate_log
from games.engine.expected import DEFAULT_SAMPLES, review_match
from games.engine.simulate import simulate_match

PRESETS = ("all-fives", "muggins")


def play_one(task: tuple[str, str, int, int]) -> bool:
    """Return whether ``bot`` won match ``index`` (seed ``seed``) against greedy."""
    ruleset, bot, index, seed = task
    seat = index % 2
    bots = (bot, "greedy") if seat == 0 else ("greedy", bot)
    doc = simulate_match(ruleset, 2, seed=seed, bots=bots)
    return validate_log(doc).winner == seat


def interval(wins: int, total: int) -> tuple[float, float]:
    """Return a 95% Wilson interval of a share."""
    if not total:
        return 0.0, 0.0
    z = 1.96
    share = wins / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return centre - half / (1 + z * z / total), centre + half / (1 + z * z / total)


def win_rates(matches: int, seed: int, jobs: int, bots: list[str]) -> None:
    rng = random.Random(seed)
    seeds = [rng.getrandbits(48) for _ in range(matches)]
    print(f"(a) {matches} two-player matches per ruleset against greedy, seats swapped:")
    for ruleset in PRESETS:
        for bot in bots:
            tasks = [(ruleset, bot, index, s) for index, s in enumerate(seeds)]
            started = time.perf_counter()
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    won = list(pool.map(play_one, tasks, chunksize=4))
            else:
                won = [play_one(task) for task in tasks]
            took = time.perf_counter() - started
            wins = sum(won)
            low, high = interval(wins, matches)
            print(
                f"  {ruleset:10} {bot:9} wins {wins:4}/{matches} = {100 * wins / matches:5.1f}%"
                f"  (95%: {100 * low:.1f}-{100 * high:.1f})  {took / matches:.2f} s/match",
                flush=True,
            )


def typical_match() -> dict[str, Any]:
    """Return a two-player All Fives match of about 10 hands, greedy against greedy."""
    for seed in range(1000):
        doc = simulate_match("all-fives", 2, seed=seed)
        if 9 <= len(doc["hands"]) <= 11:
            return doc
    raise RuntimeError("no match of about 10 hands")


def review_time(repeat: int, samples: int) -> None:
    doc = typical_match()
    log = parse_log(doc)
    plays = sum(1 for hand in log.hands for move in hand.moves if move.kind == "play")
    validate = best_time(lambda: validate_log(doc), max(20, repeat * 10))
    review = best_time(lambda: review_match(log, samples=samples), repeat)
    result = review_match(log, samples=samples)
    exact = sum(play.exact for play in result.plays)
    print(
        f"(b) review of a {len(log.hands)}-hand two-player All Fives match ({plays} plays, "
        f"{exact} exact, {samples} layouts otherwise): {review:.2f} s, "
        f"{review / validate:,.0f} x validate_log ({1000 * validate:.2f} ms)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis", description=__doc__)
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the matches")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--no-plain", action="store_true", help="leave the plain method out")
    parser.add_argument("--no-matches", action="store_true", help="only the review's time")
    args = parser.parse_args(argv)
    review_time(args.repeat, args.samples)
    if not args.no_matches:
        bots = ["expected"] if args.no_plain else ["expected", "plain"]
        win_rates(args.matches, args.seed, args.jobs, bots)


if __name__ == "__main__":
    main()
