"""Benchmark: the expected-value review's bot against the greedy bot, and the review's time.

    python -m bench.analysis [--matches 60] [--seed 2026] [--jobs 1] [--no-plain]
    python -m bench.analysis --matches 1000 --jobs 2     # the issue's figures (a long run)

(a) Two-player All Fives and Muggins: ``--matches`` simulated matches each, the ``expected``
bot (engine/fives_engine/expected.py, docs/analysis.md) against the ``greedy`` bot, the expected bot
in seat 0 in even matches and seat 1 in odd ones; the share of matches it wins, with a 95%
interval. The ``plain`` bot (the issue's plain method: 16 sampled layouts, no inference from
draws and passes, greedy rollouts, points minus pips left) plays the same deals in the same
run, beside it, and the expected bot plays the plain bot on them too. The expected bot plays
for the chance to win the match (the equity tables). A match nobody won in 200 hands counts
as not won.
(b) The whole review (``review_match``) of a typical two-player All Fives match of about 10
hands (greedy against greedy; the first of the seeds with 9 to 11 hands), best of
``--repeat`` runs, on one core, as a multiple of ``validate_log`` on the same match.
(c) The published equity tables (engine/fives_engine/equity/): for each, the entries where a side's
chance falls as its own score rises or rises as the other's does (the table is monotone
when 0; a rise or fall of under 0.1 percentage point is counted apart, as noise of the
sampled hands), and the largest |chance of side 0 + chance of side 1 - 1| over every entry
and leader.
(d) ``--reviews`` simulated matches (every preset, two players and two partnerships, greedy
against random, so that there are mistakes to mark, and a third of them the expected bot
against greedy) reviewed whole: the plays marked, the
marked plays whose loss is within twice its standard error (the goal: 0), the largest
|expected at the start + luck + skill - result| of a side, and each bot's mean chance lost
per play with a choice (the figure the performance bands are set from).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.engine import best_time
from fives_engine import equity, parse_log, validate_log
from fives_engine.equity_make import CONFIGS
from fives_engine.expected import DEFAULT_SAMPLES, SIGNIFICANCE, review_document, review_match
from fives_engine.simulate import simulate_match

PRESETS = ("all-fives", "muggins")


def play_one(task: tuple[str, str, int, int, str]) -> bool:
    """Return whether ``bot`` won match ``index`` (seed ``seed``) against ``opponent``."""
    ruleset, bot, index, seed, opponent = task
    seat = index % 2
    bots = (bot, opponent) if seat == 0 else (opponent, bot)
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


def win_rates(matches: int, seed: int, jobs: int, pairs: list[tuple[str, str]]) -> None:
    rng = random.Random(seed)
    seeds = [rng.getrandbits(48) for _ in range(matches)]
    print(f"(a) {matches} two-player matches per ruleset and pair, seats swapped:")
    for ruleset in PRESETS:
        for bot, opponent in pairs:
            tasks = [(ruleset, bot, index, s, opponent) for index, s in enumerate(seeds)]
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
                f"  {ruleset:10} {bot:9} against {opponent:7} wins {wins:4}/{matches}"
                f" = {100 * wins / matches:5.1f}%"
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


def equity_tables() -> None:
    print(
        "(c) the equity tables: entries against monotony (over 0.1 point / under),"
        " largest |sum - 1|"
    )
    for base, players, teams in CONFIGS:
        data = equity.load_samples(equity.config_name(base, players, teams))
        if data is None:
            print(f"  {base} {players}: not published")
            continue
        table = equity._published(equity.config_name(base, players, teams))
        rows = table.leading
        size = len(rows)
        big = small = 0
        for i in range(size):
            for j in range(size):
                for drop in (
                    rows[i][j] - rows[i + 1][j] if i + 1 < size else 0.0,
                    rows[i][j + 1] - rows[i][j] if j + 1 < size else 0.0,
                ):
                    if drop > 1e-3:
                        big += 1
                    elif drop > 1e-9:
                        small += 1
        worst = 0.0
        for i in range(size):
            for j in range(size):
                scores = [table.low + i * table.step, table.low + j * table.step]
                for leader in (0, 1, None):
                    total = table.chance(scores, leader, 0) + table.chance(scores, leader, 1)
                    worst = max(worst, abs(total - 1.0))
        zero = -table.low // table.step
        print(
            f"  {base:16} {players}{' teams' if teams else '      '} target {table.target:3}:"
            f" {table.hands} hands, {size}x{size} scores, the leader at 0-0"
            f" {100 * rows[zero][zero]:.1f}%; against monotony {big} / {small};"
            f" |sum - 1| {worst:.1e}"
        )


def review_one(task: tuple[str, int, bool, int, tuple[str, str]]) -> dict[str, Any]:
    """Review one simulated match whole; return its figures for (d)."""
    ruleset, players, teams, seed, bots = task
    doc = simulate_match(ruleset, players, teams=teams, seed=seed, bots=bots)
    review = review_document(doc).as_dict()
    marked = [play for play in review["plays"] if play["mark"]]
    noise = 0
    for play in marked:
        loss, stderr = (
            (play["chance_loss"], play["chance_loss_stderr"])
            if play["unit"] == "chance"
            else (play["loss"], play["loss_stderr"])
        )
        noise += not play["exact"] and loss <= SIGNIFICANCE * stderr
    worst = max(
        (
            abs(side["expected_start"] + side["luck"] + side["skill"] - side["result"])
            for side in review["sides"]
        ),
        default=0.0,
    )
    by_bot: dict[str, list[float]] = {}
    for play in review["plays"]:
        if len(play["alternatives"]) > 1 and play["chance_loss"] is not None:
            by_bot.setdefault(bots[play["seat"] % 2], []).append(play["chance_loss"])
    return {
        "plays": len(review["plays"]),
        "marked": len(marked),
        "noise": noise,
        "worst": worst,
        "sides": len(review["sides"]),
        "by_bot": by_bot,
    }


def reviews(count: int, seed: int, jobs: int) -> None:
    rng = random.Random(seed)
    kinds = [(base, players, teams) for base, players, teams in CONFIGS]
    tasks = []
    for index in range(count):
        base, players, teams = kinds[index % len(kinds)]
        pairs = (("greedy", "random"), ("random", "greedy"), ("expected", "greedy"))
        bots = pairs[index % 3]
        tasks.append((base, players, teams, rng.getrandbits(48), bots))
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(review_one, tasks))
    else:
        results = [review_one(task) for task in tasks]
    took = time.perf_counter() - started
    losses: dict[str, list[float]] = {}
    for result in results:
        for bot, values in result["by_bot"].items():
            losses.setdefault(bot, []).extend(values)
    print(
        f"(d) {count} simulated matches reviewed in {took:.0f} s:"
        f" {sum(r['plays'] for r in results)} plays, {sum(r['marked'] for r in results)} marked,"
        f" marked within {SIGNIFICANCE:g} standard errors: {sum(r['noise'] for r in results)};"
        f" sides with luck and skill {sum(r['sides'] for r in results)},"
        f" largest |start + luck + skill - result|"
        f" {max((r['worst'] for r in results), default=0.0):.1e}"
    )
    for bot, values in sorted(losses.items()):
        mean = sum(values) / len(values) if values else 0.0
        print(
            f"  {bot:8} mean chance lost per play with a choice: {mean:.2f} points"
            f" ({len(values)} plays)"
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
    parser.add_argument("--reviews", type=int, default=24, help="matches reviewed for (d)")
    args = parser.parse_args(argv)
    review_time(args.repeat, args.samples)
    equity_tables()
    reviews(args.reviews, args.seed, args.jobs)
    if not args.no_matches:
        pairs = [("expected", "greedy")]
        if not args.no_plain:
            pairs += [("plain", "greedy"), ("expected", "plain")]
        win_rates(args.matches, args.seed, args.jobs, pairs)


if __name__ == "__main__":
    main()
