"""What a new user's tour on a phone (390x844) found: wide tables that did not say they go
on, words and figures broken across lines, pages with no way back, a chart's labels that
touched, a short menu divider, form controls too small for a thumb. The page's HTML here;
the layout in Debian's chromium (tests skip without it; screenshots in test-artifacts/)."""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from django.test import Client

from clubs.models import Club
from competitions.models import League, LeagueClub
from games.models import Player
from games.services.uploads import upload_create
from replays.charts import rating_chart
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@pytest.fixture
def club(owner, django_capture_on_commit_callbacks):
    """Ana and Beka, rated after six matches in the Tbilisi Fives Club."""
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(1, 7):
            store_match(
                owner, ["Ana", "Beka"], seed=seed, played_at=f"2026-10-{seed:02d}T19:54:00+04:00"
            )
    return Club.objects.get(slug="tbilisi-fives-club")


def test_a_ratings_range_stays_whole_and_a_date_keeps_its_day_and_time_whole(club):
    ana = Player.objects.get(handle="Ana")
    html = Client().get(f"/players/{ana.pk}/").content.decode()
    assert re.search(r"\d+, likely \d+\u2060–\u2060\d+", html)
    assert (
        '<span class="nowrap">2026-10-06</span> <span class="nowrap">19:54 UTC+04:00</span>' in html
    )
    # The recent matches scroll in a box that shows they go on.
    assert re.search(r'<div class="table-scroll"[^>]*>\s*<table class="matches">', html)


def test_the_ranking_links_back_to_its_club_and_seasons_and_keeps_30_days_whole(club):
    html = Client().get(f"/clubs/{club.slug}/ranking/").content.decode()
    assert f'<a href="/clubs/{club.slug}/">{club.name}</a>' in html
    assert f'<a href="/clubs/{club.slug}/seasons/">Seasons</a>' in html
    assert '<span class="nowrap">30 days</span>' in html
    assert re.search(r'<div class="table-scroll"[^>]*>\s*<table class="ranking">', html)


def test_the_club_page_links_to_the_team_leagues_it_plays_in(owner, club):
    playing = League.objects.create(name="Caucasus team league", organiser=owner, legs=["singles"])
    invited = League.objects.create(name="Black Sea league", organiser=owner, legs=["singles"])
    LeagueClub.objects.create(league=playing, club=club, accepted_at="2026-10-01T00:00:00Z")
    LeagueClub.objects.create(league=invited, club=club)  # not yet accepted: not played in
    html = Client().get(f"/clubs/{club.slug}/").content.decode()
    link = f'<a href="/leagues/{playing.pk}/" class="club-league">Team league: {playing.name}</a>'
    assert link in html
    assert f"/leagues/{invited.pk}/" not in html
    client = Client(headers={"accept-language": "ru"})
    russian = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Командная лига: Caucasus team league" in russian


def test_an_uploads_file_name_wraps_at_its_dots_and_dashes_not_inside_a_word(owner):
    upload = upload_create(
        uploader=owner,
        data=json.dumps({"format": "nothing"}).encode(),
        kind="json",
        filename="club-night-2026-11-27.fives.json",
    )
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    html = client.get(f"/uploads/{upload.pk}/").content.decode()
    assert "club-<wbr>night-<wbr>2026-<wbr>11-<wbr>27.<wbr>fives.<wbr>json" in html
    assert re.search(r'<span class="nowrap">\d+ bytes</span>', html)


def test_a_rating_charts_dates_sit_clear_of_the_lowest_rating():
    """At a phone's size the ticks are drawn 17 units high: the lowest rating's figure
    (baseline 4 below the axis) and the dates' tops (their baseline less a digit's height,
    about 0.73 of the size) must not meet."""
    from datetime import datetime, timedelta

    start = datetime(2026, 3, 1)
    history = [
        {"matches": n, "rating": 1490 + 10 * n, "played_at": start + timedelta(days=n)}
        for n in range(1, 21)
    ]
    chart = rating_chart(history)
    lowest = max(tick["y"] for tick in chart["y_ticks"])
    assert lowest == chart["bottom"]
    figure_bottom = lowest + 4
    date_top = chart["bottom"] + chart["date_dy"] - 0.73 * 17
    assert date_top - figure_bottom >= 3
    axis_name_top = chart["axis_y"] - 0.73 * 19
    assert axis_name_top - (chart["bottom"] + chart["date_dy"] + 3) >= 0
    assert chart["axis_y"] + 5 <= chart["height"]


# The layout, in chromium at a phone's size.


