# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""League formats (issue 36, item 5): points schemes (Solihull's close loss, Leek's point a
leg), conceded fixtures and walkovers, withdrawn teams (kept or expunged); each table held
to figures worked out by hand, and to an independent count over generated seasons."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from competitions.league_forfeits import (
    fixture_concede,
    fixture_walkover,
    team_reinstate,
    team_withdraw,
)
from competitions.league_points import SCHEME_BY_SLUG, fixture_points, scheme_of
from competitions.league_results import fixture_submit
from competitions.league_services import fixture_reset, league_change, league_make
from competitions.league_table import league_table, table_csv
from competitions.models import Fixture, League
from tests.competitions.test_leagues import (  # noqa: F401 (the fixtures of those tests)
    DAY,
    confirmed,
    match_day,
    people,
    small_league,
)

pytestmark = pytest.mark.django_db


def scheme(slug):
    return SimpleNamespace(**SCHEME_BY_SLUG[slug].points)


@pytest.mark.parametrize(
    ("slug", "mine", "theirs", "points"),
    [
        # Solihull: 3 for a win, 1 for a loss by one leg (5-4), nothing for a wider loss.
        ("solihull", 5, 4, 3),
        ("solihull", 4, 5, 1),
        ("solihull", 3, 6, 0),
        ("solihull", 0, 9, 0),
        # Leek: 2 for the match and 1 a leg won.
        ("leek", 6, 3, 8),
        ("leek", 3, 6, 3),
        ("leek", 0, 9, 0),
        ("leek", 4, 4, 5),  # a draw: 1, and 4 legs
        ("two-one", 5, 4, 2),
        ("two-one", 4, 4, 1),
        ("three-one", 7, 2, 3),
        ("legs", 7, 2, 7),
        ("legs", 2, 7, 2),
    ],
)
def test_each_scheme_scores_a_fixture_as_its_league_says(slug, mine, theirs, points):
    assert fixture_points(scheme(slug), mine, theirs) == points
    # A team that conceded gets nothing, whatever the scheme.
    assert fixture_points(scheme(slug), mine, theirs, conceded=True) == 0


def test_a_scheme_named_fills_the_numbers_and_custom_keeps_them(owner):
    from competitions.forms import LeagueInput

    data = {"name": "Solihull", "legs": ["singles"] * 9, "scheme": "solihull", "win_points": 2}
    league = league_make(actor=owner, **LeagueInput.arguments(data))
    assert (league.win_points, league.close_margin, league.close_points) == (3, 1, 1)
    assert scheme_of(league) == "solihull"
    data = {"name": "Solihull", "legs": ["singles"] * 9, "scheme": "custom", "leg_points": 1}
    league = league_change(actor=owner, league=league, **LeagueInput.arguments(data))
    assert (league.win_points, league.leg_points, league.close_margin) == (3, 1, 1)
    assert scheme_of(league) == "custom"


def test_solihull_and_leek_tables_by_hand(small_league):
    league, t = small_league  # four singles legs a fixture
    # A beats B 3-1; C beats D 4-0; B draws C 2-2 (one leg drawn? no: two each).
    confirmed(league, t["A"], t["B"], "home", "home", "home", "away")
    confirmed(league, t["C"], t["D"], "home", "home", "home", "home")
    confirmed(league, t["B"], t["C"], "home", "home", "away", "away")
    # Solihull with a close loss of one leg: 3 a win, 1 a draw, 1 a loss by one leg.
    # A: win 3 -> 3. B: loss 1-3 (by 2: 0) + draw 1 -> 1. C: win 3 + draw 1 -> 4. D: 0-4 -> 0.
    for key, value in SCHEME_BY_SLUG["solihull"].points.items():
        setattr(league, key, value)
    league.save()
    points = {row["name"]: row["points"] for row in league_table(league)}
    assert points == {"A team": 3, "B team": 1, "C team": 4, "D team": 0}
    # With a margin of 2, B's 1-3 loss is close: 1 more.
    league.close_margin = 2
    league.save()
    assert {row["name"]: row["points"] for row in league_table(league)}["B team"] == 2
    # Leek: 2 a win, 1 a draw, 1 a leg.
    # A: 2 + 3 = 5. B: 1 leg + (1 + 2 legs) = 4. C: (2 + 4) + (1 + 2) = 9. D: 0.
    for key, value in SCHEME_BY_SLUG["leek"].points.items():
        setattr(league, key, value)
    league.save()
    table = league_table(league)
    assert [(row["name"], row["points"]) for row in table] == [
        ("C team", 9),
        ("A team", 5),
        ("B team", 4),
        ("D team", 0),
    ]


