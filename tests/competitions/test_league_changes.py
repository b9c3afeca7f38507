"""Changing and deleting a league, its teams and its fixtures (the organiser's alone), and
resetting a fixture's legs: through the services, the API and the pages, each written in the
audit trail of the clubs it concerns, in words, in the reader's language."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from clubs.audit import audit_sentence, registered
from clubs.models import AuditEntry
from clubs.services import ClubRefusal
from competitions.league_results import fixture_confirm, fixture_dispute, fixture_submit
from competitions.league_services import (
    fixture_change,
    fixture_delete,
    fixture_make,
    fixture_reset,
    league_change,
    league_delete,
    team_change,
    team_delete,
)
from competitions.league_table import league_table
from competitions.models import Fixture, League, Leg, Team
from games.models import Match
from tests.competitions.test_leagues import api, players, signed_in

pytestmark = pytest.mark.django_db
TBILISI, MOSCOW = "tbilisi-fives-club", "moscow"


def trail(slug: str) -> list[tuple[str, str, str]]:
    """The club's audit entries made by league actions, oldest first: actor, action, words."""
    entries = AuditEntry.objects.filter(club__slug=slug, action__regex=r"^(league|team|fixture)-")
    return [
        (entry.actor.username if entry.actor else "", entry.action, audit_sentence(entry))
        for entry in entries.order_by("created_at", "id")
    ]


def confirmed(match_day, people) -> Fixture:
    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    return fixture_confirm(actor=people["sopho"], fixture=fixture)


def refusal(call, **kwargs) -> str:
    with pytest.raises(ClubRefusal) as refused:
        call(**kwargs)
    return refused.value.code


# --- what making already wrote ---------------------------------------------------------------


def test_inviting_making_teams_and_a_fixture_is_in_each_clubs_trail(match_day, people):
    # match_day: Giorgi invited both clubs, their owner accepted, Giorgi made the team
    # Tbilisi (of Tbilisi), Moscow (of Moscow), the fixture.
    owner = people["owner"].username
    invited = [
        ("giorgi", "league-invited", "invited the club to the league “City league”"),
        (owner, "league-joined", "accepted the invitation to the league “City league”"),
    ]
    assert trail(TBILISI) == [
        *invited,
        ("giorgi", "team-created", "made the team “Tbilisi” of the league “City league”"),
        (
            "giorgi",
            "fixture-created",
            "made the fixture Tbilisi – Moscow on 2026-10-03 in the league “City league”",
        ),
    ]
    assert trail(MOSCOW) == [
        *invited,
        ("giorgi", "team-created", "made the team “Moscow” of the league “City league”"),
        (
            "giorgi",
            "fixture-created",
            "made the fixture Tbilisi – Moscow on 2026-10-03 in the league “City league”",
        ),
    ]


# --- a league --------------------------------------------------------------------------------


def test_the_organiser_changes_a_league_and_each_club_reads_it(match_day, people):
    fixture, *_ = match_day
    league = fixture.league
    AuditEntry.objects.all().delete()
    changed = league_change(
        actor=people["giorgi"],
        league=league,
        name="City league 2026",
        legs=["pairs", "singles", "singles"],
        win_points=3,
        draw_points=1,
        loss_points=0,
    )
    league.refresh_from_db()
    assert changed.pk == league.pk
    assert (league.name, league.legs, league.win_points) == (
        "City league 2026",
        ["pairs", "singles", "singles"],
        3,
    )
    said = ("giorgi", "league-changed", "changed the league “City league 2026”")
    assert trail(TBILISI) == [said] and trail(MOSCOW) == [said]
    entry = AuditEntry.objects.filter(club__slug=TBILISI).get()
    assert entry.detail == {
        "league": "City league 2026",
        "before": "City league",
        "changed": ["legs", "name", "win_points"],
    }
    # The same again changes nothing and writes nothing.
    league_change(
        actor=people["giorgi"],
        league=league,
        name="City league 2026",
        legs=["pairs", "singles", "singles"],
        win_points=3,
        draw_points=1,
        loss_points=0,
    )
    assert AuditEntry.objects.count() == 2


