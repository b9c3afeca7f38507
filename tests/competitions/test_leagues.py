"""Team leagues: a table worked out by hand (wins, a draw, every tie-break), a disputed
fixture left out until the organiser resolves it, legs chosen from the day's stored matches,
who may do what (captains, the other side's captain, the organiser, everyone else), the API's
answers and the pages."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from clubs.services import ClubRefusal
from competitions.league_results import (
    fixture_confirm,
    fixture_dispute,
    fixture_resolve,
    fixture_submit,
)
from competitions.league_selectors import fixture_candidates
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from competitions.league_table import league_table, table_csv
from competitions.models import Fixture, League, Leg, Team
from games.models import Player
from tests.conftest import join
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db
DAY = date(2026, 10, 3)
ROW = ("position", "name", "played", "won", "drawn", "lost")
ROW += ("legs_for", "legs_against", "difference", "points")


def club(slug):
    return Club.objects.get(slug=slug)


def players(owner, slug, names):
    """The club's players of ``names``, made by one match each long before the league."""
    name = club(slug).name
    for index, handle in enumerate(names):
        if not Player.objects.filter(club__slug=slug, handle=handle).exists():
            store_match(
                owner,
                [handle, f"Warm-up {slug}"],
                seed=700 + index + 50 * len(slug),
                played_at=f"2026-01-{index + 1:02d}T12:00:00Z",
                club=name,
            )
    return [Player.objects.get(club__slug=slug, handle=handle).pk for handle in names]


def legs(fixture, *winners):
    """Legs written straight into a fixture (the table's own test: no match needed)."""
    for number, winner in enumerate(winners, start=1):
        Leg.objects.create(
            fixture=fixture,
            number=number,
            kind="singles",
            winner=winner,
            home_score=61 if winner == "home" else 30,
            away_score=61 if winner == "away" else 30,
            home_names="h",
            away_names="a",
        )


# --- the table, by hand --------------------------------------------------------------------


@pytest.fixture
def small_league(owner, outsider):
    """Four teams (two clubs), the organiser Giorgi; every fixture's legs written in."""
    league = league_make(actor=owner, name="Pub league", legs=["singles"] * 4)
    league.organiser = outsider
    league.save()
    for slug in ("tbilisi-fives-club", "moscow"):
        league_invite(actor=outsider, league=league, club=club(slug))
        league_accept(actor=owner, league=league, club=club(slug))
    roster = players(owner, "tbilisi-fives-club", ["A1", "B1", "C1"]) + players(
        owner, "moscow", ["D1"]
    )
    teams = {}
    for letter, pk, slug in zip(
        "ABCD", roster, [*["tbilisi-fives-club"] * 3, "moscow"], strict=True
    ):
        teams[letter] = team_make(
            actor=outsider,
            league=league,
            club=club(slug),
            name=f"{letter} team",
            player_ids=[pk],
            captain_ids=[owner.pk],
        )
    return league, teams


def confirmed(league, home, away, *winners):
    fixture = Fixture.objects.create(
        league=league, home=home, away=away, day=DAY, status=Fixture.Status.CONFIRMED
    )
    legs(fixture, *winners)
    return fixture


def test_the_table_counts_wins_draws_legs_and_breaks_ties_as_documented(small_league):
    league, t = small_league
    # A beats B 3-1; C draws D 2-2; A beats C 2-1 (one leg drawn); B beats D 4-0;
    # D beats A 3-1 (so A: 2 won, 1 lost); C beats B 3-1.
    confirmed(league, t["A"], t["B"], "home", "home", "home", "away")
    confirmed(league, t["C"], t["D"], "home", "home", "away", "away")
    confirmed(league, t["A"], t["C"], "home", "home", "away", "draw")
    confirmed(league, t["B"], t["D"], "home", "home", "home", "home")
    confirmed(league, t["D"], t["A"], "home", "home", "home", "away")
    confirmed(league, t["C"], t["B"], "home", "home", "home", "away")
    # By hand (win 2, draw 1, loss 0):
    #   A: P3 W2 D0 L1, legs 3+2+1=6 for, 1+1+3=5 against, 4 pts
    #   C: P3 W1 D1 L1, legs 2+1+3=6 for, 2+2+1=5 against, 3 pts
    #   B: P3 W1 D0 L2, legs 1+4+1=6 for, 3+0+3=6 against, 2 pts
    #   D: P3 W1 D1 L1, legs 2+0+3=5 for, 2+4+1=7 against, 3 pts
    # C and D on 3 points: C's leg difference +1 beats D's -2.
    table = league_table(league)
    assert [tuple(r[key] for key in ROW) for r in table] == [
        (1, "A team", 3, 2, 0, 1, 6, 5, 1, 4),
        (2, "C team", 3, 1, 1, 1, 6, 5, 1, 3),
        (3, "D team", 3, 1, 1, 1, 5, 7, -2, 3),
        (4, "B team", 3, 1, 0, 2, 6, 6, 0, 2),
    ]


