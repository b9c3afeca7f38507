"""Fixtures of the competition tests: the browser, its page and a phone (from the replay
tests); the people and the match day of a team league (from test_leagues.py)."""

from tests.replays.test_replay_browser import browser, page, phone  # noqa: F401

from .test_leagues import match_day, people  # noqa: F401
