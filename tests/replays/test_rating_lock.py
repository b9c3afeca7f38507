"""Two recomputations of the same scope never run at once (PostgreSQL advisory lock)."""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.db import connection

from replays.ratings import _scope_lock, ratings_recompute, scope_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_recomputation_waits_for_the_one_running():
    if connection.vendor != "postgresql":
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail("FIVES_REQUIRE_SERVICES=1 but the database is not PostgreSQL")
        pytest.skip("the lock between workers is PostgreSQL's (SQLite runs tasks in-process)")
    from clubs.models import Club

    club = Club.objects.create(name="Lock club", slug="lock-club")
    scope = scope_for(club.pk)
    order: list[str] = []
    holding = threading.Event()

    def running_recomputation():
        with _scope_lock(scope.pk):
            holding.set()
            time.sleep(0.5)
            order.append("first done")
        connection.close()

    thread = threading.Thread(target=running_recomputation)
    thread.start()
    holding.wait(10)
    ratings_recompute(scope_id=scope.pk, full=True)
    order.append("second done")
    thread.join(10)
    assert order == ["first done", "second done"]
