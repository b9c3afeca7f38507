"""Every page name replays' urls.py had before competitions moved out still reverses to the
address it had (the season, event and league pages kept their ``replays:`` names), and each
address is served by the view of the app that now owns it."""

from __future__ import annotations

import pathlib
import re

import pytest
from django.urls import resolve, reverse

from competitions import urls

# (name, arguments, the address it had, the module of its view now)
PAGES = [
    ("match-detail", [7], "/matches/7/", "replays.views"),
    ("match-analyse", [7], "/matches/7/analyse/", "replays.views"),
    ("player-detail", [7], "/players/7/", "replays.views"),
    ("embed", [7], "/embed/matches/7/", "replays.views"),
    ("ranking", ["c"], "/clubs/c/ranking/", "replays.views"),
    ("ranking-csv", ["c"], "/clubs/c/ranking.csv", "replays.views"),
    ("season-list", ["c"], "/clubs/c/seasons/", "competitions.season_views"),
    ("season-detail", ["c", 2], "/clubs/c/seasons/2/", "competitions.season_views"),
    ("season-csv", ["c", 2], "/clubs/c/seasons/2/standings.csv", "competitions.season_views"),
    ("season-print", ["c", 2], "/clubs/c/seasons/2/print/", "competitions.season_views"),
    ("season-close", ["c", 2], "/clubs/c/seasons/2/close/", "competitions.season_views"),
    ("event-list", ["c"], "/clubs/c/events/", "competitions.tournament_views"),
    ("event-detail", ["c", 3], "/clubs/c/events/3/", "competitions.tournament_views"),
    ("event-edit", ["c", 3], "/clubs/c/events/3/edit/", "competitions.tournament_views"),
    ("event-delete", ["c", 3], "/clubs/c/events/3/delete/", "competitions.tournament_views"),
    ("event-csv", ["c", 3], "/clubs/c/events/3/schedule.csv", "competitions.tournament_views"),
    ("league-list", [], "/leagues/", "competitions.league_views"),
    ("league-detail", [4], "/leagues/4/", "competitions.league_views"),
    ("league-csv", [4], "/leagues/4/table.csv", "competitions.league_views"),
    ("league-edit", [4], "/leagues/4/edit/", "competitions.league_views"),
    ("league-delete", [4], "/leagues/4/delete/", "competitions.league_views"),
    ("league-team-edit", [4, 5], "/leagues/4/teams/5/edit/", "competitions.league_views"),
    ("league-team-delete", [4, 5], "/leagues/4/teams/5/delete/", "competitions.league_views"),
    ("fixture-edit", [4, 6], "/leagues/4/fixtures/6/edit/", "competitions.league_views"),
    ("fixture-reset", [4, 6], "/leagues/4/fixtures/6/reset/", "competitions.league_views"),
    ("fixture-delete", [4, 6], "/leagues/4/fixtures/6/delete/", "competitions.league_views"),
    ("league-accept", [4, "c"], "/leagues/4/clubs/c/accept/", "competitions.league_views"),
    ("league-team", [4, "c"], "/leagues/4/clubs/c/team/", "competitions.league_views"),
    ("league-fixture", [4, 6], "/leagues/4/fixtures/6/", "competitions.league_views"),
    ("fixture-submit", [4, 6], "/leagues/4/fixtures/6/submit/", "competitions.league_views"),
    ("fixture-confirm", [4, 6], "/leagues/4/fixtures/6/confirm/", "competitions.league_views"),
    ("fixture-dispute", [4, 6], "/leagues/4/fixtures/6/dispute/", "competitions.league_views"),
    ("fixture-resolve", [4, 6], "/leagues/4/fixtures/6/resolve/", "competitions.league_views"),
]


@pytest.mark.parametrize(("name", "args", "address", "module"), PAGES)
def test_every_old_replays_page_name_reverses_to_its_old_address(name, args, address, module):
    assert reverse(f"replays:{name}", args=args) == address
    found = resolve(address)
    assert (found.namespace, found.url_name) == ("replays", name)
    assert found.func.__module__ == module


def test_replays_pages_name_no_competition_page_or_tag_library():
    """replays sits below competitions: its templates reverse none of competitions' page names
    (they share the ``replays:`` namespace, so only the names tell) and load none of its tag
    libraries; its Python modules say none of those names either."""
    root = pathlib.Path(__file__).resolve().parents[2]
    names = {pattern.name for pattern in urls.urlpatterns}
    libraries = {p.stem for p in (root / "competitions" / "templatetags").glob("[!_]*.py")}
    assert "season-list" in names and "club_leagues" in libraries
    wrong = []
    for path in [*(root / "replays").rglob("*.html"), *(root / "replays").rglob("*.py")]:
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"replays:([\w-]+)", text):
            if name in names:
                wrong.append(f"{path.relative_to(root)}: replays:{name}")
        for loaded in re.findall(r"{%\s*load\s+([^%]+)%}", text):
            wrong.extend(
                f"{path.relative_to(root)}: load {lib}"
                for lib in loaded.split()
                if lib in libraries
            )
    assert wrong == []
