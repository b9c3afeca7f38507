"""The replay API gives, for a match of every preset, exactly the engine's states."""

from __future__ import annotations

import json

import pytest

from games.engine import HandState, validate
from games.engine.replay import replay_log
from games.engine.simulate import simulate_match
from games.models import Match
from games.services.uploads import upload_create
from replays.services import match_replay
from tests.conftest import home_club

pytestmark = pytest.mark.django_db

TABLES = [
    ("all-fives", 2, False),
    ("all-fives", 3, False),
    ("muggins", 4, True),
    ("all-threes", 2, False),
    ({"base": "muggins", "spinner": False, "target": 100}, 3, False),
    ({"base": "all-fives", "end_at_target": "immediately", "target": 60}, 2, False),
    ("fives-and-threes", 4, True),
    ({"base": "muggins", "go_out_bonus": 1, "target_exact": True}, 2, False),
]


@pytest.mark.parametrize(("ruleset", "players", "teams"), TABLES)
def test_the_replay_api_gives_the_engines_states(
    client,
    owner,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
    ruleset,
    players,
    teams,
):
    doc = simulate_match(ruleset, players, teams=teams, seed=11)
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    match = Match.objects.get()
    with django_assert_max_num_queries(6):
        response = client.get(f"/api/v1/matches/{match.pk}/replay/")
    assert response.status_code == 200
    assert response["Server-Timing"].startswith("replay;dur=")
    body = response.json()
    expected = replay_log(doc, review=True)
    assert body["valid"] is True
    assert body["states"] == json.loads(json.dumps(expected.states))
    assert body["players"] == doc["players"]
    assert len(body["states"]) == sum(len(h["moves"]) + 1 for h in doc["hands"])
    last = body["states"][-1]
    assert last["scores"] == expected.report.scores
    assert last["winner"] == expected.report.winner


@pytest.mark.spies
def test_a_stored_matchs_replay_is_one_walk_that_reviews_nothing(
    owner, django_capture_on_commit_callbacks, monkeypatch
):
    """The replay reads each play's best from the figures stored with the match: one walk of
    the stored log (no JSON written and read again), and no play reviewed again."""
    doc = simulate_match("muggins", 2, seed=5)
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    match = Match.objects.with_log().get()
    walks = []
    walk = validate.walk_match

    def counted(*args, **kwargs):
        walks.append(kwargs)
        return walk(*args, **kwargs)

    def reviewed(*args, **kwargs):
        raise AssertionError("a play reviewed again")

    monkeypatch.setattr(validate, "walk_match", counted)
    monkeypatch.setattr(HandState, "best_play", reviewed)
    monkeypatch.setattr(json, "loads", reviewed)
    replay = match_replay(match=match)
    assert len(walks) == 1 and not walks[0]["review"]
    assert any("best" in state for state in replay["states"])


def test_the_replay_of_a_missing_match_is_404(client):
    assert client.get("/api/v1/matches/999/replay/").status_code == 404


def test_the_embed_page_may_be_framed_and_the_match_page_may_not(
    client, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(
            uploader=owner,
            data=json.dumps(simulate_match("muggins", 2, seed=3)).encode(),
            kind="json",
            club=home_club(),
        )
    match = Match.objects.get()
    embed = client.get(f"/embed/matches/{match.pk}/")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed
    assert client.get(f"/matches/{match.pk}/")["X-Frame-Options"] == "DENY"
