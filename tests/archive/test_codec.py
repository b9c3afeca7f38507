"""A match's hands packed in a few bytes and unpacked are the same hands with the same figures
and results, for every preset and option, player count, partnership, claim and table record
(no database needed); so is a hand in format 1, which migrations still read and write."""

from __future__ import annotations

import hashlib
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import MoveFacts, check_document
from fives_engine.convert import to_table_record
from fives_engine.simulate import simulate_matches
from games.codec import (
    DICTIONARY_PATH,
    DICTIONARY_SHA256,
    JSON_FALLBACK,
    MATCH_VERSION,
    MATCH_ZLIB,
    MATCH_ZSTD,
    VERSION,
    PackedHand,
    pack_body,
    pack_hand,
    pack_match,
    unpack_hand,
    unpack_match,
)
from tests.engine.test_properties import simulated_logs

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

claims = st.one_of(
    st.integers(-(10**9), 10**9), st.floats(-1e9, 1e9, allow_nan=False), st.sampled_from([0, 5])
)


@st.composite
def logs_with_claims(draw):
    """A simulated log whose moves sometimes claim points (any number) and name an end."""
    doc = draw(simulated_logs())
    for hand in doc["hands"]:
        for move in hand["moves"]:
            if draw(st.integers(0, 9)) == 0:
                move["points"] = draw(claims)
            if "play" not in move and draw(st.integers(0, 19)) == 0:
                move["end"] = draw(st.sampled_from("WENS"))
    return doc


def _round_trip(doc: dict) -> None:
    checked = check_document(json.dumps(doc))
    assert checked.report.valid, checked.report.errors
    assert checked.log is not None
    hands = [
        PackedHand(hand, facts, result)
        for hand, facts, result in zip(
            checked.log.hands, checked.moves, checked.report.hands, strict=True
        )
    ]
    packed = pack_match(hands, len(doc["players"]))
    # Every valid match fits the compact form (a play's points as scored included); format 1
    # (one hand, migrations only) keeps a hand with a play that scores neither its whole
    # count nor nothing (Fives and Threes' scoring, a go-out bonus) as JSON.
    whole = [
        all(fact.count is None or fact.points in (0, fact.count) for fact in facts)
        for facts in checked.moves
    ]
    assert packed[0] in (MATCH_VERSION, MATCH_ZSTD)
    again = unpack_match(packed, len(doc["players"]))
    assert again == hands
    assert [hand.log.as_json() for hand in again] == [h.as_json() for h in checked.log.hands]
    for hand, facts, fits in zip(checked.log.hands, checked.moves, whole, strict=True):
        packed = pack_hand(hand, facts)
        assert packed[0] == (VERSION if fits else JSON_FALLBACK)  # as a match
        again, figures = unpack_hand(packed)
        assert again == hand
        assert again.as_json() == hand.as_json()
        assert figures == list(facts)


def _one_hand(deal: list[list[str]], moves: list[dict]) -> dict:
    """A two-player muggins log of one hand."""
    hand = {"leader": 0, "deal": deal, "moves": moves}
    return {"format": "fives/1", "ruleset": "muggins", "players": ["A", "B"], "hands": [hand]}


ODD_DEAL = [
    ["5-5", "6-4", "3-1", "0-0", "2-2", "6-6", "5-3"],
    ["5-0", "1-1", "1-2", "2-4", "4-4", "1-6", "2-6"],
]
DRAW_DEAL = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["0-0", "1-1", "2-2", "3-3", "4-4", "1-0", "2-0"],
]


@SETTINGS
@given(logs_with_claims())
def test_every_simulated_hand_comes_back_exactly_with_its_figures(doc):
    _round_trip(doc)


def test_a_hand_that_does_not_fit_is_kept_as_json_and_comes_back_exactly():
    doc = _one_hand(ODD_DEAL, [{"seat": 0, "play": "5-5", "points": 10}])
    checked = check_document(doc)
    [hand] = checked.log.hands
    odd = [MoveFacts(300, 300, 300, "5-5")]  # no room for a count of 300 in a byte
    packed = pack_hand(hand, odd)
    assert packed[0] == JSON_FALLBACK
    assert unpack_hand(packed) == (hand, odd)


def test_the_figures_of_a_draw_are_known_without_storing_them():
    doc = _one_hand(DRAW_DEAL, [{"seat": 0, "play": "6-6"}, {"seat": 1, "draw": "5-0", "end": "N"}])
    checked = check_document(doc)
    assert checked.report.valid, checked.report.errors
    [hand] = checked.log.hands
    packed = pack_hand(hand, checked.moves[0])
    assert len(packed) == 2 + 17 + 1 + 5 + 2  # head, deal, count, a play, a draw
    assert unpack_hand(packed) == (hand, checked.moves[0])


