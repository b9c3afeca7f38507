"""Two ingest batches of different clubs do not wait on each other: no row is locked by
every ingest transaction (PostgreSQL; SQLite has one writer at a time by design)."""

from __future__ import annotations

import json
import os
import threading

import pytest
from django.db import connection, transaction

from clubs.models import Club
from clubs.services import club_create
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from games.services.ingest import _store_batch, log_checked
from tests.conftest import join

pytestmark = pytest.mark.django_db(transaction=True)


def _batch(club: str, seed: int) -> list:
    docs = [simulate_match("muggins", 2, seed=seed + n) | {"club": club} for n in range(3)]
    return [log_checked(index, json.dumps(doc).encode()) for index, doc in enumerate(docs, 1)]


def test_a_batch_of_another_club_is_stored_while_the_first_is_still_open(owner, outsider):
    if connection.vendor != "postgresql":
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail("FIVES_REQUIRE_SERVICES=1 but the database is not PostgreSQL")
        pytest.skip("concurrent writers need PostgreSQL (SQLite allows one writer at a time)")
    batumi = club_create(owner=owner, name="Batumi", slug="batumi")
    kutaisi = Club.objects.get(slug="kutaisi")
    join(outsider, "kutaisi")
    first = Upload.objects.create(
        uploader=owner, club=batumi, kind="ndjson", raw=b"x", size=1, content_hash="a"
    )
    second = Upload.objects.create(
        uploader=outsider, club=kutaisi, kind="ndjson", raw=b"y", size=1, content_hash="b"
    )
    first_batch, second_batch = _batch("Batumi", 100), _batch("Kutaisi", 200)
    first_open = threading.Event()
    second_done = threading.Event()
    outcome: dict[str, object] = {}

    def first_ingest() -> None:
        try:
            with transaction.atomic():
                _store_batch(first, first_batch)
                first_open.set()
                # Hold this transaction (and every lock it took) until the other is done.
                outcome["second finished while the first was open"] = second_done.wait(30)
        finally:
            first_open.set()
            connection.close()

    thread = threading.Thread(target=first_ingest)
    thread.start()
    assert first_open.wait(30)
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                # Waiting on a lock of the first transaction fails at once, not silently.
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            _store_batch(second, second_batch)
        outcome["second stored"] = Match.objects.filter(club=kutaisi).count()
    finally:
        second_done.set()
        thread.join(30)
    assert outcome == {"second stored": 3, "second finished while the first was open": True}
    assert Match.objects.filter(club=batumi).count() == 3
