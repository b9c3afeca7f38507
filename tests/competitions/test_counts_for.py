"""Issue 36, item 1: an uploader chooses what a match counts for (an event, a cup tie, a
league leg) on the upload form, through the API (``?event=``) and in the recorder's set-up;
the choice is written into the stored match's ``event`` where its log names none, and the
event counts it as named."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from competitions.event_names import league_leg_names, tournament_names
from competitions.models import Fixture, League, Team
from competitions.tournaments import tournament_make, tournament_schedule
from fives_engine.simulate import simulate_match
from games.event_names import event_names
from games.models import Match
from recorder.services import recorder_setup
from tests.competitions.test_events import players

pytestmark = pytest.mark.django_db


def doc(seed: int, names: list[str], *, event: str | None = None, at: str) -> dict:
    log = simulate_match({"base": "muggins", "target": 50}, 2, seed=seed, names=names)
    log |= {"id": f"counts-for-{seed}", "club": "Tbilisi Fives Club", "played_at": at}
    log.pop("event", None)  # the simulator names one
    if event is not None:
        log["event"] = event
    return log


@pytest.fixture
def cup(owner, autumn):
    """A cup of four over today's days (within the autumn season, made to hold today)."""
    today = timezone.localdate()
    season = autumn
    season.first_day, season.last_day = today - timedelta(days=30), today + timedelta(days=30)
    season.save(update_fields=["first_day", "last_day"])
    ids = players(owner, season.club, ["Ana", "Beka", "Ciko", "Dato"])
    return tournament_make(
        actor=owner,
        season=season,
        name="Winter cup",
        kind="knockout",
        first_day=today,
        last_day=today + timedelta(days=1),
        player_ids=ids,
    )


def test_the_club_offers_its_events_and_a_cups_ties_to_play(owner, cup):
    today = timezone.localdate()
    names = tournament_names(cup.season.club, owner, today)
    values = [name.value for name in names]
    assert values == ["Winter cup", "Winter cup, round 1", "Winter cup, round 1"]
    ties = tournament_schedule(cup)["rounds"][0]["fixtures"]
    assert [name.label for name in names[1:]] == [
        f"Winter cup, round 1: {tie['a_name']} v {tie['b_name']}" for tie in ties
    ]
    # Far from its days, the event is not offered.
    assert tournament_names(cup.season.club, owner, today + timedelta(days=30)) == []
    # The registry gathers every source competitions registered.
    assert [n.value for n in event_names(cup.season.club, owner, today)][:2] == values[:2]


def test_the_form_writes_the_choice_into_matches_whose_logs_name_none(
    owner, cup, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(owner)
    form = client.get("/uploads/new/").content.decode()
    assert 'value="Winter cup, round 1"' in form
    ties = tournament_schedule(cup)["rounds"][0]["fixtures"]
    first = [ties[0]["a_name"], ties[0]["b_name"]]
    at = timezone.now().replace(microsecond=0).isoformat()
    text = "\n".join(
        [
            json.dumps(doc(1, first, at=at)),
            json.dumps(doc(2, first, event="a friendly", at=at)),
        ]
    )
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/uploads/new/",
            {"text": text, "club": cup.season.club.pk, "event": "Winter cup, round 1"},
        )
    assert answer.status_code == 302
    events = sorted(
        Match.objects.filter(external_id__startswith="counts-for-").values_list("event", flat=True)
    )
    assert events == ["Winter cup, round 1", "a friendly"]  # a log's own event is kept
    tie = tournament_schedule(cup)["rounds"][0]["fixtures"][0]
    assert (tie["state"], tie["how"]) == ("played", "named")
    # A choice the form does not offer is refused, and nothing is stored for it.
    refused = client.post(
        "/uploads/new/", {"text": text, "club": cup.season.club.pk, "event": "Made up"}
    )
    assert refused.status_code == 200
    assert "Made up is not one of the available choices" in refused.content.decode()


