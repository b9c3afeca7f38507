"""The whole crawl (marked ``crawl``) runs only when asked for (``make crawl`` sets
FIVES_CRAWL=all): ``make test`` runs its sample (test_crawl.py says how it is drawn)."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("FIVES_CRAWL") == "all":
        return
    whole = [item for item in items if item.get_closest_marker("crawl")]
    if whole:
        config.hook.pytest_deselected(items=whole)
        items[:] = [item for item in items if not item.get_closest_marker("crawl")]


@pytest.fixture(autouse=True)
def open_data_folder(settings, tmp_path_factory):
    """The open data's files the crawl's world writes go to a folder of its own, not the
    checkout's ``var/data`` that ``make run`` serves."""
    settings.FIVES_DATA_ROOT = tmp_path_factory.mktemp("open-data")
