"""Match equity: the chance that a side wins the match from the scores at the start of a hand.

For two sides (two players, or four in two partnerships). ``equity_make`` lets the
``expected`` bot play hands against itself, each led by side 0, and keeps each hand as the
points of its scoring plays in order (by side, before any bust), its settlement, and which
side leads the next hand. ``solve`` then works out, over every pair of scores below the
target, the chance that the side about to lead wins the match, by the rules of the ruleset
(a play that would pass the target scoring nothing under ``target_exact``, the match
stopping at the target under ``end_at_target: "immediately"``, a tie at or above the target
playing on): each sampled hand is as likely as any other, and the match after a hand goes on
from its new scores. docs/analysis.md explains the table, its chart and what it assumes.

The hands are played from 0-0 (a target out of reach), so the bot's plays do not depend on
the scores: near the target, under ``target_exact``, a player might choose another play
to avoid a bust; the table takes the hand as it was played and scores it at the new scores.
"""

from __future__ import annotations

import functools
import json
import math
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .rules import Ruleset
from .scoring import leader_at_target

__all__ = [
    "EQUITY_VERSION",
    "EquityTable",
    "HandSample",
    "config_name",
    "load_samples",
    "solve",
    "table_for",
]

# Bumped whenever a table could change (the samples, the solving); the review's version
# follows it.
EQUITY_VERSION = 1

DATA = pathlib.Path(__file__).resolve().parent / "equity"

# The options that change how a hand is played; the others (the target and how the match
# ends at it) only change what its points are worth, which ``solve`` works out.
TARGET_OPTIONS = ("target", "end_at_target", "target_exact")

# An iteration of the table stops when no entry moves by more than this.
CONVERGED = 1e-12
# The grid of scores has at most this many scores a side (a coarser step past it).
MAX_CELLS = 80
MAX_SWEEPS = 2000

NEVER = 1 << 30


@dataclass(frozen=True, slots=True)
class HandSample:
    """One hand led by side 0: its scoring plays ``(side, points)`` in order (points before
    any bust), each side's settlement, and the side leading next (0, 1, or -1: either)."""

    plays: tuple[tuple[int, int], ...]
    settled: tuple[int, int]
    next_side: int

    def as_list(self) -> list[Any]:
        return [[list(play) for play in self.plays], list(self.settled), self.next_side]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> HandSample:
        plays, settled, next_side = data
        return cls(
            tuple((int(side), int(points)) for side, points in plays),
            (int(settled[0]), int(settled[1])),
            int(next_side),
        )


def config_name(base: str, players: int, teams: bool) -> str:
    """Return the name of a sampled configuration: ``muggins-2``, ``all-fives-4-teams``."""
    return f"{base}-{players}" + ("-teams" if teams else "")


def load_samples(name: str) -> dict[str, Any] | None:
    """Return the published samples of a configuration (``DATA/<name>.json``), or None."""
    path = DATA / f"{name}.json"
    if not path.exists():
        return None
    return _load(str(path))


