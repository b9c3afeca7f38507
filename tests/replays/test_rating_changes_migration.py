"""Migration 0004 of replays replaces the rating events with a row per match and scope.
Backwards, the events' table comes back (empty, every scope marked to be recomputed); forwards
again, the changes' tables are made empty, every scope marked, and the recomputation writes
the very same rows and ratings: the pages read the same."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.apps import apps as current_apps
from django.db import connection

from clubs.models import Club
from games.models import Player
from replays.models import RatingScope
from replays.rankings import club_ranking, player_profile
from replays.ratings import ratings_recompute
from tests.migrations import migrate, table_rows
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

EVENTS = [("replays", "0003_events_without_match")]
NOW = datetime(2026, 10, 20, tzinfo=UTC)
CHANGES = ("ClubRatingChange", "AllClubsRatingChange")
RATING_FIELDS = ("scope_id", "player_id", "mu", "sigma", "ordinal", "matches", "wins")


def _tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


def _pages() -> list:
    return [
        *(
            club_ranking(club=club, now=NOW)
            for club in Club.objects.filter(name__in=["Tbilisi Fives Club", "Moscow"])
        ),
        *(player_profile(player=player) for player in Player.objects.order_by("pk")),
    ]


def test_the_rating_rows_go_back_to_events_and_come_again_as_they_were(
    owner, django_capture_on_commit_callbacks
):
    tables = [
        ("Tbilisi Fives Club", ["Nino", "Giorgi"], False),
        ("Moscow", ["Nino", "Sasha", "Masha"], False),
        ("Tbilisi Fives Club", ["Nino", "Tamar", "Levan", "Giorgi"], True),
        ("Moscow", ["Masha", "Nino"], False),
        ("Tbilisi Fives Club", ["Tamar", "Giorgi", "Nino"], False),
    ]
    for day, (club, names, teams) in enumerate(tables, start=1):
        with django_capture_on_commit_callbacks(execute=True):
            store_match(
                owner, names, seed=day, played_at=f"2026-10-{day:02d}", club=club, teams=teams
            )
    Player.objects.filter(handle="Nino").update(user=owner)  # one person in both clubs
    for scope in RatingScope.objects.all():
        ratings_recompute(scope_id=scope.pk, full=True)
    changes = [table_rows(current_apps, "replays", name, ("match_id", "seats")) for name in CHANGES]
    ratings = table_rows(current_apps, "replays", "Rating", RATING_FIELDS)
    assert [len(rows) for rows in changes] == [5, 5]  # each match: its club's, all clubs'
    pages = _pages()

    old = migrate(EVENTS)
    assert not {"replays_clubratingchange", "replays_allclubsratingchange"} & _tables()
    events = old.get_model("replays", "RatingEvent")
    assert not events.objects.exists()
    assert not old.get_model("replays", "RatingScope").objects.filter(dirty_from=None).exists()
    assert table_rows(old, "replays", "Rating", RATING_FIELDS) == ratings
    # The events' table is the old one again, keyed by (rating, played_at, matches).
    rating = old.get_model("replays", "Rating").objects.order_by("pk").first()
    events.objects.create(rating=rating, played_at=NOW, mu=1.0, sigma=2.0, matches=1, wins=0)
    events.objects.create(rating=rating, played_at=NOW, mu=1.5, sigma=2.0, matches=2, wins=1)
    assert events.objects.count() == 2

    new = migrate(None)
    assert "replays_ratingevent" not in _tables()
    assert not any(new.get_model("replays", name).objects.exists() for name in CHANGES)
    dirty = RatingScope.objects.exclude(dirty_from=None)
    assert dirty.count() == RatingScope.objects.count() == 3
    for scope in dirty:
        ratings_recompute(scope_id=scope.pk)
    assert [table_rows(new, "replays", name, ("match_id", "seats")) for name in CHANGES] == changes
    assert table_rows(new, "replays", "Rating", RATING_FIELDS) == ratings
    assert _pages() == pages