# --- conceded fixtures and walkovers --------------------------------------------------------


def test_a_captain_concedes_and_the_other_side_takes_every_leg(small_league, owner, outsider):
    league, t = small_league  # owner captains every team; outsider organises
    fixture = Fixture.objects.create(league=league, home=t["A"], away=t["D"], day=DAY)
    with pytest.raises(PermissionDenied):
        fixture_concede(actor=outsider, fixture=fixture)  # the organiser is no captain
    fixture = fixture_concede(actor=owner, fixture=fixture)  # a captain of both: the home side
    assert (fixture.status, fixture.conceded_by_id, fixture.walkover) == (
        "conceded",
        t["A"].pk,
        False,
    )
    rows = {row["name"]: row for row in league_table(league)}
    assert (rows["D team"]["won"], rows["D team"]["legs_for"], rows["D team"]["points"]) == (
        1,
        4,
        2,
    )
    assert (rows["A team"]["lost"], rows["A team"]["conceded"], rows["A team"]["points"]) == (
        1,
        1,
        0,
    )
    # Conceded twice, or once the legs are in: refused.
    with pytest.raises(Exception) as refused:
        fixture_concede(actor=owner, fixture=fixture)
    assert refused.value.code == "fixture-not-open"
    # The organiser's reset undoes it.
    fixture_reset(actor=outsider, fixture=fixture)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.conceded_by_id) == ("to-play", None)
    assert all(row["played"] == 0 for row in league_table(league))


def test_a_walkover_is_the_organisers_and_a_losing_team_gets_no_point(
    small_league, owner, outsider
):
    league, t = small_league
    league.loss_points = 1  # a loss played gives 1; a walkover's loser still gets none
    league.save()
    fixture = Fixture.objects.create(league=league, home=t["B"], away=t["C"], day=DAY)
    with pytest.raises(PermissionDenied):
        fixture_walkover(actor=owner, fixture=fixture, absent=t["C"])
    with pytest.raises(Exception) as refused:
        fixture_walkover(actor=outsider, fixture=fixture, absent=t["A"])
    assert refused.value.code == "fixture-invalid"
    fixture = fixture_walkover(actor=outsider, fixture=fixture, absent=t["C"])
    assert (fixture.conceded_by_id, fixture.walkover) == (t["C"].pk, True)
    rows = {row["name"]: row for row in league_table(league)}
    assert (rows["B team"]["legs_for"], rows["B team"]["points"]) == (4, 2)
    assert (rows["C team"]["legs_against"], rows["C team"]["points"]) == (4, 0)


# --- withdrawn teams ------------------------------------------------------------------------


def test_a_withdrawn_teams_results_are_expunged_or_kept_as_the_league_says(
    small_league, owner, outsider
):
    league, t = small_league
    confirmed(league, t["A"], t["B"], "home", "home", "home", "away")  # A 3-1 B
    confirmed(league, t["C"], t["B"], "away", "away", "away", "away")  # C 0-4 B
    confirmed(league, t["C"], t["D"], "home", "home", "away", "home")  # C 3-1 D
    still = Fixture.objects.create(league=league, home=t["B"], away=t["D"], day=DAY)
    with pytest.raises(PermissionDenied):
        team_withdraw(actor=owner, team=t["B"])
    team_withdraw(actor=outsider, team=t["B"])
    # Expunged (the default): neither of B's fixtures counts, for anyone; B sits last.
    table = league_table(league)
    assert [(r["name"], r["played"], r["points"], r["withdrawn"]) for r in table] == [
        ("C team", 1, 2, False),
        ("A team", 0, 0, False),
        ("D team", 1, 0, False),
        ("B team", 0, 0, True),
    ]
    # Its fixture still to play is neither played nor conceded.
    for act in (
        lambda: fixture_submit(actor=owner, fixture=still, match_ids=[1, 2, 3, 4]),
        lambda: fixture_concede(actor=owner, fixture=still),
    ):
        with pytest.raises(Exception) as refused:
            act()
        assert refused.value.code == "team-withdrawn"
    # Kept: its results stand (B beat C 4-0 and lost to A), and it still sits last.
    league.withdrawn_results = League.Withdrawn.KEPT
    league.save()
    table = league_table(league)
    assert [(r["name"], r["played"], r["points"]) for r in table] == [
        ("A team", 1, 2),
        ("C team", 2, 2),
        ("D team", 1, 0),
        ("B team", 2, 2),
    ]
    assert table_csv(table).splitlines()[4].endswith(",2,0,1")  # points, conceded, withdrawn
    with pytest.raises(Exception) as refused:
        team_withdraw(actor=outsider, team=t["B"])
    assert refused.value.code == "team-withdrawn"
    team_reinstate(actor=outsider, team=t["B"])
    assert [r["name"] for r in league_table(league)][-1] != "B team"


