"""Smaller points of issue 36 on the season and event pages: an event refused for its days
names the season's days (the service, the page, the API, in Russian and Georgian), the
season page gives each event's days, and a printed season page carries no link (the season
page's links are not printed; the printable page's PDF has no link in it)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from clubs.models import Club
from clubs.services import ClubRefusal
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from tests.competitions.test_events import players, store_match

SLUG = "tbilisi-fives-club"


def autumn(owner):
    return season_open(
        actor=owner,
        club=Club.objects.get(slug=SLUG),
        name="Autumn",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "An event's days fall within its season's: from 2026-09-01 to 2026-11-30."),
        ("ru", "Дни турнира лежат внутри дней его сезона: с 01.09.2026 по 30.11.2026."),
        ("ka", "ტურნირის დღეები მისი სეზონის დღეებშია: 01.09.2026 – 30.11.2026."),
    ],
)
def test_an_event_outside_its_season_is_refused_naming_the_seasons_days(owner, language, words):
    season = autumn(owner)
    ids = players(owner, season.club, ["Ana", "Beka"])
    with translation.override(language), pytest.raises(ClubRefusal) as refused:
        tournament_make(
            actor=owner,
            season=season,
            name="Late night",
            kind="round-robin",
            first_day=date(2026, 11, 30),
            last_day=date(2026, 12, 1),
            player_ids=ids,
        )
    assert refused.value.message == words


@pytest.mark.django_db
def test_the_event_form_and_the_api_say_the_seasons_days(owner):
    season = autumn(owner)
    ids = players(owner, season.club, ["Ana", "Beka"])
    admin = Client()
    admin.force_login(owner)
    answer = admin.post(
        f"/clubs/{SLUG}/events/",
        {
            "season": season.pk,
            "name": "Early night",
            "kind": "round-robin",
            "first_day": "2026-08-31",
            "last_day": "2026-09-01",
            "legs": "1",
            "players": ids,
        },
        follow=True,
    )
    page = answer.content.decode()
    assert "from 2026-09-01 to 2026-11-30" in page
    # A refused form keeps what was chosen (the days typed).
    assert 'value="2026-08-31"' in page
    api = APIClient()
    api.force_authenticate(owner)
    answer = api.post(
        f"/api/v1/clubs/{SLUG}/events/",
        {
            "season": season.pk,
            "name": "Early night",
            "kind": "round-robin",
            "first_day": "2026-08-31",
            "last_day": "2026-09-01",
            "players": ids,
        },
        format="json",
        headers={"accept-language": "en"},
    )
    assert answer.status_code == 409, answer.content
    assert "from 2026-09-01 to 2026-11-30" in answer.content.decode()


@pytest.mark.django_db
def test_the_season_page_gives_each_events_days(owner):
    season = autumn(owner)
    ids = players(owner, season.club, ["Ana", "Beka"])
    for name, first, last in (
        ("Club night", date(2026, 10, 3), date(2026, 10, 3)),
        ("October cup", date(2026, 10, 1), date(2026, 10, 31)),
    ):
        tournament_make(
            actor=owner,
            season=season,
            name=name,
            kind="round-robin",
            first_day=first,
            last_day=last,
            player_ids=ids,
        )
    page = Client().get(f"/clubs/{SLUG}/seasons/{season.pk}/").content.decode()
    shown = r'>([^<]+)</a> <span class="muted event-days">round-robin · ([^<]+)</span>'
    days = dict(re.findall(shown, page))
    assert days == {"Club night": "2026-10-03", "October cup": "from 2026-10-01 to 2026-10-31"}


@pytest.mark.django_db(transaction=True)
def test_a_printed_season_page_carries_no_link(browser, live_server, owner):
    season = autumn(owner)
    names = ["Anastasia", "Bekauri", "Ciko"]
    for seed in range(1, 4):
        pair = [names[seed % 3], names[(seed + 1) % 3]]
        store_match(owner, pair, seed=seed, played_at=f"2026-10-{seed + 1:02d}T19:00:00+00:00")
    ids = players(owner, season.club, names)
    tournament_make(
        actor=owner,
        season=season,
        name="Club night",
        kind="round-robin",
        first_day=date(2026, 10, 1),
        last_day=date(2026, 10, 31),
        player_ids=ids,
    )
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        base = f"{live_server.url}/clubs/{SLUG}/seasons/{season.pk}/"
        page.goto(base + "print/")
        # On the screen the played matches are in it (their scores), and links lead back.
        assert page.locator(".fixture.played .score").count() == 3
        page.emulate_media(media="print")
        shown = [link for link in page.locator("a").all() if link.is_visible()]
        assert shown == [], [link.inner_text() for link in shown]
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        assert b"/URI" not in pdf and b"/Link" not in pdf
        assert b"/Type /Page" in pdf or b"/Type/Page" in pdf
        # The season's own page, printed: its table, without the links that lead elsewhere.
        page.emulate_media(media="screen")
        page.goto(base)
        for words in ("All seasons", "Download the table (CSV)", "Printable tables (A4)"):
            assert page.get_by_text(words).is_visible()
        page.emulate_media(media="print")
        for words in ("All seasons", "Download the table (CSV)", "Printable tables (A4)"):
            assert not page.get_by_text(words).is_visible(), words
        assert page.locator("table.standings").is_visible()
    finally:
        context.close()
