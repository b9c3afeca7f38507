"""The demo: clubs with owners, admins and members, a pending join request; the demo user is
a member of every demo club and owns the first."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from clubs.models import Club, JoinRequest
from competitions.management.commands.demo import CLUBS, NEWCOMER, VETERAN
from games.models import Match
from replays.rankings import club_ranking

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_the_demo_sets_up_clubs_with_every_role(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=9, stdout=open("/dev/null", "w"))  # noqa: SIM115
    clubs = [Club.objects.get(name=name) for name in CLUBS]
    demo = clubs[0].memberships.get(user__username="demo").user
    assert [club.role_of(demo) for club in clubs] == ["owner", "member", "member"]
    assert [club.time_zone for club in clubs] == ["Asia/Tbilisi", "Europe/Moscow", "Asia/Tbilisi"]
    assert all(club.memberships.filter(role="admin").exists() for club in clubs[:2])
    assert all(
        club.memberships.filter(role="member").exclude(user=demo).exists()
        for club in (clubs[0], clubs[2])
    )
    assert JoinRequest.objects.filter(club=clubs[0], status="pending").count() == 1
    assert Match.objects.count() >= 9
    # A night of six from a member waits for the first club's owner, the demo user, to
    # approve it in one action; the club's earlier matches were counted before it asked.
    assert clubs[0].requires_approval
    waiting = Match.objects.filter(club=clubs[0], approval="pending")
    assert waiting.count() == 6
    assert {match.upload.uploader.username for match in waiting} == {"demo-levan"}
    assert Match.objects.filter(club=clubs[0], approval="approved").count() >= 9
    assert {club.pk for club in clubs} == set(Match.objects.values_list("club", flat=True))


@override_settings(DEBUG=True)
def test_the_first_clubs_ranking_has_a_provisional_and_an_inactive_player(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=30, stdout=open("/dev/null", "w"))  # noqa: SIM115
    table = club_ranking(club=Club.objects.get(name=CLUBS[0]))
    assert NEWCOMER in [row["player"] for row in table["provisional"]]
    assert VETERAN in [row["player"] for row in table["inactive"]]


@override_settings(DEBUG=True)
def test_the_demo_plays_every_preset_fives_and_threes_by_two_and_by_four_in_partnerships(
    django_capture_on_commit_callbacks,
):
    from fives_engine import PRESETS

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=10, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert set(Match.objects.values_list("preset", flat=True)) == set(PRESETS)
    fives_and_threes = Match.objects.filter(preset="fives-and-threes")
    assert {(match.player_count, match.teams is not None) for match in fives_and_threes} == {
        (2, False),
        (4, True),
    }
    demo = Club.objects.get(name=CLUBS[0]).memberships.get(user__username="demo").user
    assert all(club.is_member(demo) for club in Club.objects.filter(name__in=CLUBS))


@override_settings(DEBUG=True)
def test_the_demo_season_has_a_club_night_half_played_and_a_cup_with_a_winner_moved_on(
    django_capture_on_commit_callbacks,
):
    from competitions.models import Tournament
    from competitions.tournaments import tournament_schedule

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=9, stdout=open("/dev/null", "w"))  # noqa: SIM115
    night = Tournament.objects.get(name="Club night")
    schedule = tournament_schedule(night)
    assert (schedule["played"], schedule["to_play"]) == (5, 5)
    assert all(r["bye"] for r in schedule["rounds"])  # five players: a bye each round
    cup = tournament_schedule(Tournament.objects.get(name="Autumn cup"))
    assert [[f["state"] for f in r["fixtures"]] for r in cup["rounds"]] == [
        ["bye", "played"],
        ["to-play"],
    ]
    final = cup["rounds"][1]["fixtures"][0]
    assert final["b"] == cup["rounds"][0]["fixtures"][1]["winner"]
    # The finalists' match before the semi-final is passed over, with why.
    (early,) = cup["passed_over"]
    assert early["reason"] == "too-early"
    assert {early["a_name"], early["b_name"]} == {final["a_name"], final["b_name"]}
    assert {night.season.club.slug} == {"tbilisi-fives-club"}
    demo = night.season.club.memberships.get(user__username="demo").user
    assert all(club.is_member(demo) for club in Club.objects.filter(name__in=CLUBS))
    call_command("demo_events", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Tournament.objects.count() == 2  # run again, it does nothing


@override_settings(DEBUG=True)
def test_the_demo_has_a_small_team_league_with_a_fixture_of_each_kind(
    django_capture_on_commit_callbacks,
):
    from competitions.league_permissions import fixture_roles
    from competitions.league_table import league_table
    from competitions.models import League

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=9, stdout=open("/dev/null", "w"))  # noqa: SIM115
    league = League.objects.get()
    demo = league.organiser
    assert demo.username == "demo"
    assert [f.status for f in league.fixtures.order_by("day")] == [
        "confirmed",
        "disputed",
        "conceded",
        "to-play",
    ]
    played = league.fixtures.exclude(status__in=["to-play", "conceded"])
    assert all(f.legs.count() == 3 for f in played)
    # Scored as Leek scores: 2 for the match and 1 a leg; the walkover is Kutaisi's.
    assert (league.win_points, league.leg_points) == (2, 1)
    walkover = league.fixtures.get(status="conceded")
    assert walkover.walkover and walkover.conceded_by.name == "Kutaisi Muggins"
    assert all(club.is_member(demo) for club in Club.objects.filter(name__in=CLUBS))
    assert list(demo.captained_teams.values_list("name", flat=True)) == ["Tbilisi Fives"]
    disputed = league.fixtures.get(status="disputed")
    assert fixture_roles(disputed, demo)["resolve"]
    table = league_table(league)
    assert sorted(row["played"] for row in table) == [1, 1, 2]
    # The legs' logs name their leg: no club got a handle of another club's roster, and
    # each leg seats the visiting players as their own club's.
    from games.models import Player

    for team in league.teams.all():
        names = list(team.roster.values_list("handle", flat=True))
        assert not Player.objects.filter(handle__in=names).exclude(club=team.club).exists()
    for fixture in played:
        clubs = {
            seat.player.club_id for leg in fixture.legs.all() for seat in leg.match.seats.all()
        }
        assert clubs == {fixture.home.club_id, fixture.away.club_id}
    # Each captain claimed a handle of the team's roster: the league names them by it.
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    for handle in ("Nino", "Ольга", "ნინო"):
        assert handle in page
    assert "demo-ivan" not in page and "no claimed handle" not in page
    call_command("demo_league", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert League.objects.count() == 1  # run again, it does nothing


@override_settings(DEBUG=True)
def test_the_demo_stops_saying_why_when_a_worker_holds_an_upload_past_its_wait(
    django_capture_on_commit_callbacks, monkeypatch
):
    """A worker alive and still storing one of the demo's uploads after ``--wait``: the demo
    stops there, saying what to do, rather than going on without its matches."""
    from datetime import timedelta

    from django.core.management.base import CommandError
    from django.utils import timezone

    from competitions.management.commands import demo
    from games.models import Upload

    upload_create = demo.upload_create

    def taken_by_a_worker(**kwargs):
        upload = upload_create(**kwargs)
        Upload.objects.filter(pk=upload.pk, status="pending").update(
            lease_holder="worker:1", lease_until=timezone.now() + timedelta(seconds=60)
        )
        return upload

    monkeypatch.setattr(demo, "upload_create", taken_by_a_worker)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(CommandError) as stop:
        call_command("demo", matches=3, wait=0.2, stdout=open("/dev/null", "w"))  # noqa: SIM115
    said = str(stop.value)
    assert "still being stored by a worker after 0.2 s" in said
    assert "--force" in said and "--wait" in said
    assert not Match.objects.exists()
