"""Bots: pick a legal move. They ask the one legal-move generator and nothing else.

A bot is called with the hand, the legal moves, the simulator's random generator and the
hand's moves so far (``seen``, as the log writes them). ``random`` and ``greedy`` read only
the first three; ``expected`` and ``plain`` read what their seat could see of the hand and
nothing else (``expected.situation_now``), and draw their layouts from a generator of their
own, seeded by what they saw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from . import expected
from .game import PLAY, HandState, LegalMove
from .log import Move


class Bot(Protocol):
    """Pick one of ``legal``."""

    def __call__(
        self,
        hand: HandState,
        legal: list[LegalMove],
        rng: random.Random,
        seen: Sequence[Move] = (),
        /,
    ) -> LegalMove: ...


def random_bot(
    hand: HandState, legal: list[LegalMove], rng: random.Random, seen: Sequence[Move] = (), /
) -> LegalMove:
    """Return any legal move, uniformly at random."""
    return legal[0] if len(legal) == 1 else rng.choice(legal)


def greedy_bot(
    hand: HandState, legal: list[LegalMove], rng: random.Random, seen: Sequence[Move] = (), /
) -> LegalMove:
    """Return a play that scores the most points now (ties broken at random)."""
    if len(legal) == 1 or legal[0].kind != PLAY:
        return legal[0]
    best: list[LegalMove] = []
    best_points = -1
    for move in legal:
        assert move.tile is not None
        points = hand.score_after(move.tile, move.end)[1]
        if points > best_points:
            best, best_points = [move], points
        elif points == best_points:
            best.append(move)
    return best[0] if len(best) == 1 else rng.choice(best)


def expected_bot(
    hand: HandState, legal: list[LegalMove], rng: random.Random, seen: Sequence[Move] = (), /
) -> LegalMove:
    """Return the play the expected-value review rates best (docs/analysis.md): the highest
    chance to win the match where it has an equity table, else the most points."""
    return expected.choose(hand, legal, seen, expected.BOT_SAMPLES, plain=False)


def expected_points_bot(
    hand: HandState, legal: list[LegalMove], rng: random.Random, seen: Sequence[Move] = (), /
) -> LegalMove:
    """Return the play of the most expected points in the hand, whatever the scores: the
    play the match-equity tables are sampled with (they cannot read themselves)."""
    return expected.choose(hand, legal, seen, expected.TABLE_SAMPLES, plain=False, chances=False)


def plain_bot(
    hand: HandState, legal: list[LegalMove], rng: random.Random, seen: Sequence[Move] = (), /
) -> LegalMove:
    """Return the plain method's play: 16 layouts, no inference, points minus pips left."""
    return expected.choose(hand, legal, seen, expected.PLAIN_SAMPLES, plain=True)


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "expected": expected_bot,
    "expected-points": expected_points_bot,
    "plain": plain_bot,
}
