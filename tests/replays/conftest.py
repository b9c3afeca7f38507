"""Fixtures of the replay tests: the browser and its page (from test_replay_browser.py)."""

from .test_replay_browser import browser, page  # noqa: F401
