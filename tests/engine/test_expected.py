"""The expected-value review (engine/fives_engine/expected.py, docs/analysis.md).

Exact figures are checked against a brute force that knows nothing of the review's
inference: it tries every place the unseen tiles could lie and every story of the hidden
draws, keeps the layouts whose story agrees with every move the seat saw, and plays each one
out on the validator's own state. Fairness is checked on pairs of matches that look the same
to the seat but differ in hidden tiles.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fives_engine import MatchState, parse_log, to_table_record, validate_log
from fives_engine.expected import (
    ANALYSIS_VERSION,
    BLUNDER,
    CHANCE_BLUNDER,
    CHANCE_INACCURACY,
    CHANCE_MISTAKE,
    INACCURACY,
    MISTAKE,
    SIGNIFICANCE,
    MatchReview,
    PlayReview,
    accuracy_of,
    mark_of,
    play_accuracy,
    review_document,
    review_match,
    roll_out,
    rollout_play,
)
from fives_engine.game import DRAW, PASS, PLAY, HandState
from fives_engine.simulate import simulate_match
from fives_engine.tiles import ALL_TILES, HIGH, LOW, NAME, TILE_BY_TEXT
from fives_engine.validate import Step, validate_match

QUICK = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _short(doc: dict[str, Any], hands: int) -> dict[str, Any]:
    """Return the log with only its first ``hands`` hands (valid, perhaps unfinished)."""
    out = copy.deepcopy(doc)
    out["hands"] = out["hands"][:hands]
    out.pop("final_scores", None)
    return out


def _check_review(review: MatchReview, doc: dict[str, Any]) -> None:
    players = len(doc["players"])
    assert review.version == ANALYSIS_VERSION
    assert len(review.accuracy) == len(review.mean_loss) == players
    assert len(review.loss_by_hand) == len(doc["hands"])
    for play in review.plays:
        move = doc["hands"][play.hand]["moves"][play.move]
        assert move["seat"] == play.seat and "play" in move
        names = [alt.play for alt in play.alternatives]
        assert play.played in names and play.best in names
        assert len(names) == len(set(names))
        assert play.loss >= 0 and play.best_value >= play.value - 1e-9
        assert math.isclose(play.loss, max(0.0, play.best_value - play.value), abs_tol=1e-9)
        assert play.best_value == pytest.approx(max(alt.value for alt in play.alternatives))
        if play.unit == "chance":
            assert play.chance is not None and play.best_chance is not None
            assert play.chance_loss is not None and play.chance_loss_stderr is not None
            assert 0.0 <= play.chance <= 100.0 and 0.0 <= play.best_chance <= 100.0
            chances = [alt.chance for alt in play.alternatives]
            assert play.best_chance == pytest.approx(max(c for c in chances if c is not None))
            assert play.chance_loss == pytest.approx(max(0.0, play.best_chance - play.chance))
            loss, stderr = play.chance_loss, play.chance_loss_stderr
        else:
            assert play.chance is None
            loss, stderr = play.loss, play.loss_stderr
        assert play.mark == mark_of(loss, stderr, exact=play.exact, unit=play.unit)
        if play.mark and not play.exact:
            assert loss > SIGNIFICANCE * stderr, "no mark on noise"
        if play.exact:
            assert stderr == 0.0
        if len(names) == 1:
            assert play.loss == 0
        if play.exact:
            assert all(alt.stderr == 0.0 for alt in play.alternatives)
        assert play.layouts >= 1
    for seat in range(players):
        by_hand = sum(row[seat] for row in review.loss_by_hand)
        assert by_hand == pytest.approx(sum(p.loss for p in review.plays if p.seat == seat))
        assert 0.0 <= review.accuracy[seat] <= 100.0


# --- marks and shapes ---------------------------------------------------------------------


def test_marks_follow_the_documented_thresholds_in_points() -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER
    assert mark_of(0.0) is None
    assert mark_of(INACCURACY - 0.01) is None
    assert mark_of(INACCURACY) == "inaccuracy"
    assert mark_of(MISTAKE) == "mistake"
    assert mark_of(BLUNDER) == "blunder"
    assert mark_of(100.0) == "blunder"


def test_a_sampled_loss_is_marked_only_past_twice_its_standard_error() -> None:
    assert mark_of(BLUNDER, 0.0, exact=False) == "blunder"
    assert mark_of(BLUNDER, BLUNDER / SIGNIFICANCE, exact=False) is None
    assert mark_of(BLUNDER, BLUNDER / SIGNIFICANCE - 0.01, exact=False) == "blunder"
    # An exact figure has no noise: its stderr is 0 and it is marked as it is.
    assert mark_of(MISTAKE, 99.0, exact=True) == "mistake"


def test_marks_in_winning_chances_follow_their_own_thresholds() -> None:
    assert 0 < CHANCE_INACCURACY < CHANCE_MISTAKE < CHANCE_BLUNDER
    assert mark_of(CHANCE_INACCURACY - 0.01, unit="chance") is None
    assert mark_of(CHANCE_INACCURACY, unit="chance") == "inaccuracy"
    assert mark_of(CHANCE_MISTAKE, unit="chance") == "mistake"
    assert mark_of(CHANCE_BLUNDER, unit="chance") == "blunder"


def test_accuracy_in_chances_is_lichess_curve() -> None:
    # lichess: 103.1668 * exp(-0.04354 * loss) - 3.1669, clipped to 0..100.
    assert play_accuracy(0.0, "chance") == pytest.approx(103.1668 - 3.1669)
    assert play_accuracy(10.0, "chance") == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert play_accuracy(1000.0, "chance") == 0.0
    assert accuracy_of([0.0, 10.0], "chance") == pytest.approx(
        (100.0 + 103.1668 * math.exp(-0.4354) - 3.1669) / 2
    )


def test_a_loss_and_its_standard_error_are_paired_over_the_same_layouts() -> None:
    doc = simulate_match("all-fives", 2, seed=5)
    review = review_document(_short(doc, 2), samples=24)
    sampled = [p for p in review.plays if not p.exact and p.loss > 0]
    assert sampled, "a sampled play that lost points"
    play = sampled[0]
    # Roll the same situation out again: the loss's standard error is that of the per-layout
    # differences best - played, not of either value alone.
    from fives_engine.expected import _MatchReviewer  # the reviewer builds the situation

    reviewer = _MatchReviewer(parse_log(_short(doc, 2)), 24, None)
    captured: list[Any] = []
    original = __import__("fives_engine.expected", fromlist=["_review_play"])._review_play

    def spy(situation: Any, h: int, m: int, *args: Any) -> PlayReview:
        if (h, m) == (play.hand, play.move):
            captured.append(situation)
        return original(situation, h, m, *args)

    import fives_engine.expected as expected_module

    expected_module._review_play = spy
    try:
        reviewer.run()
    finally:
        expected_module._review_play = original
    situation = captured[0]
    legal = situation.table.plays_of(situation.holding)
    rolled = roll_out(situation, legal, play.layouts, table=reviewer.equity)
    names = [str(move) for move in legal]
    best, made = names.index(play.best), names.index(play.played)
    diffs = [b - w for b, w in zip(rolled.points[best], rolled.points[made], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    stderr = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    assert play.loss == pytest.approx(mean)
    assert play.loss_stderr == pytest.approx(stderr)


def test_luck_skill_and_the_start_add_up_to_the_result() -> None:
    for ruleset, players, teams, seed in [
        ("all-fives", 2, False, 3),
        ("muggins", 2, False, 4),
        ("fives-and-threes", 2, False, 5),
        ("all-fives", 4, True, 6),
    ]:
        doc = simulate_match(ruleset, players, teams=teams, seed=seed, bots=("greedy", "random"))
        review = review_document(doc, samples=6)
        assert review.unit == "chance" and len(review.sides) == 2
        winner = validate_log(doc).winner
        for side in review.sides:
            assert side["result"] == (100.0 if winner == side["side"] else 0.0)
            total = side["expected_start"] + side["luck"] + side["skill"]
            assert total == pytest.approx(side["result"], abs=1e-9)
            assert side["luck"] == pytest.approx(sum(event[3] for event in side["events"]))
            # Skill: each of the side's plays' chance less its chance before (the best
            # play's, chosen and valued on separate halves of the layouts: a play may beat
            # it, so a side's skill may be above 0).
            own = [p for p in review.plays if p.seat in side["seats"]]
            kept = sum(p.chance - p.chance_before for p in own)
            assert side["skill"] == pytest.approx(kept, abs=1e-9)
        starts = [side["expected_start"] for side in review.sides]
        assert sum(starts) == pytest.approx(100.0)
        assert len(review.chances) == len(review.plays)


def test_three_players_alone_are_reviewed_in_points() -> None:
    doc = _short(simulate_match("muggins", 3, seed=2), 1)
    review = review_document(doc, samples=6)
    assert review.unit == "points" and not review.sides and not review.chances
    assert all(play.unit == "points" and play.chance is None for play in review.plays)


def test_a_review_says_every_play_and_reads_back_from_json() -> None:
    doc = _short(simulate_match("muggins", 2, seed=3), 2)
    seen: list[tuple[int, int]] = []
    review = review_document(doc, samples=8, progress=lambda *pair: seen.append(pair))
    _check_review(review, doc)
    plays = sum(1 for hand in doc["hands"] for move in hand["moves"] if "play" in move)
    assert len(review.plays) == plays and not review.skipped
    assert seen[-1] == (plays, plays)
    assert [done for done, _ in seen] == list(range(1, plays + 1))
    data = json.loads(json.dumps(review.as_dict()))
    assert set(data) == {
        "version",
        "players",
        "plays",
        "skipped",
        "accuracy",
        "mean_loss",
        "loss_by_hand",
        "unit",
        "mean_chance_loss",
        "sides",
        "chances",
    }
    assert MatchReview.from_dict(data) == review


def test_a_log_that_is_not_valid_is_refused() -> None:
    doc = simulate_match("all-fives", 2, seed=1)
    doc["hands"][0]["moves"][0]["seat"] = 1 - doc["hands"][0]["moves"][0]["seat"]
    assert not validate_log(doc).valid
    with pytest.raises(ValueError, match="valid"):
        review_document(doc)


@QUICK
@given(
    seed=st.integers(0, 10**6),
    table=st.sampled_from(
        [
            ("all-fives", 2, False),
            ("muggins", 3, False),
            ("fives-and-threes", 2, False),
            ("all-threes", 4, True),
            ({"base": "muggins", "boneyard_reserve": 2, "go_out_bonus": 1}, 2, False),
            ({"base": "all-fives", "target_exact": True, "target": 60}, 2, False),
        ]
    ),
)
def test_every_review_keeps_its_invariants(seed: int, table: tuple[Any, int, bool]) -> None:
    ruleset, players, teams = table
    doc = _short(simulate_match(ruleset, players, teams=teams, seed=seed), 2)
    review = review_document(doc, samples=6)
    _check_review(review, doc)


# --- exact figures against a brute force ---------------------------------------------------


def _state_before(doc: dict[str, Any], h: int, m: int) -> tuple[HandState, list[int]]:
    """Return a copy of the validator's hand just before move ``m`` of hand ``h``, and the
    match's scores then."""
    found: list[tuple[HandState, list[int]]] = []

    def hook(step: Step) -> None:
        after = 0 if step.move_index is None else step.move_index + 1
        if step.hand_index == h and after == m:
            found.append((step.hand.copy(), list(step.match.scores)))

    validate_match(parse_log(doc), on_step=hook)
    return found[0]


