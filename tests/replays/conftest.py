"""Fixtures of the replay tests: the browser, its page and a phone (from test_replay_browser.py)."""

from .test_replay_browser import browser, page, phone  # noqa: F401
