"""Issue 36, item 9: a form the rules refuse comes back with what was chosen in it (the
event's players and kind, a season's rulesets and points), its refusal said above it."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from tests.competitions.test_events import players

pytestmark = pytest.mark.django_db


def checked(page: str, name: str) -> set[str]:
    """The values of the ticked boxes and chosen radios named ``name``."""
    found = set()
    for tag in re.findall(r"<input[^>]*>", page):
        if f'name="{name}"' in tag and " checked" in tag:
            found.add(re.search(r'value="([^"]*)"', tag).group(1))
    return found


def test_a_refused_event_keeps_its_players_kind_and_days(owner, autumn):
    ids = players(owner, autumn.club, ["Ana", "Beka", "Ciko"])
    client = Client()
    client.force_login(owner)
    chosen = {
        "season": autumn.pk,
        "name": "Night",
        "kind": "knockout",
        "first_day": "2026-12-20",  # past the season's last day: refused
        "last_day": "2026-12-20",
        "legs": 1,
        "players": ids[:2],
    }
    answer = client.post(f"/clubs/{autumn.club.slug}/events/", chosen)
    page = html.unescape(answer.content.decode())
    assert answer.status_code == 200
    assert "An event's days fall within its season's" in page
    assert checked(page, "players") == {str(i) for i in ids[:2]}
    assert checked(page, "kind") == {"knockout"}
    assert 'value="2026-12-20"' in page and 'value="Night"' in page


def test_a_refused_season_keeps_its_rulesets_and_points(owner, club):
    client = Client()
    client.force_login(owner)
    chosen = {
        "name": "Winter",
        "first_day": "2027-02-01",
        "last_day": "2027-01-01",  # before its first day: refused
        "presets": ["muggins", "all-fives"],
        "win_points": 2,
        "loss_points": 1,
        "place_points": "4/2/1",
    }
    page = html.unescape(client.post(f"/clubs/{club.slug}/seasons/", chosen).content.decode())
    assert "A season's last day cannot come before its first." in page
    assert checked(page, "presets") == {"muggins", "all-fives"}
    assert re.search(r'name="win_points" value="2"', page)
    assert re.search(r'name="loss_points" value="1"', page)
    assert 'value="4/2/1"' in page
