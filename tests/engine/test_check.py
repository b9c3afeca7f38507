"""``HandState.check(move)``, the one judge of a move: it agrees with the legal-move generator
on every move that could be written at every state of simulated matches, and answers each
refusal as a code and params that the validator reports with the players named."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fives_engine import Move, validate_log
from fives_engine.codes import Code
from fives_engine.game import DRAW, PASS, PLAY, Chosen, MatchState, Refusal
from fives_engine.log import parse_log
from fives_engine.rules import resolve_ruleset
from fives_engine.tiles import ALL_TILES, NAME, TILE_BY_TEXT
from tests.engine.helpers import format_example
from tests.engine.test_properties import simulated_logs

ENDS = (None, "W", "E", "N", "S")


def legal_by_generator(hand, move):
    """Return whether the legal-move generator allows ``move`` (its end named or not)."""
    legal = hand.legal_moves()
    if move.kind == DRAW:
        tile = TILE_BY_TEXT[move.tile][0]
        return [m.kind for m in legal] == [DRAW] and tile in hand.boneyard
    if move.kind == PASS:
        return [m.kind for m in legal] == [PASS]
    tile = TILE_BY_TEXT[move.tile][0]
    plays = [(m.tile, m.end) for m in legal if m.kind == PLAY]
    if hand.lead is None:
        return tile in {t for t, _ in plays}
    ends = [end for t, end in plays if t == tile]
    return move.end in ends if move.end is not None else len(ends) == 1


def every_move(seat):
    """Every move ``seat`` could write: each tile on each end or none, each draw, a pass."""
    for tile in ALL_TILES:
        for end in ENDS:
            yield Move(seat, PLAY, NAME[tile], end)
        yield Move(seat, DRAW, NAME[tile])
    yield Move(seat, PASS)


def board(hand):
    """Everything a hand holds that a move could change."""
    return (
        hand.view(),
        [sorted(tiles) for tiles in hand.hands],
        sorted(hand.boneyard),
        hand.layout(),
        hand.last_play,
        hand.last_placed,
        hand.passes_in_row,
        hand.end,
    )


def walk_full_record(doc, at_each):
    """Make the moves of a full record one by one, calling ``at_each(match, move)`` first."""
    log = parse_log(doc)
    rules = resolve_ruleset(log.ruleset, len(log.players))
    teams = [list(team) for team in log.teams] if log.teams is not None else None
    match = MatchState.create(rules, len(log.players), teams)
    for hand_log in log.hands:
        hands = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in hand_log.deal]
        dealt = set().union(*hands)
        match.start_hand(hand_log.leader, hands, {t for t in ALL_TILES if t not in dealt})
        for move in hand_log.moves:
            at_each(match, move)
            assert match.check(move) is None
            match.make(match.judge(move))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_logs())
def test_check_allows_exactly_the_moves_the_generator_gives(doc):
    def judge_every_move(match, logged):
        hand = match.hand
        if hand.held(hand.turn) > 3:  # a few states a hand: the end of each
            return
        before = board(hand)
        for move in every_move(hand.turn):
            refusal = hand.check(move)
            assert (refusal is None) == legal_by_generator(hand, move), (move, refusal)
            assert refusal is None or isinstance(refusal.code, Code)
            verdict = hand.judge(move)
            assert isinstance(verdict, Refusal if refusal else Chosen)
        assert board(hand) == before, "the judge changed the board"

    walk_full_record(doc, judge_every_move)


def test_a_refusal_names_seats_and_the_validator_names_the_players():
    doc = format_example()
    log = parse_log(doc)
    match = MatchState.create(resolve_ruleset(log.ruleset, 2), 2, None)
    hand_log = log.hands[0]
    hands = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in hand_log.deal]
    dealt = set().union(*hands)
    hand = match.start_hand(0, hands, {t for t in ALL_TILES if t not in dealt})
    assert hand.check(Move(1, PLAY, "5-0")) == Refusal(
        Code.WRONG_TURN,
        {"case": "player", "player": 1, "seat": 1, "turn_player": 0, "turn": 0},
    )
    assert hand.check(Move(0, PLAY, "5-0")) == Refusal(
        Code.NOT_IN_HAND, {"tile": "5-0", "player": 0, "seat": 0}
    )
    assert hand.check(Move(0, PASS)) == Refusal(
        Code.PASS_WHEN_PLAYABLE, {"open": [], "player": 0, "seat": 0}
    )
    # A legal lead keeps its pips as written.
    assert hand.check(Move(0, PLAY, "3-5")) is None
    assert hand.judge(Move(0, PLAY, "3-5")) == Chosen(PLAY, TILE_BY_TEXT["3-5"][0], None, 3, 5)
    match.play(TILE_BY_TEXT["5-5"][0], None, 5, 5)
    assert hand.check(Move(1, PLAY, "1-1")) == Refusal(
        Code.NO_MATCH, {"tile": "1-1", "open": [["W", 5], ["E", 5]]}
    )
    # The validator reports the same code and params, the seats' players named.
    doc["hands"][0]["moves"][1] = {"seat": 1, "play": "1-1"}
    [error] = validate_log(doc).errors
    assert (error.code, error.params) == (
        Code.NO_MATCH,
        {"tile": "1-1", "open": [["W", 5], ["E", 5]]},
    )
    doc["hands"][0]["moves"][1] = {"seat": 0, "play": "6-4"}
    [error] = validate_log(doc).errors
    assert error.code == Code.WRONG_TURN
    assert error.params == {
        "case": "player",
        "player": "Nino",
        "seat": 0,
        "turn_player": "Giorgi",
        "turn": 1,
    }


@pytest.mark.parametrize(("end", "code"), [(None, Code.AMBIGUOUS_END), ("N", Code.BAD_END)])
def test_a_tile_that_fits_both_ends_needs_one_of_them_named(end, code):
    doc = format_example()
    log = parse_log(doc)
    match = MatchState.create(resolve_ruleset(log.ruleset, 2), 2, None)
    hands = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in log.hands[0].deal]
    hand = match.start_hand(0, hands, set())
    match.play(TILE_BY_TEXT["3-1"][0], None, 3, 1)
    hand.hands[1].add(TILE_BY_TEXT["1-3"][0])
    assert hand.check(Move(1, PLAY, "1-3", end)).code == code
    assert hand.check(Move(1, PLAY, "1-3", "W")) is None
    assert hand.judge(Move(1, PLAY, "1-3", "W")) == Chosen(PLAY, TILE_BY_TEXT["1-3"][0], "W")
