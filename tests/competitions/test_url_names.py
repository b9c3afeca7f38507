"""Every page of competitions (its clubs, seasons, events, leagues and inbox) is named in the
``competitions:`` namespace and reverses to the address it had when it was named in
``replays:`` or ``games:`` (issue 57): the addresses did not move, the old names are gone
(they were the project's own; no template outside it holds them)."""

from __future__ import annotations

import pathlib
import re

import pytest
from django.urls import NoReverseMatch, resolve, reverse

from competitions import urls

# (the namespace it had, name, arguments, its address, the module of its view in competitions)
PAGES = [
    ("replays", "season-list", ["c"], "/clubs/c/seasons/", "season_views"),
    ("replays", "season-detail", ["c", 4], "/clubs/c/seasons/4/", "season_views"),
    ("replays", "season-csv", ["c", 4], "/clubs/c/seasons/4/standings.csv", "season_views"),
    ("replays", "season-print", ["c", 4], "/clubs/c/seasons/4/print/", "season_views"),
    ("replays", "event-list", ["c"], "/clubs/c/events/", "tournament_views"),
    ("replays", "event-detail", ["c", 4], "/clubs/c/events/4/", "tournament_views"),
    ("replays", "event-edit", ["c", 4], "/clubs/c/events/4/edit/", "tournament_views"),
    ("replays", "event-delete", ["c", 4], "/clubs/c/events/4/delete/", "tournament_views"),
    ("replays", "event-csv", ["c", 4], "/clubs/c/events/4/schedule.csv", "tournament_views"),
    ("replays", "league-list", [], "/leagues/", "league_views"),
    ("replays", "league-detail", [4], "/leagues/4/", "league_views"),
    ("replays", "league-csv", [4], "/leagues/4/table.csv", "league_views"),
    ("replays", "league-edit", [4], "/leagues/4/edit/", "league_views"),
    ("replays", "league-schedule", [4], "/leagues/4/schedule/", "league_views"),
    ("replays", "league-delete", [4], "/leagues/4/delete/", "league_views"),
    ("replays", "league-team-edit", [4, 5], "/leagues/4/teams/5/edit/", "league_views"),
    ("replays", "league-team-delete", [4, 5], "/leagues/4/teams/5/delete/", "league_views"),
    ("replays", "fixture-edit", [4, 6], "/leagues/4/fixtures/6/edit/", "league_views"),
    ("replays", "fixture-reset", [4, 6], "/leagues/4/fixtures/6/reset/", "league_views"),
    ("replays", "fixture-delete", [4, 6], "/leagues/4/fixtures/6/delete/", "league_views"),
    ("replays", "league-accept", [4, "c"], "/leagues/4/clubs/c/accept/", "league_views"),
    ("replays", "league-team", [4, "c"], "/leagues/4/clubs/c/team/", "league_views"),
    ("replays", "league-fixture", [4, 6], "/leagues/4/fixtures/6/", "league_views"),
    ("replays", "fixture-submit", [4, 6], "/leagues/4/fixtures/6/submit/", "league_views"),
    ("replays", "fixture-confirm", [4, 6], "/leagues/4/fixtures/6/confirm/", "league_views"),
    ("replays", "fixture-dispute", [4, 6], "/leagues/4/fixtures/6/dispute/", "league_views"),
    ("replays", "fixture-resolve", [4, 6], "/leagues/4/fixtures/6/resolve/", "league_views"),
    ("replays", "fixture-postpone", [4, 6], "/leagues/4/fixtures/6/postpone/", "league_views"),
    (
        "replays",
        "fixture-postpone-accept",
        [4, 6],
        "/leagues/4/fixtures/6/postpone/accept/",
        "league_views",
    ),
    (
        "replays",
        "fixture-postpone-withdraw",
        [4, 6],
        "/leagues/4/fixtures/6/postpone/withdraw/",
        "league_views",
    ),
    ("replays", "fixture-concede", [4, 6], "/leagues/4/fixtures/6/concede/", "league_views"),
    ("replays", "fixture-walkover", [4, 6], "/leagues/4/fixtures/6/walkover/", "league_views"),
    ("replays", "league-team-withdraw", [4, 5], "/leagues/4/teams/5/withdraw/", "league_views"),
    ("replays", "league-team-reinstate", [4, 5], "/leagues/4/teams/5/reinstate/", "league_views"),
    ("replays", "league-decline", [4, "c"], "/leagues/4/clubs/c/decline/", "league_views"),
    ("replays", "inbox", [], "/inbox/", "inbox_views"),
    ("replays", "email-settings", [], "/settings/emails/", "inbox_views"),
    ("replays", "unsubscribe", ["t"], "/emails/unsubscribe/t/", "inbox_views"),
    ("replays", "season-close", ["c", 4], "/clubs/c/seasons/4/close/", "season_views"),
    ("replays", "league-calendar", [4], "/leagues/4/calendar.ics", "calendar_views"),
    ("replays", "league-match-time", [4], "/leagues/4/match-time/", "calendar_views"),
    ("replays", "team-calendar", [4, 5], "/leagues/4/teams/5/calendar.ics", "calendar_views"),
    ("replays", "player-calendar", [4], "/players/4/calendar.ics", "calendar_views"),
    ("games", "club-list", [], "/clubs/", "club_views"),
    ("games", "club-detail", ["c"], "/clubs/c/", "club_views"),
    ("games", "club-leave", ["c"], "/clubs/c/leave/", "club_views"),
    ("games", "club-calendar", ["c"], "/clubs/c/calendar.ics", "calendar_views"),
    ("games", "club-calendar-reset", ["c"], "/clubs/c/calendar/reset/", "calendar_views"),
]

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_route_of_competitions_is_listed():
    assert urls.app_name == "competitions"
    assert sorted(name for _, name, *_ in PAGES) == sorted(p.name for p in urls.urlpatterns)
    assert len(PAGES) == 48