def test_ties_on_points_and_difference_go_to_legs_for_then_the_name(small_league):
    league, t = small_league
    league.win_points, league.draw_points = 3, 1
    league.save()
    # A beats B 3-1 (A +2, 3 legs for); C beats D 2-0 with two drawn legs (C +2, 2 for).
    confirmed(league, t["A"], t["B"], "home", "home", "home", "away")
    confirmed(league, t["C"], t["D"], "home", "home", "draw", "draw")
    table = league_table(league)
    assert [(r["name"], r["points"], r["difference"], r["legs_for"]) for r in table] == [
        ("A team", 3, 2, 3),
        ("C team", 3, 2, 2),
        ("B team", 0, -2, 1),
        ("D team", 0, -2, 0),
    ]
    # All equal: by name. D (away) and B (home) draw 2-2 instead.
    Fixture.objects.all().delete()
    confirmed(league, t["D"], t["B"], "home", "home", "away", "away")
    assert [r["name"] for r in league_table(league)] == ["B team", "D team", "A team", "C team"]
    assert [r["points"] for r in league_table(league)] == [1, 1, 0, 0]


def test_only_confirmed_fixtures_count(small_league):
    league, t = small_league
    for status in ("to-play", "submitted", "disputed"):
        fixture = Fixture.objects.create(
            league=league, home=t["A"], away=t["B"], day=DAY, status=status
        )
        legs(fixture, "home", "home", "home", "home")
    assert all(r["played"] == 0 and r["points"] == 0 for r in league_table(league))


def test_the_csv_has_a_row_a_team_in_table_order_and_no_formula(small_league):
    league, t = small_league
    t["B"].name = "=B team"
    t["B"].save()
    confirmed(league, t["B"], t["A"], "home", "home", "home", "away")
    lines = table_csv(league_table(league)).splitlines()
    assert lines[0] == (
        "position,team,club,played,won,drawn,lost,legs_for,legs_against,difference,points,"
        "conceded,withdrawn"
    )
    assert lines[1] == "1,'=B team,Tbilisi Fives Club,1,1,0,0,3,1,2,2,0,0"
    assert len(lines) == 5


# --- legs from stored matches, captains and the organiser ----------------------------------


@pytest.fixture
def people(django_user_model, owner, member):
    """Nino owns both clubs; Levan captains Tbilisi's team, Sopho Moscow's, Giorgi (no
    club) organises; Ana is a member of Tbilisi but no captain."""
    sopho = django_user_model.objects.create_user("sopho", password="a-long-password-8")
    join(sopho, "moscow")
    ana = django_user_model.objects.create_user("ana", password="a-long-password-9")
    join(ana, "tbilisi-fives-club")
    giorgi = django_user_model.objects.create_user("giorgi", password="a-long-password-2")
    return {"owner": owner, "levan": member, "sopho": sopho, "ana": ana, "giorgi": giorgi}


