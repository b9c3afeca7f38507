"""One engine walk per match from upload to statistics: ingest walks it once and stores what
the walk found; the review, the figures and the ratings read that, never the match again."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from fives_engine import validate
from fives_engine.simulate import simulate_match
from games.models import Match
from games.services.uploads import upload_create
from replays.models import Rating, SeatResult
from tests.conftest import home_club

pytestmark = pytest.mark.django_db


def test_a_match_is_walked_once_from_upload_to_ratings(owner, django_capture_on_commit_callbacks):
    docs = [simulate_match("all-fives", 2, seed=seed) for seed in (1, 2, 3)]
    data = b"\n".join(json.dumps(doc).encode() for doc in docs)
    with (
        mock.patch.object(validate, "walk_match", wraps=validate.walk_match) as walks,
        django_capture_on_commit_callbacks(execute=True),
    ):
        upload_create(uploader=owner, data=data, kind="ndjson", club=home_club())
    assert Match.objects.count() == 3
    assert SeatResult.objects.count() == 6  # the statistics were made...
    assert Rating.objects.exists()  # ...and the ratings
    assert walks.call_count == 3  # one walk per match, no more


def test_the_review_stored_at_ingest_is_the_one_the_figures_add_up(
    owner, django_capture_on_commit_callbacks
):
    doc = simulate_match("muggins", 2, seed=5, bots=("random",))
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    unpacked = [(hand.log, hand.facts) for match in Match.objects.all() for hand in match.hands]
    moves = [
        (move, fact)
        for logged, facts in unpacked
        for move, fact in zip(logged.moves, facts, strict=True)
    ]
    plays = [(move, fact) for move, fact in moves if move.kind == "play"]
    assert plays and all(fact.best is not None for _move, fact in plays)
    assert all(fact.best is None for move, fact in moves if move.kind != "play")
    missed = {
        seat: sum(fact.best - fact.points for move, fact in plays if move.seat == seat)
        for seat in (0, 1)
    }
    figures = {result.seat: result.missed for result in SeatResult.objects.all()}
    assert figures == missed
    assert sum(missed.values()) > 0  # random players miss points: the check has teeth
