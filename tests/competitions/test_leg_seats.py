"""A league leg keeps each player in their own club (issue 36, item 2): legs between Batumi
and Tbilisi stored in Batumi make no Batumi handle of a Tbilisi player, count in the
league's table, on each player's own page and in the all-clubs rating, and in neither club's
season table, ranking, player list or club rating (docs/leagues.md); every figure is counted
here again from the stored matches. Handles made by legs stored before are moved by
``legs_rehome``, which leaves alone a handle that plays in another match of its club."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Club
from clubs.services import club_create
from competitions.league_results import fixture_confirm, fixture_submit
from competitions.league_selectors import fixture_candidates
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_change,
    league_delete,
    league_invite,
    league_make,
    team_change,
    team_delete,
    team_make,
)
from competitions.league_table import league_table
from competitions.models import Team
from competitions.seasons import season_open, season_standings
from fives_engine.simulate import simulate_match
from games.guests import LegName, leg_named, leg_sides
from games.models import LegSide, Match, Player
from games.services.ingest import upload_process
from games.services.players import players_merge
from games.services.uploads import upload_create
from replays.models import Rating, SeatResult
from replays.rankings import club_ranking
from tests.conftest import join
from tests.replays.helpers import openskill_in_order, store_match

pytestmark = pytest.mark.django_db
DAY = date(2026, 10, 3)
LEAGUE = "Black Sea league"


def handles(slug):
    return set(Player.objects.filter(club__slug=slug).values_list("handle", flat=True))


@pytest.fixture
def sea(owner, django_user_model, django_capture_on_commit_callbacks):
    """Batumi (Dato, Eka) and Tbilisi (Levan, Nino, Tamar), a club night each in October
    before the league; the Black Sea league's teams and a fixture, Batumi at home, on 3
    October. Sopho captains Batumi, Levan (the member) Tbilisi."""
    batumi = club_create(owner=owner, name="Batumi", slug="batumi")
    sopho = django_user_model.objects.create_user("sopho", password="a-long-password-7")
    join(sopho, "batumi")
    levan = django_user_model.objects.create_user("levan", password="a-long-password-5")
    join(levan, "tbilisi-fives-club")
    with django_capture_on_commit_callbacks(execute=True):
        for seed, names in enumerate((["Dato", "Eka"], ["Eka", "Dato"], ["Dato", "Eka"])):
            store_match(
                owner, names, seed=900 + seed, played_at=f"2026-10-01T1{seed}:00:00Z", club="Batumi"
            )
        for seed, names in enumerate((["Levan", "Nino"], ["Nino", "Tamar"], ["Tamar", "Levan"])):
            store_match(owner, names, seed=910 + seed, played_at=f"2026-10-02T1{seed}:00:00Z")
    tbilisi = Club.objects.get(slug="tbilisi-fives-club")
    organiser = owner
    league = league_make(actor=organiser, name=LEAGUE, legs=["singles", "singles"])
    for club in (batumi, tbilisi):
        league_invite(actor=organiser, league=league, club=club)
        league_accept(actor=owner, league=league, club=club)

    def roster(slug, names):
        return [Player.objects.get(club__slug=slug, handle=name).pk for name in names]

    home = team_make(
        actor=organiser,
        league=league,
        club=batumi,
        name="Batumi",
        player_ids=roster("batumi", ["Dato", "Eka"]),
        captain_ids=[sopho.pk],
    )
    away = team_make(
        actor=organiser,
        league=league,
        club=tbilisi,
        name="Tbilisi",
        player_ids=roster("tbilisi-fives-club", ["Levan", "Nino", "Tamar"]),
        captain_ids=[levan.pk],
    )
    fixture = fixture_make(actor=organiser, league=league, home=home, away=away, day=DAY)
    return {
        "batumi": batumi,
        "tbilisi": tbilisi,
        "fixture": fixture,
        "sopho": sopho,
        "levan": levan,
    }


def store_legs(owner, capture, *, named=True):
    """The fixture's two legs stored in Batumi (Dato v Levan, Nino v Eka) and a Batumi club
    night of the same day; the legs' logs name their leg in ``event`` unless ``named`` is
    false (as before issue 36)."""
    with capture(execute=True):
        # The club night is uploaded first: the legs, played before it, are rated again
        # from their time with it.
        night = store_match(
            owner, ["Eka", "Dato"], seed=930, played_at="2026-10-03T17:30:00Z", club="Batumi"
        )
        legs = [
            store_match(
                owner,
                names,
                seed=920 + number,
                played_at=f"2026-10-03T1{number}:00:00Z",
                club="Batumi",
                event=f"{LEAGUE}, Batumi v Tbilisi, leg {number}" if named else "Friendly",
            )
            for number, names in ((1, ["Dato", "Levan"]), (2, ["Nino", "Eka"]))
        ]
    return legs, night


def own_matches(slug):
    """The club's stored matches whose every seat is a player of the club, counted here."""
    return [
        match
        for match in Match.objects.filter(club__slug=slug).prefetch_related("seats__player__club")
        if all(seat.player.club.slug == slug for seat in match.seats.all())
    ]