def test_a_leagues_legs_stay_once_a_fixture_has_legs_and_its_checks_hold(match_day, people):
    fixture, singles, pairs = match_day
    league = fixture.league
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    same = {"win_points": 2, "draw_points": 1, "loss_points": 0}
    code = refusal(
        league_change, actor=people["giorgi"], league=league, name="City league",
        legs=["singles"], **same,
    )  # fmt: skip
    assert code == "league-has-results"
    # Its name and points still change.
    league_change(
        actor=people["giorgi"], league=league, name="City", legs=["singles", "pairs"],
        win_points=3, draw_points=1, loss_points=1,
    )  # fmt: skip
    league.refresh_from_db()
    assert (league.name, league.legs, league.loss_points) == ("City", ["singles", "pairs"], 1)
    League.objects.create(name="Village", organiser=people["owner"], legs=["singles"])
    for name, points, want in (
        ("village", same, "league-name-taken"),
        ("  ", same, "league-invalid"),
        ("City", {"win_points": 1, "draw_points": 2, "loss_points": 0}, "league-invalid"),
    ):
        code = refusal(
            league_change, actor=people["giorgi"], league=league, name=name,
            legs=["singles", "pairs"], **points,
        )  # fmt: skip
        assert code == want, name


@pytest.mark.parametrize("who", ["owner", "levan", "sopho", "ana"])
def test_only_the_organiser_changes_or_deletes_a_league(match_day, people, who):
    fixture, *_ = match_day
    league = fixture.league
    with pytest.raises(PermissionDenied):
        league_change(
            actor=people[who], league=league, name="Mine", legs=["singles"],
            win_points=2, draw_points=1, loss_points=0,
        )  # fmt: skip
    with pytest.raises(PermissionDenied):
        league_delete(actor=people[who], league=league)
    league.refresh_from_db()
    assert league.name == "City league"
    assert not AuditEntry.objects.filter(action__in=["league-changed", "league-deleted"])


def test_deleting_a_league_takes_its_teams_and_fixtures_and_keeps_the_matches(match_day, people):
    fixture, singles, pairs = match_day
    confirmed(match_day, people)
    league = fixture.league
    league_delete(actor=people["giorgi"], league=league)
    assert not League.objects.filter(pk=league.pk).exists()
    assert (Team.objects.count(), Fixture.objects.count(), Leg.objects.count()) == (0, 0, 0)
    assert Match.objects.filter(pk__in=[singles.pk, pairs.pk]).count() == 2
    said = ("giorgi", "league-deleted", "deleted the league “City league”")
    assert trail(TBILISI)[-1] == said and trail(MOSCOW)[-1] == said
    entry = AuditEntry.objects.filter(club__slug=MOSCOW, action="league-deleted").get()
    assert entry.detail == {"league": "City league", "teams": 2, "fixtures": 1}


# --- a team ----------------------------------------------------------------------------------


def test_the_organiser_changes_a_teams_name_roster_and_captains(match_day, people):
    fixture, *_ = match_day
    home = fixture.home
    nino, _tamar, dato = players(people["owner"], TBILISI, ["Nino", "Tamar", "Dato"])
    AuditEntry.objects.all().delete()
    team_change(
        actor=people["giorgi"],
        team=home,
        name="Tbilisi A",
        player_ids=[nino, dato],
        captain_ids=[people["ana"].pk, people["levan"].pk],
    )
    home.refresh_from_db()
    assert home.name == "Tbilisi A"
    assert sorted(home.roster.values_list("handle", flat=True)) == ["Dato", "Nino"]
    assert sorted(home.captains.values_list("username", flat=True)) == ["ana", "levan"]
    assert trail(TBILISI) == [
        ("giorgi", "team-changed", "changed the team “Tbilisi A” of the league “City league”")
    ]
    assert trail(MOSCOW) == []  # the team is Tbilisi's alone
    assert AuditEntry.objects.get().detail == {
        "team": "Tbilisi A",
        "before": "Tbilisi",
        "league": "City league",
        "changed": ["captains", "name", "roster"],
    }