@functools.lru_cache(maxsize=16)
def _load(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(pathlib.Path(path).read_text())
    data["samples"] = tuple(HandSample.from_list(item) for item in data["samples"])
    return data


# --- the table ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EquityTable:
    """The leading side's chance ``leading[i][j]`` to win from scores ``low + i * step`` (its
    own) and ``low + j * step`` (the other side's), every score from ``low`` to below
    ``target``; ``tie``: from a tie at or above the target."""

    target: int
    low: int
    step: int
    leading: tuple[tuple[float, ...], ...]
    tie: float
    hands: int

    def chance(self, scores: Sequence[int], leader: int | None, side: int) -> float:
        """Return side ``side``'s chance to win from ``scores`` (by side) at the start of a
        hand led by side ``leader`` (None: either, alike)."""
        if leader is None:
            return (self.chance(scores, 0, side) + self.chance(scores, 1, side)) / 2
        won = self._leading(scores[leader], scores[1 - leader])
        return won if side == leader else 1.0 - won

    def _leading(self, own: int, other: int) -> float:
        target = self.target
        if own >= target or other >= target:
            if own == other:
                return self.tie
            return 1.0 if own > other else 0.0
        value = 0.0
        for index, weight in _split(own, other, self.low, self.step, len(self.leading)):
            value += weight * self.leading[index // len(self.leading)][index % len(self.leading)]
        return value

    def as_dict(self, end_at_target: str, exact: bool) -> dict[str, Any]:
        return {
            "version": EQUITY_VERSION,
            "rules": [self.target, end_at_target, exact],
            "target": self.target,
            "low": self.low,
            "step": self.step,
            "hands": self.hands,
            "tie": round(self.tie, 6),
            "leading": [[round(value, 6) for value in row] for row in self.leading],
        }


def _split(own: float, other: float, low: int, step: int, size: int) -> list[tuple[int, float]]:
    """Return the grid's states around scores ``(own, other)`` (below the target) and their
    weights, read between the grid's points; a score below ``low`` reads as ``low``."""
    x = min(max((own - low) / step, 0.0), size - 1.0)
    y = min(max((other - low) / step, 0.0), size - 1.0)
    i, j = int(x), int(y)
    fx, fy = x - i, y - j
    if fx == 0.0 and fy == 0.0:
        return [(i * size + j, 1.0)]
    out = []
    for di, wx in ((0, 1.0 - fx), (1, fx)):
        for dj, wy in ((0, 1.0 - fy), (1, fy)):
            weight = wx * wy
            if weight > 1e-12:
                out.append(((i + di) * size + j + dj, weight))
    return out


def _grid(samples: Sequence[HandSample], target: int) -> tuple[int, int, int]:
    """Return the grid's lowest score, step and size: every score a match reaches is a
    multiple of the step, unless the grid would pass ``MAX_CELLS`` a side; scores go below
    zero (down to half the target) only where a hand can take points away."""
    step = 0
    negative = False
    for sample in samples:
        for _, points in sample.plays:
            step = math.gcd(step, points)
        for points in sample.settled:
            step = math.gcd(step, abs(points))
            negative = negative or points < 0
    step = step or 1
    low = -((target // 2) // step) * step if negative else 0
    while (target - low + step - 1) // step > MAX_CELLS:
        step += 1
        low = -((target // 2) // step) * step if negative else 0
    return low, step, (target - low + step - 1) // step


def _run(
    plays: Sequence[tuple[int, int]],
    settled: int,
    start: int,
    target: int,
    exact: bool,
    at_once: bool,
) -> tuple[int, int]:
    """Return when one side reaches the target at once (the play's index, else ``NEVER``)
    and its score at the hand's end (settled), from ``start``: a side's score moves by its own
    plays only, so each side is followed alone."""
    score = start
    for index, points in plays:
        if exact and score + points > target:
            continue  # a bust: the play scores nothing
        score += points
        if at_once and score >= target:
            return index, score
    if settled > 0 and exact and score + settled > target:
        settled = 0
    return NEVER, score + settled


def solve(
    samples: Sequence[HandSample], target: int, end_at_target: str, exact: bool
) -> EquityTable:
    """Return the table of a target (how the match ends there: ``end_at_target``,
    ``target_exact``) over the sampled hands, each alike: the leading side's chance from
    every pair of scores."""
    # The rules' own definition of a stop at the target (``scoring.target_at_once``).
    at_once = end_at_target == "immediately" or exact
    low, step, size = _grid(samples, target)
    groups = _groups(samples, exact or at_once, step)
    equations = _Equations(target, low, step, size)
    # For each group and side: where each grid score ends (``_run``).
    runs = [
        [
            [
                _run(plays, sample.settled[who], low + i * step, target, exact, at_once)
                for i in range(size)
            ]
            for who, plays in enumerate(_by_side(sample))
        ]
        for sample, _ in groups
    ]
    equations.hands(runs, groups)
    equations.tie(groups)
    values = _iterate(equations.constants, equations.terms, size)
    rows = tuple(tuple(values[i * size : (i + 1) * size]) for i in range(size))
    return EquityTable(target, low, step, rows, values[equations.tie_index], len(samples))


def _by_side(sample: HandSample) -> list[list[tuple[int, int]]]:
    """Return each side's scoring plays as (index in the hand, points)."""
    return [[(n, p) for n, (side, p) in enumerate(sample.plays) if side == who] for who in (0, 1)]


class _Equations:
    """Each state's equation, W[s] = constant + sum(coefficient * W[other]): a state is a
    pair of grid scores (the leading side's first), and one more for a tie at or above the
    target."""

    def __init__(self, target: int, low: int, step: int, size: int) -> None:
        self.target, self.low, self.step, self.size = target, low, step, size
        self.tie_index = size * size
        self.constants = [0.0] * (self.tie_index + 1)
        self.terms: list[dict[int, float]] = [{} for _ in range(self.tie_index + 1)]
        # Each end of a hand's grid states, worked out once: the same (own, other) ends
        # thousands of hands from different states.
        self._splits: dict[tuple[int, int], list[tuple[int, float]]] = {}

    def _split_of(self, own: int, other: int) -> list[tuple[int, float]]:
        found = self._splits.get((own, other))
        if found is None:
            found = _split(own, other, self.low, self.step, self.size)
            self._splits[own, other] = found
        return found

    def hands(
        self,
        runs: Sequence[list[list[tuple[int, int]]]],
        groups: Sequence[tuple[HandSample, float]],
    ) -> None:
        """Add to every state each group's hand, its sides' ``_run`` from the state's scores:
        a side that reached the target at once first, or the leader alone at or above it
        after the hand, wins; else the match goes on (``go_on``). The grid's states times the
        hands are millions of steps: they are one loop here, ``go_on`` written out in it (the
        same sums in the same order), not a call each."""
        size, target, constants, terms = self.size, self.target, self.constants, self.terms
        split_of = self._split_of
        tie_only = [(self.tie_index, 1.0)]
        # Each group's weight and share of the lead kept (next_side 0: all, 1: none, else half).
        shares = [
            (weight, 1.0 if sample.next_side == 0 else 0.0 if sample.next_side == 1 else 0.5)
            for sample, weight in groups
        ]
        for i in range(size):
            own_runs = [own[i] for own, _ in runs]
            for j in range(size):
                s = i * size + j
                row = terms[s]
                for (reached_own, own), (_, other_runs), (weight, keep) in zip(
                    own_runs, runs, shares, strict=True
                ):
                    reached_other, other = other_runs[j]
                    # A decided hand adds its weight to the leader's win, nothing (0.0: the
                    # same sum) to its loss.
                    if reached_own < NEVER or reached_other < NEVER:
                        constants[s] += weight * (reached_own < reached_other)
                        continue
                    if own >= target or other >= target:
                        winner = leader_at_target((own, other), target)
                        if winner is not None:
                            constants[s] += weight * (winner == 0)
                            continue
                    if keep:
                        kept = weight * keep
                        ahead = tie_only if own >= target else split_of(own, other)
                        for index, part in ahead:
                            row[index] = row.get(index, 0.0) + kept * part
                    if keep < 1.0:
                        give = weight * (1.0 - keep)
                        constants[s] += give
                        after = tie_only if own >= target else split_of(other, own)
                        for index, part in after:
                            row[index] = row.get(index, 0.0) - give * part

    def tie(self, groups: Sequence[tuple[HandSample, float]]) -> None:
        """The tie at or above the target: the higher after the next hand wins."""
        for sample, weight in groups:
            gains = [0, 0]
            for side, points in sample.plays:
                gains[side] += points
            own, other = gains[0] + sample.settled[0], gains[1] + sample.settled[1]
            if own > other:
                self.constants[self.tie_index] += weight
            elif own == other:
                self.go_on(self.tie_index, self.target, self.target, sample.next_side, weight)

    def go_on(self, s: int, own: int, other: int, next_side: int, weight: float) -> None:
        """Add to state s a hand after which the match goes on from (own, other): its own
        lead (next_side 0), the other side's (1: the chance is 1 less theirs) or either."""
        row = self.terms[s]
        if own >= self.target:  # and other == own: a tie at or above the target
            ahead = after = [(self.tie_index, 1.0)]
        else:
            ahead, after = self._split_of(own, other), self._split_of(other, own)
        keep = 1.0 if next_side == 0 else 0.0 if next_side == 1 else 0.5
        if keep:
            for index, part in ahead:
                row[index] = row.get(index, 0.0) + weight * keep * part
        if keep < 1.0:
            give = weight * (1.0 - keep)
            self.constants[s] += give
            for index, part in after:
                row[index] = row.get(index, 0.0) - give * part


def _groups(
    samples: Sequence[HandSample], sensitive: bool, step: int
) -> list[tuple[HandSample, float]]:
    """Return the samples with their weights. Where the target cannot change a hand's points
    (no bust, no stop at the target), only what the hand adds counts: each side's gain is
    put on the grid (a gain between two of the step's multiples shared between them, so its
    mean stays), and hands that add the same and give the lead to the same side are one."""
    weight = 1.0 / len(samples)
    if sensitive:
        return [(sample, weight) for sample in samples]
    grouped: dict[tuple[int, int, int], float] = {}
    for sample in samples:
        gains = [sample.settled[0], sample.settled[1]]
        for side, points in sample.plays:
            gains[side] += points
        low0, part0 = divmod(gains[0], step)
        low1, part1 = divmod(gains[1], step)
        for a, wa in ((low0, 1 - part0 / step), (low0 + 1, part0 / step)):
            for b, wb in ((low1, 1 - part1 / step), (low1 + 1, part1 / step)):
                if wa * wb > 0:
                    key = (a * step, b * step, sample.next_side)
                    grouped[key] = grouped.get(key, 0.0) + weight * wa * wb
    return [
        (HandSample(((0, a), (1, b)), (0, 0), next_side), share)
        for (a, b, next_side), share in grouped.items()
    ]


def _iterate(constants: list[float], terms: list[dict[int, float]], size: int) -> list[float]:
    """Solve the equations by sweeps (Gauss-Seidel), the highest scores first: a hand only
    adds points, so most states read states already final."""
    order = sorted(range(size * size), key=lambda s: -(s // size + s % size))
    order.insert(0, size * size)
    rows = [(s, constants[s], list(terms[s].items())) for s in order]
    values = [0.5] * len(constants)
    for _ in range(MAX_SWEEPS):
        moved = 0.0
        for s, constant, row in rows:
            value = constant
            for other, coefficient in row:
                value += coefficient * values[other]
            change = abs(value - values[s])
            if change > moved:
                moved = change
            values[s] = value
        if moved < CONVERGED:
            break
    return [min(1.0, max(0.0, value)) for value in values]


# --- the table of a match -----------------------------------------------------------------


def table_for(rules: Ruleset, players: int, teams: bool) -> EquityTable | None:
    """Return the table of a match of two sides under ``rules``, or None (three or four
    sides, or no samples of its preset). The samples of the preset the ruleset is based on
    are read; a ruleset that changes how a hand is played (not only the target) reads them
    too, an approximation docs/analysis.md names. The preset's own table is read as
    published; another target's is solved once per process."""
    if players != 2 and not teams:
        return None
    name = config_name(rules.base, players, teams)
    data = load_samples(name)
    if data is None:
        return None
    published = data["table"]
    if published["rules"] == [rules.target, rules.end_at_target, rules.target_exact]:
        return _published(name)
    return _solved(name, rules.target, rules.end_at_target, rules.target_exact)


@functools.lru_cache(maxsize=16)
def _published(name: str) -> EquityTable:
    data = load_samples(name)
    assert data is not None
    table = data["table"]
    return EquityTable(
        table["target"],
        table["low"],
        table["step"],
        tuple(tuple(row) for row in table["leading"]),
        table["tie"],
        table["hands"],
    )


@functools.lru_cache(maxsize=64)
def _solved(name: str, target: int, end_at_target: str, exact: bool) -> EquityTable:
    data = load_samples(name)
    assert data is not None
    return solve(data["samples"], target, end_at_target, exact)
