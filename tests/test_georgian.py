"""Georgian done right: no page in Georgian shows a Mtavruli letter (Django's ``capfirst``
makes one of a Georgian label's first letter; Georgian writes no capitals and chromium draws
them as boxes), and no Georgian text glues a case ending onto a name someone typed ("კლუბი-ის
მართვა"): a name is shown as written, its sentence built around it.

The pages are rendered in Georgian for a club, players and a user with Georgian names, by the
test client and by Debian's chromium (which reads the text as shown, ``innerText``)."""

from __future__ import annotations

import html
import os
import pathlib
import re
import shutil

import pytest
from django.test import Client, RequestFactory

from clubs.capitals import MTAVRULI, capfirst, mtavruli_count
from tests.clubs.conftest import log, send

pytestmark = pytest.mark.django_db

CHROMIUM = os.environ.get("FIVES_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "test-artifacts"
ROOT = pathlib.Path(__file__).resolve().parents[1]
CLUB = "თბილისის ხუთების კლუბი"
SLUG = "tbilisi-khutebi"
PLAYERS = ("ნინო", "გიორგი")
USER = "თამარი"
# A case ending glued to a name: the name, a hyphen, a Georgian letter ("კლუბი-ის").
GLUED = r"-[\u10d0-\u10ff]"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"  # who a session's user is
# Playwright's sync API runs an event loop in this thread; the ORM calls of the test itself
# are plain synchronous code and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def club_night(django_user_model):
    """Tamar's Georgian club with two matches of Nino and Giorgi; return the page paths."""
    from clubs.services import club_create, invitation_create
    from games.models import Match

    tamar = django_user_model.objects.create_user(USER, password="a-long-password-7")
    club = club_create(owner=tamar, name=CLUB, slug=SLUG, language="ka")
    upload = send(tamar, log(1, PLAYERS, club=CLUB), log(2, PLAYERS, club=CLUB))
    match = Match.objects.filter(club=club).first()
    invitation = invitation_create(actor=tamar, club=club)
    player = club.players.get(handle=PLAYERS[0])
    signed_in = [
        "/",
        "/clubs/",
        "/clubs/new/",
        f"/clubs/{SLUG}/",
        f"/clubs/{SLUG}/settings/",
        f"/clubs/{SLUG}/manage/",
        f"/clubs/{SLUG}/audit/",
        f"/clubs/{SLUG}/ranking/",
        "/uploads/",
        "/uploads/new/",
        f"/uploads/{upload.pk}/",
        "/settings/tokens/",
        f"/matches/{match.pk}/",
        "/record/",
        f"/players/{player.pk}/",
    ]
    signed_out = ["/accounts/login/", "/accounts/signup/"]
    levan = django_user_model.objects.create_user("ლევანი", password="a-long-password-8")
    return {tamar: signed_in, None: signed_out, levan: [f"/join/{invitation.token}/"]}


def pages_in_georgian(club_night) -> dict[str, str]:
    """Each page of the club night as each of its readers gets it in Georgian."""
    pages = {}
    for user, paths in club_night.items():
        client = Client()
        if user is not None:
            client.force_login(user, backend=MODEL_BACKEND)
        pages |= {path: in_georgian(client, path) for path in paths}
    return pages


def in_georgian(client: Client, path: str) -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="ka")
    assert response.status_code == 200, (path, response.status_code)
    assert response["Content-Language"] == "ka"
    return html.unescape(response.content.decode())


def mtavruli_in(text: str) -> list[str]:
    """Each Mtavruli letter of ``text`` with what stands around it."""
    return [text[max(0, i - 40) : i + 20] for i, char in enumerate(text) if ord(char) in MTAVRULI]


def test_capfirst_capitalises_every_script_but_georgian():
    assert capfirst("name") == "Name"
    assert capfirst("имя") == "Имя"
    assert capfirst("სახელი") == "სახელი"
    assert capfirst("") == ""
    assert mtavruli_count("Სახელი") == 1


def test_no_georgian_page_shows_a_mtavruli_letter(club_night):
    found = {path: mtavruli_in(page) for path, page in pages_in_georgian(club_night).items()}
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_the_labels_of_the_model_forms_keep_their_georgian_first_letter(club_night):
    tamar = next(iter(club_night))
    client = Client()
    client.force_login(tamar, backend=MODEL_BACKEND)
    page = in_georgian(client, "/clubs/new/")
    assert '<label for="id_name">სახელი:</label>' in page
    page = in_georgian(Client(), "/accounts/login/")
    assert '<label for="id_username">მომხმარებლის სახელი:</label>' in page
    page = in_georgian(Client(), "/accounts/signup/")
    assert '<label for="id_username">მომხმარებლის სახელი:</label>' in page


def test_the_locked_out_sign_in_page_has_no_mtavruli_either(settings):
    from django.utils import translation

    from games.views import signin_locked_out

    request = RequestFactory().get("/accounts/login/")
    with translation.override("ka"):
        page = html.unescape(signin_locked_out(request).content.decode())
    assert "მომხმარებლის სახელი:" in page
    assert mtavruli_in(page) == []


