"""The practice drill's positions (``fives_engine.practice``) never show a tile their seat
could not see: over every play of 100 simulated matches (All Fives and Muggins, two players
and four in partnerships), each served position is held against the full log's own walk:
the seat's true tiles, the true counts, boneyard and legal plays, and no tile of another
seat's hand, of the boneyard or of a face-down draw anywhere in what is served. A table
record made of some of them is checked the same way."""

from __future__ import annotations

import json
import re

import pytest

from fives_engine.convert import to_table_record
from fives_engine.log import parse_log
from fives_engine.practice import PositionUnknown, hand_positions, position_at
from fives_engine.simulate import simulate_matches
from fives_engine.tiles import NAME, TILE_BY_TEXT
from fives_engine.validate import validate_match

# 25 matches of each kind: 100 in all (targets kept short so the test stays quick).
KINDS = [
    ({"base": "all-fives", "target": 100}, 2, False),
    ({"base": "all-fives", "target": 100}, 4, True),
    ({"base": "muggins", "target": 100}, 2, False),
    ({"base": "muggins", "target": 100}, 4, True),
]
TILE_TEXT = re.compile(r"(?<![0-9])[0-6]-[0-6](?![0-9])")


def simulated_logs():
    for index, (ruleset, players, teams) in enumerate(KINDS):
        yield from simulate_matches(
            25,
            seed=370 + index,
            ruleset=ruleset,
            players=players,
            teams=teams,
            bots=("greedy", "random"),
        )


def truth_before_each_move(log):
    """Return, by (hand, move), the full state just before the move: each seat's tiles,
    the boneyard, and the legal plays of the seat to move (the validator's own walk)."""
    truth = {}

    def record(step):
        after = 0 if step.move_index is None else step.move_index + 1
        hand = step.hand
        truth[(step.hand_index, after)] = (
            [frozenset(tiles) for tiles in hand.hands],
            frozenset(hand.boneyard),
            [str(play) for play in hand.legal_plays()] if hand.end is None else [],
        )

    assert validate_match(log, on_step=record).valid
    return truth


def named_tiles(position) -> set[int]:
    """Every tile named anywhere in the served position (its JSON, as the API sends it)."""
    text = json.dumps(position.as_dict())
    return {TILE_BY_TEXT[found][0] for found in TILE_TEXT.findall(text)}


def check_position(position, hands, boneyard, legal, log):
    seat = position.seat
    hidden = set(boneyard).union(*(tiles for other, tiles in enumerate(hands) if other != seat))
    leaked = named_tiles(position) & hidden
    assert not leaked, (position.hand, position.move, sorted(NAME[t] for t in leaked))
    # What is shown is what was there: the seat's own tiles, the counts and its choices.
    assert position.hand_tiles == tuple(NAME[t] for t in sorted(hands[seat]))
    assert position.counts == tuple(len(tiles) for tiles in hands)
    assert position.boneyard == len(boneyard)
    assert list(position.choices) == legal
    # Another seat's draw is face down in a full record (a table record wrote "?").
    for move in position.seen:
        if move.kind == "draw" and move.seat != seat:
            assert move.tile is None


def test_no_position_of_100_simulated_matches_shows_a_tile_its_seat_could_not_see():
    checked = 0
    tables = 0
    for number, doc in enumerate(simulated_logs()):
        log = parse_log(doc)
        truth = truth_before_each_move(log)
        for h in range(len(log.hands)):
            for m, position in enumerate(hand_positions(log, h)):
                move = log.hands[h].moves[m]
                if move.kind != "play":
                    assert position is None
                    continue
                hands, boneyard, legal = truth[(h, m)]
                check_position(position, hands, boneyard, legal, log)
                checked += 1
        if number % 5 == 0:
            # The same match as a table record: every draw hidden, fewer positions known.
            table = parse_log(to_table_record(doc))
            for h in range(len(table.hands)):
                for m, position in enumerate(hand_positions(table, h)):
                    if position is not None:
                        hands, boneyard, legal = truth[(h, m)]
                        check_position(position, hands, boneyard, legal, table)
                        tables += 1
    assert checked > 5000 and tables > 100, (checked, tables)


def test_a_position_is_served_once_asked_for_by_hand_and_move():
    doc = next(simulate_matches(1, seed=5, ruleset="muggins", players=2))
    log = parse_log(doc)
    h, m = next(
        (h, m)
        for h, hand in enumerate(log.hands)
        for m, move in enumerate(hand.moves)
        if move.kind == "play" and m > 3
    )
    position = position_at(log, h, m)
    assert (position.hand, position.move, position.seat) == (h, m, log.hands[h].moves[m].seat)
    assert position == list(hand_positions(log, h))[m]
    # The play made is among the choices, as the review writes it.
    made = log.hands[h].moves[m]
    assert any(
        choice.split(" on ")[0] == NAME[TILE_BY_TEXT[made.tile][0]] for choice in position.choices
    )
    draw = next(
        (h, m)
        for h, hand in enumerate(log.hands)
        for m, move in enumerate(hand.moves)
        if move.kind != "play"
    )
    with pytest.raises(PositionUnknown):
        position_at(log, *draw)
    with pytest.raises(PositionUnknown):
        position_at(log, len(log.hands), 0)


def test_the_leader_sees_an_empty_table_and_leads_any_tile():
    doc = next(simulate_matches(1, seed=6, ruleset="all-fives", players=2))
    log = parse_log(doc)
    position = position_at(log, 0, 0)
    assert position.layout["lead"] is None and position.open_ends == () and position.count == 0
    assert position.seen == ()
    assert list(position.choices) == list(position.hand_tiles)  # a lead names its tile alone
    assert position.counts == (9, 9) and position.boneyard == 10
    assert position.as_dict()["table"]["open_ends"] == []