# --- the table against an independent count -------------------------------------------------

OUTCOMES = st.sampled_from(["to-play", "submitted", "disputed", "confirmed", "home-conceded",
                            "away-conceded"])  # fmt: skip


def count_by_hand(league, teams, played, withdrawn):
    """The table worked out from scratch: each team's points, legs and results, straight
    from the league's written rules (docs/leagues.md), with no code of the archive."""
    rows = {team.pk: {"played": 0, "points": 0, "for": 0, "against": 0, "conceded": 0}
            for team in teams}  # fmt: skip
    n = len(league.legs)
    for home, away, outcome, winners in played:
        if outcome not in ("confirmed", "home-conceded", "away-conceded"):
            continue
        if (home in withdrawn or away in withdrawn) and league.withdrawn_results == "expunged":
            continue
        if outcome == "confirmed":
            h, a = winners.count("home"), winners.count("away")
        else:
            h, a = (0, n) if outcome == "home-conceded" else (n, 0)
        for team, mine, theirs, gave_up in (
            (home, h, a, outcome == "home-conceded"),
            (away, a, h, outcome == "away-conceded"),
        ):
            row = rows[team]
            row["played"] += 1
            row["for"] += mine
            row["against"] += theirs
            row["conceded"] += gave_up
            if gave_up:
                continue
            if mine > theirs:
                row["points"] += league.win_points
            elif mine == theirs:
                row["points"] += league.draw_points
            elif league.close_margin and theirs - mine <= league.close_margin:
                row["points"] += league.close_points
            else:
                row["points"] += league.loss_points
            row["points"] += league.leg_points * mine
    return rows


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    slug=st.sampled_from(sorted(SCHEME_BY_SLUG)),
    rule=st.sampled_from(["expunged", "kept"]),
    fixtures=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(1, 3),
            OUTCOMES,
            st.lists(st.sampled_from(["home", "away", "draw"]), min_size=4, max_size=4),
        ),
        max_size=12,
    ),
    withdrawn=st.sets(st.integers(0, 3), max_size=2),
)
def test_the_table_page_csv_and_api_equal_a_count_made_from_scratch(
    small_league, outsider, slug, rule, fixtures, withdrawn
):
    league, t = small_league
    teams = [t[letter] for letter in "ABCD"]
    with transaction.atomic():
        for key, value in SCHEME_BY_SLUG[slug].points.items():
            setattr(league, key, value)
        league.withdrawn_results = rule
        league.save()
        played = []
        for home_index, step, outcome, winners in fixtures:
            home, away = teams[home_index], teams[(home_index + step) % 4]
            if outcome.endswith("conceded"):
                fixture = Fixture.objects.create(league=league, home=home, away=away, day=DAY)
                absent = home if outcome == "home-conceded" else away
                fixture_walkover(actor=outsider, fixture=fixture, absent=absent)
            elif outcome == "to-play":
                Fixture.objects.create(league=league, home=home, away=away, day=DAY)
            else:
                fixture = confirmed(league, home, away, *winners)
                Fixture.objects.filter(pk=fixture.pk).update(status=outcome)
            played.append((home.pk, away.pk, outcome, winners))
        for index in withdrawn:
            team_withdraw(actor=outsider, team=teams[index])
        gone = {teams[index].pk for index in withdrawn}
        want = count_by_hand(league, teams, played, gone)
        table = league_table(league)
        got = {
            row["team_id"]: {
                "played": row["played"],
                "points": row["points"],
                "for": row["legs_for"],
                "against": row["legs_against"],
                "conceded": row["conceded"],
            }
            for row in table
        }
        assert got == want
        # Withdrawn teams last; the others by points, then leg difference.
        order = [(r["withdrawn"], -r["points"], -r["difference"]) for r in table]
        assert order == sorted(order)
        # The API and the CSV say the same.
        api = APIClient().get(f"/api/v1/leagues/{league.pk}/").json()["table"]
        assert [(r["team_id"], r["points"], r["conceded"]) for r in api] == [
            (r["team_id"], r["points"], r["conceded"]) for r in table
        ]
        csv_points = [line.split(",")[10] for line in table_csv(table).splitlines()[1:]]
        assert csv_points == [str(r["points"]) for r in table]
        transaction.set_rollback(True)


