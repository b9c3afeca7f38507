"""The engine's answers to the taps that may come next (``recorder.table.foresee``), from which
the recorder draws a tap before the engine's round trip: each is the answer the engine gives
the record with that move, as the recorder keeps it, so that the check after a tap finds the
same answer and the page draws nothing again. Without a browser (the page's side is
test_recorder_foreseen_browser.py)."""

from __future__ import annotations

import copy

from fives_engine import to_table_record
from fives_engine.simulate import simulate_match
from recorder.table import analyse, analyse_ahead, foresee

from .helpers import tile_name
from .test_recorder_browser import ALL_FIVES_4, MUGGINS_2


def prefixes(doc: dict, every: int):
    """The record as the phone has it before a move of each hand (every ``every``-th)."""
    head = {key: value for key, value in doc.items() if key != "final_scores"}
    for index, hand in enumerate(doc["hands"]):
        for cut in range(0, len(hand["moves"]), every):
            partial = copy.deepcopy(head)
            partial["hands"] = [
                *copy.deepcopy(doc["hands"][:index]),
                {"leader": hand["leader"], "moves": copy.deepcopy(hand["moves"][:cut])},
            ]
            yield partial, hand["moves"][cut]


def with_move(doc: dict, move: dict) -> dict:
    out = copy.deepcopy(doc)
    out["hands"][-1]["moves"].append(move)
    return out


def key_of(move: dict, ahead: dict) -> str:
    """The key of the tap that makes ``move`` (its end only where the tile fits two)."""
    if "pass" in move:
        return "pass"
    if "draw" in move:
        return "draw ?"
    key = f"play {tile_name(move['play'])}"
    answer = ahead[key]
    errors = answer["report"]["errors"]
    return f"{key} {move['end']}" if errors and errors[0]["code"] == "ambiguous-end" else key


def test_each_foreseen_answer_is_the_engines_answer_to_the_record_as_kept():
    """Over two matches (draws, knocks, a block, ends a tile fits two of, partnerships), every
    foreseen move answers as the record with the move kept does, and the move the table made
    next is among them, kept as the record wrote it."""
    checked = 0
    for preset, players, teams, seed in (MUGGINS_2, ALL_FIVES_4):
        doc = to_table_record(simulate_match(preset, players, teams=teams, seed=seed))
        for partial, made in prefixes(doc, 4):
            now = analyse(partial)
            ahead = foresee(partial, now)
            assert ahead is not None and now["phase"] == "play"
            for key, answer in ahead.items():
                if answer["report"]["errors"]:
                    assert "move" not in answer
                    continue
                kept = answer["move"]
                plain = {name: value for name, value in answer.items() if name != "move"}
                assert analyse(with_move(partial, kept)) == plain, key
                checked += 1
            if "draw" in made and made["draw"] != "?":
                continue  # a shown draw is not foreseen: the tile is the boneyard's to say
            kept = ahead[key_of(made, ahead)].get("move")
            if "play" in made:
                # The picker spells a tile low pip first; the lead lies on no end.
                made = {**made, "play": tile_name(made["play"])}
                if kept == {**made, "end": None} or "end" not in made:
                    made.pop("end", None)
            assert kept == made, (kept, made)
    assert checked > 500


def test_a_refused_tap_is_foreseen_in_the_engines_words_and_an_end_asked():
    doc = to_table_record(simulate_match(*MUGGINS_2[:2], teams=MUGGINS_2[2], seed=MUGGINS_2[3]))
    hand = doc["hands"][0]
    partial = {**doc, "hands": [{"leader": hand["leader"], "moves": hand["moves"][:4]}]}
    partial.pop("final_scores")
    ahead = analyse_ahead(partial)["ahead"]
    move = hand["moves"][4]
    # The tile that fits two ends (test_recorder_engine.py): its ends asked, each answered.
    asked = ahead[f"play {tile_name(move['play'])}"]["report"]["errors"][0]
    assert asked["code"] == "ambiguous-end" and asked["params"]["ends"] == ["N", "S"]
    assert {f"play {tile_name(move['play'])} {end}" for end in ("N", "S")} <= set(ahead)
    # A tile laid is not offered; one that fits no end is refused as a tap of it would be.
    laid = analyse(partial)["laid"]
    assert laid and not any(f"play {tile}" in ahead for tile in laid)
    refused = [key for key, answer in ahead.items() if answer["report"]["errors"]]
    assert {"play 0-0", "play 3-4", "pass"} <= set(refused)
    seat = move["seat"]
    for key in refused:
        kind, *tap = key.split()
        tapped = {"seat": seat, "pass": True} if kind == "pass" else {"seat": seat}
        if tap:
            tapped = {**tapped, "play": tap[0], **({"end": tap[1]} if len(tap) > 1 else {})}
        assert analyse(with_move(partial, tapped)) == ahead[key], key


def test_nothing_is_foreseen_where_the_table_waits_for_something_else():
    doc = to_table_record(simulate_match("muggins", 2, seed=3))
    head = {key: value for key, value in doc.items() if key != "final_scores"}
    hand = copy.deepcopy(doc["hands"][0])
    hand.pop("left")
    # The hand over: the tiles each seat shows are asked, not foreseen.
    assert analyse_ahead({**head, "hands": [hand]})["ahead"] is None
    # The next hand's leader is asked, not foreseen.
    assert analyse_ahead({**head, "hands": doc["hands"][:1]})["ahead"] is None
    # A refused record, and the whole match over.
    assert analyse_ahead({**head, "players": []})["ahead"] is None
    assert analyse_ahead(doc)["ahead"] is None
