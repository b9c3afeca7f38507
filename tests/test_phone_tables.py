"""Phones first: on a 390x844 screen each table shows, with no sideways scroll, the name and the
figures people come for (a table's position and points, a match's score and winner, a
ranking's rating, an analysis's marks); the rest of its columns scroll in its box, the name
kept in sight. In English, Russian and Georgian (whose words are the longest), on the demo's
data, in Debian's chromium: each key cell's box lies inside the screen as the page opens.
Screenshots in test-artifacts/ (looked at).

Skipped where /usr/bin/chromium is missing, unless FIVES_REQUIRE_BROWSER=1 (the ``browser``
fixture of tests/test_georgian.py)."""

from __future__ import annotations

import os
import pathlib

import pytest
from django.core.management import call_command

from tests.test_georgian import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Each table: its selector, and the heads (in English) of its first columns, which must be on
# the first screen: the name and the figures people come for.
MATCH = ["Played", "Players", "Scores", "Winner"]
TABLES = {
    "season": ("table.standings", ["#", "Player", "Pts"]),
    "matches": ("table.matches", MATCH),
    "player": ("table.matches", MATCH),  # the player's recent results
    "analysis": (
        "table.analysis-seats",
        ["Player", "Accuracy", "Inaccuracies", "Mistakes", "Blunders"],
    ),
    "ranking": ("table.ranking", ["#", "Player", "Rating"]),
    "league": ("table.league-table", ["#", "Team", "Pts"]),
    "event": ("table.event-table", ["#", "Player", "Pts"]),
}
HEADS = "s => [...document.querySelector(s).tHead.rows[0].cells].map(c => c.innerText.trim())"

# Each key cell, head and body, whose box is not inside the screen (or not shown).
OUTSIDE = """([selector, columns]) => {
  const screen = document.documentElement.clientWidth;
  const outside = [];
  const tables = [...document.querySelectorAll(selector)];
  if (!tables.length) return ['no ' + selector];
  for (const table of tables) {
    // What is seen of a table: the screen, or the box it scrolls in where that is narrower.
    const box = table.closest('.table-scroll');
    const width = Math.min(screen, box ? box.getBoundingClientRect().right : screen);
    for (const row of table.rows) {
      if (row.cells.length < 2) continue;  // "no match yet" and the like
      for (const index of columns) {
        const cell = row.cells[index];
        const box = cell.getBoundingClientRect();
        if (box.width === 0 || box.left < 0 || box.right > width + 0.5) {
          const where = `[${Math.round(box.left)}, ${Math.round(box.right)}]`;
          outside.push(`${index}: ${cell.innerText.trim()} ${where}`);
        }
      }
    }
  }
  return outside;
}"""


@pytest.fixture
def demo_pages(settings):
    """The demo's clubs, season, events, league and analysed matches; each table's page."""
    from competitions.models import League, Season, Tournament
    from games.models import Player
    from replays.models import MatchAnalysis

    settings.DEBUG = True  # the demo's league is organised by the user demo, made with DEBUG
    call_command("demo", matches=24, stdout=open(os.devnull, "w"))  # noqa: SIM115
    season = Season.objects.order_by("pk").first()
    event = Tournament.objects.filter(kind="round-robin").order_by("pk").first()
    analysed = MatchAnalysis.objects.filter(status="done").order_by("pk").first()
    player = (
        Player.objects.filter(club__slug="tbilisi-fives-club", handle="Nino").first()
        or Player.objects.filter(club__slug="tbilisi-fives-club").first()
    )
    return {
        "season": f"/clubs/{season.club.slug}/seasons/{season.pk}/",
        "matches": "/matches/",
        "player": f"/players/{player.pk}/",
        "analysis": f"/matches/{analysed.match_id}/",
        "ranking": "/clubs/tbilisi-fives-club/ranking/",
        "league": f"/leagues/{League.objects.order_by('pk').first().pk}/",
        "event": f"/clubs/{event.season.club.slug}/events/{event.pk}/",
    }


def test_each_table_shows_its_name_and_key_figures_on_a_phone(
    browser,  # noqa: F811
    live_server,
    demo_pages,
):
    ARTIFACTS.mkdir(exist_ok=True)
    found = {}
    for language, locale in [("en", "en-GB"), ("ru", "ru-RU"), ("ka", "ka-GE")]:
        context = browser.new_context(**PHONE, locale=locale, base_url=live_server.url)
        cookie = {"name": "django_language", "value": language, "url": live_server.url}
        context.add_cookies([cookie])
        page = context.new_page()
        for name, path in demo_pages.items():
            selector, heads = TABLES[name]
            columns = list(range(len(heads)))
            page.goto(path)
            assert page.evaluate("document.documentElement.lang") == language
            if language == "en":  # the columns people come for are the first
                assert page.evaluate(HEADS, selector)[: len(heads)] == heads, name
            page.evaluate(
                "s => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top"
                " + window.scrollY - 80)",
                selector,
            )
            page.screenshot(path=str(ARTIFACTS / f"phone-table-{name}-{language}.png"))
            outside = page.evaluate(OUTSIDE, [selector, columns])
            # The page itself never scrolls sideways: the rest of a table scrolls in its box.
            if page.evaluate("document.documentElement.scrollWidth") > 390:
                outside.append("the page scrolls sideways")
            if outside:
                found[f"{name} {language}"] = outside
        context.close()
    assert found == {}, "\n".join(f"{k}: {v[:6]}" for k, v in found.items())