@SETTINGS
@given(logs_with_claims())
def test_every_table_record_hand_comes_back_exactly_with_its_figures(doc):
    """Table records: no deal, draws nobody saw ("?"), the tiles left at the end."""
    _round_trip(to_table_record(doc))


def test_a_match_that_does_not_fit_is_kept_as_json_and_comes_back_exactly():
    doc = _one_hand(ODD_DEAL, [{"seat": 0, "play": "5-5", "points": 10}])
    checked = check_document(doc)
    [hand] = checked.log.hands
    [result] = checked.report.hands
    odd = [PackedHand(hand, [MoveFacts(300, 300, 300, "5-5")], result)]  # a count of 300
    packed = pack_match(odd, 2)
    assert packed[0] == JSON_FALLBACK
    assert unpack_match(packed, 2) == odd


def test_a_move_by_the_seat_expected_costs_no_seat_byte():
    doc = _one_hand(DRAW_DEAL, [{"seat": 0, "play": "6-6"}, {"seat": 1, "draw": "5-0"}])
    checked = check_document(doc)
    assert checked.report.valid, checked.report.errors
    hands = [PackedHand(checked.log.hands[0], checked.moves[0], checked.report.hands[0])]
    body = pack_match(hands, 2)
    assert body[0] == MATCH_VERSION  # too short to gain from compression
    # version, teams, hands, the result (end, points and settlement of two teams), the hand's
    # head, the deal (a count and 7 tiles a seat), the move count, the lead (head, tile,
    # count, and the 10 that 4-6 would have made, and 4-6) and the draw (head, tile).
    assert len(body) == 1 + 2 + 5 + 1 + 17 + 1 + 5 + 2
    assert hands[0].facts[0] == MoveFacts(12, 0, 10, "4-6")
    assert unpack_match(body, 2) == hands


def _packed_hands(doc: dict) -> list[PackedHand]:
    checked = check_document(doc)
    assert checked.log is not None and checked.report.valid, checked.report.errors
    return [
        PackedHand(hand, facts, result)
        for hand, facts, result in zip(
            checked.log.hands, checked.moves, checked.report.hands, strict=True
        )
    ]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_match_is_compressed_with_the_dictionary_and_comes_back(seed):
    doc = next(iter(simulate_matches(1, seed=seed, ruleset="muggins", players=3)))
    hands = _packed_hands(doc)
    packed = pack_match(hands, 3)
    body = pack_body(hands, 3)
    assert body is not None
    assert packed[0] == MATCH_ZSTD
    # The dictionary is what makes a kilobyte compress: without it zlib saves far less.
    assert len(packed) < 0.9 * len(zlib.compress(body, 9))
    assert unpack_match(packed, 3) == hands


@pytest.mark.parametrize(
    ("players", "teams", "hand_size"), [(2, False, 9), (3, False, None), (4, True, 6)]
)
def test_a_fives_and_threes_match_comes_back_exactly_with_every_points_figure(
    players, teams, hand_size
):
    # Its plays score 8 for a count of 15, a bust 0, a go-out 1 more: not the whole count or
    # nothing, so the points are written as scored, and come back so, in the compact form.
    ruleset = "fives-and-threes"
    if hand_size is not None:
        ruleset = {"base": ruleset, "hand_size": {str(players): hand_size}}
    docs = simulate_matches(4, seed=players, ruleset=ruleset, players=players, teams=teams)
    for doc in docs:
        hands = _packed_hands(doc)
        packed = pack_match(hands, players)
        assert packed[0] in (MATCH_VERSION, MATCH_ZSTD)
        assert unpack_match(packed, players) == hands
        plays = [fact for hand in hands for fact in hand.facts if fact.count is not None]
        assert any(fact.points not in (0, fact.count) for fact in plays)


def test_a_match_stored_in_zlib_by_an_earlier_release_is_still_read():
    doc = next(iter(simulate_matches(1, seed=5, ruleset="all-fives", players=4, teams=True)))
    hands = _packed_hands(doc)
    body = pack_body(hands, 4)
    assert body is not None
    assert unpack_match(bytes([MATCH_ZLIB]) + zlib.compress(body, 6), 4) == hands


def test_the_dictionary_on_disk_is_the_one_stored_matches_were_packed_with():
    assert hashlib.sha256(DICTIONARY_PATH.read_bytes()).hexdigest() == DICTIONARY_SHA256
