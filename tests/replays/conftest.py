"""Fixtures of the replay tests: the browser, its page and a phone (from test_replay_browser.py);
the people and the match day of a team league (from test_leagues.py)."""

from .test_leagues import match_day, people  # noqa: F401
from .test_replay_browser import browser, page, phone  # noqa: F401
