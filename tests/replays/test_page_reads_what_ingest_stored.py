"""Issue 35, item 5, and issue 57, item 2: a stored match's page is drawn off the engine's one
board, by one walk of the stored moves (``replays.page_board``: no validation of the document,
no replay's states, no play reviewed again: each play's best is what ingest stored), and its
analysis summary from what was stored, with no walk at all.

The spies wrap the engine's real functions (each call is counted, then made): every place a
walk starts (building a hand's state, playing on it, the validator's walk, the document check,
the replay's walk, the analysis's review), rebound wherever a loaded module holds them by name.
They see the calls of the pure-Python engine only (``spies``: skipped when it is compiled)."""

from __future__ import annotations

import sys
from collections import Counter

import pytest
from django.core.cache import cache

from fives_engine import check, expected, game, replay, validate
from replays.analysis import analysis_request
from replays.models import MatchAnalysis, StoredReplay
from tests.replays.helpers import store_match

pytestmark = [pytest.mark.django_db, pytest.mark.spies]

# (owner, attribute) of every entry point of a walk of the engine.
ENTRY_POINTS = [
    (game.HandState, "__init__"),
    (game.HandState, "play"),
    (game.TableHandState, "__init__"),
    (game.TableHandState, "play"),
    (validate, "walk_match"),
    (validate, "validate_match"),
    (validate, "validate_log"),
    (validate, "validate_json"),
    (check, "check_document"),
    (replay, "replay_match"),
    (replay, "replay_log"),
    (expected, "review_match"),
]


@pytest.fixture
def walks(monkeypatch) -> Counter:
    """Count the calls of each entry point, from now on, wherever it is called from."""
    seen: Counter = Counter()
    for owner, name in ENTRY_POINTS:
        real = owner.__dict__[name]
        label = f"{owner.__name__}.{name}" if isinstance(owner, type) else name

        def spy(*args, _real=real, _label=label, **kwargs):
            seen[_label] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, spy)
        if isinstance(owner, type):
            continue
        # A module that imported the function by name holds it too.
        for module in list(sys.modules.values()):
            held = getattr(module, "__dict__", {})
            for bound, value in list(held.items()):
                if value is real and module is not owner:
                    monkeypatch.setattr(module, bound, spy)
    return seen


@pytest.fixture
def stored(owner, member, django_capture_on_commit_callbacks):
    """A match stored by the real ingest path, its statistics and its analysis run (a test
    names it before ``walks``: the spies are armed once it is stored)."""
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(owner, ["Levan", "Nino"], seed=7, played_at="2026-03-01T19:00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(match=match, user=member)
    cache.clear()  # nothing made for the page before is read
    return match


def test_the_spies_see_a_walk(stored, walks):
    """The spies are armed: the replay API's answer (full engine states) is one walk."""
    StoredReplay.objects.all().delete()
    replay.replay_match(stored.log())
    assert walks["replay_match"] == 1 and walks["walk_match"] == 1 and walks["HandState.play"]


# What the page's one walk of the board may call, and nothing else.
BOARD_WALK = {"walk_match", "HandState.__init__", "HandState.play"}


def board_walk_only(walks: Counter, hands: int) -> None:
    assert set(walks) <= BOARD_WALK, dict(walks)
    assert walks["walk_match"] == 1 and walks["HandState.__init__"] == hands


def test_a_stored_matchs_page_walks_the_board_once(client, member, stored, walks):
    client.force_login(member)
    page = client.get(f"/matches/{stored.pk}/")
    assert page.status_code == 200
    board_walk_only(walks, len(stored.hands))


def test_a_stored_matchs_embed_walks_the_board_once(client, stored, walks):
    assert client.get(f"/embed/matches/{stored.pk}/").status_code == 200
    board_walk_only(walks, len(stored.hands))


def test_a_stored_matchs_analysis_summary_walks_nothing(client, member, stored, walks):
    client.force_login(member)
    answer = client.get(f"/api/v1/matches/{stored.pk}/analysis/")
    assert answer.status_code == 200
    assert answer.json()["status"] == "done"
    assert dict(walks) == {}


@pytest.fixture
def unanalysed(owner, django_capture_on_commit_callbacks):
    """A match stored by the real ingest path, its statistics made, no analysis asked."""
    with django_capture_on_commit_callbacks(execute=True):
        return store_match(owner, ["Levan", "Nino"], seed=7, played_at="2026-03-01T19:00:00Z")


def test_a_stored_matchs_analysis_reads_the_stored_scores(
    member, unanalysed, walks, django_capture_on_commit_callbacks
):
    """The analysis's run reads the scores before each play from the figures stored with
    the match: the log is not validated again (its walk of each hand's public moves and
    its rollouts are the review itself)."""
    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(match=unanalysed, user=member)
    assert MatchAnalysis.objects.get(match=unanalysed).status == "done"
    assert walks["review_match"] == 1
    validator = ("walk_match", "validate_match", "validate_log", "validate_json")
    assert {name: walks[name] for name in validator} == dict.fromkeys(validator, 0)
    assert walks["check_document"] == walks["replay_match"] == 0
