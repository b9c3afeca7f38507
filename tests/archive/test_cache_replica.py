"""An answer read from a lagging replica is not cached under a version its change just
made (games/cache.py; the replica: fivesite/db_router.py)."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import override_settings

from clubs.reads import PRIMARY, REPLICA, reads_from
from games import cache as answers


@pytest.fixture
def from_the_replica():
    token = reads_from.set(REPLICA)
    yield
    reads_from.reset(token)


def _retired() -> None:
    """As ``lists_changed`` does once its transaction commits."""
    cache.set(answers.LISTS_KEY, answers._token(time.time()), None)


def test_a_list_read_from_the_replica_just_after_a_change_is_not_kept(from_the_replica):
    _retired()
    assert answers.cached_list("matches", lambda: "without the new match") == (
        "without the new match"
    )
    # Once the replica has it, the next reader's answer is the new one.
    assert answers.cached_list("matches", lambda: "with it") == "with it"


def test_a_list_read_from_the_primary_is_kept_at_once():
    assert reads_from.get() == PRIMARY
    _retired()
    assert answers.cached_list("matches", lambda: "fresh") == "fresh"
    assert answers.cached_list("matches", lambda: "again") == "fresh"


@override_settings(FIVES_REPLICA_PIN_SECONDS=0)
def test_past_the_lag_a_replicas_answer_is_kept(from_the_replica):
    _retired()
    assert answers.cached_list("matches", lambda: "settled") == "settled"
    assert answers.cached_list("matches", lambda: "again") == "settled"


def test_a_first_version_waits_on_no_change(from_the_replica):
    cache.delete(answers.LISTS_KEY)
    assert answers.cached_list("matches", lambda: "first") == "first"
    assert answers.cached_list("matches", lambda: "again") == "first"
