"""Fixtures of the competition tests: the browser, its page and a phone (from the replay
tests); the people and the match day of a team league (from test_leagues.py); a club in Tbilisi's
time zone and its autumn season (the events' tests)."""

from datetime import date

import pytest

from clubs.models import Club
from competitions.seasons import season_open
from tests.replays.test_replay_browser import browser, page, phone  # noqa: F401

from .test_leagues import match_day, people  # noqa: F401


@pytest.fixture
def club(owner):
    """The owner's club, in Tbilisi's time zone."""
    club = Club.objects.get(slug="tbilisi-fives-club")
    club.time_zone = "Asia/Tbilisi"
    club.save(update_fields=["time_zone"])
    return club


@pytest.fixture
def autumn(owner, club):
    """An open season of the club, September to November 2026."""
    return season_open(
        actor=owner,
        club=club,
        name="Autumn",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
