"""Glicko-2 ratings, written plainly after Glickman's "Example of the Glicko-2 system"
(http://www.glicko.net/glicko/glicko2.pdf), as lichess rates its puzzles: a puzzle and its
solver are two players, an attempt a game between them (a solve the solver's win).

A rating is ``(rating, rd, vol)`` on the Glicko scale (1500, 350, 0.06 for a newcomer);
``update`` rates one player after a period of games (steps 2 to 8 of the paper);
``expected`` is the chance of the first to win, for serving a puzzle near its solver's level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SCALE", "TAU", "Rating", "expected", "update"]

SCALE = 173.7178  # the paper's conversion between the Glicko and the Glicko-2 scales
TAU = 0.5  # the system constant: how much the volatility may change (the paper's example)
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration (step 5)
START = 1500.0
START_RD = 350.0
START_VOL = 0.06
# A rating deviation never below this nor above a newcomer's (lichess keeps a floor too).
MIN_RD = 45.0


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = START
    rd: float = START_RD
    vol: float = START_VOL


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(a: Rating, b: Rating) -> float:
    """Return the chance that ``a`` beats ``b`` (both deviations counted, as lichess)."""
    mu, mu_b = (a.rating - START) / SCALE, (b.rating - START) / SCALE
    phi = math.hypot(a.rd, b.rd) / SCALE
    return _e(mu, mu_b, phi)


def update(
    player: Rating,
    games: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    min_rd: float = 0.0,
) -> Rating:
    """Return ``player``'s rating after one rating period of ``games`` (each an opponent's
    rating and the score: 1 a win, 0 a loss, 0.5 a draw). With no game, only the deviation
    grows (step 6). ``min_rd``: a floor to the deviation (0: the paper's, none)."""
    mu = (player.rating - START) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(START_RD, phi_star * SCALE), sigma)
    # Step 3: the estimated variance; step 4: the estimated improvement.
    v_inverse = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - START) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # Steps 6 and 7: the new deviation and rating; step 8 back to the Glicko scale.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    rd = min(START_RD, max(min_rd, phi_new * SCALE))
    return Rating(START + SCALE * mu_new, rd, sigma_new)