@pytest.fixture
def match_day(people, django_capture_on_commit_callbacks):
    """A league of one singles and one pairs leg, Tbilisi at home to Moscow; the day's
    matches stored by Tbilisi (the Moscow players by their handles)."""
    p = people
    league = league_make(actor=p["giorgi"], name="City league", legs=["singles", "pairs"])
    for slug in ("tbilisi-fives-club", "moscow"):
        league_invite(actor=p["giorgi"], league=league, club=club(slug))
        league_accept(actor=p["owner"], league=league, club=club(slug))
    home = team_make(
        actor=p["giorgi"],
        league=league,
        club=club("tbilisi-fives-club"),
        name="Tbilisi",
        player_ids=players(p["owner"], "tbilisi-fives-club", ["Nino", "Tamar"]),
        captain_ids=[p["levan"].pk],
    )
    away = team_make(
        actor=p["giorgi"],
        league=league,
        club=club("moscow"),
        name="Moscow",
        player_ids=players(p["owner"], "moscow", ["Ivan", "Olga"]),
        captain_ids=[p["sopho"].pk],
    )
    fixture = fixture_make(actor=p["giorgi"], league=league, home=home, away=away, day=DAY)
    with django_capture_on_commit_callbacks(execute=True):
        singles = store_match(
            p["owner"], ["Ivan", "Nino"], seed=11, played_at="2026-10-03T18:00:00Z"
        )
        pairs = store_match(
            p["owner"],
            ["Nino", "Ivan", "Tamar", "Olga"],
            seed=12,
            played_at="2026-10-03T19:00:00Z",
            teams=True,
        )
        # Not legs: another day, and a singles of two home players.
        store_match(p["owner"], ["Nino", "Olga"], seed=13, played_at="2026-10-04T18:00:00Z")
        store_match(p["owner"], ["Nino", "Tamar"], seed=14, played_at="2026-10-03T20:00:00Z")
    return fixture, singles, pairs


def side_won(match, home_handles):
    winners = {seat.player.handle for seat in match.seats.all() if seat.team == match.winner}
    return "home" if winners <= home_handles else "away"


def test_the_captain_chooses_legs_among_the_days_matches_between_the_rosters(match_day):
    fixture, singles, pairs = match_day
    candidates = fixture_candidates(fixture)
    assert [(c.match_id, c.kind) for c in candidates] == [
        (singles.pk, "singles"),
        (pairs.pk, "pairs"),
    ]
    assert candidates[0].home_names == "Nino" and candidates[0].away_names == "Ivan"
    assert candidates[1].home_names == "Nino & Tamar"
    assert candidates[0].winner == side_won(singles, {"Nino"})
    seat_of = {seat.player.handle: seat.team for seat in singles.seats.all()}
    assert candidates[0].home_score == singles.scores[seat_of["Nino"]]


def test_a_captain_submits_the_other_confirms_and_the_fixture_counts(match_day, people):
    fixture, singles, pairs = match_day
    with pytest.raises(ClubRefusal):  # the legs in the wrong order: kinds differ
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[pairs.pk, singles.pk])
    fixture = fixture_submit(
        actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk]
    )
    assert fixture.status == "submitted" and fixture.legs.count() == 2
    assert league_table(fixture.league)[0]["played"] == 0
    with pytest.raises(PermissionDenied):  # the submitter's own side confirms nothing
        fixture_confirm(actor=people["levan"], fixture=fixture)
    for stranger in ("ana", "giorgi", "owner"):
        with pytest.raises(PermissionDenied):
            fixture_confirm(actor=people[stranger], fixture=fixture)
    fixture = fixture_confirm(actor=people["sopho"], fixture=fixture)
    assert fixture.status == "confirmed"
    home_legs = [side_won(singles, {"Nino"}), side_won(pairs, {"Nino", "Tamar"})].count("home")
    table = {row["name"]: row for row in league_table(fixture.league)}
    assert table["Tbilisi"]["legs_for"] == home_legs
    assert table["Moscow"]["legs_for"] == 2 - home_legs
    assert table["Tbilisi"]["played"] == table["Moscow"]["played"] == 1
    with pytest.raises(ClubRefusal):  # confirmed: no second submission
        fixture_submit(actor=people["sopho"], fixture=fixture, match_ids=[singles.pk, pairs.pk])


def test_a_disputed_fixture_counts_only_once_the_organiser_confirms_it(match_day, people):
    fixture, singles, pairs = match_day
    fixture = fixture_submit(
        actor=people["sopho"], fixture=fixture, match_ids=[singles.pk, pairs.pk]
    )
    with pytest.raises(ClubRefusal):  # a reason is needed
        fixture_dispute(actor=people["levan"], fixture=fixture, reason="  ")
    fixture = fixture_dispute(actor=people["levan"], fixture=fixture, reason="Leg 2 was a friendly")
    assert fixture.status == "disputed"
    assert all(row["played"] == 0 for row in league_table(fixture.league))
    for who in ("levan", "sopho", "owner"):
        with pytest.raises(PermissionDenied):
            fixture_resolve(actor=people[who], fixture=fixture, confirm=True)
    fixture = fixture_resolve(actor=people["giorgi"], fixture=fixture, confirm=True)
    assert fixture.status == "confirmed"
    assert all(row["played"] == 1 for row in league_table(fixture.league))