def test_a_teams_change_is_checked_as_its_making_is(match_day, people):
    fixture, *_ = match_day
    home, away = fixture.home, fixture.away
    nino, tamar = players(people["owner"], TBILISI, ["Nino", "Tamar"])
    (ivan,) = players(people["owner"], MOSCOW, ["Ivan"])
    levan, sopho = people["levan"].pk, people["sopho"].pk
    for name, roster, captains in (
        ("Moscow", [nino], [levan]),  # the other team's name
        ("  ", [nino], [levan]),
        ("T", [ivan], [levan]),  # a player of another club
        ("T", [nino], [sopho]),  # a captain of another club
        ("T", [], [levan]),
    ):
        with pytest.raises(ClubRefusal) as refused:
            team_change(
                actor=people["giorgi"],
                team=home,
                name=name,
                player_ids=roster,
                captain_ids=captains,
            )
        want = "team-name-taken" if name == "Moscow" else "team-invalid"
        assert refused.value.code == want, (name, roster, captains)
    # A player of the other team of the same club may not be in two: a second Tbilisi team.
    second = Team.objects.create(league=home.league, club=home.club, name="Tbilisi B")
    (dato,) = players(people["owner"], TBILISI, ["Dato"])
    second.roster.set([dato])
    code = refusal(
        team_change, actor=people["giorgi"], team=home, name="Tbilisi",
        player_ids=[nino, dato], captain_ids=[levan],
    )  # fmt: skip
    assert code == "team-invalid"
    # Its own players and name are its own: kept as they are, nothing changes nor is written.
    before = AuditEntry.objects.count()
    team_change(
        actor=people["giorgi"], team=home, name="tbilisi", player_ids=[nino, tamar],
        captain_ids=[levan],
    )  # fmt: skip
    home.refresh_from_db()
    assert home.name == "tbilisi"
    assert AuditEntry.objects.count() == before + 1  # the name's case changed
    for who in ("owner", "levan", "sopho"):
        with pytest.raises(PermissionDenied):
            team_change(
                actor=people[who], team=away, name="Ours", player_ids=[ivan], captain_ids=[sopho]
            )
        with pytest.raises(PermissionDenied):
            team_delete(actor=people[who], team=away)
    away.refresh_from_db()
    assert away.name == "Moscow"


def test_a_team_with_a_confirmed_fixture_is_kept_until_the_fixture_is_reset(match_day, people):
    fixture = confirmed(match_day, people)
    home = fixture.home
    assert refusal(team_delete, actor=people["giorgi"], team=home) == "team-has-results"
    assert Team.objects.filter(pk=home.pk).exists()
    fixture_reset(actor=people["giorgi"], fixture=fixture)
    team_delete(actor=people["giorgi"], team=home)
    assert not Team.objects.filter(pk=home.pk).exists()
    assert Fixture.objects.count() == 0  # its fixture went with it
    assert trail(TBILISI)[-1] == (
        "giorgi",
        "team-deleted",
        "deleted the team “Tbilisi” of the league “City league”",
    )
    assert AuditEntry.objects.get(action="team-deleted").detail == {
        "team": "Tbilisi",
        "league": "City league",
        "fixtures": 1,
    }
    assert [row["name"] for row in league_table(fixture.league)] == ["Moscow"]


# --- a fixture -------------------------------------------------------------------------------


def test_the_organiser_changes_a_fixture_to_play(match_day, people):
    fixture, *_ = match_day
    home, away = fixture.home, fixture.away
    AuditEntry.objects.all().delete()
    fixture_change(
        actor=people["giorgi"], fixture=fixture, home=away, away=home, day=date(2026, 10, 10)
    )
    fixture.refresh_from_db()
    assert (fixture.home, fixture.away, fixture.day) == (away, home, date(2026, 10, 10))
    said = (
        "giorgi",
        "fixture-changed",
        "changed the fixture Moscow – Tbilisi on 2026-10-10 in the league “City league”",
    )
    assert trail(TBILISI) == [said] and trail(MOSCOW) == [said]
    entry = AuditEntry.objects.filter(club__slug=MOSCOW).get()
    assert entry.detail == {
        "fixture": "Moscow – Tbilisi",
        "day": "2026-10-10",
        "league": "City league",
        "before": "Tbilisi – Moscow, 2026-10-03",
        "changed": ["away", "day", "home"],
    }
    code = refusal(
        fixture_change, actor=people["giorgi"], fixture=fixture, home=home, away=home,
        day=date(2026, 10, 10),
    )  # fmt: skip
    assert code == "fixture-invalid"
    for who in ("owner", "levan", "sopho"):
        with pytest.raises(PermissionDenied):
            fixture_change(
                actor=people[who], fixture=fixture, home=home, away=away, day=date(2026, 10, 3)
            )
        with pytest.raises(PermissionDenied):
            fixture_delete(actor=people[who], fixture=fixture)
        with pytest.raises(PermissionDenied):
            fixture_reset(actor=people[who], fixture=fixture)
    fixture.refresh_from_db()
    assert fixture.day == date(2026, 10, 10)