def table_by_hand(matches):
    """Each handle's (played, won, points for, points against) over ``matches``."""
    rows: dict[str, list[int]] = {}
    for match in matches:
        for seat in match.seats.all():
            row = rows.setdefault(seat.player.handle, [0, 0, 0, 0])
            row[0] += 1
            row[1] += match.winner == seat.team
            row[2] += match.scores[seat.team]
            row[3] += sum(match.scores) - match.scores[seat.team]
    return {handle: tuple(row) for handle, row in rows.items()}


def season_by_standings(owner, club):
    season = season_open(
        actor=owner, club=club, name="October", first_day=date(2026, 10, 1), last_day=DAY
    )
    names = dict(Player.objects.values_list("pk", "handle"))
    return {
        names[row.player_id]: (row.played, row.won, row.points_for, row.points_against)
        for row in season_standings(season)
    }


def ranking_rows(club):
    table = club_ranking(club=club)
    return {
        row["player"]: row
        for group in ("ranked", "provisional", "inactive")
        for row in table[group]
    }


def ratings_by_hand(matches):
    last = {}
    for _match, after in openskill_in_order(matches):
        last = after
    return {handle: (rating.mu, rating.sigma) for handle, rating in last.items()}


def stored_ratings(club):
    return {
        rating.player.handle: (rating.mu, rating.sigma)
        for rating in Rating.objects.filter(scope__club=club).select_related("player")
    }


def assert_ratings(got, want):
    assert got.keys() == want.keys()
    for handle, (mu, sigma) in want.items():
        assert got[handle] == pytest.approx((mu, sigma), rel=1e-9), handle


# --- the form of a leg's name --------------------------------------------------------------


def test_a_leg_is_read_from_the_event_in_every_way_its_commas_and_vs_allow():
    assert leg_named("Black Sea league, Batumi v Tbilisi, leg 2") == [
        LegName("Black Sea league", "Batumi", "Tbilisi", 2)
    ]
    assert leg_named("Autumn league, round 4") == []
    assert leg_named("") == [] and leg_named("leg 1") == []
    readings = leg_named("Fives, West, Old v New v Young, LEG 3")
    assert LegName("Fives, West", "Old v New", "Young", 3) in readings
    assert LegName("Fives", "West, Old", "New v Young", 3) in readings
    assert leg_named("a, b v c, leg 123") == []  # at most 99 legs: no such number


def test_a_leg_names_the_leagues_teams_in_any_case(owner, sea):
    home, away = sea["fixture"].home, sea["fixture"].away
    sides = leg_sides("black sea LEAGUE, batumi v TBILISI, leg 1")
    assert [side.team_id for side in sides] == [home.pk, away.pk]
    assert leg_sides(f"{LEAGUE}, Batumi v Kutaisi, leg 1") is None  # no such team
    assert leg_sides(f"{LEAGUE}, Batumi v Batumi, leg 1") is None


# --- storing legs ---------------------------------------------------------------------------


def test_storing_legs_makes_no_handle_in_the_other_club(
    owner, sea, django_capture_on_commit_callbacks
):
    before_batumi, before_tbilisi = handles("batumi"), handles("tbilisi-fives-club")
    (leg1, leg2), _night = store_legs(owner, django_capture_on_commit_callbacks)
    assert handles("batumi") == before_batumi == {"Dato", "Eka"}
    assert handles("tbilisi-fives-club") == before_tbilisi
    seated = {
        seat.player.handle: seat.player.club.slug
        for leg in (leg1, leg2)
        for seat in leg.seats.select_related("player__club")
    }
    assert seated == {
        "Dato": "batumi",
        "Levan": "tbilisi-fives-club",
        "Eka": "batumi",
        "Nino": "tbilisi-fives-club",
    }
    assert leg1.club.slug == leg2.club.slug == "batumi"
    # The league's captains find the legs, submit and confirm them; the table counts them.
    fixture = sea["fixture"]
    assert [c.match_id for c in fixture_candidates(fixture)] == [leg1.pk, leg2.pk]
    fixture_submit(actor=sea["sopho"], fixture=fixture, match_ids=[leg1.pk, leg2.pk])
    fixture_confirm(actor=sea["levan"], fixture=fixture)
    home_legs = sum(
        leg.winner == next(s.team for s in leg.seats.all() if s.player.club.slug == "batumi")
        for leg in (leg1, leg2)
    )
    table = {row["name"]: row for row in league_table(fixture.league)}
    assert table["Batumi"]["legs_for"] == home_legs
    assert table["Tbilisi"]["legs_for"] == 2 - home_legs


