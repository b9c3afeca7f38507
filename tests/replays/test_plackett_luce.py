"""The archive's own Plackett-Luce update against openskill's: the same floats, bit for bit,
on random matches (free-for-all of 2 to 4, partnerships, ties at any rank, players alike)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from fives_engine import plackett_luce
from fives_engine.plackett_luce import rate

OPENSKILL = PlackettLuce()

belief = st.tuples(
    st.floats(min_value=-20.0, max_value=70.0), st.floats(min_value=0.05, max_value=12.0)
)


@st.composite
def matches(draw):
    count = draw(st.integers(min_value=2, max_value=4))
    size = draw(st.integers(min_value=1, max_value=2)) if count == 2 else 1
    teams = [[draw(belief) for _ in range(size)] for _ in range(count)]
    if draw(st.booleans()):  # two teams alike: their order must not matter to the sums
        teams[1] = list(teams[0])
    ranks = [draw(st.integers(min_value=0, max_value=count - 1)) for _ in range(count)]
    return teams, ranks


def by_openskill(teams, ranks):
    rated = OPENSKILL.rate(
        [[OPENSKILL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(ranks),
    )
    return [[(player.mu, player.sigma) for player in team] for team in rated]


@settings(max_examples=3000, deadline=None)
@given(matches())
def test_every_match_rates_as_openskill_to_the_last_bit(match):
    teams, ranks = match
    assert rate(teams, ranks) == by_openskill(teams, ranks)


def test_a_newcomer_beating_a_newcomer_as_openskill_gives_it():
    newcomer = (OPENSKILL.mu, OPENSKILL.sigma)
    (winner,), (loser,) = rate([[newcomer], [newcomer]], [0, 1])
    # openskill 6.2.0 for two newcomers, the first placed first.
    assert winner == by_openskill([[newcomer], [newcomer]], [0, 1])[0][0]
    assert winner[0] > 25.0 > loser[0]
    assert winner[0] - 25.0 == 25.0 - loser[0]
    assert winner[1] == loser[1] < OPENSKILL.sigma


def test_a_tie_moves_nobody_apart_from_equal_beliefs():
    newcomer = (OPENSKILL.mu, OPENSKILL.sigma)
    rated = rate([[newcomer], [newcomer], [newcomer]], [0, 0, 0])
    assert rated == by_openskill([[newcomer], [newcomer], [newcomer]], [0, 0, 0])
    assert {player for (player,) in rated} == {rated[0][0]}
    assert rated[0][0][0] == 25.0


def test_the_parameters_are_openskills_own():
    """The engine writes openskill's defaults as constants (it imports nothing outside the
    standard library): they must be the floats openskill computes."""
    assert OPENSKILL.mu == plackett_luce.MU
    assert OPENSKILL.sigma == plackett_luce.SIGMA
    assert OPENSKILL.beta**2 == plackett_luce.BETA_SQUARED
    assert OPENSKILL.kappa == plackett_luce.KAPPA
    assert OPENSKILL.tau * OPENSKILL.tau == plackett_luce.TAU_SQUARED