def test_an_english_label_still_begins_with_a_capital(club_night):
    tamar = next(iter(club_night))
    client = Client()
    client.force_login(tamar, backend=MODEL_BACKEND)
    page = client.get("/clubs/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<label for="id_name">Name:</label>' in page
    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<label for="id_username">Username:</label>' in page


def test_no_georgian_page_glues_a_case_ending_onto_a_typed_name(club_night):
    names = [CLUB, *PLAYERS, USER]
    pages = pages_in_georgian(club_night)
    glued = {
        path: re.findall(f".{{0,30}}(?:{'|'.join(map(re.escape, names))}){GLUED}.{{0,20}}", page)
        for path, page in pages.items()
    }
    assert {path: found for path, found in glued.items() if found} == {}
    # The titles name the club as written.
    assert "კლუბის მართვა: თბილისის ხუთების კლუბი" in pages[f"/clubs/{SLUG}/manage/"]
    assert "კლუბის რეიტინგი: თბილისის ხუთების კლუბი" in pages[f"/clubs/{SLUG}/ranking/"]


# The placeholders that stand for a name someone typed: a player, a club, a user.
NAMES = "player|partner|holder|turn_player|user|username|club|name|source|target|person|handle"


def catalogue(language: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of each entry of a language's catalogue."""
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text()
    entries = []
    for block in text.split("\n\n"):
        if "\nmsgstr" not in block or block.lstrip().startswith("#~"):
            continue
        head, tail = block.split("\nmsgstr", 1)
        msgid = "".join(re.findall(r'"(.*)"', head.split("msgid", 1)[1]))
        msgstr = "".join(re.findall(r'"(.*)"', tail))
        entries.append((msgid, msgstr))
    return entries


def test_no_georgian_text_declines_a_typed_name():
    glued = re.compile(rf"%\((?:{NAMES})\)s{GLUED}|\{{(?:{NAMES})\}}{GLUED}")
    declined = [(msgid, msgstr) for msgid, msgstr in catalogue("ka") if glued.search(msgstr)]
    assert declined == []


def test_every_georgian_text_keeps_the_placeholders_of_its_english():
    for msgid, msgstr in catalogue("ka"):
        if msgstr and "%(" in msgid:
            want = sorted(set(re.findall(r"%\(\w+\)[sd]", msgid)))
            assert sorted(set(re.findall(r"%\(\w+\)[sd]", msgstr))) == want, msgid


# --- in chromium --------------------------------------------------------------------------

# The text of labels, headings, buttons and links as chromium shows it (innerText applies the
# styles, text-transform included).
SHOWN_TEXTS = """() => [...document.querySelectorAll(
    'label, h1, h2, h3, legend, button, a, th, summary, option, title, input[type=submit]'
  )].map(node => node.innerText || node.value || node.textContent || '')"""


@pytest.fixture
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("FIVES_REQUIRE_BROWSER") == "1":
            pytest.fail(f"FIVES_REQUIRE_BROWSER=1 but there is no {CHROMIUM}")
        pytest.skip(f"needs Debian's chromium at {CHROMIUM} (make browser installs it)")
    from playwright.sync_api import sync_playwright

    from tests.recorder.helpers import launch

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.mark.django_db(transaction=True)
def test_chromium_shows_no_label_of_a_georgian_page_in_mtavruli(browser, live_server, club_night):
    tamar = next(iter(club_night))
    client = Client()
    client.force_login(tamar, backend=MODEL_BACKEND)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ka-GE", is_mobile=True, has_touch=True
    )
    session = client.cookies["sessionid"].value
    context.add_cookies(
        [
            {"name": "django_language", "value": "ka", "url": live_server.url},
            {"name": "sessionid", "value": session, "url": live_server.url},
        ]
    )
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    shown = {}
    for path in ["/clubs/new/", f"/clubs/{SLUG}/manage/", "/uploads/new/", "/accounts/signup/"]:
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate("document.documentElement.lang") == "ka"
        texts = page.evaluate(SHOWN_TEXTS)
        assert any(re.search(r"[\u10d0-\u10ff]", text) for text in texts), path  # Georgian
        shown[path] = [text for text in texts if mtavruli_count(text)]
        if path == "/clubs/new/":
            page.screenshot(path=str(ARTIFACTS / "georgian-club-form.png"), full_page=True)
    context.close()
    assert {path: texts for path, texts in shown.items() if texts} == {}


# --- the API's documentation ----------------------------------------------------------------


def schema_words(language: str) -> list[tuple[str, str]]:
    """(where, text) of each description, summary and title of the schema in ``language``."""
    import json

    answer = Client().get(
        f"/api/schema/?lang={language}", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert answer.status_code == 200
    words = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("description", "summary", "title") and isinstance(value, str):
                    words.append((f"{where}/{key}", value))
                else:
                    walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(json.loads(answer.content), "")
    return words


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_the_api_schema_is_written_in_the_readers_language(language):
    english = dict(schema_words("en"))
    translated = dict(schema_words(language))
    # (A title appears where a field's name differs from its verbose_name, which varies by
    # language.) Every description and summary of ours is translated (a docstring's translation is a
    # catalogue entry of its own: a changed docstring needs it again); empty ones and the
    # lists of choices (translated by the choices themselves) aside.
    untranslated = sorted(
        {
            text
            for where, text in english.items()
            if text.strip()
            and not text.startswith("* `")
            and not where.endswith("/title")
            and translated.get(where, text) == text
        }
    )
    assert untranslated == []
    if language == "ka":
        assert [text for text in translated.values() if mtavruli_count(text)] == []
        assert translated["/info/title"] == "ხუთივეს არქივის API"


def test_the_api_docs_page_is_in_the_readers_language():
    page = Client().get("/api/docs/", HTTP_ACCEPT_LANGUAGE="ka").content.decode()
    assert '<html lang="ka">' in page
    assert "<title>ხუთივეს არქივის API</title>" in page
    assert '"/api/schema/?lang\\u003Dka"' in page  # the schema in the page's language
    page = Client().get("/api/docs/?lang=ru", HTTP_ACCEPT_LANGUAGE="ka").content.decode()
    assert '"/api/schema/?lang\\u003Dru"' in page
