"""Issues 35 and 57: the page's states read off the engine's board (``page_board``: its
``view()`` as the walk makes the stored moves, each play's best as ingest stored it) are, byte
for byte, the page's states written from the API's states (``wire.replay_page_part``), over
simulated matches of every preset and the options that change the table: players alone and
in partnerships, table records, Fives and Threes, no spinner, a cross open at once, partners
playing on until both are out, busts, matches won and matches cut short."""

from __future__ import annotations

import msgspec
import pytest

from fives_engine import PRESETS, MatchLog, check_document, to_table_record
from fives_engine.replay import replay_match
from fives_engine.simulate import simulate_match
from games.codec import PackedHand, pack_match
from games.models import Match
from replays import wire
from replays.page_board import stored_page_states
from replays.wire import page_part, replay_page_part

OPTIONS = [
    {"spinner": False},
    {"spinner_sides_first": False},
    {"partnership_end": "both-out"},
    {"target_exact": True, "go_out_bonus": 1},
    {"end_at_target": "immediately", "target": 60},
    {"boneyard_reserve": "all"},
    {"boneyard_reserve": 2, "next_leader": "any"},
]

TABLES = [
    (preset, players, teams)
    for preset in PRESETS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
] + [
    ({"base": preset, **options}, 4 if pairs else 2, pairs)
    for preset in PRESETS
    for options in OPTIONS
    for pairs in ["partnership_end" in options]
]


def stored(doc: dict) -> tuple[Match, MatchLog]:
    """Return the match ingest would store for ``doc`` (not saved: its hands packed as
    ingest packs them, with the figures of ingest's walk), and its log."""
    checked = check_document(doc)
    assert checked.report.valid, checked.report.errors
    assert checked.log is not None
    hands = zip(checked.log.hands, checked.moves, checked.report.hands, strict=True)
    players = len(checked.log.players)
    match = Match(
        ruleset=doc["ruleset"],
        player_count=players,
        teams=doc.get("teams"),
        record=doc.get("record") or "",
        errors=[],
        packed=pack_match([PackedHand(*hand) for hand in hands], players),
    )
    return match, checked.log


def walked(match: Match, log: MatchLog) -> dict:
    """Return the page's part as the engine's walk of the stored match gives it (what the
    page was made from before: ``replay_cache``'s walk, each play's best stored)."""
    replay = replay_match(log, [hand.facts for hand in match.hands])
    return {"valid": replay.report.valid} | replay_page_part(
        replay.states, seats=match.player_count
    )


def made(match: Match) -> dict:
    return {"valid": True} | page_part(*stored_page_states(match))


def assert_same(match: Match, log: MatchLog) -> None:
    new, old = made(match), walked(match, log)
    if new != old:  # the first state that differs, said plainly
        for index, (a, b) in enumerate(zip(new["packed"], old["packed"], strict=False)):
            assert a == b, (index, a, b)
        assert new == old
    assert msgspec.json.encode(new) == msgspec.json.encode(old)


@pytest.mark.parametrize(("ruleset", "players", "teams"), TABLES)
@pytest.mark.parametrize("record", ["full", "table"])
def test_the_stored_states_are_the_walks(ruleset, players, teams, record):
    for seed in range(3):
        doc = simulate_match(ruleset, players, teams=teams, seed=seed, max_hands=4 + 8 * seed)
        if record == "table":
            doc = to_table_record(doc)
        assert_same(*stored(doc))


@pytest.mark.parametrize("record", ["full", "table"])
def test_a_match_cut_short_mid_hand_and_a_hand_with_no_move(record):
    """The last hand unfinished: whose turn it is after its last move is worked out (no next
    move says it), after a play, a draw and a pass alike; a hand stopped before its lead."""
    for ruleset, players, teams in (("muggins", 2, False), ("fives-and-threes", 4, True)):
        for seed in range(6):
            doc = simulate_match(ruleset, players, teams=teams, seed=seed, max_hands=3)
            last = doc["hands"][-1]
            for keep in range(len(last["moves"])):
                hand = {**last, "moves": last["moves"][:keep]}
                cut = {**doc, "hands": [*doc["hands"][:-1], hand]}
                cut.pop("final_scores", None)
                assert_same(*stored(to_table_record(cut) if record == "table" else cut))


def test_a_very_long_match_sends_its_first_hand(monkeypatch):
    monkeypatch.setattr(wire, "PAGE_STATES", 20)
    match, log = stored(simulate_match("all-fives", 2, seed=3, max_hands=3))
    new = made(match)
    assert len(new["packed"]) == new["hands"][0]["moves"] + 1 < new["total"]
    assert_same(match, log)
