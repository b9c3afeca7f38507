# ruff: noqa: F811 (the fixtures imported from the league tests are arguments here)
"""The events of leagues, live tables and analyses reach the endpoints too, through the hooks
the apps below announce them by: a fixture submitted, confirmed or disputed (each side's club
told, the data the API's answer for the fixture), a live table started and finished, an
analysis done (the data the API's answer for the match's analysis)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.tool_events import ANALYSIS_DONE, publish
from competitions.league_results import fixture_confirm, fixture_dispute, fixture_submit
from fives_engine import to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from games.services.uploads import upload_create
from recorder import live
from recorder.models import LiveMatch
from tests.archive.helpers import as_bytes, valid_log
from tests.competitions.test_leagues import match_day, people  # noqa: F401 (fixtures)

from .conftest import register
from .receiver import Receiver

pytestmark = pytest.mark.django_db

FIXTURES = ["fixture.submitted", "fixture.confirmed", "fixture.disputed"]


@pytest.fixture
def sides(owner, allow_private):
    """An endpoint of each side's club, taking the fixtures' events."""
    home, away = Receiver().start(), Receiver().start()
    register(owner, home, slug="tbilisi-fives-club", events=FIXTURES)
    register(owner, away, slug="moscow", events=FIXTURES)
    yield home, away
    home.stop()
    away.stop()


def fixture_answer(fixture) -> dict:
    path = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    return APIClient().get(path).json()


def test_a_fixture_submitted_then_confirmed_tells_both_sides(
    match_day, people, sides, django_capture_on_commit_callbacks
):
    fixture, singles, pairs = match_day
    with django_capture_on_commit_callbacks(execute=True):
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    with django_capture_on_commit_callbacks(execute=True):
        fixture = fixture_confirm(actor=people["sopho"], fixture=fixture)
    for receiver in sides:
        got = receiver.wait_for(2)
        assert [item.type for item in got] == ["fixture.submitted", "fixture.confirmed"]
        assert all(item.verified for item in got)
        assert got[-1].body["data"] == fixture_answer(fixture)
        assert got[-1].body["data"]["status"] == "confirmed"


def test_a_fixture_disputed_tells_both_sides(
    match_day, people, sides, django_capture_on_commit_callbacks
):
    fixture, singles, pairs = match_day
    with django_capture_on_commit_callbacks(execute=True):
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
        fixture = fixture_dispute(actor=people["sopho"], fixture=fixture, reason="Not our day")
    for receiver in sides:
        got = receiver.wait_for(2)
        assert [item.type for item in got] == ["fixture.submitted", "fixture.disputed"]
        assert got[-1].body["data"]["status"] == "disputed" and got[-1].verified


def test_a_live_table_started_and_finished(
    owner, receiver, allow_private, django_capture_on_commit_callbacks
):
    register(owner, receiver, events=["live.started", "live.finished"])
    setup, steps = live.steps_of(to_table_record(simulate_match("muggins", 2, seed=5)))
    club = owner.memberships.get(club__slug="tbilisi-fives-club").club
    with django_capture_on_commit_callbacks(execute=True):
        live.live_steps_put(
            user=owner, club=club, record_id="rec-1", setup=setup, start=0, steps=steps
        )
    table = LiveMatch.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        live.live_finish(live_id=table.pk)
    got = receiver.wait_for(2)
    assert [item.type for item in got] == ["live.started", "live.finished"]
    assert all(item.verified and item.body["data"]["id"] == table.pk for item in got)
    assert got[0].body["data"]["club_slug"] == "tbilisi-fives-club"
    assert got[1].body["data"]["finished_at"] and got[1].body["data"]["upload"]


def test_an_analysis_done_gives_the_apis_answer(
    owner, endpoint, receiver, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=as_bytes(valid_log(1)), kind=Upload.Kind.JSON)
    receiver.wait_for(2)
    receiver.got.clear()
    match = Match.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        publish(ANALYSIS_DONE, [match.pk])  # as replays.analysis does once it stored one
    [item] = receiver.wait_for(1)
    assert item.type == "analysis.done" and item.verified
    assert item.body["data"] == APIClient().get(f"/api/v1/matches/{match.pk}/analysis/").json()