def test_a_name_in_another_case_is_the_roster_players(
    owner, sea, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        leg = store_match(
            owner,
            ["Dato", "levan"],
            seed=940,
            played_at="2026-10-03T11:00:00Z",
            club="Batumi",
            event=f"{LEAGUE.upper()}, Batumi v Tbilisi, leg 1",
        )
    levan = Player.objects.get(club__slug="tbilisi-fives-club", handle="Levan")
    assert leg.seats.get(seat=1).player == levan
    assert handles("batumi") == {"Dato", "Eka"}
    # A name on no roster is the storing club's, as in any match.
    with django_capture_on_commit_callbacks(execute=True):
        store_match(
            owner,
            ["Dato", "Zura"],
            seed=941,
            played_at="2026-10-03T12:00:00Z",
            club="Batumi",
            event=f"{LEAGUE}, Batumi v Tbilisi, leg 2",
        )
    assert handles("batumi") == {"Dato", "Eka", "Zura"}


def test_a_leg_counts_in_the_league_and_on_the_players_pages_not_in_either_club(
    owner, sea, django_capture_on_commit_callbacks
):
    (leg1, leg2), night = store_legs(owner, django_capture_on_commit_callbacks)
    batumi, tbilisi = sea["batumi"], sea["tbilisi"]
    batumi_own, tbilisi_own = own_matches("batumi"), own_matches("tbilisi-fives-club")
    assert leg1 not in batumi_own and night in batumi_own and len(batumi_own) == 4
    # Season tables: each club's own matches only, counted by hand.
    assert season_by_standings(owner, batumi) == table_by_hand(batumi_own)
    assert season_by_standings(owner, tbilisi) == table_by_hand(tbilisi_own)
    # Rankings and club ratings: the same, rated by openskill here in playing order.
    for club, own in ((batumi, batumi_own), (tbilisi, tbilisi_own)):
        rows = ranking_rows(club)
        by_hand = table_by_hand(own)
        assert set(rows) == set(by_hand)
        assert {h: (r["matches"], r["wins"]) for h, r in rows.items()} == {
            h: row[:2] for h, row in by_hand.items()
        }
        assert all(r["rated_matches"] == by_hand[h][0] for h, r in rows.items())
        assert_ratings(stored_ratings(club), ratings_by_hand(own))
    # The all-clubs rating counts every match, legs included.
    everything = list(Match.objects.all())
    assert_ratings(
        {
            r.player.handle: (r.mu, r.sigma)
            for r in Rating.objects.filter(scope__club=None).select_related("player")
        },
        ratings_by_hand(everything),
    )
    # The legs' seat results: each player's own, counted in no club.
    assert set(
        SeatResult.objects.filter(match__in=[leg1, leg2]).values_list("in_club", flat=True)
    ) == {False}
    # Pages: the club's players (no visitor), each player's page (the leg listed).
    client = Client()
    batumi_page = client.get(f"/clubs/{batumi.slug}/").content.decode()
    listed = re.findall(r'<li><a href="/players/\d+/">([^<]+)</a>', batumi_page)
    assert sorted(listed) == ["Dato", "Eka"]
    levan = Player.objects.get(club=tbilisi, handle="Levan")
    dato = Player.objects.get(club=batumi, handle="Dato")
    for player, leg in ((levan, leg1), (dato, leg1)):
        page = client.get(f"/players/{player.pk}/").content.decode()
        assert f"/matches/{leg.pk}/" in page
        assert f"/matches/{leg2.pk}/" not in page
    tbilisi_page = client.get(f"/clubs/{tbilisi.slug}/").content.decode()
    assert f"/matches/{leg1.pk}/" not in tbilisi_page
    ranking = client.get(f"/clubs/{batumi.slug}/ranking/").content.decode()
    assert not re.search(r">\s*(Levan|Nino)\s*<", ranking)


def test_a_leg_between_two_teams_of_one_club_counts_in_that_club(
    owner, sea, django_capture_on_commit_callbacks
):
    league = sea["fixture"].league
    tbilisi = sea["tbilisi"]
    tamar = Player.objects.get(club=tbilisi, handle="Tamar")
    league.teams.get(name="Tbilisi").roster.remove(tamar)
    team_make(
        actor=owner,
        league=league,
        club=tbilisi,
        name="Tbilisi B",
        player_ids=[tamar.pk],
        captain_ids=[owner.pk],
    )
    with django_capture_on_commit_callbacks(execute=True):
        leg = store_match(
            owner,
            ["Levan", "Tamar"],
            seed=950,
            played_at="2026-10-03T11:00:00Z",
            event=f"{LEAGUE}, Tbilisi v Tbilisi B, leg 1",
        )
    assert set(SeatResult.objects.filter(match=leg).values_list("in_club", flat=True)) == {True}
    assert ranking_rows(tbilisi)["Tamar"]["matches"] == 3


def test_a_leg_its_upload_counts_for_seats_as_one_its_log_names(
    owner, sea, django_capture_on_commit_callbacks
):
    """The leg chosen for the upload ("Counts for", ``?event=``, the recorder's set-up) is
    the match's ``event`` when its log names none, and seats the visitors as the log's own
    name of the leg would (ingest once left them to the storing club then)."""
    doc = simulate_match({"base": "muggins", "target": 50}, 2, seed=970, names=["Eka", "Nino"])
    doc |= {"id": "counts-for-a-leg", "club": "Batumi", "played_at": "2026-10-03T13:00:00Z"}
    del doc["event"]
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner,
            data=json.dumps(doc).encode(),
            kind="json",
            event=f"{LEAGUE}, Batumi v Tbilisi, leg 2",
        )
        upload = upload_process(upload_id=upload.pk)
    leg = upload.items.get().match
    assert leg.event == f"{LEAGUE}, Batumi v Tbilisi, leg 2"
    nino = Player.objects.get(club=sea["tbilisi"], handle="Nino")
    assert leg.seats.get(seat=1).player == nino
    assert handles("batumi") == {"Dato", "Eka"}