def test_the_api_takes_the_choice_as_a_parameter(owner, cup, django_capture_on_commit_callbacks):
    api = APIClient()
    api.force_authenticate(owner)
    ties = tournament_schedule(cup)["rounds"][0]["fixtures"]
    pair = [ties[1]["a_name"], ties[1]["b_name"]]
    at = timezone.now().replace(microsecond=0).isoformat()
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            "/api/v1/uploads/?club=tbilisi-fives-club&event=winter%20cup,%20round%201",
            json.dumps(doc(3, pair, at=at)),
            content_type="application/json",
        )
    assert answer.status_code == 202, answer.content
    assert Match.objects.get(external_id="counts-for-3").event == "winter cup, round 1"
    assert tournament_schedule(cup)["rounds"][0]["fixtures"][1]["how"] == "named"
    too_long = api.post(
        "/api/v1/uploads/?event=" + "x" * 1001,
        json.dumps(doc(4, pair, at=at)),
        content_type="application/json",
    )
    assert too_long.status_code == 400


def test_the_recorder_offers_them_for_each_club(owner, cup):
    (club,) = [c for c in recorder_setup(owner)["clubs"] if c["slug"] == "tbilisi-fives-club"]
    assert [e["value"] for e in club["events"]][:2] == ["Winter cup", "Winter cup, round 1"]


def test_league_legs_are_offered_only_where_both_clubs_are_seen(owner, outsider, club):
    from clubs.services import club_create

    other = club_create(owner=outsider, name="Batumi Fives", slug="batumi-fives")
    league = League.objects.create(
        name="Black Sea league", organiser=owner, legs=["singles", "pairs"]
    )
    home = Team.objects.create(league=league, club=club, name="Tbilisi A")
    away = Team.objects.create(league=league, club=other, name="Batumi A")
    today = timezone.localdate()
    Fixture.objects.create(league=league, home=home, away=away, day=today + timedelta(days=2))
    offered = [n.value for n in league_leg_names(club, owner, today)]
    assert offered == [
        "Black Sea league, Tbilisi A v Batumi A, leg 1",
        "Black Sea league, Tbilisi A v Batumi A, leg 2",
    ]
    other.is_private = True
    other.save(update_fields=["is_private"])
    assert league_leg_names(club, owner, today) == []  # the owner is not in Batumi's club
    assert league_leg_names(club, owner, date(2020, 1, 1)) == []


def test_a_league_leg_is_offered_in_the_readers_words(owner, outsider, club):
    """A Georgian reader is offered "… მატჩი 1 …" with the day as Georgian writes it, not the
    log's English "leg 1" and an ISO day (issue 56, item 7); the value stays the log's."""
    from django.utils import translation

    from clubs.services import club_create

    other = club_create(owner=outsider, name="Batumi Fives", slug="batumi-fives")
    league = League.objects.create(name="Black Sea league", organiser=owner, legs=["singles"])
    home = Team.objects.create(league=league, club=club, name="Tbilisi A")
    away = Team.objects.create(league=league, club=other, name="Batumi A")
    day = timezone.localdate() + timedelta(days=2)
    Fixture.objects.create(league=league, home=home, away=away, day=day)
    with translation.override("ka"):
        (name,) = league_leg_names(club, owner, timezone.localdate())
    assert name.value == "Black Sea league, Tbilisi A v Batumi A, leg 1"
    shown = day.strftime("%d.%m.%Y")
    assert name.label == f"Black Sea league: Tbilisi A – Batumi A, მატჩი 1 (ერთეულთა, {shown})"
    assert "leg" not in name.label
    with translation.override("en"):
        (name,) = league_leg_names(club, owner, timezone.localdate())
    assert name.label == f"Black Sea league: Tbilisi A – Batumi A, leg 1 (singles, {day})"
    for path in ("/uploads/new/", "/record/"):
        client = Client()
        client.force_login(owner)
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="ka").content.decode()
        assert "Black Sea league" in page, path
        assert ", leg 1" not in page.replace(name.value, ""), path