def test_a_fixture_with_legs_is_reset_before_it_changes_and_a_confirmed_one_is_kept(
    match_day, people
):
    fixture = confirmed(match_day, people)
    home, away = fixture.home, fixture.away
    table = league_table(fixture.league)
    assert [row["played"] for row in table] == [1, 1]
    code = refusal(
        fixture_change, actor=people["giorgi"], fixture=fixture, home=home, away=away,
        day=date(2026, 10, 4),
    )  # fmt: skip
    assert code == "fixture-not-open"
    assert refusal(fixture_delete, actor=people["giorgi"], fixture=fixture) == "fixture-confirmed"

    reset = fixture_reset(actor=people["giorgi"], fixture=fixture)
    assert reset.status == Fixture.Status.TO_PLAY
    assert (reset.submitted_for, reset.submitted_by, reset.dispute_reason) == (None, None, "")
    assert Leg.objects.filter(fixture=fixture).count() == 0
    assert [row["played"] for row in league_table(fixture.league)] == [0, 0]
    said = (
        "giorgi",
        "fixture-reset",
        "reset the fixture Tbilisi – Moscow on 2026-10-03 in the league “City league” "
        "(its legs forgotten)",
    )
    assert trail(TBILISI)[-1] == said and trail(MOSCOW)[-1] == said
    entry = AuditEntry.objects.filter(club__slug=TBILISI, action="fixture-reset").get()
    assert entry.detail["status"] == "confirmed" and entry.detail["legs"] == 2
    # Nothing more to forget.
    assert refusal(fixture_reset, actor=people["giorgi"], fixture=fixture) == (
        "fixture-not-submitted"
    )
    # To play again: it is changed, then deleted.
    fixture_change(
        actor=people["giorgi"], fixture=fixture, home=home, away=away, day=date(2026, 10, 4)
    )
    fixture_delete(actor=people["giorgi"], fixture=fixture)
    assert not Fixture.objects.filter(pk=fixture.pk).exists()
    assert trail(MOSCOW)[-1] == (
        "giorgi",
        "fixture-deleted",
        "deleted the fixture Tbilisi – Moscow on 2026-10-04 in the league “City league”",
    )


def test_a_submitted_or_disputed_fixture_may_be_deleted_or_reset(match_day, people):
    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    fixture_dispute(actor=people["sopho"], fixture=fixture, reason="wrong day")
    assert fixture_reset(actor=people["giorgi"], fixture=fixture).status == "to-play"
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    fixture_delete(actor=people["giorgi"], fixture=fixture)
    assert (Fixture.objects.count(), Leg.objects.count()) == (0, 0)
    # Its matches may be another fixture's legs now.
    again = fixture_make(
        actor=people["giorgi"],
        league=fixture.league,
        home=fixture.home,
        away=fixture.away,
        day=fixture.day,
    )
    fixture_submit(actor=people["levan"], fixture=again, match_ids=[singles.pk, pairs.pk])
    assert Leg.objects.filter(fixture=again).count() == 2


# --- the audit trail in Russian and Georgian -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "ru",
            (
                # A name is never put in «», where its own «…» would nest in them.
                "изменил лигу City",
                "вернул в несыгранные встречу Tbilisi – Moscow 03.10.2026 в лиге City "
                "(её матчи забыты)",
            ),
        ),
        (
            "ka",
            (
                "შეცვალა ლიგა „City“",
                "სათამაშოდ დააბრუნა შეხვედრა Tbilisi – Moscow (03.10.2026) ლიგაში „City“ "
                "(მისი მატჩები დავიწყებულია)",
            ),
        ),
    ],
)
def test_the_league_entries_read_in_russian_and_georgian(match_day, people, language, words):
    fixture = confirmed(match_day, people)
    league_change(
        actor=people["giorgi"], league=fixture.league, name="City", legs=["singles", "pairs"],
        win_points=2, draw_points=1, loss_points=0,
    )  # fmt: skip
    fixture_reset(actor=people["giorgi"], fixture=fixture)
    entries = AuditEntry.objects.filter(club__slug=TBILISI).order_by("created_at", "id")
    with translation.override(language):
        said = [audit_sentence(entry) for entry in entries]
        labels = [str(action.name) for action in registered().values()]
    assert tuple(said[-2:]) == words
    assert not any(" league" in label or "fixture" in label for label in labels)


