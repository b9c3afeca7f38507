"""The seasons, events and team leagues moved from ``replays`` to ``competitions`` with their
tables kept: the migrations change only Django's state (no row copied), so a season, an event
with its entries, a league with a club, a team, its roster and captains, a fixture and its leg
written through replays' models before are read after through competitions' (events and their
entries as ``Tournament`` and ``TournamentEntry``), the same rows with the same ids, and back
again. The content types follow the models, so what points at them stays attached."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.contenttypes.models import ContentType

from competitions.models import Fixture, League, Season, Team, Tournament, TournamentEntry
from tests.migrations import migrate
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("replays", "0012_analysis_askers")]  # competitions unapplied with replays' 0013
LATEST = None  # every app's newest migration
# The names the models had in replays, and have in competitions.
NAMES = {
    "Season": "Season",
    "Event": "Tournament",
    "EventEntry": "TournamentEntry",
    "League": "League",
    "LeagueClub": "LeagueClub",
    "Team": "Team",
    "Fixture": "Fixture",
    "Leg": "Leg",
}


def _write_with_the_old_models(apps, match_id: int) -> dict[str, int]:
    """Write a season, an event and its entries, a league, its club, two teams, a fixture
    and a leg with replays' models before the move; return their ids."""
    old = {name: apps.get_model("replays", name) for name in NAMES}
    match = apps.get_model("games", "Match").objects.get(pk=match_id)
    players = list(apps.get_model("games", "Player").objects.filter(club_id=match.club_id))
    person = apps.get_model("auth", "User").objects.create(username="old-organiser")
    day = datetime.date(2026, 10, 1)
    season = old["Season"].objects.create(
        club_id=match.club_id, name="Old autumn", first_day=day, last_day=day, presets=["muggins"]
    )
    event = old["Event"].objects.create(
        season=season, name="Old night", kind="round-robin", first_day=day, last_day=day
    )
    entries = [
        old["EventEntry"].objects.create(event=event, player=player, seed=seed).pk
        for seed, player in enumerate(players, 1)
    ]
    league = old["League"].objects.create(name="Old league", organiser=person, legs=["singles"])
    place = old["LeagueClub"].objects.create(league=league, club_id=match.club_id)
    home = old["Team"].objects.create(league=league, club_id=match.club_id, name="Home")
    away = old["Team"].objects.create(league=league, club_id=match.club_id, name="Away")
    home.roster.set(players[:1])
    away.roster.set(players[1:])
    home.captains.set([person])
    fixture = old["Fixture"].objects.create(league=league, home=home, away=away, day=day)
    leg = old["Leg"].objects.create(
        fixture=fixture,
        number=1,
        kind="singles",
        match=match,
        winner="home",
        home_score=61,
        away_score=40,
        home_names="a",
        away_names="b",
    )
    return {
        "season": season.pk,
        "event": event.pk,
        "entries": entries,
        "league": league.pk,
        "place": place.pk,
        "home": home.pk,
        "fixture": fixture.pk,
        "leg": leg.pk,
    }


def _read(apps, app: str, ids: dict) -> tuple:
    """Return what the rows say, read through ``app``'s models (replays before, competitions
    after)."""
    model = {
        old: apps.get_model(app, new if app == "competitions" else old)
        for old, new in NAMES.items()
    }
    season = model["Season"].objects.get(pk=ids["season"])
    event = model["Event"].objects.get(pk=ids["event"])
    entries = model["EventEntry"].objects.filter(pk__in=ids["entries"]).order_by("seed")
    league = model["League"].objects.get(pk=ids["league"])
    place = model["LeagueClub"].objects.get(pk=ids["place"])
    home = model["Team"].objects.get(pk=ids["home"])
    fixture = model["Fixture"].objects.get(pk=ids["fixture"])
    leg = model["Leg"].objects.get(pk=ids["leg"])
    return (
        (season.club_id, season.name, season.first_day, season.presets),
        (
            event.season_id,
            event.name,
            event.kind,
            sorted(event.players.values_list("pk", flat=True)),
        ),
        [(e.event_id, e.player_id, e.seed) for e in entries],
        (
            league.name,
            league.organiser.username,
            league.legs,
            list(league.clubs.values_list("pk", flat=True)),
        ),
        (place.league_id, place.club_id, place.accepted_at),
        (
            home.name,
            list(home.roster.values_list("pk", flat=True)),
            list(home.captains.values_list("username", flat=True)),
        ),
        (fixture.league_id, fixture.home_id, fixture.away_id, fixture.status),
        (leg.fixture_id, leg.match_id, leg.winner, leg.home_score, leg.away_score),
    )


def _types(app: str) -> dict[str, int]:
    return {
        model: ContentType.objects.get(app_label=app, model=model.lower()).pk
        for model in (NAMES if app == "replays" else NAMES.values())
    }


def test_the_competition_rows_are_read_through_the_competitions_app_the_same_and_back(
    owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        stored = store_match(owner, ["Nino", "Giorgi"], seed=1, played_at="2026-10-01")

    old = migrate(BEFORE)
    ids = _write_with_the_old_models(old, stored.pk)
    before = _read(old, "replays", ids)
    assert before[2] and before[5][1] and before[5][2] == ["old-organiser"]
    old_types = _types("replays")

    new = migrate(LATEST)
    assert _read(new, "competitions", ids) == before
    # The app's own models read the very rows (no copy: the same ids in the same tables, named
    # for competitions since its 0009).
    season = Season.objects.get(pk=ids["season"])
    assert season._meta.db_table == "competitions_season"
    event = Tournament.objects.get(pk=ids["event"])
    assert event._meta.db_table == "competitions_tournament" and event.season == season
    assert list(season.events.all()) == [event]
    assert set(TournamentEntry.objects.filter(event=event).values_list("pk", flat=True)) == set(
        ids["entries"]
    )
    league = League.objects.get(pk=ids["league"])
    home = Team.objects.get(pk=ids["home"])
    assert home.league == league and home.roster.count() == 1
    fixture = Fixture.objects.get(pk=ids["fixture"])
    assert fixture.legs.get().match_id == stored.pk
    assert list(stored.league_legs.values_list("pk", flat=True)) == [ids["leg"]]
    # The content types are the same rows, renamed (the event's to tournament).
    assert list(_types("competitions").values()) == list(old_types.values())
    assert ContentType.objects.get_for_model(Tournament).pk == old_types["Event"]
    assert not ContentType.objects.filter(
        app_label="replays", model__in=["season", "event"]
    ).exists()

    old = migrate(BEFORE)
    assert _read(old, "replays", ids) == before
    assert _types("replays") == old_types

    new = migrate(LATEST)
    assert _read(new, "competitions", ids) == before
