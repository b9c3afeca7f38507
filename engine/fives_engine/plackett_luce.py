"""openskill's Plackett-Luce update (``openskill.models.PlackettLuce().rate``, version 6.2.0,
default parameters, ranks given), written again on plain floats: the ratings' arithmetic
(``replays/ratings.py``).

Why: re-rating a scope replays every match from a point in its history, and openskill's
``rate`` spends most of its time on what the archive never uses (argument checks, a deep copy
of the teams, rating objects, weights, scores, balance). This does the same arithmetic in the
same order, so its results are the same floats, bit for bit (``tests/replays/
test_plackett_luce.py`` holds it to openskill itself on random matches), in about a fifth of
the time. openskill stays the reference: its parameters are written here as constants (the
engine imports nothing outside the standard library, and this module goes to the phone with
the rest of it), which the same test holds equal to openskill's.

It lives in the engine, pure Python typed strictly, so that ``make venv`` compiles it with
mypyc with the engine's walk (``compiled.py``): a merge's re-rating replays every match of a
club from the first one moved, and compiled this runs about 2.2 times as fast, with the same
floats.

Two details of openskill are kept as they are, since the ratings must be openskill's:
- teams sharing a rank are meant to share their mean change; in 6.2.0 that step compares each
  player with itself (it updates the players in place first), so it changes nothing, and it is
  left out here;
- a team's players are summed in the order of their ordinal, highest first (a stable sort).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp, sqrt
from typing import Final

# openskill's defaults for PlackettLuce(), as it computes them.
MU: Final = 25.0
SIGMA: Final = MU / 3
BETA: Final = SIGMA / 2
KAPPA: Final = 0.0001
TAU: Final = MU / 300
BETA_SQUARED: Final = BETA**2
TAU_SQUARED: Final = TAU * TAU
Z: Final = 3.0  # the ordinal's z: mu - 3 sigma

Belief = tuple[float, float]  # (mu, sigma)


def rate(teams: Sequence[Sequence[Belief]], ranks: Sequence[int]) -> list[list[Belief]]:
    """Return every player's (mu, sigma) after a match, as ``PlackettLuce().rate(teams,
    ranks=ranks)`` does: ``teams`` in any order, each a list of (mu, sigma); lower ranks
    placed better, equal ranks tied."""
    # openskill sorts the teams by rank (stably), rates them in that order and puts them back.
    order = sorted(range(len(teams)), key=ranks.__getitem__)
    players = [[(mu, sqrt(sigma * sigma + TAU_SQUARED)) for mu, sigma in teams[t]] for t in order]
    placed = [int(ranks[t]) for t in order]
    team_mu, team_var = _team_sums(players)
    collective = 0.0
    for var in team_var:
        collective += var + BETA_SQUARED
    c = sqrt(collective)
    strength = [exp(mu / c) for mu in team_mu]
    count = len(players)
    sum_q = _sum_q(strength, placed)
    ties = [placed.count(rank) for rank in placed]  # openskill's a: the teams tied with q
    rated: list[list[Belief]] = [[] for _ in range(count)]
    for i in range(count):
        omega = delta = 0.0
        for q in range(count):
            share = strength[i] / sum_q[q]
            if placed[q] <= placed[i]:
                delta += share * (1 - share) / ties[q]
                if q == i:
                    omega += (1 - share) / ties[q]
                else:
                    omega -= share / ties[q]
        var = team_var[i]
        omega *= var / c
        delta *= var / c**2
        delta *= sqrt(var) / c  # openskill's gamma
        for mu, sigma in players[i]:
            part = sigma**2 / var
            rated[i].append((mu + part * omega, sigma * sqrt(max(1 - part * delta, KAPPA))))
    back: list[list[Belief]] = [[] for _ in range(count)]
    for position, t in enumerate(order):
        back[t] = rated[position]
    return back


def _team_sums(players: list[list[Belief]]) -> tuple[list[float], list[float]]:
    """Return each team's summed mu and variance, its players summed in the order of their
    ordinal, highest first (as openskill sums them)."""
    team_mu: list[float] = []
    team_var: list[float] = []
    for team in players:
        mu_sum = var_sum = 0.0
        for mu, sigma in sorted(team, key=_ordinal, reverse=True):
            mu_sum += mu
            var_sum += sigma**2
        team_mu.append(mu_sum)
        team_var.append(var_sum)
    return team_mu, team_var


def _sum_q(strength: list[float], placed: list[int]) -> list[float]:
    """Return, for each team q, the strengths of the teams placed no better than q, added in
    openskill's order."""
    count = len(strength)
    sum_q = [0.0] * count
    seen = [False] * count
    for i in range(count):
        for q in range(count):
            if placed[i] >= placed[q]:
                sum_q[q] = sum_q[q] + strength[i] if seen[q] else strength[i]
                seen[q] = True
    return sum_q


def _ordinal(belief: Belief) -> float:
    return belief[0] - Z * belief[1]