# --- the API ---------------------------------------------------------------------------------


def test_the_api_changes_and_deletes_a_league_by_its_organiser_alone(match_day, people):
    fixture, *_ = match_day
    base = f"/api/v1/leagues/{fixture.league_id}/"
    body = {"name": "Town league", "legs": ["singles", "pairs"], "win_points": 3}
    assert api().put(base, body, format="json").status_code == 401
    for who in ("owner", "levan", "sopho"):
        answer = api(people[who]).put(base, body, format="json")
        assert answer.status_code == 403, who
        assert answer.json()["error"]["message"] == "Only the league's organiser may do this."
        assert api(people[who]).delete(base).status_code == 403
    answer = api(people["giorgi"]).put(base, body, format="json")
    assert answer.status_code == 200
    league = answer.json()["league"]
    assert (league["name"], league["legs"], league["win_points"], league["draw_points"]) == (
        "Town league",
        ["singles", "pairs"],
        3,
        1,
    )
    answer = api(people["giorgi"]).put(base, body | {"legs": []}, format="json")
    assert answer.status_code == 400
    assert api().delete(base).status_code == 401
    answer = api(people["giorgi"]).delete(base)
    assert answer.status_code == 204 and answer.content == b""
    assert api().get(base).status_code == 404
    assert api(people["giorgi"]).delete(base).status_code == 404


