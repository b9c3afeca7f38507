"""The simulator: deal, let bots play, and write complete ``fives/1`` logs.

Every log comes from the same ``MatchState`` and legal-move generator the validator uses,
so a simulated log is valid by construction; the tests check that it also validates.
The same seed always gives the same log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from .bots import BOTS, Bot
from .game import DRAW, PASS, MatchState
from .log import FORMAT_NAME
from .rules import resolve_ruleset
from .tiles import ALL_TILES, HIGH, LOW, NAME

PLAYER_NAMES = ("Nino", "Giorgi", "Olga", "Ivan")
PARTNERSHIPS = [[0, 2], [1, 3]]


def simulate_match(
    ruleset: Any = "muggins",
    players: int = 2,
    *,
    teams: bool = False,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    max_hands: int = 200,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Return the ``fives/1`` log (a JSON object) of one simulated match.

    ``bots`` names the bot of each seat in turn (repeated as needed). A match that no
    team has won after ``max_hands`` hands stops there: a valid, unfinished log.
    """
    rng = random.Random(seed)
    rules = resolve_ruleset(ruleset, players)
    partnerships = PARTNERSHIPS if teams else None
    match = MatchState.create(rules, players, partnerships)
    seat_bots: list[Bot] = [BOTS[bots[seat % len(bots)]] for seat in range(players)]
    size = rules.hand_size
    hands: list[dict[str, Any]] = []
    while not match.over and len(hands) < max_hands:
        if hands and match.leaders is not None:
            leader = rng.choice(sorted(match.leaders))
        else:
            leader = rng.randrange(players)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        deal = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
        stock = tiles[players * size :]
        hand = match.start_hand(leader, [set(held) for held in deal], set(stock))
        moves: list[dict[str, Any]] = []
        while hand.end is None:
            seat = hand.turn
            legal = hand.legal_moves()
            choice = legal[0]
            if choice.kind == DRAW:
                tile = stock.pop()
                match.draw(tile)
                moves.append({"seat": seat, "draw": NAME[tile]})
                continue
            if choice.kind == PASS:
                match.pass_turn()
                moves.append({"seat": seat, "pass": True})
                continue
            choice = seat_bots[seat](hand, legal, rng)
            tile = choice.tile
            assert tile is not None
            move: dict[str, Any] = {"seat": seat}
            if hand.lead is None:
                west, east = (
                    (LOW[tile], HIGH[tile]) if rng.random() < 0.5 else (HIGH[tile], LOW[tile])
                )
                move["play"] = f"{west}-{east}"
                _, points = match.play(tile, None, west, east)
            else:
                move["play"] = NAME[tile]
                move["end"] = choice.end
                _, points = match.play(tile, choice.end)
            if points:
                move["points"] = points
            moves.append(move)
        hands.append(
            {
                "leader": leader,
                "deal": [[NAME[tile] for tile in held] for held in deal],
                "moves": moves,
            }
        )
    return {
        "format": FORMAT_NAME,
        "id": f"sim-{seed}",
        "ruleset": ruleset,
        "players": list(names or PLAYER_NAMES[:players]),
        "teams": partnerships,
        "event": "simulated",
        "hands": hands,
        "final_scores": list(match.scores),
    }


def simulate_matches(count: int, *, seed: int = 0, **options: Any) -> Iterator[dict[str, Any]]:
    """Yield ``count`` simulated logs; match ``i`` has a seed drawn from ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield simulate_match(seed=rng.getrandbits(48), **options)
