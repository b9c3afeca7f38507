# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""A league's schedule made at once (a double round robin, a round a week on the league's
match night) and each player's league averages, held to a count made here."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from competitions.league_averages import league_averages
from competitions.league_forfeits import team_withdraw
from competitions.league_results import fixture_confirm, fixture_submit
from competitions.league_services import fixture_make
from competitions.models import Fixture
from competitions.schedule import round_robin, schedule_make
from replays.models import SeatResult
from tests.competitions.test_leagues import (  # noqa: F401 (the fixtures of those tests)
    match_day,
    people,
    small_league,
)

pytestmark = pytest.mark.django_db
# A schedule's first day is a plan, from today on (clubs.dates): the next Wednesday.
FIRST = date.today() + timedelta(days=(2 - date.today().weekday()) % 7 or 7)


@given(st.integers(2, 12))
def test_every_team_meets_every_other_home_and_away_once_and_once_a_round(count):
    rounds = round_robin(count)
    pairs = [pair for matches in rounds for pair in matches]
    assert Counter(pairs) == Counter(
        (home, away) for home in range(count) for away in range(count) if home != away
    )
    for matches in rounds:
        seats = [team for pair in matches for team in pair]
        assert len(seats) == len(set(seats))
    # As few rounds as can be: 2(n-1) for an even n, 2n for an odd one (a bye each round).
    assert len(rounds) == 2 * (count - 1 if count % 2 == 0 else count)
    # Home and away are shared out: no team at home more than once beyond its away games.
    homes = Counter(home for home, _ in pairs)
    assert set(homes.values()) == {count - 1}


def test_the_schedule_falls_on_the_match_night_a_week_apart(small_league, outsider, owner):
    league, t = small_league
    made = schedule_make(actor=outsider, league=league, first_day=FIRST)
    assert len(made) == 12  # four teams: six rounds of two
    days = sorted({fixture.day for fixture in made})
    assert days == [FIRST + timedelta(weeks=week) for week in range(6)]
    assert {day.weekday() for day in days} == {FIRST.weekday()}
    for day in days:
        teams = [team for f in made if f.day == day for team in (f.home_id, f.away_id)]
        assert len(teams) == len(set(teams)) == 4  # nobody twice in a week
    # Made once: a league with fixtures is refused, and only its organiser makes it.
    with pytest.raises(Exception) as refused:
        schedule_make(actor=outsider, league=league, first_day=FIRST)
    assert refused.value.code == "schedule-has-fixtures"
    Fixture.objects.all().delete()
    with pytest.raises(PermissionDenied):
        schedule_make(actor=owner, league=league, first_day=FIRST)
    # A withdrawn team is left out: three teams, a bye a round.
    team_withdraw(actor=outsider, team=t["D"])
    made = schedule_make(actor=outsider, league=league, first_day=FIRST)
    assert len(made) == 6 and t["D"].pk not in {f.home_id for f in made} | {f.away_id for f in made}


def test_the_organiser_previews_and_makes_the_schedule_on_its_page_and_in_the_api(
    small_league, outsider
):
    league, _t = small_league
    page = Client()
    page.force_login(outsider)
    assert 'id="make-schedule"' in page.get(f"/leagues/{league.pk}/").content.decode()
    shown = page.get(f"/leagues/{league.pk}/schedule/?first_day={FIRST.isoformat()}")
    html = shown.content.decode()
    assert html.count('class="fixture"') == 12 and 'id="schedule-make"' in html
    assert Fixture.objects.count() == 0  # shown, not made
    answer = page.post(f"/leagues/{league.pk}/schedule/", {"first_day": FIRST.isoformat()})
    assert answer.status_code == 302 and Fixture.objects.count() == 12
    assert 'id="make-schedule"' not in page.get(f"/leagues/{league.pk}/").content.decode()
    # Its page says so, and offers no second schedule to make.
    html = page.get(f"/leagues/{league.pk}/schedule/?first_day={FIRST.isoformat()}").content
    assert b'id="schedule-has-fixtures"' in html
    assert b'id="schedule-form"' not in html and b'id="schedule-make"' not in html
    # The API refuses a second one with the same code, and makes one for a league with none.
    api = APIClient()
    api.force_authenticate(outsider)
    where = f"/api/v1/leagues/{league.pk}/fixtures/generate/"
    answer = api.post(where, {"first_day": FIRST.isoformat()})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "schedule-has-fixtures"
    Fixture.objects.all().delete()
    assert APIClient().post(where, {"first_day": FIRST.isoformat()}).status_code in (401, 403)
    answer = api.post(where, {"first_day": FIRST.isoformat()})
    assert answer.status_code == 201 and len(answer.json()) == 12
    assert {row["day"] for row in answer.json()} == {
        (FIRST + timedelta(weeks=w)).isoformat() for w in range(6)
    }


