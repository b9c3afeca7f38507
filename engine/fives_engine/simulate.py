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
from .log import HandLog, MatchLog, Move
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
    hands: list[HandLog] = []
    while not match.over and len(hands) < max_hands:
        if hands and match.leaders is not None:
            leader = rng.choice(sorted(match.leaders))
        else:
            leader = rng.randrange(players)
        hands.append(simulate_hand(match, leader, rng, seat_bots))
    log = MatchLog(
        id=f"sim-{seed}",
        ruleset=ruleset,
        players=tuple(names or PLAYER_NAMES[:players]),
        teams=tuple(tuple(team) for team in partnerships) if partnerships else None,
        event="simulated",
        hands=tuple(hands),
        final_scores=tuple(match.scores),
    )
    return log.as_json()


def simulate_hand(
    match: MatchState, leader: int, rng: random.Random, seat_bots: list[Bot]
) -> HandLog:
    """Deal the next hand of ``match``, play it to its end with the bots, return its log."""
    players, size = match.players, match.rules.hand_size
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    deal = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
    stock = tiles[players * size :]
    hand = match.start_hand(leader, [set(held) for held in deal], set(stock))
    moves: list[Move] = []
    while hand.end is None:
        seat = hand.turn
        legal = hand.legal_moves()
        choice = legal[0]
        if choice.kind == DRAW:
            drawn = stock.pop()
            match.draw(drawn)
            moves.append(Move(seat, "draw", NAME[drawn]))
            continue
        if choice.kind == PASS:
            match.pass_turn()
            moves.append(Move(seat, "pass"))
            continue
        choice = seat_bots[seat](hand, legal, rng, moves)
        tile = choice.tile
        assert tile is not None
        if hand.lead is None:
            west, east = (LOW[tile], HIGH[tile]) if rng.random() < 0.5 else (HIGH[tile], LOW[tile])
            text = f"{west}-{east}"
            _, points = match.play(tile, None, west, east)
        else:
            text = NAME[tile]
            _, points = match.play(tile, choice.end)
        moves.append(Move(seat, "play", text, choice.end, points or None))
    return HandLog(
        leader=leader,
        deal=tuple(tuple(NAME[tile] for tile in held) for held in deal),
        moves=tuple(moves),
    )


def simulate_matches(count: int, *, seed: int = 0, **options: Any) -> Iterator[dict[str, Any]]:
    """Yield ``count`` simulated logs; match ``i`` has a seed drawn from ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield simulate_match(seed=rng.getrandbits(48), **options)