def test_the_organiser_may_reset_a_disputed_fixture_to_be_played(match_day, people):
    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    fixture_dispute(actor=people["sopho"], fixture=fixture, reason="wrong day")
    fixture = fixture_resolve(actor=people["giorgi"], fixture=fixture, confirm=False)
    assert fixture.status == "to-play" and fixture.legs.count() == 0
    assert fixture.submitted_by is None
    fixture = fixture_submit(
        actor=people["sopho"], fixture=fixture, match_ids=[singles.pk, pairs.pk]
    )
    assert fixture.status == "submitted"


def test_who_may_not_submit_and_what_is_not_a_leg(match_day, people):
    fixture, singles, pairs = match_day
    for who in ("ana", "giorgi", "owner"):
        with pytest.raises(PermissionDenied):
            fixture_submit(actor=people[who], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    other_day = fixture.league.fixtures.get().home.club.matches.get(
        played_at__date=date(2026, 10, 4)
    )
    with pytest.raises(ClubRefusal):
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[other_day.pk, pairs.pk])
    with pytest.raises(ClubRefusal):  # one match, two legs
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, singles.pk])
    # A captain who left the club is no captain any more.
    people["levan"].memberships.all().delete()
    with pytest.raises(PermissionDenied):
        fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])


def test_what_the_organiser_may_not_do(people):
    p = people
    with pytest.raises(ClubRefusal):
        league_make(actor=p["giorgi"], name="L", legs=["triples"])
    with pytest.raises(ClubRefusal):
        league_make(actor=p["giorgi"], name="L", legs=["singles"], win_points=1, draw_points=2)
    league = league_make(actor=p["giorgi"], name="L", legs=["singles"])
    with pytest.raises(ClubRefusal):
        league_make(actor=p["levan"], name="l", legs=["singles"])
    with pytest.raises(PermissionDenied):  # not the organiser
        league_invite(actor=p["levan"], league=league, club=club("moscow"))
    league_invite(actor=p["giorgi"], league=league, club=club("moscow"))
    roster = players(p["owner"], "moscow", ["Ivan"])
    with pytest.raises(ClubRefusal):  # not accepted yet
        team_make(
            actor=p["giorgi"],
            league=league,
            club=club("moscow"),
            name="M",
            player_ids=roster,
            captain_ids=[p["sopho"].pk],
        )
    with pytest.raises(PermissionDenied):  # only the club's admins accept
        league_accept(actor=p["sopho"], league=league, club=club("moscow"))
    league_accept(actor=p["owner"], league=league, club=club("moscow"))
    with pytest.raises(ClubRefusal):  # a captain who is no member of the club
        team_make(
            actor=p["giorgi"],
            league=league,
            club=club("moscow"),
            name="M",
            player_ids=roster,
            captain_ids=[p["levan"].pk],
        )
    team = team_make(
        actor=p["giorgi"],
        league=league,
        club=club("moscow"),
        name="M",
        player_ids=roster,
        captain_ids=[p["sopho"].pk],
    )
    with pytest.raises(ClubRefusal):  # a player in two teams
        team_make(
            actor=p["giorgi"],
            league=league,
            club=club("moscow"),
            name="N",
            player_ids=roster,
            captain_ids=[p["sopho"].pk],
        )
    with pytest.raises(ClubRefusal):
        fixture_make(actor=p["giorgi"], league=league, home=team, away=team, day=DAY)
    assert Team.objects.count() == 1 and League.objects.count() == 1


