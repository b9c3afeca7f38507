"""Migration 0002 of replays keys seat results by (match, seat) and rating events by
(rating, played_at, matches), and stores no ordinal; 0003 drops the events' match; 0004
replaces the events with a row per match and scope. Back again, every seat result is as it
was; the ratings' rows are dropped on the way (through 0004 and 0003) and every scope marked
to be recomputed, which writes them again exactly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.apps import apps as current_apps

from clubs.models import Club
from games.models import Player
from replays.models import RatingScope
from replays.rankings import club_ranking, player_profile
from replays.ratings import ratings_recompute
from tests.migrations import migrate, table_rows
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

OLD = [("replays", "0001_initial")]
LATEST = None  # every app's newest migration
NOW = datetime(2026, 10, 20, tzinfo=UTC)
SEAT_FIELDS = (
    "match_id",
    "seat",
    "team",
    "player_id",
    "club_id",
    "preset",
    "played_at",
    "complete",
    "won",
    "rank",
    "hands",
    "plays",
    "scoring_plays",
    "points",
    "missed",
    "dominoes",
    "blocked",
    "settlement_won",
    "settlement_lost",
    "claims_differ",
)
CHANGES = ("ClubRatingChange", "AllClubsRatingChange")


def _pages() -> list:
    club = Club.objects.get(name="Tbilisi Fives Club")
    return [
        club_ranking(club=club, now=NOW),
        club_ranking(club=club, ruleset="muggins", period="30d", now=NOW),
        *(player_profile(player=player) for player in Player.objects.order_by("pk")),
    ]


def test_results_and_events_are_rekeyed_and_come_back_as_they_were(
    owner, django_capture_on_commit_callbacks
):
    tables = [
        (["Nino", "Giorgi"], False),
        (["Giorgi", "Tamar", "Levan"], False),
        (["Nino", "Tamar", "Levan", "Giorgi"], True),
        (["Levan", "Nino"], False),
        (["Tamar", "Giorgi", "Nino", "Levan"], False),
    ]
    for day, (names, teams) in enumerate(tables):
        with django_capture_on_commit_callbacks(execute=True):
            store_match(owner, names, seed=day, played_at=f"2026-10-{day + 1:02d}", teams=teams)
    seats = table_rows(current_apps, "replays", "SeatResult", SEAT_FIELDS)
    changes = [table_rows(current_apps, "replays", name, ("match_id", "seats")) for name in CHANGES]
    assert len(seats) == 15 and [len(rows) for rows in changes] == [5, 5]
    pages = _pages()

    old = migrate(OLD)
    assert table_rows(old, "replays", "SeatResult", SEAT_FIELDS) == seats
    assert not old.get_model("replays", "RatingEvent").objects.exists()
    assert not old.get_model("replays", "RatingScope").objects.filter(dirty_from=None).exists()

    new = migrate(LATEST)
    assert table_rows(new, "replays", "SeatResult", SEAT_FIELDS) == seats
    for scope in RatingScope.objects.exclude(dirty_from=None):
        ratings_recompute(scope_id=scope.pk)
    assert [table_rows(new, "replays", name, ("match_id", "seats")) for name in CHANGES] == changes
    assert _pages() == pages
