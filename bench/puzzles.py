"""Benchmark: puzzles made from a simulated archive, and their ratings (issue 60, goals).

    python -m bench.puzzles [--matches 200] [--samples 8] [--attempts 20000] [--seed 2026]

(a) Simulates ``--matches`` two-player All Fives matches (``fives_engine.simulate``: a greedy
seat against a random one, as an archive's mix of stronger and weaker players), reviews each
with the engine's review at ``--samples`` layouts (``expected.review_match``), and makes the
puzzles (``fives_engine.puzzles``: a mistake or a blunder whose position, checked again over
ten times the layouts, has one play best by more than four standard errors of its gap).
Prints the puzzles per match, the themes' counts, the seconds per match, and the count for
2,000 matches: made when ``--matches`` is 2,000, else extrapolated (and said so).
(b) Rates the puzzles and solvers of known strength against each other (Glicko-2,
``fives_engine.glicko2``) over ``--attempts`` simulated attempts: solvers are the bots
random < greedy < expected (the review's choice over 8 layouts), four of each; each attempt
serves a solver a puzzle rated within ``SERVE_WINDOW`` (300) of it, at random, as the
archive does, solved when the bot picks the best play. Prints each bot's mean rating (the
goal: they order as the bots' strengths) and Spearman's rank correlation between the
puzzles' ratings and how often the bots fail them (the mean over the three bots of each
one's chance to miss; goal >= 0.8 at 20,000 attempts).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fives_engine import glicko2
from fives_engine.expected import review_match
from fives_engine.log import HIDDEN, MatchLog, parse_log
from fives_engine.position import HIDDEN_FIELDS, Analysis, parse_position
from fives_engine.puzzles import (
    CHECK_TIMES,
    SERVE_WINDOW,
    Checked,
    checked_documents,
    play_figures,
)
from fives_engine.simulate import simulate_matches

BOTS = ("random", "greedy", "expected")
SOLVERS_PER_BOT = 4
# Puzzles drawn at random for each attempt: one of those rated within SERVE_WINDOW of the
# solver is served at random (the archive's rule, replays.puzzles.puzzle_next), else the
# nearest of them.
DRAWN = 60


# What no puzzle may hold: a field naming hidden tiles, or how the hand or the match ended.
OUTCOME_KEYS = {"hand_end", "hand_points", "final_scores", "result", "settlement", "end_of_hand"}


def _tile(text: str) -> tuple[int, int]:
    a, b = (int(pip) for pip in text.split("-"))
    return (min(a, b), max(a, b))


def leaks(log: MatchLog, hand: int, move: int, document: dict[str, Any]) -> tuple[int, int]:
    """Return how many tiles the puzzle's document names that its seat could not see then
    (checked against the full log: the deal, every draw), and how many outcomes it holds
    (a move after the play, a field of the hand's or the match's end)."""
    hand_log = log.hands[hand]
    seat = hand_log.moves[move].seat
    seen: set[tuple[int, int]] = set()
    if hand_log.deal is not None:
        seen |= {_tile(text) for text in hand_log.deal[seat]}
    for done in hand_log.moves[:move]:
        if done.tile and done.tile != HIDDEN and (done.kind == "play" or done.seat == seat):
            seen.add(_tile(done.tile))
    named = [_tile(text) for text in document["tiles"]]
    for entry in document["moves"]:
        for key in ("play", "draw"):
            if key in entry and entry[key] != HIDDEN:
                named.append(_tile(entry[key]))
    hidden = sum(1 for tile in named if tile not in seen)
    outcomes = int(len(document["moves"]) != move) + len(OUTCOME_KEYS & set(document))
    outcomes += len(HIDDEN_FIELDS & set(document))
    return hidden, outcomes


def make_puzzles(
    matches: int, samples: int, seed: int
) -> tuple[list[Checked], float, tuple[int, int]]:
    """Return the puzzles of ``matches`` simulated, reviewed matches, the seconds taken, and
    the hidden tiles and outcomes found in them against their full logs (``leaks``)."""
    started = time.perf_counter()
    made: list[Checked] = []
    hidden = outcomes = 0
    for doc in simulate_matches(matches, seed=seed, bots=("greedy", "random")):
        log = parse_log(doc)
        review = review_match(log, samples=samples).as_dict()
        for play, checked in checked_documents(log, review["plays"], samples * CHECK_TIMES):
            found = leaks(log, play["hand"], play["move"], checked.document)
            hidden, outcomes = hidden + found[0], outcomes + found[1]
            made.append(checked)
    return made, time.perf_counter() - started, (hidden, outcomes)


def solve_chances(puzzle: Checked) -> dict[str, float]:
    """Return each bot's chance to pick the puzzle's best play."""
    position = parse_position(puzzle.document)
    plays = [str(move) for move in position.legal]
    points = {play: play_figures(position, play).points for play in plays}
    most = max(points.values())
    greedy = [play for play in plays if points[play] == most]
    looked = Analysis(position).more(8)["best"]
    return {
        "random": 1.0 / len(plays),
        "greedy": (1.0 / len(greedy)) if puzzle.best in greedy else 0.0,
        "expected": 1.0 if looked == puzzle.best else 0.0,
    }


@dataclass
class Rated:
    rating: glicko2.Rating = field(default_factory=glicko2.Rating)
    attempts: int = 0


def spearman(xs: list[float], ys: list[float]) -> float:
    """Return Spearman's rank correlation (ties given their mean rank)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda index: values[index])
        out = [0.0] * len(values)
        start = 0
        while start < len(order):
            end = start
            while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
                end += 1
            for k in range(start, end + 1):
                out[order[k]] = (start + end) / 2.0
            start = end + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def rate(chances: list[dict[str, float]], attempts: int, seed: int) -> dict[str, Any]:
    """Simulate ``attempts`` attempts by the bots at puzzles of these solve chances; return
    the solvers' mean ratings by bot, the puzzles' ratings and the Spearman correlation."""
    rng = random.Random(seed)
    solvers = [(bot, Rated()) for bot in BOTS for _ in range(SOLVERS_PER_BOT)]
    puzzles = [Rated() for _ in chances]
    for _ in range(attempts):
        bot, solver = rng.choice(solvers)
        drawn = rng.sample(range(len(puzzles)), min(DRAWN, len(puzzles)))
        level = solver.rating.rating
        near = [i for i in drawn if abs(puzzles[i].rating.rating - level) <= SERVE_WINDOW]
        if near:
            index = rng.choice(near)
        else:
            index = min(drawn, key=lambda i: abs(puzzles[i].rating.rating - level))
        puzzle = puzzles[index]
        solved = rng.random() < chances[index][bot]
        before = solver.rating
        solver.rating = glicko2.update(
            before, [(puzzle.rating, 1.0 if solved else 0.0)], min_rd=glicko2.MIN_RD
        )
        puzzle.rating = glicko2.update(
            puzzle.rating, [(before, 0.0 if solved else 1.0)], min_rd=glicko2.MIN_RD
        )
        solver.attempts += 1
        puzzle.attempts += 1
    by_bot = {
        bot: sum(s.rating.rating for b, s in solvers if b == bot) / SOLVERS_PER_BOT for bot in BOTS
    }
    tried = [i for i, p in enumerate(puzzles) if p.attempts]
    fails = [1.0 - sum(chances[i].values()) / len(BOTS) for i in tried]
    correlation = spearman([puzzles[i].rating.rating for i in tried], fails)
    return {"by_bot": by_bot, "spearman": correlation, "rated": len(tried)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--samples", type=int, default=8, help="the review's layouts")
    parser.add_argument("--attempts", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    made, seconds, (hidden, outcomes) = make_puzzles(args.matches, args.samples, args.seed)
    per = len(made) / args.matches
    print(
        f"(a) {args.matches} matches reviewed at {args.samples} layouts, checked at "
        f"{args.samples * CHECK_TIMES}: {len(made)} puzzles, {per:.2f} per match, "
        f"{seconds / args.matches:.2f} s per match"
    )
    print(
        f"    against their full logs: {hidden} hidden tiles, {outcomes} outcomes shown "
        "before the answer"
    )
    themes = Counter(theme for puzzle in made for theme in puzzle.themes)
    print("    themes: " + ", ".join(f"{t} {n}" for t, n in themes.most_common()) or "none")
    if args.matches == 2000:
        print(f"    2,000 matches: {len(made)} puzzles (made)")
    else:
        print(
            f"    2,000 matches: about {per * 2000:.0f} puzzles (extrapolated from "
            f"{args.matches}; making them takes about {seconds / args.matches * 2000 / 60:.0f} "
            "minutes on one core)"
        )
    if not made:
        return
    chances = [solve_chances(puzzle) for puzzle in made]
    started = time.perf_counter()
    rated = rate(chances, args.attempts, args.seed)
    order = sorted(rated["by_bot"], key=lambda bot: rated["by_bot"][bot])
    print(
        f"(b) {args.attempts} attempts at {rated['rated']} puzzles by "
        f"{SOLVERS_PER_BOT} solvers of each bot ({time.perf_counter() - started:.1f} s): "
        + ", ".join(f"{bot} {rated['by_bot'][bot]:.0f}" for bot in BOTS)
        + f"; ordered {' < '.join(order)} ({'as' if tuple(order) == BOTS else 'NOT as'} "
        "their strengths)"
    )
    print(
        f"    Spearman (puzzle rating, how often the bots fail it): {rated['spearman']:.3f} "
        "(goal >= 0.8 at 20,000 attempts)"
    )


if __name__ == "__main__":
    main()
