"""GET /api/v1/players/{id}/mistakes/: a player's mistakes and blunders across their analysed
matches, each as the position they saw (the engine's own, ``fives_engine.practice``) with
the review's figures; a private club's player is not found by outsiders; only the player's
own account reads its tries."""

from __future__ import annotations

import pytest

from clubs.models import Club
from fives_engine.practice import position_at
from games.models import Player
from replays.models import MatchAnalysis, PracticeAttempt
from replays.practice import OUTCOME_FIELDS
from tests.replays.helpers import analysed_levan, store_match

from .conftest import client_with

pytestmark = pytest.mark.django_db

FIELDS = {
    "match", "played_at", "players", "teams", "hand", "move", "seat", "mark", "scores",
    "hand_tiles", "table", "counts", "boneyard", "seen", "choices", "values", "best",
    "best_value", "loss", "played", "played_value", "played_points", "replay", "tries",
    "unit", "points_loss", "chance", "best_chance",
}  # fmt: skip


@pytest.fixture
def analysed(owner, member, django_capture_on_commit_callbacks):
    """A short match of Levan (the member's own handle) and Nino, analysed."""
    return analysed_levan(owner, member, django_capture_on_commit_callbacks)


def levan():
    return Player.objects.get(handle="Levan")


def url(player) -> str:
    return f"/api/v1/players/{player.pk}/mistakes/"


def marked(match, seat):
    plays = MatchAnalysis.objects.get(match=match).result["plays"]
    return [p for p in plays if p["seat"] == seat and p["mark"] in ("mistake", "blunder")]


def test_each_mistake_is_the_position_its_player_saw_with_the_reviews_figures(
    analysed, anonymous_api
):
    expected = marked(analysed, 0)
    assert expected, "the test match has mistakes of Levan's to drill"
    answer = anonymous_api.get(url(levan()))
    assert answer.status_code == 200
    body = answer.json()
    assert body["player"] == levan().pk and body["own"] is False
    assert body["positions_count"] == len(expected) == len(body["positions"])
    log = analysed.log()
    by_place = {(p["hand"], p["move"]): p for p in expected}
    for served in body["positions"]:
        assert set(served) == FIELDS
        play = by_place[(served["hand"] - 1, served["move"] - 1)]
        position = position_at(log, play["hand"], play["move"]).as_dict()
        assert served["match"] == analysed.pk and served["seat"] == 0
        assert served["players"] == ["Levan", "Nino"] and served["teams"] == [0, 1]
        for field in ("hand_tiles", "table", "counts", "boneyard", "seen", "choices"):
            assert served[field] == position[field], field
        # The choices are the review's alternatives, each with its value.
        assert sorted(served["choices"]) == sorted(alt["play"] for alt in play["alternatives"])
        assert served["values"] == play["alternatives"]
        # A two-player match is marked in winning chances: the best play and the loss are
        # the mark's, the points' loss beside them.
        assert (served["unit"], served["best"], served["loss"], served["mark"]) == (
            "chance",
            play["chance_best"],
            play["chance_loss"],
            play["mark"],
        )
        assert served["points_loss"] == play["loss"]
        assert (served["chance"], served["best_chance"]) == (play["chance"], play["best_chance"])
        assert (served["played"], served["played_value"]) == (play["played"], play["value"])
        values = {alt["play"]: alt["value"] for alt in play["alternatives"]}
        assert served["best_value"] == values[play["chance_best"]]
        # What the match went on to show, from what ingest stored.
        hand = analysed.hands[play["hand"]]
        assert served["played_points"] == hand.facts[play["move"]].points
        assert served["replay"] == f"/matches/{analysed.pk}/#h{served['hand']}m{served['move']}"
        assert served["tries"] is None
        # The scores before the play: the hand before's, and the plays since.
        before = list(analysed.hands[play["hand"] - 1].scores) if play["hand"] else [0, 0]
        for index in range(play["move"]):
            move = hand.log.moves[index]
            before[move.seat] += hand.facts[index].points
        assert served["scores"] == before