def test_the_api_reads_changes_and_deletes_a_team(match_day, people):
    fixture, *_ = match_day
    where = f"/api/v1/leagues/{fixture.league_id}/teams/{fixture.home_id}/"
    answer = api().get(where)
    assert answer.status_code == 200
    assert answer.json() == {
        "id": fixture.home_id,
        "name": "Tbilisi",
        "club": TBILISI,
        "hidden": False,
        "roster": [
            {"player_id": pk, "name": name}
            for pk, name in sorted(
                fixture.home.roster.values_list("pk", "handle"), key=lambda pair: pair[1]
            )
        ],
        "captains": [{"handle": None, "player_id": None, "user_id": None}],
        "withdrawn": False,
    }
    nino, tamar = players(people["owner"], TBILISI, ["Nino", "Tamar"])
    body = {"name": "Tbilisi A", "roster": [nino], "captains": [people["ana"].pk]}
    assert api(people["levan"]).put(where, body, format="json").status_code == 403
    assert api(people["owner"]).delete(where).status_code == 403
    answer = api(people["giorgi"]).put(where, body, format="json")
    assert answer.status_code == 200
    assert answer.json() == {
        "id": fixture.home_id,
        "name": "Tbilisi A",
        "club": TBILISI,
        "hidden": False,
        "roster": [{"player_id": nino, "name": "Nino"}],
        "captains": [{"handle": None, "player_id": None, "user_id": people["ana"].pk}],
        "withdrawn": False,
    }
    answer = api(people["giorgi"]).put(where, body | {"name": "moscow"}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "team-name-taken"
    # Its roster and captain as they were, its fixture played and confirmed: kept.
    back = {"name": "Tbilisi", "roster": [nino, tamar], "captains": [people["levan"].pk]}
    assert api(people["giorgi"]).put(where, back, format="json").status_code == 200
    confirmed(match_day, people)
    answer = api(people["giorgi"]).delete(where)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "team-has-results"
    reset = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/reset/"
    assert api(people["giorgi"]).post(reset).json()["status"] == "to-play"
    assert api(people["giorgi"]).delete(where).status_code == 204
    assert api().get(where).status_code == 404


def test_the_api_changes_resets_and_deletes_a_fixture(match_day, people):
    fixture, *_ = match_day
    where = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    body = {"home": fixture.away_id, "away": fixture.home_id, "day": "2026-10-11"}
    for who in ("owner", "levan", "sopho"):
        assert api(people[who]).put(where, body, format="json").status_code == 403
        assert api(people[who]).delete(where).status_code == 403
        assert api(people[who]).post(f"{where}reset/").status_code == 403
    assert api().post(f"{where}reset/").status_code == 401
    answer = api(people["giorgi"]).put(where, body, format="json")
    assert answer.status_code == 200
    got = answer.json()
    assert (got["home"], got["away"], got["day"], got["home_name"], got["status"]) == (
        fixture.away_id,
        fixture.home_id,
        "2026-10-11",
        "Moscow",
        "to-play",
    )
    answer = api(people["giorgi"]).put(where, body | {"away": 999999}, format="json")
    assert answer.status_code == 404
    answer = api(people["giorgi"]).post(f"{where}reset/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "fixture-not-submitted"
    # Back to the match day, the legs submitted and confirmed: no change, no deletion.
    back = {"home": fixture.home_id, "away": fixture.away_id, "day": "2026-10-03"}
    assert api(people["giorgi"]).put(where, back, format="json").status_code == 200
    confirmed(match_day, people)
    answer = api(people["giorgi"]).put(where, body, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "fixture-not-open"
    answer = api(people["giorgi"]).delete(where)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "fixture-confirmed"
    answer = api(people["giorgi"]).post(f"{where}reset/")
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["legs"], answer.json()["score"]) == (
        "to-play",
        [],
        None,
    )
    assert api(people["giorgi"]).delete(where).status_code == 204
    assert api().get(where).status_code == 404


# --- the pages -------------------------------------------------------------------------------


def test_the_organiser_changes_and_deletes_through_the_pages(match_day, people):
    fixture, *_ = match_day
    league = fixture.league
    base = f"/leagues/{league.pk}/"
    organiser = signed_in(people["giorgi"])
    page = organiser.get(base).content.decode()
    assert f'href="{base}edit/"' in page
    assert f'href="{base}teams/{fixture.home_id}/edit/"' in page
    assert "Change or delete Tbilisi" in page
    page = organiser.get(f"{base}fixtures/{fixture.pk}/").content.decode()
    assert f'href="{base}fixtures/{fixture.pk}/edit/"' in page
    assert 'id="reset-fixture"' not in page  # nothing to reset yet

    # The league's form, filled in with what it is.
    page = organiser.get(f"{base}edit/").content.decode()
    assert 'value="City league"' in page and "Delete the league" in page
    answer = organiser.post(
        f"{base}edit/",
        {"name": "Town", "singles": 1, "pairs": 1, "win_points": 3, "draw_points": 1,
         "loss_points": 0},
    )  # fmt: skip
    assert answer.status_code == 302 and answer["Location"] == base
    league.refresh_from_db()
    assert (league.name, league.legs, league.win_points) == ("Town", ["singles", "pairs"], 3)

    # A team's form, with its roster and captains ticked.
    nino, _tamar = players(people["owner"], TBILISI, ["Nino", "Tamar"])
    page = organiser.get(f"{base}teams/{fixture.home_id}/edit/").content.decode()
    assert "Change the team Tbilisi" in page and "Delete the team" in page
    answer = organiser.post(
        f"{base}teams/{fixture.home_id}/edit/",
        {"name": "Tbilisi A", "roster": [nino], "captains": [people["ana"].pk]},
    )
    assert answer.status_code == 302
    assert Team.objects.get(pk=fixture.home_id).name == "Tbilisi A"

    # A fixture's form: its day moves.
    answer = organiser.post(
        f"{base}fixtures/{fixture.pk}/edit/",
        {"home": fixture.home_id, "away": fixture.away_id, "day": "2026-10-17"},
    )
    assert answer.status_code == 302 and answer["Location"] == f"{base}fixtures/{fixture.pk}/"
    fixture.refresh_from_db()
    assert fixture.day == date(2026, 10, 17)
    answer = organiser.post(f"{base}fixtures/{fixture.pk}/delete/", follow=True)
    assert "Tick the box to delete it." in answer.content.decode()
    assert Fixture.objects.filter(pk=fixture.pk).exists()
    answer = organiser.post(f"{base}fixtures/{fixture.pk}/delete/", {"sure": "1"})
    assert answer.status_code == 302 and answer["Location"] == base
    assert not Fixture.objects.filter(pk=fixture.pk).exists()
    answer = organiser.post(f"{base}teams/{fixture.away_id}/delete/", follow=True)
    assert "Tick the box to delete it." in answer.content.decode()
    answer = organiser.post(f"{base}teams/{fixture.away_id}/delete/", {"sure": "1"})
    assert answer.status_code == 302 and not Team.objects.filter(pk=fixture.away_id).exists()
    # Deleting the league asks for its box to be ticked.
    answer = organiser.post(f"{base}delete/", follow=True)
    assert "Tick the box to delete the league." in answer.content.decode()
    assert League.objects.filter(pk=league.pk).exists()
    answer = organiser.post(f"{base}delete/", {"sure": "1"})
    assert answer.status_code == 302 and answer["Location"] == "/leagues/"
    assert not League.objects.filter(pk=league.pk).exists()
    assert [action for _actor, action, _words in trail(TBILISI)][-5:] == [
        "league-changed",
        "team-changed",
        "fixture-changed",
        "fixture-deleted",
        "league-deleted",
    ]
    assert [action for _actor, action, _words in trail(MOSCOW)][-5:] == [
        "league-changed",
        "fixture-changed",
        "fixture-deleted",
        "team-deleted",
        "league-deleted",
    ]


def test_the_pages_refuse_everyone_but_the_organiser(match_day, people, client):
    fixture, *_ = match_day
    base = f"/leagues/{fixture.league_id}/"
    team = f"{base}teams/{fixture.home_id}/"
    where = f"{base}fixtures/{fixture.pk}/"
    for who in ("owner", "levan", "sopho"):
        someone = signed_in(people[who])
        page = someone.get(base).content.decode()
        assert f'href="{base}edit/"' not in page and "Change or delete" not in page
        assert 'id="fixture-edit"' not in someone.get(where).content.decode()
        for path in (f"{base}edit/", f"{team}edit/", f"{where}edit/"):
            assert someone.get(path).status_code == 403, (who, path)
            assert someone.post(path, {"name": "Mine"}).status_code == 403, (who, path)
        for path in (f"{base}delete/", f"{team}delete/", f"{where}delete/", f"{where}reset/"):
            assert someone.post(path).status_code == 403, (who, path)
    # Signed out: to the sign-in page.
    answer = client.post(f"{base}delete/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert client.get(f"{base}edit/").status_code == 302
    assert League.objects.filter(pk=fixture.league_id).exists()
    assert Team.objects.count() == 2 and Fixture.objects.count() == 1


def test_the_organiser_resets_a_confirmed_fixture_on_its_page(match_day, people):
    fixture = confirmed(match_day, people)
    base = f"/leagues/{fixture.league_id}/"
    where = f"{base}fixtures/{fixture.pk}/"
    organiser = signed_in(people["giorgi"])
    page = organiser.get(where).content.decode()
    assert 'id="reset-fixture"' in page
    edit = organiser.get(f"{where}edit/").content.decode()
    assert "reset it before changing it" in edit and "reset it before deleting it" in edit
    assert "Save the fixture" not in edit and "Delete the fixture" not in edit
    answer = organiser.post(f"{where}delete/", {"sure": "1"}, follow=True)
    assert "This fixture&#x27;s result is confirmed: reset it before deleting it." in (
        answer.content.decode()
    )
    answer = organiser.post(f"{team_path(fixture)}delete/", {"sure": "1"}, follow=True)
    assert "reset the fixture before deleting the team" in answer.content.decode()
    answer = organiser.post(f"{where}reset/")
    assert answer.status_code == 302 and answer["Location"] == where
    fixture.refresh_from_db()
    assert fixture.status == "to-play" and fixture.legs.count() == 0


def team_path(fixture) -> str:
    return f"/leagues/{fixture.league_id}/teams/{fixture.home_id}/"


def test_a_disputed_fixtures_page_offers_the_organiser_its_resolution_not_a_second_reset(
    match_day, people
):
    fixture, singles, pairs = match_day
    fixture_submit(actor=people["levan"], fixture=fixture, match_ids=[singles.pk, pairs.pk])
    where = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/"
    page = signed_in(people["giorgi"]).get(where).content.decode()
    assert 'id="reset-fixture"' in page  # submitted: the organiser may forget the legs
    fixture_dispute(actor=people["sopho"], fixture=fixture, reason="wrong day")
    page = signed_in(people["giorgi"]).get(where).content.decode()
    assert 'id="reset-fixture"' not in page
    assert "Count it as submitted" in page and "Reset it to be played" in page
    assert 'id="fixture-edit"' in page
