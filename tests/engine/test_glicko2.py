"""Glicko-2 (fives_engine.glicko2) against the worked example of Glickman's paper."""

from __future__ import annotations

from fives_engine.glicko2 import Rating, expected, update


def test_the_papers_worked_example():
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    # The paper rounds its steps (mu' = -0.2069, so 1464.06); unrounded it is 1464.0507.
    assert abs(after.rating - 1464.06) < 0.01
    assert round(after.rd, 2) == 151.52
    assert abs(after.vol - 0.05999) < 0.00001  # 0.0599960: the paper writes 0.05999


def test_no_game_only_widens_the_deviation_and_a_win_raises():
    quiet = update(Rating(1500, 200, 0.06), [])
    assert quiet.rating == 1500 and quiet.rd > 200
    won = update(Rating(), [(Rating(1500, 100), 1.0)])
    lost = update(Rating(), [(Rating(1500, 100), 0.0)])
    assert lost.rating < 1500 < won.rating
    assert expected(Rating(1700, 60), Rating(1500, 60)) > 0.7