def _pips_before(doc: dict[str, Any], h: int) -> list[set[int]]:
    """Return the open ends' pips before each move of hand ``h``, from the validator."""
    pips: list[set[int]] = []

    def hook(step: Step) -> None:
        if step.hand_index == h and step.hand.end is None:
            pips.append({pip for _, pip in step.hand.open_ends})

    validate_match(parse_log(doc), on_step=hook)
    return pips


def _story_agrees(
    moves: list[dict[str, Any]],
    pips: list[set[int]],
    other: int,
    now: frozenset[int],
    dealt: int,
) -> bool:
    """Return whether some story of ``other``'s hidden draws leads to it holding ``now``
    after ``moves``, every move it made legal: it held each tile it laid, and no tile that
    fitted the open ends when it drew or passed."""
    played = [TILE_BY_TEXT[m["play"]][0] for m in moves if m["seat"] == other and "play" in m]
    draws = sum(1 for m in moves if m["seat"] == other and "draw" in m)
    candidates = frozenset(now) | frozenset(played)
    if len(candidates) != dealt + draws:
        return False

    def walk(index: int, held: frozenset[int], pile: frozenset[int]) -> bool:
        # ``held``: its tiles before move ``index``; ``pile``: the candidates it has yet to
        # draw. Every way to pick its deal, then each hidden draw, is tried.
        if index == len(moves):
            return not pile and held == now
        move = moves[index]
        if move["seat"] != other:
            return walk(index + 1, held, pile)
        if "play" in move:
            tile = TILE_BY_TEXT[move["play"]][0]
            return tile in held and walk(index + 1, held - {tile}, pile)
        if any(LOW[t] in pips[index] or HIGH[t] in pips[index] for t in held):
            return False
        if "pass" in move:
            return walk(index + 1, held, pile)
        return any(walk(index + 1, held | {tile}, pile - {tile}) for tile in pile)

    return any(
        walk(0, frozenset(deal), candidates - frozenset(deal))
        for deal in itertools.combinations(sorted(candidates), dealt)
    )


