"""Bots: pick a legal move. They ask the one legal-move generator and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable

from .game import PLAY, HandState, LegalMove

Bot = Callable[[HandState, list[LegalMove], random.Random], LegalMove]


def random_bot(hand: HandState, legal: list[LegalMove], rng: random.Random) -> LegalMove:
    """Return any legal move, uniformly at random."""
    return legal[0] if len(legal) == 1 else rng.choice(legal)


def greedy_bot(hand: HandState, legal: list[LegalMove], rng: random.Random) -> LegalMove:
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


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
