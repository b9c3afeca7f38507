"""Issue 36, item 6: seasons through the API as on the pages. ``POST
/api/v1/clubs/{slug}/seasons/`` opens one and ``.../{id}/close/`` closes it, with the page's
input (``SeasonForm``) and the service's refusals, for every role: anonymous, a token without
the manage scope, a member, an admin, the owner, an outsider of a private club."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from django.test import Client
from rest_framework.test import APIClient

from competitions.models import Season
from tests.api.conftest import client_with

pytestmark = pytest.mark.django_db

URL = "/api/v1/clubs/tbilisi-fives-club/seasons/"
WINTER = {"name": "Winter 2027", "first_day": "2027-01-01", "last_day": "2027-03-31"}


def signed_in(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_only_the_clubs_owner_and_admins_open_and_close_a_season(
    owner, club_admin, member, outsider, club
):
    assert APIClient().post(URL, WINTER, format="json").status_code == 401
    assert client_with(owner, ["read"]).post(URL, WINTER, format="json").status_code == 403
    assert signed_in(member).post(URL, WINTER, format="json").status_code == 403
    assert signed_in(outsider).post(URL, WINTER, format="json").status_code == 403
    assert not Season.objects.exists()
    made = signed_in(club_admin).post(URL, WINTER, format="json")
    assert made.status_code == 201, made.content
    answer = made.json()
    season = Season.objects.get()
    # What the page's form fills in when nothing is said: 3 for a win, 0 for a loss, 3/2/1/0.
    assert answer["season"]["id"] == season.pk
    assert (season.win_points, season.loss_points, season.place_points) == (3, 0, [3, 2, 1, 0])
    assert answer["closed"] is False and answer["rows"] == []
    close = f"{URL}{season.pk}/close/"
    assert signed_in(member).post(close).status_code == 403
    assert APIClient().post(close).status_code == 401
    closed = client_with(owner, ["read", "manage"]).post(close)
    assert closed.status_code == 200, closed.content
    assert closed.json()["closed"] is True
    again = signed_in(owner).post(close)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "season-closed")


def test_the_api_refuses_what_the_page_refuses(owner, club):
    api = signed_in(owner)
    backwards = api.post(URL, WINTER | {"last_day": "2026-12-31"}, format="json")
    assert backwards.status_code == 409
    assert backwards.json()["error"]["code"] == "season-invalid"
    page = Client()
    page.force_login(owner)
    filled = {"win_points": 3, "loss_points": 0, "place_points": "3/2/1/0"}  # as the page is
    on_page = page.post(
        "/clubs/tbilisi-fives-club/seasons/", WINTER | filled | {"last_day": "2026-12-31"}
    )
    assert backwards.json()["error"]["message"] in html.unescape(on_page.content.decode())
    # The form's bounds, read by the API from the form: points above 100, an unknown preset.
    assert api.post(URL, WINTER | {"win_points": 101}, format="json").status_code == 400
    assert api.post(URL, WINTER | {"presets": ["chess"]}, format="json").status_code == 400
    bad_places = api.post(URL, WINTER | {"place_points": "3/two"}, format="json")
    assert (bad_places.status_code, bad_places.json()["error"]["code"]) == (409, "season-invalid")
    assert not Season.objects.exists()
    made = api.post(URL, WINTER | {"presets": ["muggins"], "place_points": "4/2/1"}, format="json")
    assert made.status_code == 201
    season = Season.objects.get()
    assert (season.presets, season.place_points) == (["muggins"], [4, 2, 1])


def test_a_private_clubs_seasons_are_404_to_outsiders(owner, outsider, club):
    club.is_private = True
    club.save(update_fields=["is_private"])
    signed_in(owner).post(URL, WINTER, format="json")
    season = Season.objects.get()
    for api in (APIClient(), signed_in(outsider)):
        assert api.get(URL).status_code == 404
        assert api.get(f"{URL}{season.pk}/").status_code == 404
    assert signed_in(outsider).post(URL, WINTER, format="json").status_code == 404
    assert signed_in(outsider).post(f"{URL}{season.pk}/close/").status_code == 404
    assert Season.objects.get().closed_at is None


def test_the_api_guide_names_the_season_endpoints():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    for endpoint in (
        "POST /api/v1/clubs/{slug}/seasons/",
        "POST /api/v1/clubs/{slug}/seasons/{id}/close/",
    ):
        assert f"`{endpoint}`" in guide