def _brute_force(doc: dict[str, Any], h: int, m: int) -> dict[str, float]:
    """Return every legal play's value at move ``m`` of hand ``h`` of a two-player full
    record, over every layout that agrees with what the seat saw, plain averages."""
    state, scores = _state_before(doc, h, m)
    hand_log = doc["hands"][h]
    moves = hand_log["moves"][:m]
    seat = state.turn
    other = 1 - seat
    rules = state.rules
    laid = {TILE_BY_TEXT[move["play"]][0] for move in moves if "play" in move}
    unseen = [t for t in ALL_TILES if t not in laid and t not in state.hands[seat]]
    held = len(state.hands[other])
    reserve = rules.boneyard_reserve
    pips = _pips_before(doc, h)
    totals: dict[str, list[float]] = {str(move): [] for move in state.legal_plays()}
    for mine in itertools.combinations(unseen, held):
        if not _story_agrees(moves, pips, other, frozenset(mine), rules.hand_size):
            continue
        rest = [t for t in unseen if t not in mine]
        drawable = 0 if isinstance(reserve, str) else max(0, len(rest) - reserve)
        for order in itertools.permutations(rest, drawable):
            full = list(order) + [t for t in rest if t not in order]
            for move in state.legal_plays():
                hand = state.copy()
                hand.hands[other] = set(mine)
                hand.boneyard = set(rest)
                match = MatchState.create(rules, 2, None)
                match.scores = list(scores)
                hand.scores = match.scores
                match.hand = hand
                assert move.tile is not None
                if hand.lead is None:
                    match.play(move.tile, None, LOW[move.tile], HIGH[move.tile])
                else:
                    match.play(move.tile, move.end)
                drawn = 0
                while hand.end is None:
                    legal = hand.legal_moves()
                    if legal[0].kind == DRAW:
                        match.draw(full[drawn])
                        drawn += 1
                    elif legal[0].kind == PASS:
                        match.pass_turn()
                    else:
                        choice = rollout_play(hand, legal)
                        assert choice.tile is not None
                        match.play(choice.tile, choice.end)
                gain = [after - before for after, before in zip(match.scores, scores, strict=True)]
                totals[str(move)].append(gain[seat] - gain[other])
    return {play: sum(values) / len(values) for play, values in totals.items()}


