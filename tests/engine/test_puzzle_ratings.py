"""Puzzle ratings (issue 60, goals): over simulated attempts by bots of known strength
(random < greedy < expected), Glicko-2 orders the solvers as their strengths, and the
puzzles' ratings follow how often the bots fail them (Spearman, printed); no puzzle names a
tile its seat could not see or how the hand went on, checked against the full log. A smaller
run than the goal's 20,000 attempts (``python -m bench.puzzles`` runs the full one)."""

from __future__ import annotations

from bench.puzzles import BOTS, make_puzzles, rate, solve_chances, spearman


def test_spearman_of_known_ranks():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert abs(spearman([1, 2, 2, 3], [1, 2, 3, 4]) - 0.9487) < 0.001


def test_ratings_order_the_bots_and_follow_how_often_they_fail(capsys):
    made, _seconds, (hidden, outcomes) = make_puzzles(8, 8, 2026)
    assert len(made) >= 10
    # Every puzzle checked against its full log: no tile its seat could not see, no outcome.
    assert (hidden, outcomes) == (0, 0)
    chances = [solve_chances(puzzle) for puzzle in made]
    rated = rate(chances, 4000, 7)
    by_bot = rated["by_bot"]
    with capsys.disabled():
        print(
            f"\n{len(made)} puzzles, 4000 attempts: "
            + ", ".join(f"{bot} {by_bot[bot]:.0f}" for bot in BOTS)
            + f"; Spearman {rated['spearman']:.3f}"
        )
    assert by_bot["random"] < by_bot["greedy"] < by_bot["expected"]
    assert rated["spearman"] > 0.6


def test_the_leak_check_finds_a_hidden_tile_and_an_outcome():
    from bench.puzzles import leaks
    from fives_engine.expected import review_match
    from fives_engine.log import parse_log
    from fives_engine.puzzles import checked_documents
    from fives_engine.simulate import simulate_match

    log = parse_log(simulate_match(seed=1, bots=("greedy", "random")))
    play, checked = checked_documents(log, review_match(log, samples=8).as_dict()["plays"], 80)[0]
    hand, move = play["hand"], play["move"]
    assert leaks(log, hand, move, checked.document) == (0, 0)
    other = log.hands[hand].deal[1 - play["seat"]]
    peeked = {**checked.document, "tiles": list(other)}
    assert leaks(log, hand, move, peeked)[0] > 0
    later = [m.as_json() for m in log.hands[hand].moves[: move + 1]]
    assert leaks(log, hand, move, {**checked.document, "moves": later})[1] > 0
    assert leaks(log, hand, move, {**checked.document, "hand_end": "domino"})[1] > 0
