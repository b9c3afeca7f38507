"""Migrations games 0029 and competitions 0008 give each league team made before its side, the
data ingest reads to seat a leg's visiting players (``games.models.LegSide``): its league's
name, its own, its club and its roster; and take them away again going back."""

from __future__ import annotations

import pytest

from tests.migrations import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("competitions", "0007_notices_digest_unsubscribe_keys"),
    ("games", "0028_seat_player_match"),
]
AFTER = [("competitions", "0008_leg_sides")]


def test_each_team_made_before_gets_its_side_and_loses_it_going_back():
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("games", "Player")
    League = apps.get_model("competitions", "League")
    Team = apps.get_model("competitions", "Team")
    organiser = User.objects.create(username="organiser")
    league = League.objects.create(name="Black Sea league", organiser=organiser, legs=["singles"])
    rosters = {"Batumi": ["Dato", "Eka"], "Tbilisi": ["Levan", "Nino", "Tamar"]}
    for name, handles in rosters.items():
        club = Club.objects.create(name=name, slug=name.lower())
        team = Team.objects.create(league=league, club=club, name=name)
        team.roster.set([Player.objects.create(club=club, handle=h) for h in handles])
    Team.objects.create(league=league, club=club, name="Tbilisi B")  # no roster yet

    apps = migrate(AFTER)
    LegSide = apps.get_model("games", "LegSide")
    found = {
        (
            side.team_id,
            side.league,
            side.name,
            side.club.slug,
            tuple(sorted(p.handle for p in side.players.all())),
        )
        for side in LegSide.objects.all()
    }
    teams = {team.name: team.pk for team in apps.get_model("competitions", "Team").objects.all()}
    assert found == {
        (teams["Batumi"], "Black Sea league", "Batumi", "batumi", ("Dato", "Eka")),
        (teams["Tbilisi"], "Black Sea league", "Tbilisi", "tbilisi", ("Levan", "Nino", "Tamar")),
        (teams["Tbilisi B"], "Black Sea league", "Tbilisi B", "tbilisi", ()),
    }

    apps = migrate(BEFORE)
    assert "legside" not in {model._meta.model_name for model in apps.get_models()}
    assert apps.get_model("competitions", "Team").objects.count() == 3
    migrate(None)