def test_each_players_averages_are_counted_from_the_legs_of_counted_fixtures(match_day, people):
    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    # Not confirmed yet: no leg counts.
    assert all(row["legs"] == 0 for row in league_averages(fixture.league))
    fixture_confirm(actor=people["sopho"], fixture=fixture)
    # Counted here from the stored seat results and the legs' winners.
    want = {}
    # The legs were stored by Tbilisi without their names: the Moscow players sit as
    # Tbilisi's handles, and are known by them.
    roster = {
        player.handle: (player.pk, side)
        for side, team in (("home", fixture.home), ("away", fixture.away))
        for player in team.roster.all()
    }
    for leg in fixture.legs.all():
        side = leg.winner
        for seat in SeatResult.objects.filter(match_id=leg.match_id).select_related("player"):
            player_id, mine = roster[seat.player.handle]
            row = want.setdefault(player_id, [0, 0, 0, 0])
            row[0] += 1
            row[1] += side == mine
            row[2] += seat.points
            row[3] += seat.hands
    rows = league_averages(fixture.league)
    got = {
        row["player_id"]: [row["legs"], row["legs_won"], row["points"], row["hands"]]
        for row in rows
        if row["legs"]
    }
    assert got == want
    assert sum(row["legs"] for row in rows) == 2 + 4  # a singles and a pairs leg
    for row in rows:
        if row["hands"]:
            assert row["points_per_hand"] == row["points"] / row["hands"]
    answer = APIClient().get(f"/api/v1/leagues/{fixture.league_id}/averages/").json()
    assert [(r["player_id"], r["legs_won"]) for r in answer] == [
        (r["player_id"], r["legs_won"]) for r in rows
    ]
    page = Client().get(f"/leagues/{fixture.league_id}/").content.decode()
    assert 'id="league-averages"' in page
    # Another fixture of the day, to play: nothing changes.
    fixture_make(
        actor=people["giorgi"], league=fixture.league, home=fixture.away, away=fixture.home,
        day=fixture.day,
    )  # fmt: skip
    assert league_averages(fixture.league) == rows


def test_the_preview_refuses_too_many_teams_as_the_button_and_the_api_do(
    small_league, outsider, monkeypatch
):
    """The preview of 52 teams showed 40 of them ("1560 matches") and the button then
    refused; now the preview says it first, as the API does (here with a bound of 3)."""
    from competitions import schedule

    monkeypatch.setattr(schedule, "MOST_TEAMS", 3)
    league, _t = small_league
    page = Client()
    page.force_login(outsider)
    html = page.get(f"/leagues/{league.pk}/schedule/?first_day={FIRST.isoformat()}")
    html = html.content.decode()
    assert "A schedule is made for at most 3 teams." in html
    assert 'class="fixture"' not in html and 'id="schedule-make"' not in html
    api = APIClient()
    api.force_authenticate(outsider)
    answer = api.post(f"/api/v1/leagues/{league.pk}/fixtures/generate/", {"first_day": FIRST})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "schedule-too-many-teams"
    assert Fixture.objects.count() == 0