@pytest.fixture
def phone_in(browser, live_server):
    contexts = []

    def open_phone(language: str, user=None):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True
        )
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        if user is not None:
            client = Client()
            client.force_login(user, backend=MODEL_BACKEND)
            context.add_cookies(
                [
                    {
                        "name": "sessionid",
                        "value": client.cookies["sessionid"].value,
                        "url": live_server.url,
                    }
                ]
            )
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_a_wide_table_shows_it_goes_on_and_its_header_is_one_line(
    phone_in, live_server, owner, language
):
    for seed in range(1, 4):
        store_match(owner, ["Ana", "Beka"], seed=seed, played_at=f"2026-10-0{seed}T19:00:00Z")
    club = Club.objects.get(slug="tbilisi-fives-club")
    page = phone_in(language)
    page.goto(f"{live_server.url}/clubs/{club.slug}/ranking/")
    box = page.locator(".table-scroll").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # it does scroll on a phone
    style = box.evaluate(
        "e => { const s = getComputedStyle(e); return [s.backgroundAttachment, s.backgroundImage] }"
    )
    # The covers move with the content (local), the shadows stay at the edges (scroll).
    assert style[0].split(", ")[:4] == ["local", "local", "scroll", "scroll"], style
    assert style[1].count("radial-gradient") == 2, style
    # The table lets the shadows through.
    assert box.locator("table").evaluate("e => getComputedStyle(e).backgroundColor") in (
        "rgba(0, 0, 0, 0)",
        "transparent",
    )
    # No column's name folds into a tall empty band: the header row is one line high.
    header = box.locator("thead tr").evaluate("e => e.getBoundingClientRect().height")
    row = box.locator("tbody tr").first.evaluate("e => e.getBoundingClientRect().height")
    assert header <= row + 4, (header, row)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-polish-ranking-{language}.png"))
    box.evaluate("e => { e.scrollLeft = e.scrollWidth }")
    page.screenshot(path=str(ARTIFACTS / f"phone-polish-ranking-scrolled-{language}.png"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ka"])
def test_the_menus_sign_out_row_is_as_wide_as_the_others(phone_in, live_server, owner, language):
    page = phone_in(language, owner)
    page.goto(f"{live_server.url}/clubs/")
    page.locator("[data-menu-button]").click()
    link = page.locator("#menu > a").first.bounding_box()
    sign_out = page.locator("#menu button.link").bounding_box()
    assert link and sign_out
    assert abs(sign_out["width"] - link["width"]) < 1, (sign_out, link)
    assert abs(sign_out["x"] - link["x"]) < 1
    page.screenshot(path=str(ARTIFACTS / f"phone-polish-menu-{language}.png"))


@pytest.mark.django_db(transaction=True)
def test_form_controls_are_thumb_sized_with_16px_text(phone_in, live_server, owner):
    store_match(owner, ["Ana", "Beka"], seed=1, played_at="2026-10-01T19:00:00Z")
    page = phone_in("ru")
    page.goto(f"{live_server.url}/clubs/tbilisi-fives-club/ranking/")
    menu = page.locator("[data-menu-button]").bounding_box()
    for control in ("main form select", "main form button"):
        element = page.locator(control).first
        box = element.bounding_box()
        size = element.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert box and box["height"] >= 44 and size >= 16, (control, box, size)
    # The bar keeps its one line: the language choice and the Menu button side by side.
    language = page.locator("header.top select").bounding_box()
    assert menu and language and abs(menu["y"] - language["y"]) < 12


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ka"])
def test_the_rating_charts_lowest_figure_and_first_date_do_not_touch(
    phone_in, live_server, owner, language
):
    for seed in range(1, 9):
        store_match(owner, ["Ana", "Beka"], seed=seed, played_at=f"2026-10-0{seed}T19:00:00Z")
    ana = Player.objects.get(handle="Ana")
    page = phone_in(language)
    page.goto(f"{live_server.url}/players/{ana.pk}/")
    chart = page.locator(".rating-chart svg")
    figures = chart.locator("text.tick[text-anchor=end]")
    lowest = max(
        (figures.nth(i).bounding_box() for i in range(figures.count())), key=lambda b: b["y"]
    )
    first_date = chart.locator("text.tick[text-anchor=middle]").first.bounding_box()
    overlap_x = min(lowest["x"] + lowest["width"], first_date["x"] + first_date["width"]) - max(
        lowest["x"], first_date["x"]
    )
    gap_y = first_date["y"] - (lowest["y"] + lowest["height"])
    assert overlap_x <= 0 or gap_y >= 0, (lowest, first_date)
    page.locator(".rating-chart").screenshot(
        path=str(ARTIFACTS / f"phone-polish-rating-chart-{language}.png")
    )