# --- the sides ingest reads ------------------------------------------------------------------


def sides():
    """Each team's side as ingest reads it: league, name, club, roster's handles."""
    return {
        (side.league, side.name, side.club.slug, frozenset(p.handle for p in side.players.all()))
        for side in LegSide.objects.select_related("club").prefetch_related("players")
    }


def teams():
    """Each team as competitions has it, in the same form."""
    return {
        (
            team.league.name,
            team.name,
            team.club.slug,
            frozenset(p.handle for p in team.roster.all()),
        )
        for team in Team.objects.select_related("league", "club").prefetch_related("roster")
    }


def test_each_teams_side_follows_the_team_through_every_change(owner, sea):
    """Made, renamed, its roster changed (by the organiser, from the player's side, by a
    merge of handles), its league renamed, deleted: the side ingest reads is the team."""
    assert sides() == teams() and len(teams()) == 2
    fixture = sea["fixture"]
    tbilisi = sea["tbilisi"]
    away = fixture.away
    levan, nino, tamar = (
        Player.objects.get(club=tbilisi, handle=h) for h in ("Levan", "Nino", "Tamar")
    )
    team_change(
        actor=owner,
        team=away,
        name="Tbilisi A",
        player_ids=[levan.pk, nino.pk],
        captain_ids=[sea["levan"].pk],
    )
    assert sides() == teams()
    assert ("Black Sea league", "Tbilisi A", tbilisi.slug, frozenset({"Levan", "Nino"})) in sides()
    league_change(actor=owner, league=fixture.league, name="Caucasus league", legs=["singles"])
    assert sides() == teams() and {side[0] for side in sides()} == {"Caucasus league"}
    tamar.league_teams.add(away)  # rows changed directly, from the player's side
    assert sides() == teams()
    tamar.league_teams.clear()
    assert sides() == teams()
    nina = Player.objects.create(club=tbilisi, handle="Nina")
    players_merge(actor=owner, source=nino, target=nina)
    assert sides() == teams()
    assert ("Caucasus league", "Tbilisi A", tbilisi.slug, frozenset({"Levan", "Nina"})) in sides()
    team_delete(actor=owner, team=away)
    assert sides() == teams() and len(teams()) == 1
    league_delete(actor=owner, league=fixture.league)
    assert sides() == set() == teams()