@pytest.mark.parametrize(("old", "name", "args", "address", "module"), PAGES)
def test_every_competitions_page_keeps_its_address(old, name, args, address, module):
    assert reverse(f"competitions:{name}", args=args) == address
    found = resolve(address)
    assert (found.namespace, found.url_name) == ("competitions", name)
    assert found.func.__module__ == f"competitions.{module}"
    with pytest.raises(NoReverseMatch):
        reverse(f"{old}:{name}", args=args)


def test_no_file_names_a_competitions_page_in_another_namespace():
    """``replays:season-list`` or ``games:club-detail`` would fail only when the page is
    drawn: no file of the project says one."""
    names = {p.name for p in urls.urlpatterns}
    wrong = []
    for folder in (
        "api",
        "clubs",
        "competitions",
        "fivesite",
        "games",
        "recorder",
        "replays",
        "templates",
        "tests",
        "docs",
    ):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".html", ".js", ".md"} or "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for namespace, name in re.findall(r"\b(replays|games):([\w-]+)", text):
                if name in names and path.name not in ("test_layers.py", "test_url_names.py"):
                    wrong.append(f"{path.relative_to(ROOT)}: {namespace}:{name}")
    assert wrong == []


def test_replays_pages_load_no_competitions_tag_library():
    """replays sits below competitions: its templates load none of competitions' tag
    libraries (tests/layers.py refuses a ``competitions:`` name in them)."""
    libraries = {p.stem for p in (ROOT / "competitions" / "templatetags").glob("[!_]*.py")}
    assert "club_leagues" in libraries
    wrong = []
    for path in (ROOT / "replays").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for loaded in re.findall(r"{%\s*load\s+([^%]+)%}", text):
            wrong.extend(
                f"{path.relative_to(ROOT)}: load {lib}"
                for lib in loaded.split()
                if lib in libraries
            )
    assert wrong == []