# --- the API and the pages ------------------------------------------------------------------


def test_the_api_concedes_records_walkovers_and_withdraws_by_role(match_day, people):
    fixture, *_ = match_day
    base = f"/api/v1/leagues/{fixture.league_id}/"

    def api(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    where = f"{base}fixtures/{fixture.pk}/"
    assert api(people["ana"]).post(f"{where}concede/").status_code == 403  # no captain
    assert api(people["levan"]).post(f"{where}walkover/", {"absent": "away"}).status_code == 403
    answer = api(people["giorgi"]).post(f"{where}walkover/", {"absent": "nobody"})
    assert answer.status_code == 400
    answer = api(people["sopho"]).post(f"{where}concede/")  # Moscow's captain, the away side
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["status"], body["conceded_by"], body["walkover"], body["score"]) == (
        "conceded",
        "Moscow",
        False,
        [2, 0],
    )
    answer = api(people["levan"]).post(f"{where}concede/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "fixture-not-open"
    assert api(people["giorgi"]).post(f"{where}reset/").status_code == 200
    answer = api(people["giorgi"]).post(f"{where}walkover/", {"absent": "home"})
    assert answer.status_code == 200 and answer.json()["walkover"] is True
    team = f"{base}teams/{fixture.away_id}/"
    assert api(people["sopho"]).post(f"{team}withdraw/").status_code == 403
    answer = api(people["giorgi"]).post(f"{team}withdraw/")
    assert answer.status_code == 200 and answer.json()["withdrawn"] is True
    answer = api(people["giorgi"]).post(f"{team}withdraw/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "team-withdrawn"
    table = api().get(base).json()["table"]
    assert table[-1]["team_id"] == fixture.away_id and table[-1]["withdrawn"] is True
    assert api(people["giorgi"]).post(f"{team}reinstate/").status_code == 200
    league = api().get(base).json()["league"]
    assert (league["scheme"], league["withdrawn_results"]) == ("two-one", "expunged")


def test_a_captain_concedes_on_the_page_and_the_league_page_says_so(match_day, people):
    fixture, *_ = match_day
    page_of = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    captain = Client()
    captain.force_login(people["levan"])
    page = captain.get(page_of).content.decode()
    assert 'id="concede-fixture"' in page and 'id="record-walkover"' not in page
    # The box not ticked: nothing happens, and the page says why.
    captain.post(f"{page_of}concede/")
    fixture.refresh_from_db()
    assert fixture.status == "to-play"
    captain.post(f"{page_of}concede/", {"sure": "1"})
    fixture.refresh_from_db()
    assert (fixture.status, fixture.conceded_by_id) == ("conceded", fixture.home_id)
    page = captain.get(page_of).content.decode()
    assert 'id="fixture-conceded"' in page and "Conceded by Tbilisi" in page
    league_page = Client().get(f"/leagues/{fixture.league_id}/").content.decode()
    assert "conceded by Tbilisi" in league_page
    organiser = Client()
    organiser.force_login(people["giorgi"])
    assert 'id="reset-fixture"' in organiser.get(page_of).content.decode()


def test_the_league_page_says_its_scheme_in_each_language(owner):
    league = league_make(
        actor=owner, name="Leek", legs=["singles"] * 9, **SCHEME_BY_SLUG["leek"].points
    )
    words = {
        "en": "Points (Leek: 2 for the match, 1 for each leg won): 2 for a win",
        "ru": "Очки (Лик: 2 за встречу, 1 за каждый выигранный матч): 2 за победу",
        "ka": "ქულები (ლიკი: 2 შეხვედრისთვის, 1 ყოველი მოგებული მატჩისთვის): 2 მოგებისთვის",
    }
    for language, text in words.items():
        page = Client(headers={"accept-language": language}).get(f"/leagues/{league.pk}/")
        assert text in page.content.decode(), language
