"""Puzzles from the archive (issue 60, item 2): made from the analysed matches of public
clubs, each the position its seat saw (checked against the full log: no hidden tile, no
outcome), served near the solver's rating, answered by the API and the page (the verdict,
every play's values, the replay at that move, "Analyse from here"), rated by Glicko-2."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from fives_engine.practice import position_at
from replays.models import Puzzle, PuzzleAttempt, PuzzleScan, PuzzleSolver
from replays.puzzles import QUESTION_FIELDS, puzzle_daily, puzzles_make, question

from .helpers import analysed_levan

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(owner, member, django_capture_on_commit_callbacks):
    match = analysed_levan(owner, member, django_capture_on_commit_callbacks)
    counts = puzzles_make()
    assert counts["matches"] == 1
    assert Puzzle.objects.count() == counts["puzzles"] > 0, "the test match makes a puzzle"
    return match


def hidden_tiles(match, puzzle):
    """Return the tiles the puzzle's question names that its seat could not have seen."""
    log = match.log()
    hand = log.hands[puzzle.hand]
    own = set(hand.deal[puzzle.seat]) if hand.deal else set()
    seat_saw = position_at(log, puzzle.hand, puzzle.move).as_dict()
    laid = {m["tile"] for m in seat_saw["seen"] if m["tile"]}
    asked = json.dumps(question(puzzle))
    everyone = {t for seat in hand.deal for t in seat} if hand.deal else set()
    return [
        t for t in everyone - own - laid if f'"{t}"' in asked and t not in seat_saw["hand_tiles"]
    ]


def test_a_puzzle_is_the_position_its_seat_saw_with_no_hidden_tile_and_no_outcome(made):
    for puzzle in Puzzle.objects.all():
        asked = question(puzzle)
        assert tuple(asked) == QUESTION_FIELDS
        seat_saw = position_at(made.log(), puzzle.hand, puzzle.move).as_dict()
        for field in ("hand_tiles", "table", "counts", "boneyard", "seen", "choices"):
            assert asked[field] == seat_saw[field], field
        assert len(asked["seen"]) == puzzle.move  # nothing after the play
        assert hidden_tiles(made, puzzle) == []
        text = json.dumps(asked)
        for outcome in ("hand_end", "hand_points", "best", "played", 'themes"'):
            assert outcome not in text
        assert puzzle.best in asked["choices"] and puzzle.gap > 4 * puzzle.gap_se


def test_each_analysis_is_looked_through_once_and_private_clubs_give_none(made):
    assert PuzzleScan.objects.get(match=made).puzzles == Puzzle.objects.count()
    assert puzzles_make() == {"matches": 0, "puzzles": 0}
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    assert APIClient().get("/api/v1/puzzles/next/").status_code == 404
    assert puzzle_daily() is None


def test_the_api_serves_a_puzzle_and_rates_the_first_answer(made, member):
    client = APIClient()
    client.force_authenticate(member)
    asked = client.get("/api/v1/puzzles/next/").json()
    assert tuple(asked) == QUESTION_FIELDS
    puzzle = Puzzle.objects.get(pk=asked["id"])
    wrong = next(play for play in asked["choices"] if play != puzzle.best)
    answer = client.post(
        f"/api/v1/puzzles/{puzzle.pk}/attempt/", {"choice": wrong}, format="json"
    ).json()
    assert answer["solved"] is False and answer["rated"] is True and answer["best"] == puzzle.best
    assert answer["rating"] < 1500 and answer["puzzle_rating"] > 1500
    assert {row["play"] for row in answer["plays"]} == set(asked["choices"])
    assert answer["replay"] == f"/matches/{made.pk}/#h{puzzle.hand + 1}m{puzzle.move}"
    assert answer["analyse"] == (
        f"/analyse/?match={made.pk}&hand={puzzle.hand + 1}&move={puzzle.move + 1}"
    )
    again = client.post(
        f"/api/v1/puzzles/{puzzle.pk}/attempt/", {"choice": puzzle.best}, format="json"
    ).json()
    assert again["solved"] is True and again["rated"] is False
    assert PuzzleAttempt.objects.filter(user=member).count() == 2
    assert PuzzleSolver.objects.get(user=member).attempts == 1
    bad = client.post(f"/api/v1/puzzles/{puzzle.pk}/attempt/", {"choice": "9-9"}, format="json")
    assert bad.status_code == 400


def test_the_streak_mode_counts_solves_in_a_row(made, member):
    client = APIClient()
    client.force_authenticate(member)
    puzzle = Puzzle.objects.first()
    url = f"/api/v1/puzzles/{puzzle.pk}/attempt/"
    assert (
        client.post(url, {"choice": puzzle.best, "mode": "streak"}, format="json").json()["streak"]
        == 1
    )
    wrong = next(play for play in puzzle.view["choices"] if play != puzzle.best)
    assert (
        client.post(url, {"choice": wrong, "mode": "streak"}, format="json").json()["streak"] == 0
    )
    assert PuzzleSolver.objects.get(user=member).best_streak == 1


def test_the_page_asks_then_shows_the_verdict_and_the_links(made, member):
    puzzle = Puzzle.objects.first()
    client = Client()
    client.force_login(member)
    asked = client.get(f"/puzzles/{puzzle.pk}/").content.decode()
    assert 'name="choice"' in asked and "verdict" not in asked
    # The table and the hand are drawn as dominoes: the hand's the question's, each once,
    # and the table's as many as the question's layout holds.
    view = question(puzzle)
    hand = asked.split('id="puzzle-hand"')[1].split("</p>")[0]
    drawn = re.findall(r'<span class="domino[^"]*"><b>(\d)</b><b>(\d)</b></span>', hand)
    assert sorted(f"{a}-{b}" for a, b in drawn) == sorted(view["hand_tiles"])
    table = asked.split('id="puzzle-table"')[1].split("</div>")[0]
    layout = view["table"]["layout"]
    laid = (layout["lead"] is not None) + sum(len(arm) for arm in layout["arms"].values())
    assert table.count('class="domino') == laid > 0
    shown = client.get("/puzzles/")
    assert shown.status_code == 200 and "data-puzzle" in shown.content.decode()
    answered = client.post(f"/puzzles/{puzzle.pk}/", {"choice": puzzle.best}).content.decode()
    assert 'id="verdict"' in answered and "/analyse/?match=" in answered
    assert f"/matches/{made.pk}/#h" in answered
    assert Client().get("/puzzles/?mode=streak").status_code == 200


def test_the_command_makes_puzzles(owner, member, django_capture_on_commit_callbacks, capsys):
    analysed_levan(owner, member, django_capture_on_commit_callbacks)
    call_command("puzzles_make")
    assert "1 analyses looked through" in capsys.readouterr().out
    assert puzzle_daily() is not None


def test_the_home_page_links_the_puzzle_of_the_day(made):
    page = Client().get("/").content.decode()
    daily = puzzle_daily()
    assert f'data-daily-puzzle="{daily.pk}"' in page and f"/puzzles/{daily.pk}/" in page


def test_the_demos_analyses_give_puzzles(owner, django_capture_on_commit_callbacks):
    from io import StringIO

    from .helpers import store_match

    with django_capture_on_commit_callbacks(execute=True):
        for seed in (21, 22):
            store_match(owner, ["Levan", "Nino"], seed=seed, played_at="2026-03-03T19:00:00Z")
    out = StringIO()
    call_command("demo_analysis", "--count", "2", stdout=out)
    assert "Puzzles: " in out.getvalue() and Puzzle.objects.exists()