# --- the data fix ---------------------------------------------------------------------------


def test_legs_rehome_moves_the_handles_only_legs_made(
    owner, sea, django_capture_on_commit_callbacks, capsys
):
    """The issue's case: legs stored in Batumi before legs were read made Batumi handles
    Levan and Nino. Nino also played a Batumi club night: that handle stays."""
    (leg1, leg2), _night = store_legs(owner, django_capture_on_commit_callbacks, named=False)
    with django_capture_on_commit_callbacks(execute=True):
        other = store_match(
            owner, ["Nino", "Dato"], seed=960, played_at="2026-10-04T18:00:00Z", club="Batumi"
        )
    assert handles("batumi") == {"Dato", "Eka", "Levan", "Nino"}
    fixture = sea["fixture"]
    fixture_submit(actor=sea["sopho"], fixture=fixture, match_ids=[leg1.pk, leg2.pk])
    fixture_confirm(actor=sea["levan"], fixture=fixture)
    table_before = league_table(fixture.league)
    assert "Levan" in ranking_rows(sea["batumi"])
    old_levan = Player.objects.get(club__slug="batumi", handle="Levan").pk

    call_command("legs_rehome")  # a dry run changes nothing
    said = capsys.readouterr().out
    assert "batumi: 'Levan'" in said and "would move" in said
    assert "'Nino'" in said and "left alone, it plays in other matches of its club" in said
    assert handles("batumi") == {"Dato", "Eka", "Levan", "Nino"}

    with django_capture_on_commit_callbacks(execute=True):
        call_command("legs_rehome", "--apply")
    assert "1 of 2 handles moved." in capsys.readouterr().out
    assert handles("batumi") == {"Dato", "Eka", "Nino"}
    assert not Player.objects.filter(pk=old_levan).exists()
    levan = Player.objects.get(club__slug="tbilisi-fives-club", handle="Levan")
    assert leg1.seats.get(player__handle="Levan").player == levan
    assert other.seats.get(player__handle="Nino").player.club.slug == "batumi"
    # The league's table and legs are as they were; the candidates still find the legs.
    assert league_table(fixture.league) == table_before
    assert [c.match_id for c in fixture_candidates(fixture)] == [leg1.pk, leg2.pk]
    # Batumi's ranking and rating: its own matches only now (leg 2 still seats Batumi's
    # Nino, a handle left alone, so it still counts in Batumi), counted by hand.
    batumi_own = own_matches("batumi")
    assert leg1 not in batumi_own and leg2 in batumi_own
    rows = ranking_rows(sea["batumi"])
    assert "Levan" not in rows
    assert {h: r["matches"] for h, r in rows.items()} == {
        h: row[0] for h, row in table_by_hand(batumi_own).items()
    }
    assert_ratings(stored_ratings(sea["batumi"]), ratings_by_hand(batumi_own))
    assert season_by_standings(owner, sea["batumi"]) == table_by_hand(
        [m for m in batumi_own if m.played_at.date() <= DAY]
    )
    # Levan's page lists the leg; run again, nothing is left to move.
    page = Client().get(f"/players/{levan.pk}/").content.decode()
    assert f"/matches/{leg1.pk}/" in page
    call_command("legs_rehome", "--apply")
    assert "0 of 1 handles moved." in capsys.readouterr().out


def test_a_leg_stored_in_a_private_club_shows_on_a_visitors_page_to_its_members_only(
    owner, sea, django_capture_on_commit_callbacks
):
    batumi = sea["batumi"]
    batumi.is_private = True
    batumi.save()
    (leg1, _leg2), _night = store_legs(owner, django_capture_on_commit_callbacks)
    levan = Player.objects.get(club=sea["tbilisi"], handle="Levan")
    dato = Player.objects.get(club=batumi, handle="Dato")
    member = Client()
    member.force_login(sea["sopho"])
    for client, sees in ((Client(), False), (member, True)):
        page = client.get(f"/players/{levan.pk}/").content.decode()
        assert (f"/matches/{leg1.pk}/" in page) is sees
        assert (f"/players/{dato.pk}/" in page) is sees  # the head-to-head's opponent
        stats = client.get(f"/api/v1/players/{levan.pk}/stats/").json()
        opponents = {row["opponent_id"] for row in stats["head_to_head"]}
        assert (dato.pk in opponents) is sees
        assert Player.objects.get(club=sea["tbilisi"], handle="Nino").pk in opponents
