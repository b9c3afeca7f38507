"""Every table is named for the app that owns it (issue 57): no ``db_table`` keeps the name of an
app a model lived in before. Migrations clubs 0008 and competitions 0009 renamed the tables
that did (``games_club`` -> ``clubs_club``, ``replays_season`` -> ``competitions_season``...),
the tables Django makes for a team's roster and captains with them; going back gives the old
names again, and the rows stay either way."""

from __future__ import annotations

import pathlib

import pytest
from django.apps import apps as registry
from django.db import connection

from tests.migrations import migrate, table_rows

ROOT = pathlib.Path(__file__).resolve().parents[1]

# The table each renamed model had, by its label now, and the tables of its many-to-many fields.
OLD = {
    "clubs.Club": "games_club",
    "clubs.Membership": "games_membership",
    "clubs.Invitation": "games_invitation",
    "clubs.JoinRequest": "games_joinrequest",
    "clubs.AuditEntry": "games_auditentry",
    "competitions.Season": "replays_season",
    "competitions.Tournament": "replays_event",
    "competitions.TournamentEntry": "replays_evententry",
    "competitions.League": "replays_league",
    "competitions.LeagueClub": "replays_leagueclub",
    "competitions.Team": "replays_team",
    "competitions.Team_roster": "replays_team_roster",
    "competitions.Team_captains": "replays_team_captains",
    "competitions.Fixture": "replays_fixture",
    "competitions.Leg": "replays_leg",
}
NEW = {
    "clubs.Club": "clubs_club",
    "clubs.Membership": "clubs_membership",
    "clubs.Invitation": "clubs_invitation",
    "clubs.JoinRequest": "clubs_joinrequest",
    "clubs.AuditEntry": "clubs_auditentry",
    "competitions.Season": "competitions_season",
    "competitions.Tournament": "competitions_tournament",
    "competitions.TournamentEntry": "competitions_tournamententry",
    "competitions.League": "competitions_league",
    "competitions.LeagueClub": "competitions_leagueclub",
    "competitions.Team": "competitions_team",
    "competitions.Team_roster": "competitions_team_roster",
    "competitions.Team_captains": "competitions_team_captains",
    "competitions.Fixture": "competitions_fixture",
    "competitions.Leg": "competitions_leg",
}
BEFORE = [("clubs", "0007_club_analyse_earlier"), ("competitions", "0008_leg_sides")]


def project_models():
    """Every model of the project's apps, the tables Django makes for many-to-many fields too."""
    return [
        model
        for config in registry.get_app_configs()
        if pathlib.Path(config.path).is_relative_to(ROOT)
        and ".venv" not in pathlib.Path(config.path).parts
        for model in config.get_models(include_auto_created=True)
    ]


def test_every_table_is_named_for_its_app():
    models = project_models()
    labels = {model._meta.app_label for model in models}
    assert {"clubs", "games", "replays", "competitions", "recorder"} <= labels
    wrong = [
        f"{model._meta.label}: {model._meta.db_table}"
        for model in models
        if not model._meta.db_table.startswith(f"{model._meta.app_label}_")
    ]
    assert wrong == []
    assert {label: registry.get_model(label)._meta.db_table for label in NEW} == NEW


def _rows_made(apps) -> dict[str, object]:
    """A row in each renamed table (and a roster and a captain), made through the models of
    ``apps``; returns what to read back."""
    User = apps.get_model("auth", "User")
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("games", "Player")
    Season = apps.get_model("competitions", "Season")
    League = apps.get_model("competitions", "League")
    Team = apps.get_model("competitions", "Team")
    nino = User.objects.create(username="nino")
    club = Club.objects.create(name="Batumi", slug="batumi")
    apps.get_model("clubs", "Membership").objects.create(club=club, user=nino, role="owner")
    Season.objects.create(club=club, name="Spring", first_day="2026-03-01", last_day="2026-05-31")
    league = League.objects.create(name="Black Sea league", organiser=nino, legs=["singles"])
    apps.get_model("competitions", "LeagueClub").objects.create(league=league, club=club)
    team = Team.objects.create(league=league, club=club, name="Batumi A")
    team.roster.set([Player.objects.create(club=club, handle="Dato")])
    team.captains.set([nino])
    return {"team": team.pk}


def _rows_read(apps, team: int) -> list:
    found = [
        table_rows(apps, "clubs", "Club", ("name", "slug")),
        table_rows(apps, "clubs", "Membership", ("club__slug", "user__username", "role")),
        table_rows(apps, "competitions", "Season", ("club__slug", "name")),
        table_rows(apps, "competitions", "League", ("name", "organiser__username")),
        table_rows(apps, "competitions", "LeagueClub", ("league__name", "club__slug")),
        table_rows(apps, "competitions", "Team", ("pk", "league__name", "club__slug", "name")),
    ]
    team_row = apps.get_model("competitions", "Team").objects.get(pk=team)
    found.append(sorted(p.handle for p in team_row.roster.all()))
    found.append(sorted(u.username for u in team_row.captains.all()))
    return found


def _tables() -> set[str]:
    return set(connection.introspection.table_names())


def _round_trip():
    """Back before the renames and forwards again: the tables under the old names, then the
    new, the same rows in them."""
    assert set(NEW.values()) <= _tables()
    made = _rows_made(migrate(None))
    now = _rows_read(migrate(None), **made)
    assert now[0] == [("Batumi", "batumi")] and now[-2:] == [["Dato"], ["nino"]]

    apps = migrate(BEFORE)
    tables = _tables()
    assert set(OLD.values()) <= tables
    assert set(NEW.values()) & tables == set()
    assert apps.get_model("clubs", "Club")._meta.db_table == "games_club"
    assert _rows_read(apps, **made) == now

    apps = migrate(None)
    tables = _tables()
    assert set(NEW.values()) <= tables
    assert set(OLD.values()) & tables == set()
    assert _rows_read(apps, **made) == now


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_renames_go_forwards_and_back_on_postgresql(real_services):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
    _round_trip()


@pytest.mark.django_db(transaction=True)
def test_the_renames_go_forwards_and_back_on_sqlite():
    if connection.vendor != "sqlite":
        pytest.skip("the PostgreSQL test does it there")
    _round_trip()