# Matches whose first hands end in exact plays after draws (passes, where nobody draws).
EXACT_CASES = [
    ("all-fives", 1),
    ("muggins", 2),
    ("fives-and-threes", 1),
    ({"base": "muggins", "boneyard_reserve": 1}, 2),
    ({"base": "all-fives", "target_exact": True, "target": 50}, 3),
    ({"base": "muggins", "spinner": False, "go_out_bonus": 1}, 1),
]


@pytest.mark.parametrize(("ruleset", "seed"), EXACT_CASES)
def test_exact_figures_agree_with_a_brute_force(ruleset: Any, seed: int) -> None:
    doc = _short(simulate_match(ruleset, 2, seed=seed), 3)
    review = review_document(doc, samples=8)
    exact = [play for play in review.plays if play.exact]
    assert exact
    for play in exact:
        expected = _brute_force(doc, play.hand, play.move)
        assert {alt.play: alt.value for alt in play.alternatives} == pytest.approx(expected)
        layouts = play.layouts
        assert layouts >= 1


def test_draws_and_passes_narrow_the_layouts() -> None:
    # This match's hands have draws before their exact plays: the review's layouts are
    # fewer than the bare count of ways to share the unseen tiles.
    doc = _short(simulate_match("all-fives", 2, seed=1), 3)
    review = review_document(doc, samples=8)
    narrowed = 0
    for play in review.plays:
        if not play.exact:
            continue
        state, _ = _state_before(doc, play.hand, play.move)
        moves = doc["hands"][play.hand]["moves"][: play.move]
        other = 1 - play.seat
        laid = {TILE_BY_TEXT[m["play"]][0] for m in moves if "play" in m}
        unseen = [t for t in ALL_TILES if t not in laid and t not in state.hands[play.seat]]
        bare = math.comb(len(unseen), len(state.hands[other]))
        narrowed += play.layouts < bare * math.factorial(len(unseen) - len(state.hands[other]))
    assert narrowed


