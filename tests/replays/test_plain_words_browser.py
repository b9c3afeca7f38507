"""What the tour as a new user found, read on a phone (390x844, Debian's chromium) in English
and Georgian: seats counted from 1 on the match page, a fixture's "to play" a status and not a
button, the rating and its uncertainty in plain words (no openskill, μ or σ), and the upload
form's file field in the page's language (not the browser's "Choose File"), usable by keyboard
and without scripts. Screenshots in test-artifacts/plain-words-*.png, looked at."""

from __future__ import annotations

import json
import os
import pathlib
import re
from datetime import date

import pytest
from django.test import Client
from playwright.sync_api import expect

from clubs.models import Club
from competitions.seasons import season_open
from competitions.tournaments import tournament_make
from games.models import Player
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["Ana", "Beka", "Ciko", "Dato"]
LANGUAGES = ["en", "ka"]


def phone_in(browser, live_server, language, user=None, **options):
    """A phone's browser reading the archive in ``language``, signed in as ``user``."""
    context = browser.new_context(**PHONE, **options, base_url=live_server.url)
    cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
    if user is not None:
        client = Client()
        client.force_login(user, backend=MODEL_BACKEND)
        session = client.cookies["sessionid"].value
        cookies.append({"name": "sessionid", "value": session, "url": live_server.url})
    context.add_cookies(cookies)
    return context


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"plain-words-{name}.png"), full_page=True)


@pytest.fixture
def four(owner):
    """Four players' matches in the Tbilisi club: each rated, the last of four seats."""
    for seed in range(1, 4):
        store_match(owner, NAMES[:2], seed=seed, played_at=f"2026-09-{seed:02d}T16:00:00Z")
    return store_match(owner, NAMES, seed=9, played_at="2026-09-09T16:00:00Z")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_match_page_counts_seats_from_one(browser, live_server, four, language):
    context = phone_in(browser, live_server, language)
    page = context.new_page()
    page.goto(f"/matches/{four.pk}/")
    seats = page.locator("dl.facts dd").filter(has_text="Dato").first
    shown = re.sub(r"\s+", " ", seats.inner_text())
    assert shown.startswith("1: Ana; 2: Beka; 3: Ciko; 4: Dato"), shown
    page.locator("dl.facts").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"plain-words-match-seats-{language}.png"))
    # The replay marks whose turn it is as a status: a tinted row, not a control.
    page.goto(f"/matches/{four.pk}/#h1m2")
    turn = page.locator("#hands .seat.to-play")
    expect(turn).to_have_count(1)
    look = turn.evaluate(
        """(n) => { const s = getComputedStyle(n);
        return [s.borderTopStyle, s.boxShadow, s.cursor, n.tagName]; }"""
    )
    assert look == ["none", "none", "auto", "DIV"]
    page.locator("#hands").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"plain-words-replay-turn-{language}.png"))
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fixture_to_play_reads_as_a_status_not_a_button(
    browser, live_server, owner, four, language
):
    club = Club.objects.get(slug="tbilisi-fives-club")
    season = season_open(
        actor=owner,
        club=club,
        name="Autumn 2026",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 11, 30),
    )
    ids = list(Player.objects.filter(club=club, handle__in=NAMES).values_list("pk", flat=True))
    event = tournament_make(
        actor=owner,
        season=season,
        name="Friday night",
        kind="round-robin",
        first_day=date(2026, 10, 9),
        last_day=date(2026, 10, 9),
        player_ids=ids,
    )
    context = phone_in(browser, live_server, language)
    page = context.new_page()
    page.goto(f"/clubs/{club.slug}/events/{event.pk}/")
    tag = page.locator(".fixture.to-play .tag").first
    expect(tag).to_be_visible()
    look = tag.evaluate(
        """(n) => { const s = getComputedStyle(n);
        return {border: s.borderTopStyle, width: s.borderTopWidth, shadow: s.boxShadow,
                cursor: s.cursor, role: n.getAttribute('role'), tag: n.tagName}; }"""
    )
    assert look == {
        "border": "none",
        "width": "0px",
        "shadow": "none",
        "cursor": "auto",
        "role": None,
        "tag": "SPAN",
    }
    assert tag.inner_text() == ("to play" if language == "en" else "სათამაშოა")
    tag.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"plain-words-to-play-{language}.png"))
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rating_and_its_likely_range_are_in_plain_words(browser, live_server, four, language):
    club = Club.objects.get(slug="tbilisi-fives-club")
    ana = Player.objects.get(club=club, handle="Ana")
    context = phone_in(browser, live_server, language)
    page = context.new_page()
    page.goto(f"/players/{ana.pk}/")
    rating = page.locator("#stat-rating").inner_text()
    word = "likely" if language == "en" else "სავარაუდოდ"
    # Its value, then the range about it (word joiners keep the range whole).
    assert re.fullmatch(rf"\d+, {word} \d+\u2060–\u2060\d+( \(.+\))?", rating), rating
    page.locator("#stat-rating").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"plain-words-player-{language}.png"))
    page.goto(f"/clubs/{club.slug}/ranking/")
    words = page.locator("#rating-words").inner_text()
    assert "1500" in words
    for raw in ("openskill", "μ", "σ", "Plackett"):
        assert raw not in page.locator("main").inner_text()
    shot(page, f"ranking-{language}")
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_upload_forms_file_field_speaks_the_pages_language(
    browser, live_server, owner, tmp_path, language
):
    context = phone_in(browser, live_server, language, owner)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/uploads/new/")
    native = page.locator("input[type=file]")
    button = page.locator("label.file-button")
    name = page.locator(".file-name")
    choose, none = {
        "en": ("Choose a file", "No file chosen"),
        "ka": ("ფაილის არჩევა", "ფაილი არ არის არჩეული"),
    }[language]
    expect(button).to_have_text(choose)
    expect(name).to_have_text(none)
    assert button.get_attribute("for") == native.get_attribute("id")
    # The browser's own button (its "Choose File") is out of sight, not out of reach.
    assert native.bounding_box()["width"] <= 1
    assert native.evaluate("(n) => getComputedStyle(n).display") != "none"
    expect(native).to_have_accessible_name(re.compile(re.escape(choose)))
    # The keyboard reaches the input, and its button shows the focus.
    page.locator("#id_text").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "file"
    outline = button.evaluate("(n) => getComputedStyle(n).outlineStyle")
    assert outline == "solid"
    shot(page, f"upload-focus-{language}")
    # A file chosen is named beside the button, and sent with the form.
    doc = tmp_path / "night.json"
    doc.write_text(json.dumps({"not": "a match"}))
    native.set_input_files(str(doc))
    expect(name).to_have_text("night.json")
    shot(page, f"upload-chosen-{language}")
    assert errors == []
    context.close()


def test_without_scripts_the_browsers_own_file_input_shows(browser, live_server, owner):
    context = phone_in(browser, live_server, "ka", owner, java_script_enabled=False)
    page = context.new_page()
    page.goto("/uploads/new/")
    native = page.locator("input[type=file]")
    assert native.bounding_box()["width"] > 50
    expect(page.locator("label.file-button")).to_be_hidden()
    expect(page.locator(".file-name")).to_be_hidden()
    shot(page, "upload-no-scripts-ka")
    context.close()
