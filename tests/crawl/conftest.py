"""The whole crawl (marked ``crawl``) runs only when asked for (``make crawl`` sets
FIVES_CRAWL=all): ``make test`` runs its sample (test_crawl.py says how it is drawn)."""

from __future__ import annotations

import os


def pytest_collection_modifyitems(config, items):
    if os.environ.get("FIVES_CRAWL") == "all":
        return
    whole = [item for item in items if item.get_closest_marker("crawl")]
    if whole:
        config.hook.pytest_deselected(items=whole)
        items[:] = [item for item in items if not item.get_closest_marker("crawl")]
