# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""The days a person enters, one rule per kind (issue 55, ``clubs.dates``): a plan (a
postponement's day, a schedule's first day) from the club's today to two years ahead; a frame
(a season's, an event's, a fixture's days) from 1970 to two years ahead. Each door refuses
a day out of its bounds, the API with ``400 date-out-of-range``, the page in words in the
reader's language; and a day already stored out of them (9999-12-31, 0001-01-01) breaks no
page, feed or answer: a postponement to 9999-12-31 was accepted and the fixture's page then a
500 to its captain, a schedule from 9999-12-28 a 500 on the page and in the API."""

from __future__ import annotations

import html
import json
from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.dates import (
    EARLIEST,
    DateOutOfRange,
    day_after,
    frame_check,
    plan_bounds,
    plan_check,
    years_after,
)
from clubs.models import Club
from clubs.zones import club_days, zone_of
from competitions.models import Fixture, Season, Tournament
from competitions.postponements import postponement_offer
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from games.models import Match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from tests.api.conftest import make_doc
from tests.competitions.test_leagues import (  # noqa: F401 (the fixtures of those tests)
    match_day,
    people,
    small_league,
)
from tests.competitions.test_leagues import players as league_players

pytestmark = pytest.mark.django_db

FAR = [date(9999, 12, 31), date(1, 1, 1)]


def today() -> date:
    return timezone.localdate()


def last_plan_day() -> date:
    return years_after(today(), 2)


def refused_days() -> list[date]:
    """Days out of a plan's bounds: the calendar's ends, a day past two years, 2000."""
    return [
        date(9999, 12, 31),
        date(1, 1, 1),
        last_plan_day() + timedelta(days=1),
        date(2000, 1, 1),
    ]


def api_error(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_a_plan_lies_from_the_clubs_today_to_two_years_ahead(settings):
    first, last = plan_bounds(["Asia/Tbilisi"])
    assert first == timezone.localdate(timezone=zone_of("Asia/Tbilisi"))
    assert last == years_after(first, 2)
    plan_check([first, last], zone_names=["Asia/Tbilisi"])
    for day in (first - timedelta(days=1), last + timedelta(days=1), date.max, date.min):
        with pytest.raises(DateOutOfRange) as refused:
            plan_check([day], zone_names=["Asia/Tbilisi"])
        assert refused.value.code == "date-out-of-range" and refused.value.status == 400
    settings.FIVES_PLAN_YEARS = 5
    assert plan_bounds(["UTC"])[1] == years_after(plan_bounds(["UTC"])[0], 5)
    # Frames reach back to 1970; a day kept as stored passes whatever it is.
    frame_check([EARLIEST, date(2026, 10, 3)], zone_names=["UTC"])
    with pytest.raises(DateOutOfRange):
        frame_check([EARLIEST - timedelta(days=1)], zone_names=["UTC"])
    frame_check([date.max], zone_names=["UTC"], kept=[date.max])
    assert years_after(date(2028, 2, 29), 2) == date(2030, 2, 28)
    assert years_after(date(9998, 6, 1), 2) == date.max
    assert day_after(date.max) == date.max and day_after(date(2026, 12, 31)) == date(2027, 1, 1)


def test_the_days_counted_at_the_calendars_ends_are_moments_a_database_keeps():
    start, end = club_days(date(9999, 12, 31), date(9999, 12, 31), "America/New_York")
    assert start < end and end.year == 9999
    start, end = club_days(date(1, 1, 1), date(1, 1, 1), "Asia/Tbilisi")
    assert start.year == 1 and start < end
    for moment in (start, end):
        moment.astimezone(timezone.get_fixed_timezone(0))  # no OverflowError


def test_a_postponement_out_of_a_plans_bounds_is_refused_at_each_door(match_day, people):
    fixture, *_ = match_day
    api = APIClient()
    api.force_authenticate(people["levan"])
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    page = Client()
    page.force_login(people["levan"])
    for day in [*refused_days(), today() - timedelta(days=1)]:
        answer = api.post(f"/api/v1{where}postpone/", {"day_1": day.isoformat()})
        assert api_error(answer) == (400, "date-out-of-range"), day
        assert "Choose a day from" in answer.json()["error"]["message"]
        # The page says it in words, in the reader's language.
        shown = page.post(
            f"{where}postpone/",
            {"day_1": day.isoformat()},
            follow=True,
            HTTP_ACCEPT_LANGUAGE="ru",
        )
        assert shown.status_code == 200
        assert "Выберите день с " in html.unescape(shown.content.decode())
        fixture.refresh_from_db()
        assert fixture.offered_days == []
    # Today itself is the postponement's own refusal (a day after today), as it was.
    answer = api.post(f"/api/v1{where}postpone/", {"day_1": today().isoformat()})
    assert api_error(answer) == (409, "postpone-invalid")
    # The plan's last day is offered.
    answer = api.post(f"/api/v1{where}postpone/", {"day_1": last_plan_day().isoformat()})
    assert answer.status_code == 200 and answer.json()["offered_days"] == [
        last_plan_day().isoformat()
    ]


def test_a_schedule_out_of_a_plans_bounds_is_refused_on_its_page_and_in_the_api(
    small_league, outsider
):
    league, _t = small_league
    page = Client()
    page.force_login(outsider)
    api = APIClient()
    api.force_authenticate(outsider)
    where = f"/leagues/{league.pk}/schedule/"
    for day in [date(9999, 12, 28), *refused_days()]:
        shown = page.get(where, {"first_day": day.isoformat()}, HTTP_ACCEPT_LANGUAGE="ka")
        text = html.unescape(shown.content.decode())
        assert shown.status_code == 200 and "აირჩიეთ დღე ამ შუალედიდან" in text
        assert 'class="fixture"' not in text and 'id="schedule-make"' not in text
        made = page.post(where, {"first_day": day.isoformat()})
        assert made.status_code == 200 and "Choose a day from" in html.unescape(
            made.content.decode()
        )
        answer = api.post(f"/api/v1/leagues/{league.pk}/fixtures/generate/", {"first_day": day})
        assert api_error(answer) == (400, "date-out-of-range"), day
        assert not Fixture.objects.exists()
    answer = api.post(f"/api/v1/leagues/{league.pk}/fixtures/generate/", {"first_day": today()})
    assert answer.status_code == 201


def test_a_seasons_and_an_events_days_out_of_a_frames_bounds_are_refused(owner, club):
    api = APIClient()
    api.force_authenticate(owner)
    page = Client()
    page.force_login(owner)
    seasons = "/api/v1/clubs/tbilisi-fives-club/seasons/"
    filled = {"win_points": 3, "loss_points": 0, "place_points": "3/2/1/0"}
    for first, last in (
        (date(1, 1, 1), date(2026, 12, 31)),
        (EARLIEST - timedelta(days=1), date(2026, 12, 31)),
        (date(2026, 9, 1), date(9999, 12, 31)),
        (date(2026, 9, 1), last_plan_day() + timedelta(days=1)),
    ):
        days = {"name": "Far", "first_day": first.isoformat(), "last_day": last.isoformat()}
        assert api_error(api.post(seasons, days, format="json")) == (400, "date-out-of-range")
        shown = page.post("/clubs/tbilisi-fives-club/seasons/", days | filled)
        assert "Choose days from" in html.unescape(shown.content.decode())
    assert not Season.objects.exists()
    # A season begun before today is a frame, not a plan: opened.
    days = {"name": "Autumn", "first_day": "2026-09-01", "last_day": last_plan_day().isoformat()}
    assert api.post(seasons, days, format="json").status_code == 201
    season = Season.objects.get()
    players = league_players(owner, club.slug, ["Nino", "Tamar"])
    events = "/api/v1/clubs/tbilisi-fives-club/events/"
    event = {"season": season.pk, "kind": "round-robin", "players": players, "name": "Cup"}
    for day in (date(1, 1, 1), date(9999, 12, 31)):
        days = {"first_day": day.isoformat(), "last_day": day.isoformat()}
        answer = api.post(events, event | days, format="json")
        assert api_error(answer) == (400, "date-out-of-range"), answer.json()
    assert not Tournament.objects.exists()


def test_a_fixtures_day_out_of_a_frames_bounds_is_refused_and_a_day_kept_passes(match_day, people):
    fixture, *_ = match_day
    api = APIClient()
    api.force_authenticate(people["giorgi"])  # the organiser
    page = Client()
    page.force_login(people["giorgi"])
    teams = {"home": fixture.away_id, "away": fixture.home_id}
    for day in (date(9999, 12, 31), date(1969, 12, 31), last_plan_day() + timedelta(days=1)):
        made = api.post(f"/api/v1/leagues/{fixture.league_id}/fixtures/", teams | {"day": day})
        assert api_error(made) == (400, "date-out-of-range")
        shown = page.post(
            f"/leagues/{fixture.league_id}/",
            {f"fixture-{key}": value for key, value in (teams | {"day": day}).items()},
        )
        assert "Choose days from" in html.unescape(shown.content.decode())
    assert Fixture.objects.count() == 1
    # A day stored out of the bounds is kept by a change of the teams alone.
    Fixture.objects.filter(pk=fixture.pk).update(day=date(9999, 12, 31))
    where = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    answer = api.put(where, teams | {"day": "9999-12-31"}, format="json")
    assert answer.status_code == 200 and answer.json()["day"] == "9999-12-31"


@pytest.mark.parametrize("far", FAR)
def test_no_page_feed_or_answer_fails_on_a_day_stored_out_of_bounds(match_day, people, far):
    fixture, *_ = match_day
    club = Club.objects.get(slug="tbilisi-fives-club")
    # A zone where the stored day's edge leaves the calendar in UTC.
    club.time_zone = "America/New_York" if far.year == 9999 else "Asia/Tbilisi"
    club.save(update_fields=["time_zone"])
    season = season_open(
        actor=people["owner"],
        club=club,
        name="Autumn",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    event = tournament_make(
        actor=people["owner"],
        season=season,
        name="Cup",
        kind="round-robin",
        first_day=date(2026, 10, 1),
        last_day=date(2026, 10, 2),
        player_ids=list(club.players.values_list("pk", flat=True)[:2]),
    )
    postponement_offer(actor=people["levan"], fixture=fixture, days=[today() + timedelta(7)])
    Season.objects.filter(pk=season.pk).update(first_day=far, last_day=far)
    Tournament.objects.filter(pk=event.pk).update(first_day=far, last_day=far)
    Fixture.objects.filter(pk=fixture.pk).update(day=far, offered_days=[far.isoformat()])
    league, player = fixture.league_id, fixture.home.roster.first().pk
    slug = club.slug
    addresses = [
        f"/leagues/{league}/",
        f"/leagues/{league}/fixtures/{fixture.pk}/",
        f"/leagues/{league}/fixtures/{fixture.pk}/edit/",
        f"/leagues/{league}/table.csv",
        f"/leagues/{league}/calendar.ics",
        f"/leagues/{league}/teams/{fixture.home_id}/calendar.ics",
        f"/players/{player}/calendar.ics",
        f"/clubs/{slug}/calendar.ics",
        "/leagues/",
        "/inbox/",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/seasons/",
        f"/clubs/{slug}/seasons/{season.pk}/",
        f"/clubs/{slug}/seasons/{season.pk}/print/",
        f"/clubs/{slug}/seasons/{season.pk}/standings.csv",
        f"/clubs/{slug}/events/",
        f"/clubs/{slug}/events/{event.pk}/",
        f"/clubs/{slug}/events/{event.pk}/schedule.csv",
        f"/api/v1/leagues/{league}/",
        f"/api/v1/leagues/{league}/fixtures/{fixture.pk}/",
        "/api/v1/inbox/",
        f"/api/v1/clubs/{slug}/seasons/",
        f"/api/v1/clubs/{slug}/seasons/{season.pk}/",
        f"/api/v1/clubs/{slug}/events/",
        f"/api/v1/clubs/{slug}/events/{event.pk}/",
    ]
    organiser_only = {f"/leagues/{league}/fixtures/{fixture.pk}/edit/"}
    for who in ("levan", "sopho", "giorgi", "owner"):
        client = Client(raise_request_exception=False)
        client.force_login(people[who])
        for address in addresses:
            if address in organiser_only and who != "giorgi":
                continue
            answer = client.get(address)
            assert answer.status_code == 200, (who, address, answer.status_code)
    # The away captain, whom the offer waits on, still answers it.
    away = Client()
    away.force_login(people["sopho"])
    page = away.get(f"/leagues/{league}/fixtures/{fixture.pk}/").content.decode()
    assert f'value="{far.isoformat()}"' in page


@pytest.mark.parametrize(
    ("played_at", "zone"),
    [("9999-12-31T23:30:00Z", "Asia/Tbilisi"), ("0001-01-01T00:10:00Z", "America/New_York")],
)
def test_a_match_time_at_the_calendars_ends_is_stored_counted_and_shown(
    owner, django_capture_on_commit_callbacks, played_at, zone
):
    """An upload's time is what it is (fives/1 takes any ISO 8601); in a club whose clock
    has left the calendar there, its statistics failed (the month in the club's zone) and
    the ranking's "last played" failed in a reader's zone past it."""
    Club.objects.filter(slug="tbilisi-fives-club").update(time_zone=zone)
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner, data=json.dumps(make_doc(1, played_at=played_at)).encode(), kind="json"
        )
        upload_process(upload_id=upload.pk)
    match = Match.objects.get()
    player = match.seats.order_by("seat").first().player_id
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    for reader in ("", "Pacific/Kiritimati", "Pacific/Pago_Pago"):  # +14 and -11
        client.cookies["tz"] = reader
        for address in (
            "/",
            f"/matches/{match.pk}/",
            f"/players/{player}/",
            "/clubs/tbilisi-fives-club/",
            "/clubs/tbilisi-fives-club/ranking/",
            f"/uploads/{upload.pk}/",
            f"/api/v1/matches/{match.pk}/",
            f"/api/v1/players/{player}/",
        ):
            assert client.get(address).status_code == 200, (reader, address)
