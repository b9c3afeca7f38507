"""The replay API gives, for a match of every preset, exactly the engine's states, their hands
and moves numbered from 1 as every answer's are (the engine counts from 0)."""

from __future__ import annotations

import json

import msgspec
import pytest
import zstandard
from django.core.cache import cache
from django.utils import timezone

from fives_engine import HandState, validate
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from games.models import Match, Player
from games.services.uploads import upload_create
from replays.models import StoredReplay
from replays.replay_cache import (
    REPLAY_KEPT_FROM,
    ReplayParts,
    kept_version,
    match_replay,
    replay_body,
    replay_page,
    replay_parts_made,
    replays_store,
)
from tests.conftest import home_club

pytestmark = pytest.mark.django_db


def numbered_from_1(states: list[dict]) -> list[dict]:
    """The engine's states as the API gives them: hand and move from 1 (the deal's move
    null), as JSON reads them back."""
    return [
        state
        | {"hand": state["hand"] + 1, "move": None if state["move"] is None else state["move"] + 1}
        for state in json.loads(json.dumps(states))
    ]


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
    assert body["states"] == numbered_from_1(expected.states)
    assert (body["states"][0]["hand"], body["states"][0]["move"]) == (1, None)
    assert (body["states"][1]["hand"], body["states"][1]["move"]) == (1, 1)
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


def long_match(owner, capture, *, seed: int = 2):
    """Store a two-player match of 30 hands (All Fives to a target nobody reaches): more
    moves than ``REPLAY_KEPT_FROM``."""
    doc = simulate_match({"base": "all-fives", "target": 100000}, 2, seed=seed, max_hands=30)
    with capture(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    match = Match.objects.get(external_id=doc.get("id")) if doc.get("id") else Match.objects.get()
    assert match.move_count >= REPLAY_KEPT_FROM
    return doc, match


def test_a_long_matchs_replay_is_kept_when_it_is_stored_and_read_as_made(
    client, owner, django_capture_on_commit_callbacks
):
    doc, match = long_match(owner, django_capture_on_commit_callbacks)
    kept = StoredReplay.objects.get(match=match)
    assert kept.version == kept_version(match)
    # What is kept is compressed: well under the answer's own size.
    body = client.get(f"/api/v1/matches/{match.pk}/replay/").content
    assert len(kept.body) < len(body) / 5
    # The answer read from what was kept is, byte for byte, the replay made whole.
    made = msgspec.json.encode(match_replay(match=Match.objects.with_log().get(pk=match.pk)))
    assert body == made
    assert json.loads(body)["states"] == numbered_from_1(replay_log(doc, review=True).states)


@pytest.mark.spies
def test_a_kept_replay_is_answered_without_walking_the_match(
    client, owner, django_capture_on_commit_callbacks, monkeypatch
):
    _, match = long_match(owner, django_capture_on_commit_callbacks)
    cache.clear()

    def walked(*args, **kwargs):
        raise AssertionError("the match walked again")

    monkeypatch.setattr(validate, "walk_match", walked)
    response = client.get(f"/api/v1/matches/{match.pk}/replay/")
    assert response.status_code == 200
    assert len(response.json()["states"]) == match.move_count + len(match.hands)
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200


def test_the_page_from_a_kept_replay_is_the_page_made_from_the_walk(
    owner, django_capture_on_commit_callbacks
):
    _, match = long_match(owner, django_capture_on_commit_callbacks, seed=4)
    made = replay_parts_made(match=match)
    kept = ReplayParts(replay_body(match=match), replay_page(match=match))
    assert kept == made
    assert kept.page["total"] == match.move_count + len(match.hands)
    assert sum(hand["moves"] for hand in kept.page["hands"]) == match.move_count


def test_a_rescore_makes_the_kept_replay_again_and_a_rename_reads_the_new_name(
    client, owner, django_capture_on_commit_callbacks
):
    _, match = long_match(owner, django_capture_on_commit_callbacks)
    old = StoredReplay.objects.get(match=match).version
    Match.objects.filter(pk=match.pk).update(rescored_at=timezone.now())
    match.refresh_from_db()
    assert client.get(f"/api/v1/matches/{match.pk}/replay/").status_code == 200
    kept = StoredReplay.objects.get(match=match)
    assert kept.version == kept_version(match) != old
    # A handle renamed: the kept body stays, the answer names the player anew.
    seat = match.seats.select_related("player").get(seat=0)
    Player.objects.filter(pk=seat.player_id).update(handle="renamed-handle")
    cache.clear()
    answer = client.get(f"/api/v1/matches/{match.pk}/replay/").json()
    assert answer["players"][0] == "renamed-handle"
    assert "renamed-handle" in answer["team_names"][0]
    assert StoredReplay.objects.get(match=match).version == kept.version


def test_a_replay_kept_when_states_counted_from_0_is_made_again(
    client, owner, django_capture_on_commit_callbacks
):
    # Kept before the API numbered hands and moves from 1: the match's version alone, the
    # states as the walk counts them.
    doc, match = long_match(owner, django_capture_on_commit_callbacks)
    walked = replay_log(doc, review=True).states
    old_body = msgspec.json.encode({"rules": match.rules, "valid": True, "states": walked})
    StoredReplay.objects.filter(match=match).update(
        version=match.cache_version, body=zstandard.ZstdCompressor().compress(old_body)
    )
    cache.clear()
    answer = client.get(f"/api/v1/matches/{match.pk}/replay/").json()
    assert answer["states"] == numbered_from_1(walked)
    assert StoredReplay.objects.get(match=match).version == kept_version(match)


def test_a_short_matchs_replay_is_not_kept(client, owner, django_capture_on_commit_callbacks):
    doc = simulate_match("all-fives", 2, seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    match = Match.objects.get()
    assert match.move_count < REPLAY_KEPT_FROM
    assert client.get(f"/api/v1/matches/{match.pk}/replay/").status_code == 200
    assert not StoredReplay.objects.exists()
    assert replays_store(match_ids=[match.pk]) == 0


def test_the_schema_says_a_states_hand_and_move_count_from_1(client):
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    state = json.loads(answer.content)["components"]["schemas"]["ReplayState"]["properties"]
    for name in ("hand", "move"):
        assert state[name]["minimum"] == 1 and "from 1" in state[name]["description"]
    assert state["move"]["nullable"] is True  # at a hand's deal