# --- fair by construction ------------------------------------------------------------------


def _swap_hidden(doc: dict[str, Any], h: int, m: int) -> dict[str, Any] | None:
    """Return the log cut after move ``m`` of hand ``h``, with a tile the other seat was dealt
    and has not laid by then swapped with one of the boneyard nobody drew: the same match as
    the seat at move ``m`` saw it, other hidden tiles. None when no swap keeps it valid."""
    cut = copy.deepcopy(doc)
    cut["hands"] = cut["hands"][: h + 1]
    cut["hands"][h]["moves"] = cut["hands"][h]["moves"][: m + 1]
    cut.pop("final_scores", None)
    moves = cut["hands"][h]["moves"]
    seat = moves[m]["seat"]
    deal = cut["hands"][h]["deal"]
    named = {TILE_BY_TEXT[mv.get("play") or mv.get("draw")][0] for mv in moves if "pass" not in mv}
    dealt = {TILE_BY_TEXT[t][0] for hand in deal for t in hand}
    boneyard = [t for t in ALL_TILES if t not in dealt and t not in named]
    for other in range(len(deal)):
        if other == seat:
            continue
        for index, text in enumerate(deal[other]):
            if TILE_BY_TEXT[text][0] in named:
                continue
            for tile in boneyard:
                twin = copy.deepcopy(cut)
                twin["hands"][h]["deal"][other][index] = NAME[tile]
                if validate_log(twin).valid:
                    return twin
    return None


@pytest.mark.parametrize(("ruleset", "players", "seed"), [("all-fives", 2, 4), ("muggins", 3, 8)])
def test_two_matches_that_look_the_same_to_the_seat_get_the_same_figures(
    ruleset: str, players: int, seed: int
) -> None:
    doc = simulate_match(ruleset, players, seed=seed)
    checked = 0
    for h in range(min(2, len(doc["hands"]))):
        moves = doc["hands"][h]["moves"]
        for m in range(2, len(moves), 3):
            if "play" not in moves[m]:
                continue
            twin = _swap_hidden(doc, h, m)
            if twin is None:
                continue
            cut = copy.deepcopy(doc)
            cut["hands"] = cut["hands"][: h + 1]
            cut["hands"][h]["moves"] = cut["hands"][h]["moves"][: m + 1]
            cut.pop("final_scores", None)
            assert cut != twin
            first = review_document(cut, samples=6).plays[-1]
            second = review_document(twin, samples=6).plays[-1]
            assert (first.hand, first.move) == (h, m)
            assert first == second
            checked += 1
    assert checked >= 3


# --- table records -------------------------------------------------------------------------


def test_a_table_record_reviews_only_plays_whose_hand_is_known() -> None:
    doc = _short(simulate_match("all-fives", 2, seed=21), 3)
    full = review_document(doc, samples=6)
    table = to_table_record(doc)
    assert validate_log(table).valid
    review = review_document(table, samples=6)
    _check_review(review, table)
    assert review.skipped, "a hidden draw hides the drawer's hand until it shows its tiles"
    assert all(skipped.reason == "hand-unknown" for skipped in review.skipped)
    reviewed = {(play.hand, play.move) for play in review.plays}
    assert reviewed.isdisjoint((s.hand, s.move) for s in review.skipped)
    plays = sum(1 for hand in table["hands"] for move in hand["moves"] if "play" in move)
    assert len(reviewed) + len(review.skipped) == plays
    # Where the table record knows the seat's hand, the seat saw the same match: the same
    # figures as the full record's.
    by_move = {(play.hand, play.move): play for play in full.plays}
    for play in review.plays:
        assert play == by_move[(play.hand, play.move)]