# --- the API -------------------------------------------------------------------------------


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_reads_for_all_and_writes_by_role(match_day, people):
    fixture, singles, pairs = match_day
    league = fixture.league
    base = f"/api/v1/leagues/{league.pk}/"
    answer = api().get(base)
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"league", "teams", "table", "fixtures"}
    assert body["league"]["legs"] == ["singles", "pairs"]
    assert body["league"]["organiser"] == "giorgi"
    assert {c["club"]: c["accepted"] for c in body["league"]["clubs"]} == {
        "tbilisi-fives-club": True,
        "moscow": True,
    }
    assert [t["name"] for t in body["teams"]] == ["Moscow", "Tbilisi"]
    # A captain is named by the handle claimed in the club (Levan claimed none), never by
    # the account's name; their user id is the organiser's only.
    assert body["teams"][1]["captains"] == [{"handle": None, "player_id": None, "user_id": None}]
    assert "levan" not in answer.content.decode()
    assert {p["name"] for p in body["teams"][1]["roster"]} == {"Nino", "Tamar"}
    assert set(body["table"][0]) == {
        "position",
        "team_id",
        "name",
        "club",
        "played",
        "won",
        "drawn",
        "lost",
        "legs_for",
        "legs_against",
        "conceded",
        "withdrawn",
        "difference",
        "points",
    }
    assert body["fixtures"][0]["status"] == "to-play" and body["fixtures"][0]["score"] is None
    assert [league["name"] for league in api().get("/api/v1/leagues/").json()] == ["City league"]

    where = f"{base}fixtures/{fixture.pk}/"
    legs = {"matches": [singles.pk, pairs.pk]}
    assert api().post(f"{where}submit/", legs, format="json").status_code == 401
    assert api(people["ana"]).post(f"{where}submit/", legs, format="json").status_code == 403
    answer = api(people["levan"]).post(f"{where}submit/", legs, format="json")
    assert answer.status_code == 200, answer.json()
    submitted = answer.json()
    assert submitted["status"] == "submitted"
    assert submitted["submitted_for"] == fixture.home_id
    assert [leg["match_id"] for leg in submitted["legs"]] == [singles.pk, pairs.pk]
    assert set(submitted["legs"][0]) == {
        "number",
        "kind",
        "match_id",
        "winner",
        "home_score",
        "away_score",
        "home_names",
        "away_names",
    }
    assert sum(submitted["score"]) == sum(leg["winner"] != "draw" for leg in submitted["legs"])
    assert api(people["levan"]).post(f"{where}confirm/").status_code == 403
    answer = api(people["sopho"]).post(f"{where}dispute/", {"reason": ""}, format="json")
    assert answer.status_code == 400
    answer = api(people["sopho"]).post(f"{where}dispute/", {"reason": "<b>no</b>"}, format="json")
    assert answer.json()["status"] == "disputed"
    assert answer.json()["dispute_reason"] == "<b>no</b>"
    assert api(people["sopho"]).post(f"{where}confirm/").status_code == 409
    resolve = {"confirm": True}
    assert api(people["levan"]).post(f"{where}resolve/", resolve, format="json").status_code == 403
    answer = api(people["giorgi"]).post(f"{where}resolve/", resolve, format="json")
    assert answer.json()["status"] == "confirmed"
    table = api().get(base).json()["table"]
    assert [row["played"] for row in table] == [1, 1]
    assert api().get(f"{where}").json()["status"] == "confirmed"
    assert api().get(f"/api/v1/leagues/{league.pk}/fixtures/999999/").status_code == 404