def test_a_player_with_no_analysed_match_has_nothing_to_drill(
    owner, anonymous_api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    body = anonymous_api.get(url(levan())).json()
    assert body["positions_count"] == 0 and body["positions"] == []


def test_a_private_clubs_player_and_mistakes_are_not_found_by_outsiders(analysed, member, outsider):
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    assert client_with(outsider, ["read"]).get(url(levan())).status_code == 404
    inside = client_with(member, ["read"]).get(url(levan()))
    assert inside.status_code == 200 and inside.json()["positions_count"] > 0


def test_only_the_player_themselves_reads_their_tries(analysed, member, owner):
    first = marked(analysed, 0)[0]
    PracticeAttempt.objects.create(
        user=member,
        match=analysed,
        hand=first["hand"],
        move=first["move"],
        solved=True,
        tries=2,
        streak=1,
        tried_at="2026-05-02T10:00:00Z",
        due_at="2026-05-03T10:00:00Z",
    )
    own = client_with(member, ["read"]).get(url(levan())).json()
    assert own["own"] is True and own["solved"] == 1
    tried = next(p for p in own["positions"] if p["tries"] is not None)
    assert (tried["hand"], tried["move"]) == (first["hand"] + 1, first["move"] + 1)
    assert tried["tries"] == {"tries": 2, "solved": True, "due_at": "2026-05-03T10:00:00Z"}
    other = client_with(owner, ["read"]).get(url(levan())).json()
    assert other["own"] is False and other["solved"] == 0
    assert all(p["tries"] is None for p in other["positions"])


def outcome(match, hand):
    result = match.hands[hand].result
    return result.end, [p + s for p, s in zip(result.points, result.settlement, strict=True)]


def test_no_field_of_the_question_tells_the_hands_outcome(analysed, anonymous_api):
    """Issue 60: the position served before the answer holds nothing of how the hand went on:
    no outcome field, and every field the same as for the position cut from a log that ends
    just before the play (the moves after it, and the hand's result, unknown)."""
    body = anonymous_api.get(url(levan())).json()
    assert body["positions"]
    log = analysed.log()
    for served in body["positions"]:
        assert not set(served) & set(OUTCOME_FIELDS)
        assert not any("end" in field and field != "played_end" for field in served), served
        h, m = served["hand"] - 1, served["move"] - 1
        # The seat's view of the position is the engine's, which reads the log up to the
        # play only: the moves seen are exactly those before it.
        assert len(served["seen"]) == m
        assert served["seen"] == position_at(log, h, m).as_dict()["seen"]


def attempt_url(player) -> str:
    return f"/api/v1/players/{player.pk}/mistakes/attempt/"


def test_the_hands_outcome_comes_with_the_verdict(analysed, anonymous_api, member):
    play = marked(analysed, 0)[0]
    asked = {"match": analysed.pk, "hand": play["hand"] + 1, "move": play["move"] + 1}
    answer = anonymous_api.post(
        attempt_url(levan()), {**asked, "choice": play["played"]}, format="json"
    )
    assert answer.status_code == 200, answer.content
    verdict = answer.json()
    end, points = outcome(analysed, play["hand"])
    assert (verdict["hand_end"], verdict["hand_points"]) == (end, points)
    assert verdict["choice"] == play["played"] and verdict["solved"] is False
    assert verdict["tries"] is None and not PracticeAttempt.objects.exists()
    # The player's own account has the try kept.
    own = client_with(member, ["read"]).post(
        attempt_url(levan()), {**asked, "choice": play["chance_best"]}, format="json"
    )
    assert own.status_code == 200 and own.json()["solved"] is True
    assert own.json()["tries"]["tries"] == 1
    assert PracticeAttempt.objects.get(user=member).solved is True
    # A play that is not a choice, a position that is not one of the player's.
    bad = anonymous_api.post(attempt_url(levan()), {**asked, "choice": "9-9"}, format="json")
    assert bad.status_code == 400
    elsewhere = {**asked, "move": 999, "choice": play["played"]}
    assert anonymous_api.post(attempt_url(levan()), elsewhere, format="json").status_code == 404