# --- the bot -------------------------------------------------------------------------------


def test_the_expected_bot_plays_valid_matches_the_same_way_every_time() -> None:
    first = simulate_match("muggins", 2, seed=2, bots=("expected", "greedy"), max_hands=2)
    assert validate_log(first).valid
    again = simulate_match("muggins", 2, seed=2, bots=("expected", "greedy"), max_hands=2)
    assert first == again


def test_the_bot_sees_only_what_its_seat_could_see() -> None:
    # The bot's choice depends on the hand only through the public table and its own tiles:
    # the other seat's tiles and the boneyard swapped leave it as it was.
    from fives_engine.bots import expected_bot
    from fives_engine.log import Move

    doc = simulate_match("all-fives", 2, seed=6)
    hand_log = parse_log(doc).hands[0]
    checked = 0
    for m, move in enumerate(hand_log.moves):
        if move.kind != PLAY or m < 2:
            continue
        state, _ = _state_before(doc, 0, m)
        legal = state.legal_moves()
        if len(legal) < 2:
            continue
        seen: list[Move] = list(hand_log.moves[:m])
        mine = expected_bot(state, legal, None, seen)  # type: ignore[arg-type]
        other = 1 - state.turn
        twin = state.copy()
        theirs, pile = sorted(twin.hands[other]), sorted(twin.boneyard)
        if not theirs or not pile:
            continue
        # Swap a tile of theirs nobody saw for a boneyard tile.
        twin.hands[other] = set(theirs[1:]) | {pile[0]}
        twin.boneyard = set(pile[1:]) | {theirs[0]}
        assert expected_bot(twin, legal, None, seen) == mine  # type: ignore[arg-type]
        checked += 1
        if checked == 3:
            break
    assert checked


def test_review_match_takes_a_parsed_log() -> None:
    doc = _short(simulate_match("all-fives", 2, seed=30), 1)
    assert review_match(parse_log(doc), samples=4) == review_document(doc, samples=4)


def test_plays_have_a_move_of_their_own() -> None:
    doc = _short(simulate_match("all-fives", 2, seed=31), 1)
    review = review_document(doc, samples=4)
    assert all(isinstance(play, PlayReview) for play in review.plays)
    assert [play.move for play in review.plays] == sorted(play.move for play in review.plays)


def test_the_command_line_seats_the_expected_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from fives_engine.__main__ import main

    argv = ["simulate", "--bot", "expected", "--bot", "greedy", "--max-hands", "1", "--seed", "3"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert validate_log(doc).valid and len(doc["hands"]) == 1


@pytest.mark.parametrize(
    ("ruleset", "players", "teams", "table"),
    [
        ("all-fives", 2, False, False),
        ("fives-and-threes", 4, True, False),
        ({"base": "muggins", "target_exact": True, "target": 60}, 3, False, True),
    ],
)
def test_the_scores_stored_with_a_match_are_the_walks(
    ruleset: Any, players: int, teams: bool, table: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given the figures a walk stored (each move's and each hand's result), the review
    reads the scores before each play from them, walks the log no second time, and
    reviews every play as it does after its own walk."""
    from fives_engine import check_document
    from fives_engine import expected as module

    doc = _short(simulate_match(ruleset, players, teams=teams, seed=41), 4)
    if table:
        doc = to_table_record(doc)
    checked = check_document(doc)
    assert checked.report.valid and checked.log is not None
    walked = module._MatchReviewer(checked.log, 4, None)
    validate_match(
        checked.log,
        on_step=lambda step: walked.scores.__setitem__(
            (step.hand_index, 0 if step.move_index is None else step.move_index + 1),
            tuple(step.match.scores),
        ),
    )
    read = module._MatchReviewer(checked.log, 4, None)
    read.scores_stored(checked.moves, checked.report.hands)
    assert read.scores and all(walked.scores[key] == value for key, value in read.scores.items())
    assert any(any(value) for value in read.scores.values())
    reviewed = review_match(checked.log, samples=4)

    def no_walk(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the log walked again")

    monkeypatch.setattr(module, "validate_match", no_walk)
    stored = review_match(checked.log, samples=4, facts=checked.moves, results=checked.report.hands)
    assert stored == reviewed
