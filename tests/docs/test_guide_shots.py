# ruff: noqa: F811 (the browser fixture imported from test_georgian is an argument here)
"""The guides' screenshots are the product's own (issue 58, item 2).

``test_the_guides_pictures_in_each_language`` walks each guide's steps in chromium in the
crawl's world (tests/crawl/world.py: the demo's clubs, league, season, events, live tables),
in English, Russian and Georgian (the ``django_language`` cookie; ``make test`` walks one of
them a day, each in turn: ``walk_languages``), at a phone's size and a laptop's, and saves
every picture ``shots.py`` lists to ``test-artifacts/shots/<lang>/``;
with ``FIVES_SHOTS_WRITE=1`` (``make shots``) also to ``docs/img/shots/<lang>/``, where the
guides show them. The recorder's pictures are taken while a short match is tapped at the
table, as a club admin would.

The other tests read the guides: every picture a guide shows is one a test makes, in the
guide's language; and a Russian or Georgian guide shows no English message of the project's
catalogue outside names and code."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
from datetime import date

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.test import Client

from tests.crawl.browse import english_shown
from tests.test_georgian import browser  # noqa: F401 (the fixture: chromium, launched once)

from .shots import BY_NAME, LANGUAGES, NAMES, SHOTS, SIZES

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDES = ROOT / "docs" / "guides"
DOCS_SHOTS = ROOT / "docs" / "img" / "shots"
ARTIFACTS = ROOT / "test-artifacts" / "shots"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# A short match to record: muggins to 50, ended the moment a play reaches it; each language
# records its own (two or three hands, the first ending with tiles left in hand).
RECORDED = {"en": 7, "ru": 13, "ka": 19}
LOCALES = {"en": "en-GB", "ru": "ru-RU", "ka": "ka-GE"}
SEATS = ["Nino", "Giorgi"]


def guide_files() -> list[tuple[str, str, pathlib.Path]]:
    """(guide, language, path) of each guide page there is."""
    found = []
    for guide in sorted({shot.guide for shot in SHOTS}):
        for language in LANGUAGES:
            suffix = "" if language == "en" else f".{language}"
            path = GUIDES / f"{guide}{suffix}.md"
            if path.exists():
                found.append((guide, language, path))
    return found


PICTURE = re.compile(r"img/shots/(?P<lang>[a-z]{2})/(?P<name>[\w-]+)\.png")


def test_the_three_guides_are_written_in_three_languages():
    assert len(guide_files()) == 9, [str(p) for _g, _l, p in guide_files()]


def test_every_picture_of_a_guide_is_made_by_a_test():
    """A picture a guide shows is in the manifest, in the guide's language, and is there; a
    guide shows at least one picture of each of its steps' pages (here: of the manifest's
    pictures of that guide, every one)."""
    problems = []
    for guide, language, path in guide_files():
        text = path.read_text(encoding="utf-8")
        shown = set()
        for found in PICTURE.finditer(text):
            name, lang = found["name"], found["lang"]
            shown.add(name)
            if name not in BY_NAME:
                problems.append(f"{path.name}: {name} is no test's picture (tests/docs/shots.py)")
            if lang != language:
                problems.append(f"{path.name}: {name} in {lang}, not the page's {language}")
            if not (DOCS_SHOTS / lang / f"{name}.png").exists():
                problems.append(f"{path.name}: docs/img/shots/{lang}/{name}.png is missing")
        wanted = {shot.name for shot in SHOTS if shot.guide == guide}
        if wanted - shown:
            problems.append(f"{path.name} shows none of {sorted(wanted - shown)}")
    for png in DOCS_SHOTS.glob("*/*.png"):
        if png.stem not in BY_NAME or png.parent.name not in LANGUAGES:
            problems.append(f"{png.relative_to(ROOT)} is no test's picture")
    assert problems == []


CODE_BLOCK = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)


def guide_texts(text: str) -> list[str]:
    """The words a reader reads in a guide's Markdown: no code, no addresses, cut at the
    Markdown's marks (each piece a text, as a page's text nodes are)."""
    text = HTML_COMMENT.sub(" ", CODE_BLOCK.sub(" ", text))
    text = CODE_SPAN.sub(" ", LINK_TARGET.sub("]", text))
    text = re.sub(r"https?://\S+", " ", text)
    return [t.strip() for t in re.split(r"[\n*_\[\]|#>!]+", text) if t.strip()]


def test_the_english_check_of_a_guide_finds_a_message_but_not_code_or_a_name():
    text = "Нажмите **Sign in**, затем `Sign in` и [Войти](../x.md).\n\nКлуб Tbilisi Fives Club"
    assert english_shown(guide_texts(text), "ru", NAMES) == ["Sign in"]


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_a_russian_or_georgian_guide_shows_no_english_message(language):
    found = {}
    for _guide, lang, path in guide_files():
        if lang == language:
            shown = english_shown(guide_texts(path.read_text(encoding="utf-8")), lang, NAMES)
            if shown:
                found[path.name] = shown
    assert found == {}


class Walk:
    """One chromium, a page for each role and size, its language set by the cookie."""

    def __init__(self, browser, base_url: str, people: dict):
        self.browser = browser
        self.base_url = base_url
        self.people = people
        self.pages: dict[tuple[str, str], object] = {}
        self.language = "en"
        self.recorder = None  # the recorder's page, kept across languages (its engine cached)
        self.written = os.environ.get("FIVES_SHOTS_WRITE") == "1"
        self.taken: list[str] = []

    def language_set(self, language: str) -> None:
        """Pages of ``language`` from now on: a browser of that locale too (a date field's
        format is the browser's), but for the recorder's phone."""
        self.language = language
        for key, page in list(self.pages.items()):
            if page is not self.recorder:
                page.context.close()
                del self.pages[key]

    def page(self, role: str, size: str):
        key = (role, size)
        if key not in self.pages:
            context = self.browser.new_context(
                locale=LOCALES[self.language],
                viewport=SIZES[size],
                is_mobile=size == "phone",
                has_touch=size == "phone",
                timezone_id="Asia/Tbilisi",
                reduced_motion="reduce",
            )
            user = self.people.get(role)
            if user is not None:
                client = Client()
                client.force_login(user, backend=MODEL_BACKEND)
                assert client.session[BACKEND_SESSION_KEY] == MODEL_BACKEND
                session = client.cookies["sessionid"].value
                context.add_cookies([{"name": "sessionid", "value": session, "url": self.base_url}])
            self.pages[key] = context.new_page()
        page = self.pages[key]
        page.context.add_cookies(
            [{"name": "django_language", "value": self.language, "url": self.base_url}]
        )
        return page

    def open(self, page, address: str) -> None:
        answer = page.goto(self.base_url + address, wait_until="load")
        assert answer is not None and answer.status < 400, (address, answer and answer.status)
        assert page.evaluate("document.documentElement.lang") == self.language, address

    def save(self, page, name: str, part: str = "") -> None:
        path = ARTIFACTS / self.language / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if part:
            page.locator(part).first.screenshot(path=str(path), animations="disabled")
        else:
            page.screenshot(path=str(path), animations="disabled")
        if self.written:
            kept = DOCS_SHOTS / self.language / f"{name}.png"
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, kept)
        self.taken.append(f"{self.language}/{name}")

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


def record_a_match(walk: Walk, language: str, expect) -> None:
    """The recording guide's steps, tapped: set up, a few moves and an undo, the tiles left
    at the hand's end, the next hand's leader, the match over and saved."""
    from fives_engine import to_table_record
    from fives_engine.simulate import simulate_match
    from tests.crawl.world import FIRST
    from tests.recorder.helpers import Recorder

    ruleset = {"base": "muggins", "target": 50, "end_at_target": "immediately"}
    doc = to_table_record(simulate_match(ruleset, 2, seed=RECORDED[language], names=SEATS))
    page = walk.recorder = walk.page("club admin", "phone")
    walk.open(page, "/record/")
    table = Recorder(page, expect)
    table.ready()
    page.select_option("#club", value=FIRST)
    page.select_option("#ruleset", value="muggins")
    page.select_option("#target", value="50")
    page.locator("#at-once").check()
    page.locator("input[name=count][value='2']").check()
    for seat, name in enumerate(SEATS):
        page.fill(f"#seat-{seat}", name)
    page.select_option("#first-leader", index=doc["hands"][0]["leader"])
    page.locator("#start").scroll_into_view_if_needed()
    walk.save(page, "recording-setup")
    table.tap("#start")
    expect(page.locator("#table")).to_be_visible()
    first = doc["hands"][0]
    for move in first["moves"][:4]:
        table.move(move)
    walk.save(page, "recording-table")
    # Undo the last move, and tap it again.
    table.tap("#undo")
    walk.save(page, "recording-undo")
    table.move(first["moves"][3])
    for move in first["moves"][4:]:
        table.move(move)
    expect(page.locator("#left-heading")).to_be_visible()
    walk.save(page, "recording-left")
    table.show_left(first["left"])
    expect(page.locator("#next")).to_be_visible()
    page.locator("#next-hand").scroll_into_view_if_needed()
    walk.save(page, "recording-next-hand")
    for index, hand in enumerate(doc["hands"][1:], start=1):
        table.hand(index, hand)
    expect(page.locator("#over")).to_be_visible()
    page.locator("#save").scroll_into_view_if_needed()
    walk.save(page, "recording-over")
    table.tap("#save")
    expect(page.locator("#saved")).to_be_visible(timeout=30000)
    # Sent: the phone's word that it waits for the network gives way to the stored match.
    expect(page.locator("#saved a")).to_be_visible(timeout=30000)
    page.locator("#saved").scroll_into_view_if_needed()
    walk.save(page, "recording-saved")
    table.no_error()


SCHEDULED = date(2027, 1, 14)


def league_to_schedule():
    """A league whose clubs have their teams and no fixture yet: the demo league's clubs,
    invited, accepted and given the same rosters, as its organiser would (crawl/world.py)."""
    from competitions.league_services import league_accept, league_invite, league_make, team_make
    from competitions.models import League

    demo = League.objects.get(name="Caucasus team league")
    league = league_make(
        actor=demo.organiser, name="Winter league", legs=["singles", "singles", "pairs"]
    )
    for old in demo.teams.order_by("pk"):
        league_invite(actor=demo.organiser, league=league, club=old.club)
        league_accept(actor=old.club.owner, league=league, club=old.club)
        team_make(
            actor=demo.organiser,
            league=league,
            club=old.club,
            name=old.name,
            player_ids=list(old.roster.values_list("pk", flat=True)),
            captain_ids=list(old.captains.values_list("pk", flat=True)),
        )
    return league


@pytest.mark.django_db(transaction=True)
def test_the_guides_pictures_in_each_language(browser, live_server, settings, tmp_path):
    from playwright.sync_api import expect

    from tests.crawl.world import people_make, world_build
    from tests.recorder.helpers import quiet

    settings.FIVES_LIVE_STREAMS = False  # polling: the test's server is WSGI (test_crawl.py)
    settings.FIVES_DATA_ROOT = tmp_path
    people = people_make()
    world = world_build()
    league = league_to_schedule()
    world.add("competitions:league-schedule", "teams, no fixture", league.pk)
    addresses: dict[tuple[str, str], str] = {}
    for url_name, pairs in world.addresses.items():
        for state, address in pairs:
            addresses.setdefault((url_name, state), address)
    walk = Walk(browser, live_server.url, people)
    try:
        for language in walk_languages(walk.written):
            walk.language_set(language)
            for shot in SHOTS:
                if shot.page is None:
                    continue
                page = walk.page(shot.role, shot.size)
                address = shot.page if isinstance(shot.page, str) else addresses[shot.page]
                walk.open(page, address)
                if shot.submit:
                    form = page.locator(shot.submit)
                    for field in form.locator("input[type=date]").all():
                        if not field.input_value():
                            field.fill(SCHEDULED.isoformat())
                    form.locator("[type=submit]").click()
                    page.wait_for_load_state("load")
                if shot.scroll:
                    # The part's top at the screen's top (the page's own header is not fixed).
                    page.locator(shot.scroll).first.evaluate(
                        "el => el.scrollIntoView({block: 'start'})", timeout=5000
                    )
                walk.save(page, shot.name, shot.part)
            record_a_match(walk, language, expect)
    finally:
        for page in walk.pages.values():
            quiet(page.context)
        walk.close()
    languages = walk_languages(walk.written)
    wanted = {f"{language}/{shot.name}" for language in languages for shot in SHOTS}
    assert set(walk.taken) == wanted


def walk_languages(written: bool) -> tuple[str, ...]:
    """Every language for ``make shots``; in ``make test``, one, the day's (each in turn, day
    by day): the walk is the same in each, and the three took 80 to 100 s of the suite's
    CPU on a machine it keeps busy (the other tests read every guide in each language)."""
    if written:
        return LANGUAGES
    return (LANGUAGES[date.today().toordinal() % len(LANGUAGES)],)
