# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""An id past the database's integers answers as an id nothing has (issue 55): a 404 in an
address, nothing found in a filter, on SQLite and PostgreSQL alike. SQLite raised
``OverflowError`` (a 500) for ``/api/v1/leagues/26578978922585112283447296/fixtures/7360/``,
which a schema test drew at random on a newcomer's ``make test``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.ids import LARGEST, IdConverter, id_of
from tests.competitions.test_leagues import match_day, people  # noqa: F401

HUGE = 26578978922585112283447296
# Past the largest id by one, the largest (no row has it), and the issue's own.
TOO_BIG = [LARGEST + 1, HUGE]
UNKNOWN = [LARGEST, 999_999]


def test_an_id_is_ascii_digits_within_a_bigint():
    assert [id_of(text) for text in ("0", "7", str(LARGEST), "007")] == [0, 7, LARGEST, 7]
    for text in (str(LARGEST + 1), str(HUGE), "-1", "+1", " 1", "1.0", "²", "２", "", "x"):
        assert id_of(text) is None, text
    assert id_of(12) == 12 and id_of(None) is None


def routes(resolver=None):
    """Every address pattern of the site, with its converters."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield pattern
            yield from routes(pattern)
        elif isinstance(pattern, URLPattern):
            yield pattern


def test_every_number_of_an_address_is_an_id_of_a_bigint():
    converters = [
        (str(route.pattern), converter)
        for route in routes()
        for converter in getattr(route.pattern, "converters", {}).values()
    ]
    ids = [route for route, converter in converters if isinstance(converter, IdConverter)]
    assert len(ids) > 100  # the pages' and the API's
    built_in = [route for route, converter in converters if isinstance(converter, IntConverter)]
    assert built_in == [], f"<int:...> takes any number: write <id:...> (clubs.ids): {built_in}"


@pytest.mark.django_db
def test_an_id_too_big_in_an_address_is_a_404_on_pages_and_in_the_api(match_day, people):
    fixture, singles, _pairs = match_day
    league = fixture.league_id
    captain = Client()
    captain.force_login(people["levan"])
    api = APIClient()
    api.force_authenticate(people["levan"])
    for number in TOO_BIG + UNKNOWN:
        for path in (
            f"/leagues/{number}/",
            f"/leagues/{league}/fixtures/{number}/",
            f"/leagues/{number}/fixtures/{fixture.pk}/",
            f"/matches/{number}/",
            f"/players/{number}/",
            f"/clubs/tbilisi-fives-club/seasons/{number}/",
        ):
            assert captain.get(path).status_code == 404, path
        for path in (
            f"/api/v1/leagues/{number}/fixtures/7360/",
            f"/api/v1/leagues/{number}/fixtures/{fixture.pk}/",
            f"/api/v1/leagues/{league}/fixtures/{number}/",
            f"/api/v1/leagues/{number}/",
            f"/api/v1/matches/{number}/",
            f"/api/v1/players/{number}/",
            f"/api/v1/uploads/{number}/",
        ):
            answer = api.get(path)
            assert answer.status_code == 404, path
            assert answer.json()["error"]["code"] == "not_found"
        # A write too: refused as for a fixture nothing has, before any service runs.
        day = (timezone.localdate() + timedelta(days=7)).isoformat()
        where = f"/api/v1/leagues/{number}/fixtures/{fixture.pk}/postpone/"
        assert api.post(where, {"day_1": day}).status_code == 404
    # The ids that are rows still answer.
    assert api.get(f"/api/v1/leagues/{league}/fixtures/{fixture.pk}/").status_code == 200
    assert captain.get(f"/matches/{singles.pk}/").status_code == 200


@pytest.mark.django_db
def test_an_id_too_big_in_a_query_finds_what_an_unknown_id_finds(match_day, people):
    _fixture, singles, _pairs = match_day
    api = APIClient()
    api.force_authenticate(people["owner"])
    page = Client()
    page.force_login(people["owner"])
    for number in TOO_BIG + UNKNOWN:
        answer = api.get("/api/v1/matches/", {"player": number})
        assert answer.status_code == 200 and answer.json()["results"] == []
        answer = api.get("/api/v1/matches/export", {"player": number})
        assert answer.status_code == 200 and b"".join(answer.streaming_content) == b""
        shown = page.get("/", {"player": number})
        assert shown.status_code == 200 and f"/matches/{singles.pk}/" not in shown.content.decode()
        # A new event's season, chosen by the address: none found, none chosen.
        assert page.get("/clubs/tbilisi-fives-club/events/", {"season": number}).status_code == 200
        # A calendar's key naming a user nothing is: as a key of an unknown user.
        where = "/clubs/tbilisi-fives-club/calendar.ics"
        unknown = Client().get(where, {"key": "999999-abc"}).status_code
        assert Client().get(where, {"key": f"{number}-abc"}).status_code == unknown
    # The player's own id still finds their matches.
    player = singles.seats.order_by("seat").first().player_id
    assert api.get("/api/v1/matches/", {"player": player}).json()["results"]
