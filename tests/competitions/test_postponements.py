# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""A fixture postponed: the home captain offers up to three days, the other side accepts
one (or the organiser does), the offer waits in the away captain's inbox, and every refusal
has its code, on the page and through the API."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.refusals import ClubRefusal
from clubs.waiting import waiting_for
from competitions.postponements import (
    postponement_accept,
    postponement_offer,
    postponement_withdraw,
)
from tests.competitions.test_leagues import (  # noqa: F401 (the fixtures of those tests)
    match_day,
    people,
)

pytestmark = pytest.mark.django_db


def later(days: int) -> date:
    return timezone.localdate() + timedelta(days=days)


def code_of(act) -> str:
    with pytest.raises(ClubRefusal) as refused:
        act()
    return refused.value.code


def test_the_home_captain_offers_days_and_the_away_captain_accepts_one(
    match_day, people, django_capture_on_commit_callbacks
):
    fixture, *_ = match_day
    levan, sopho, giorgi = people["levan"], people["sopho"], people["giorgi"]  # home, away, org.
    with pytest.raises(PermissionDenied):
        postponement_offer(actor=sopho, fixture=fixture, days=[later(7)])
    for days in ([], [later(7)] * 2, [later(1), later(2), later(3), later(4)], [later(0)]):
        assert code_of(
            lambda days=days: postponement_offer(actor=levan, fixture=fixture, days=days)
        ) == ("postpone-invalid")
    with django_capture_on_commit_callbacks(execute=True):
        fixture = postponement_offer(actor=levan, fixture=fixture, days=[later(9), later(7)])
    assert fixture.offered_days == [later(7).isoformat(), later(9).isoformat()]
    # It waits on the away captain, and on nobody else.
    [item] = [item for item in waiting_for(sopho) if item.kind == "postponement"]
    assert later(7).isoformat() in item.title and item.url.endswith(f"/fixtures/{fixture.pk}/")
    assert not [item for item in waiting_for(levan) if item.kind == "postponement"]
    with pytest.raises(PermissionDenied):
        postponement_accept(actor=levan, fixture=fixture, day=later(7))
    assert code_of(lambda: postponement_accept(actor=sopho, fixture=fixture, day=later(8))) == (
        "postpone-not-offered"
    )
    fixture = postponement_accept(actor=sopho, fixture=fixture, day=later(9))
    assert (fixture.day, fixture.offered_days) == (later(9), [])
    assert not [item for item in waiting_for(sopho) if item.kind == "postponement"]
    # The organiser accepts too, and withdraws an offer.
    fixture = postponement_offer(actor=levan, fixture=fixture, days=[later(14)])
    fixture = postponement_withdraw(actor=giorgi, fixture=fixture)
    assert fixture.offered_days == []
    assert code_of(lambda: postponement_withdraw(actor=levan, fixture=fixture)) == (
        "postpone-not-offered"
    )
    fixture = postponement_offer(actor=levan, fixture=fixture, days=[later(21)])
    assert postponement_accept(actor=giorgi, fixture=fixture, day=later(21)).day == later(21)


def test_the_pages_and_the_api_postpone_alike(match_day, people):
    fixture, *_ = match_day
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    home = Client()
    home.force_login(people["levan"])
    page = home.get(where).content.decode()
    assert 'id="postpone-form"' in page
    home.post(f"{where}postpone/", {"day_1": later(5).isoformat(), "day_2": later(6).isoformat()})
    fixture.refresh_from_db()
    assert fixture.offered_days == [later(5).isoformat(), later(6).isoformat()]
    away = Client()
    away.force_login(people["sopho"])
    page = away.get(where).content.decode()
    assert 'id="fixture-postponed"' in page and f'value="{later(6).isoformat()}"' in page
    assert (
        "postponed: days offered" in Client().get(f"/leagues/{fixture.league_id}/").content.decode()
    )
    away.post(f"{where}postpone/accept/", {"day": later(6).isoformat()})
    fixture.refresh_from_db()
    assert (fixture.day, fixture.offered_days) == (later(6), [])

    api = APIClient()
    api.force_authenticate(people["levan"])
    base = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/postpone/"
    answer = api.post(base, {"day_1": later(0).isoformat()})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "postpone-invalid"
    answer = api.post(base, {"day_1": later(10).isoformat()})
    assert answer.status_code == 200 and answer.json()["offered_days"] == [later(10).isoformat()]
    api.force_authenticate(people["sopho"])
    answer = api.post(f"{base}accept/", {"day": later(11).isoformat()})
    assert answer.status_code == 409
    answer = api.post(f"{base}accept/", {"day": later(10).isoformat()})
    assert answer.status_code == 200 and answer.json()["day"] == later(10).isoformat()
    assert api.post(f"{base}withdraw/").status_code == 403


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_days_offered_are_written_as_the_readers_language_writes_a_day(
    match_day, people, language
):
    """The buttons said "2026-12-15" while the rest of the page wrote 22.11.2026 (issue 56,
    item 7): each offered day is written as the reader's language writes a day; the value
    sent back stays ISO."""
    fixture, *_ = match_day
    postponement_offer(actor=people["levan"], fixture=fixture, days=[later(5), later(6)])
    away = Client()
    away.force_login(people["sopho"])
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    page = away.get(where, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    buttons = page.split('id="fixture-postponed"', 1)[1].split("</section>", 1)[0]
    for day in (later(5), later(6)):
        assert f'value="{day.isoformat()}"' in buttons
        assert day.strftime("%d.%m.%Y") in buttons
        assert day.isoformat() not in buttons.replace(f'value="{day.isoformat()}"', "")
