"""A handle merged into another keeps its place in events and league teams: its entries and
roster places move to the surviving handle, never twice in one event or one league."""

from __future__ import annotations

from datetime import date

import pytest

from clubs.models import Club
from competitions.league_services import league_invite, league_make, team_make
from competitions.models import Team, TournamentEntry
from competitions.seasons import season_open
from competitions.tournaments import tournament_make, tournament_schedule
from games.models import Player
from games.services.players import players_merge
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db
SLUG = "tbilisi-fives-club"


def player(handle: str) -> Player:
    return Player.objects.get(club__slug=SLUG, handle=handle)


def ids(*handles: str) -> list[int]:
    return [player(handle).pk for handle in handles]


@pytest.fixture
def club_of_four(owner, django_capture_on_commit_callbacks):
    """Ana, Beka, Ciko and "Ana K", a second handle of Ana's (they never met at the table)."""
    with django_capture_on_commit_callbacks(execute=True):
        for seed, pair in enumerate(
            (["Ana", "Beka"], ["Ana K", "Ciko"], ["Beka", "Ciko"], ["Ana K", "Beka"]), start=1
        ):
            store_match(owner, pair, seed=seed, played_at=f"2026-09-{seed:02d}T18:00:00Z")
    club = Club.objects.get(slug=SLUG)
    season = season_open(
        actor=owner,
        club=club,
        name="Autumn",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    return club, season


def entries(event) -> list[tuple[int, str]]:
    return [
        (entry.seed, entry.player.handle)
        for entry in TournamentEntry.objects.filter(event=event).select_related("player")
        .order_by("seed")
    ]  # fmt: skip


def make(owner, season, name, handles, kind="round-robin"):
    return tournament_make(
        actor=owner,
        season=season,
        name=name,
        kind=kind,
        first_day=date(2026, 10, 9),
        last_day=date(2026, 10, 9),
        player_ids=ids(*handles),
    )


def test_a_merged_handles_event_entries_move_to_the_survivor(
    owner, club_of_four, django_capture_on_commit_callbacks
):
    club, season = club_of_four
    friday = make(owner, season, "Friday", ["Ana", "Ana K", "Beka", "Ciko"])
    saturday = make(owner, season, "Saturday", ["Ana K", "Ciko"], kind="knockout")
    sunday = make(owner, season, "Sunday", ["Ana", "Beka"])
    seeded = dict((handle, seed) for seed, handle in entries(friday))
    saturday_before = entries(saturday)
    assert sorted(seeded) == ["Ana", "Ana K", "Beka", "Ciko"]

    with django_capture_on_commit_callbacks(execute=True):
        players_merge(actor=owner, source=player("Ana K"), target=player("Ana"))

    # Friday had both: Ana stays once, at the better of the two seeds; seeds 1, 2, 3.
    best = min(seeded["Ana"], seeded["Ana K"])
    after = entries(friday)
    assert [seed for seed, _handle in after] == [1, 2, 3]
    assert sorted(handle for _seed, handle in after) == ["Ana", "Beka", "Ciko"]
    order = sorted(("Ana", "Beka", "Ciko"), key=lambda h: best if h == "Ana" else seeded[h])
    assert [handle for _seed, handle in after] == order
    # Saturday had the merged handle alone: Ana takes its place and seed.
    assert entries(saturday) == [
        (seed, "Ana" if handle == "Ana K" else handle) for seed, handle in saturday_before
    ]
    assert sorted(handle for _seed, handle in saturday_before) == ["Ana K", "Ciko"]
    # Sunday had Ana alone: as it was.
    assert sorted(handle for _seed, handle in entries(sunday)) == ["Ana", "Beka"]
    assert not Player.objects.filter(club=club, handle="Ana K").exists()
    # The schedule reads the survivor: a round-robin of three, one bye a round.
    schedule = tournament_schedule(friday)
    assert [player["name"] for player in schedule["players"]] == order
    assert schedule["played"] + schedule["to_play"] == 3


def test_a_merged_handles_roster_places_move_once_a_league(owner, club_of_four):
    club, _season = club_of_four
    city = league_make(actor=owner, name="City league", legs=["singles"])
    league_invite(actor=owner, league=city, club=club)  # Nino is its owner: accepted at once
    a = team_make(
        actor=owner,
        league=city,
        club=club,
        name="A team",
        player_ids=ids("Ana K", "Beka"),
        captain_ids=[owner.pk],
    )
    b = team_make(
        actor=owner, league=city, club=club, name="B team", player_ids=ids("Ciko"),
        captain_ids=[owner.pk],
    )  # fmt: skip
    # Another league, where both handles play, for two teams.
    town = league_make(actor=owner, name="Town league", legs=["singles"])
    league_invite(actor=owner, league=town, club=club)
    x = team_make(
        actor=owner, league=town, club=club, name="X", player_ids=ids("Ana"),
        captain_ids=[owner.pk],
    )  # fmt: skip
    y = team_make(
        actor=owner, league=town, club=club, name="Y", player_ids=ids("Ana K", "Ciko"),
        captain_ids=[owner.pk],
    )  # fmt: skip

    players_merge(actor=owner, source=player("Ana K"), target=player("Ana"))

    def roster(team: Team) -> list[str]:
        return sorted(team.roster.values_list("handle", flat=True))

    assert roster(a) == ["Ana", "Beka"]  # the merged handle's place: Ana's now
    assert roster(b) == ["Ciko"]
    assert roster(x) == ["Ana"]  # Ana's own team in the Town league stays hers...
    assert roster(y) == ["Ciko"]  # ...and she does not play for a second one
    assert Team.roster.through.objects.filter(player__handle="Ana").count() == 2