def test_the_api_makes_a_league_its_clubs_teams_and_fixtures(people):
    p = people
    answer = api().post("/api/v1/leagues/", {"name": "X", "legs": ["singles"]}, format="json")
    assert answer.status_code == 401
    answer = api(p["owner"]).post(
        "/api/v1/leagues/", {"name": "Winter", "legs": ["singles", "singles"]}, format="json"
    )
    assert answer.status_code == 201
    base = f"/api/v1/leagues/{answer.json()['league']['id']}/"
    assert answer.json()["league"]["win_points"] == 2
    answer = api(p["owner"]).post(
        "/api/v1/leagues/", {"name": "winter", "legs": ["singles"]}, format="json"
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "league-name-taken"
    assert api(p["levan"]).post(f"{base}clubs/", {"club": "moscow"}).status_code == 403
    for slug in ("moscow", "tbilisi-fives-club"):  # Nino owns both: accepted at once
        assert api(p["owner"]).post(f"{base}clubs/", {"club": slug}).status_code == 200
    roster = players(p["owner"], "moscow", ["Ivan"])
    team = {"club": "moscow", "name": "M", "roster": roster, "captains": [p["sopho"].pk]}
    assert api(p["sopho"]).post(f"{base}teams/", team, format="json").status_code == 403
    answer = api(p["owner"]).post(f"{base}teams/", team, format="json")
    assert answer.status_code == 201
    assert answer.json()["captains"] == [
        {"handle": None, "player_id": None, "user_id": p["sopho"].pk}
    ]
    other = {
        "club": "tbilisi-fives-club",
        "name": "T",
        "roster": players(p["owner"], "tbilisi-fives-club", ["Nino"]),
        "captains": [p["levan"].pk],
    }
    home = api(p["owner"]).post(f"{base}teams/", other, format="json").json()["id"]
    fixture = {"home": home, "away": answer.json()["id"], "day": "2026-10-03"}
    answer = api(p["owner"]).post(f"{base}fixtures/", fixture, format="json")
    assert answer.status_code == 201 and answer.json()["status"] == "to-play"
    answer = api(p["owner"]).post(f"{base}fixtures/", fixture | {"away": home}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "fixture-invalid"


def test_the_api_guide_names_every_league_endpoint_and_field():
    from pathlib import Path

    from api import league_serializers as leagues

    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    for endpoint in (
        "GET /api/v1/leagues/",
        "POST /api/v1/leagues/",
        "GET /api/v1/leagues/{id}/",
        "POST /api/v1/leagues/{id}/clubs/",
        "POST /api/v1/leagues/{id}/clubs/{slug}/accept/",
        "POST /api/v1/leagues/{id}/teams/",
        "POST /api/v1/leagues/{id}/fixtures/",
        "GET /api/v1/leagues/{id}/fixtures/{fixture}/",
        "POST /api/v1/leagues/{id}/fixtures/{fixture}/submit/",
        "POST /api/v1/leagues/{id}/fixtures/{fixture}/resolve/",
    ):
        assert f"`{endpoint}`" in guide
    assert "`.../dispute/`" in guide
    fields = {
        name
        for serializer in (
            leagues.LeagueSerializer,
            leagues.LeagueClubSerializer,
            leagues.TeamSerializer,
            leagues.LegSerializer,
            leagues.LeagueFixtureSerializer,
            leagues.LeagueTableRowSerializer,
            leagues.LeagueDetailSerializer,
            leagues.LeagueWriteSerializer,
            leagues.TeamWriteSerializer,
            leagues.FixtureWriteSerializer,
            leagues.SubmitSerializer,
            leagues.DisputeSerializer,
            leagues.ResolveSerializer,
        )
        for name in serializer().fields
    }
    fields -= {"id", "player_id"}
    assert sorted(name for name in fields if f"`{name}`" not in guide) == []


# --- the pages -----------------------------------------------------------------------------


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_pages_show_buttons_by_role_and_a_captain_submits_the_other_confirms(match_day, people):
    fixture, singles, pairs = match_day
    league = fixture.league
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert "City league" in page and 'id="league-table"' in page
    assert f"/leagues/{league.pk}/fixtures/{fixture.pk}/" in page
    where = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    assert "leg-form" not in Client().get(where).content.decode()
    assert "leg-form" not in signed_in(people["ana"]).get(where).content.decode()
    page = signed_in(people["levan"]).get(where).content.decode()
    assert f'<option value="{singles.pk}"' in page and f'<option value="{pairs.pk}"' in page
    assert Client().post(f"{where}submit/", {"leg-1": singles.pk}).status_code == 302  # sign in
    assert signed_in(people["ana"]).post(f"{where}submit/", {"leg-1": 1}).status_code == 403
    answer = signed_in(people["levan"]).post(
        f"{where}submit/", {"leg-1": singles.pk, "leg-2": pairs.pk}
    )
    assert answer.status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == "submitted"
    assert 'id="confirm-legs"' not in signed_in(people["levan"]).get(where).content.decode()
    page = signed_in(people["sopho"]).get(where).content.decode()
    assert 'id="confirm-legs"' in page and f"/matches/{singles.pk}/" in page
    assert signed_in(people["sopho"]).post(f"{where}confirm/").status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == "confirmed"
    csv = Client().get(f"/leagues/{league.pk}/table.csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().count("\n") == 3


def test_a_page_refusal_is_said_and_typed_text_is_escaped(match_day, people):
    fixture, singles, pairs = match_day
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    answer = signed_in(people["levan"]).post(
        f"{where}submit/", {"leg-1": pairs.pk, "leg-2": singles.pk}, follow=True
    )
    assert "is not a singles match of the day" in answer.content.decode()
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    reason = "<script>alert(1)</script>" + "x" * 600
    signed_in(people["sopho"]).post(f"{where}dispute/", {"reason": reason})
    fixture.refresh_from_db()
    assert fixture.status == "submitted"  # too long: refused
    signed_in(people["sopho"]).post(f"{where}dispute/", {"reason": "<script>x</script>"})
    fixture.refresh_from_db()
    assert fixture.status == "disputed"
    page = signed_in(people["giorgi"]).get(where).content.decode()
    assert "<script>x" not in page and "&lt;script&gt;x" in page
    assert 'value="reset"' in page
    signed_in(people["giorgi"]).post(f"{where}resolve/", {"decision": "reset"})
    fixture.refresh_from_db()
    assert fixture.status == "to-play"


def test_the_organiser_makes_a_league_invites_clubs_and_makes_teams_and_a_fixture(people):
    p = people
    organiser = signed_in(p["giorgi"])
    assert "make-league" not in Client().get("/leagues/").content.decode()
    answer = organiser.post(
        "/leagues/",
        {
            "name": "<b>Pub</b> league",
            "singles": 2,
            "pairs": 1,
            "win_points": 3,
            "draw_points": 1,
            "loss_points": 0,
        },
    )
    league = League.objects.get()
    assert answer.url == f"/leagues/{league.pk}/"
    assert league.legs == ["singles", "singles", "pairs"] and league.organiser == p["giorgi"]
    base = f"/leagues/{league.pk}/"
    # The clubs are suggested by name; one is invited by its address name, one by its name
    # typed in another case, and a name no club has is refused, saying so.
    page = organiser.get(base).content.decode()
    assert '<option value="Moscow">moscow</option>' in page
    assert '<option value="Tbilisi Fives Club">tbilisi-fives-club</option>' in page
    for typed in ("moscow", "  tbilisi FIVES club "):
        invited = organiser.post(base, {"invite": "", "invite-club": typed}, follow=True)
        assert "is invited: its owner or an admin accepts here." in invited.content.decode()
    refused = organiser.post(base, {"invite": "", "invite-club": "Nowhere"}).content.decode()
    assert "No club you can see has that name." in refused
    assert league.clubs.count() == 2 and not league.clubs.filter(accepted_at__isnull=False)
    suggested = re.search(
        r'<datalist id="invitable-clubs">(.*?)</datalist>', organiser.get(base).content.decode()
    )
    assert "Moscow" not in suggested[1] and "Tbilisi" not in suggested[1]
    page = signed_in(p["owner"]).get(base).content.decode()
    assert page.count("Accept the invitation") == 2 and "&lt;b&gt;Pub" in page
    assert signed_in(p["levan"]).post(f"{base}clubs/moscow/accept/").status_code == 403
    for slug in ("moscow", "tbilisi-fives-club"):
        signed_in(p["owner"]).post(f"{base}clubs/{slug}/accept/")
    assert league.clubs.filter(accepted_at__isnull=False).count() == 2
    assert signed_in(p["owner"]).get(f"{base}clubs/moscow/team/").status_code == 403
    for slug, name, handle, captain in (
        ("moscow", "Moscow", "Ivan", p["sopho"]),
        ("tbilisi-fives-club", "Tbilisi", "Nino", p["levan"]),
    ):
        roster = players(p["owner"], slug, [handle])
        answer = organiser.post(
            f"{base}clubs/{slug}/team/", {"name": name, "roster": roster, "captains": [captain.pk]}
        )
        assert answer.status_code == 302, answer.content.decode()
    home, away = league.teams.get(name="Tbilisi"), league.teams.get(name="Moscow")
    organiser.post(
        base, {"fixture-home": home.pk, "fixture-away": away.pk, "fixture-day": "2026-10-03"}
    )
    assert league.fixtures.get().home == home


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_the_league_pages_speak_russian_and_georgian(match_day, people, language):
    from clubs.capitals import mtavruli_count

    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    client = signed_in(people["sopho"])
    words = {
        "ru": ("Командные лиги", "Подтвердить матчи"),
        "ka": ("გუნდური ლიგები", "დადასტურება"),
    }
    for path, word in (
        ("/leagues/", words[language][0]),
        (f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/", words[language][1]),
        (f"/leagues/{fixture.league_id}/", 'id="league-table"'),
    ):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert word in page, path
        assert "Submit the legs" not in page and "Confirm the legs" not in page
        if language == "ka":
            assert mtavruli_count(page) == 0, path
