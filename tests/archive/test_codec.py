"""A hand packed in a few bytes and unpacked is the same hand with the same figures, for every
preset and option, player count, partnership, claim and metadata (no database needed)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.codec import JSON_FALLBACK, VERSION, pack_hand, unpack_hand
from games.engine import MoveFacts, check_document
from games.engine.convert import to_table_record
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
    for hand, facts in zip(checked.log.hands, checked.moves, strict=True):
        packed = pack_hand(hand, facts)
        assert packed[0] == VERSION  # every valid hand fits the compact form
        again, figures = unpack_hand(packed)
        assert again == hand
        assert again.as_json() == hand.as_json()
        assert figures == list(facts)


@SETTINGS
@given(logs_with_claims())
def test_every_simulated_hand_comes_back_exactly_with_its_figures(doc):
    _round_trip(doc)


def test_a_hand_that_does_not_fit_is_kept_as_json_and_comes_back_exactly():
    doc = {
        "format": "fives/1",
        "ruleset": "muggins",
        "players": ["A", "B"],
        "hands": [
            {
                "leader": 0,
                "deal": [["5-5", "6-4", "3-1", "0-0", "2-2", "6-6", "5-3"]] * 1
                + [["5-0", "1-1", "1-2", "2-4", "4-4", "1-6", "2-6"]],
                "moves": [{"seat": 0, "play": "5-5", "points": 10}],
            }
        ],
    }
    checked = check_document(doc)
    [hand] = checked.log.hands
    odd = [MoveFacts(300, 300, 300, "5-5")]  # no room for a count of 300 in a byte
    packed = pack_hand(hand, odd)
    assert packed[0] == JSON_FALLBACK
    assert unpack_hand(packed) == (hand, odd)


def test_the_figures_of_a_draw_are_known_without_storing_them():
    doc = {
        "format": "fives/1",
        "ruleset": "muggins",
        "players": ["A", "B"],
        "hands": [
            {
                "leader": 0,
                "deal": [
                    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
                    ["0-0", "1-1", "2-2", "3-3", "4-4", "1-0", "2-0"],
                ],
                "moves": [{"seat": 0, "play": "6-6"}, {"seat": 1, "draw": "5-0", "end": "N"}],
            }
        ],
    }
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
