"""The words, held by rules where a rule can be written (issue 36, item 8): one word for a
match in each language (Russian «матч», never «партия»; Georgian "მატჩი", never "პარტია"); no
Georgian case ending glued onto a date, a time zone or a moment ("(Asia/Tbilisi)-მდე",
"21.ნოე.2026-დან"); quotes nested as Russian nests them („…“ inside «…»: a name, which may
hold its own «…», is never put inside «…»); times in 24-hour form in Georgian and Russian;
Django's and DRF's own strings that read wrongly in Georgian overridden in our locale; the
recorder's refusal says its point once."""

from __future__ import annotations

import html
import re
from datetime import date, time

import pytest
from django.test import Client
from django.utils import formats, translation

from tests.test_georgian import catalogue

# A name someone typed, which may hold its own quotes ("Клуб домино «Пятёрочка»").
NAMES = "club|team|league|name|handle|event|merged|into|before|after|player|person|user"
# A day, a moment or a zone: a Georgian ending glued on reads "21.ნოე.2026-დან".
MOMENTS = "expires|first|last|day|date|zone|time|when|start|until|since|played|moment"
GLUED = r"-[\u10d0-\u10ff]"


def msgstrs(language: str) -> list[tuple[str, str]]:
    return [(msgid, msgstr) for msgid, msgstr in catalogue(language) if msgstr]


@pytest.mark.parametrize(
    ("language", "other_word"),
    [("ru", r"(?i)\bпарти[яиюей]\w*"), ("ka", r"პარტი[\u10d0-\u10ff]*")],
)
def test_a_match_is_called_by_one_word_in_each_language(language, other_word):
    found = [entry for entry in msgstrs(language) if re.search(other_word, entry[1])]
    assert found == []


def test_the_one_word_is_the_one_the_catalogue_uses_for_match():
    assert dict(catalogue("ru"))["match"] == "матч"
    assert dict(catalogue("ru"))["matches"] == "матчи"
    assert dict(catalogue("ka"))["match"] == "მატჩი"


def test_no_georgian_ending_is_glued_onto_a_moment_a_zone_or_a_bracket():
    glued = re.compile(rf"%\((?:{MOMENTS})\)s{GLUED}|\{{(?:{MOMENTS})\}}{GLUED}|\){GLUED}")
    assert [(msgid, msgstr) for msgid, msgstr in msgstrs("ka") if glued.search(msgstr)] == []


def test_russian_never_puts_a_name_inside_its_own_kind_of_quotes():
    quoted = re.compile(rf"«%\((?:{NAMES})\)s»|«\{{(?:{NAMES})\}}»")
    assert [(msgid, msgstr) for msgid, msgstr in msgstrs("ru") if quoted.search(msgstr)] == []
    # Nor do our own words nest «…» in «…»: the inner quotes are „…“.
    nested = re.compile(r"«[^»]*«")
    assert [(msgid, msgstr) for msgid, msgstr in msgstrs("ru") if nested.search(msgstr)] == []


@pytest.mark.django_db
def test_a_club_named_with_quotes_is_shown_with_no_nested_guillemets(django_user_model):
    from clubs.services import club_create

    owner = django_user_model.objects.create_user("olga", password="a-long-password-9")
    club = club_create(owner=owner, name="Клуб домино «Пятёрочка»", slug="pyatyorochka")
    client = Client()
    client.force_login(owner, backend="django.contrib.auth.backends.ModelBackend")
    for path in [f"/clubs/{club.slug}/ranking/", f"/clubs/{club.slug}/manage/"]:
        page = html.unescape(client.get(path, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert "Клуб домино «Пятёрочка»" in page, path
        assert re.findall(r"«[^»<]*«", page) == [], path


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_times_are_written_in_24_hour_form(language):
    with translation.override(language):
        assert formats.time_format(time(10, 0)) == "10:00"
        assert formats.time_format(time(22, 5)) == "22:05"
        assert "m." not in formats.date_format(time(22, 5), "TIME_FORMAT")
        if language == "ka":  # a day in figures: no abbreviated month for an ending to cling to
            assert formats.date_format(date(2026, 11, 21), "SHORT_DATE_FORMAT") == "21.11.2026"


@pytest.mark.django_db
def test_the_apis_not_found_is_said_in_georgian():
    answer = Client().get("/api/v1/matches/987654/", HTTP_ACCEPT_LANGUAGE="ka")
    assert answer.status_code == 404
    text = answer.content.decode()
    assert "ვერ მოიძებნა." in text and "Not found" not in text
    answer = Client().get("/api/v1/matches/987654/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Не найдено." in answer.content.decode()


@pytest.mark.django_db
def test_djangos_own_georgian_help_on_the_sign_up_page_reads_rightly():
    page = html.unescape(
        Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="ka").content.decode()
    )
    assert "არაუმეტეს 150 სიმბოლოსი" in page
    assert "150 სიმბოლ " not in page  # Django's own: a word cut short
    assert "ძალიან გავს" not in page  # Django's own: a help that reads as a refusal
    assert "პაროლი უნდა შეიცავდეს მინიმუმ 8 სიმბოლოს." in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_club_form_explains_its_address_with_an_example(django_user_model, language):
    user = django_user_model.objects.create_user("tamar", password="a-long-password-7")
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    page = html.unescape(client.get("/clubs/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert "<slug>" not in page
    assert "/clubs/tbilisi-fives/" in page


@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_the_recorders_refusal_of_a_tile_that_fits_nowhere_says_it_once(language):
    """The recorder shows a refusal as its title, a colon and its message: "The tile fits no
    open end: 6-6 matches no open end" said it twice. (Other codes' titles still echo words of
    their messages, as a heading does; this one repeated the whole point.)"""
    from fives_engine.codes import MESSAGES, Code
    from games.presentation import ERROR_TITLES

    def words(text: str) -> set[str]:
        text = re.sub(r"%\(\w+\)s", " ", text.lower())
        return {word for word in re.findall(r"\w+", text) if len(word) > 3}

    with translation.override(language):
        title = str(ERROR_TITLES[Code.NO_MATCH])
        message = translation.gettext(MESSAGES[Code.NO_MATCH][""])
    assert words(title) & words(message) == set(), (title, message)


def drf_field_messages() -> dict[str, object]:
    """Every message of the REST framework's fields, relations and serializers (their
    ``default_error_messages``) and validators, by its English, as lazy translations."""
    from rest_framework import fields, relations, serializers, validators

    found: dict[str, object] = {}
    for module in (fields, relations, serializers):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, fields.Field):
                for kind in value.__mro__:
                    for message in getattr(kind, "default_error_messages", {}).values():
                        with translation.override("en"):
                            found[str(message)] = message
    for kind in (validators.UniqueValidator, validators.UniqueTogetherValidator):
        with translation.override("en"):
            found[str(kind.message)] = kind.message
    return found


def test_every_message_of_the_rest_frameworks_fields_is_said_in_georgian():
    """The REST framework ships no Georgian: a Georgian API error carried its English field
    message in a Georgian envelope (issue 56, item 7). Each is in our catalogue."""
    messages = drf_field_messages()
    with translation.override("ka"):
        english = [text for text, message in messages.items() if str(message) == text]
        unscripted = [
            str(m) for m in messages.values() if not re.search(r"[\u10d0-\u10ff]", str(m))
        ]
    print(f"{len(messages)} messages of the REST framework's fields, {len(english)} in English")
    assert len(messages) > 40
    assert english == [] and unscripted == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ka", "თარიღის ფორმატი არასწორია. გამოიყენეთ ერთ-ერთი ამ ფორმატთაგან: YYYY-MM-DD."),
        ("ru", "Неверный формат даты. Используйте один из этих форматов: YYYY-MM-DD."),
    ],
)
def test_an_api_field_error_is_said_in_the_readers_language(owner, language, said):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    answer = api.post(
        "/api/v1/clubs/tbilisi-fives-club/seasons/",
        {"name": "Autumn", "first_day": "15/12/2026", "last_day": "2026-12-30"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 400 and answer["Content-Language"] == language
    error = answer.json()["error"]
    assert error["fields"]["first_day"] == [said]
    assert "Date has wrong format" not in answer.content.decode()


@pytest.mark.parametrize(("language", "day"), [("en", "2026-03-02"), ("ka", "02.03.2026")])
def test_the_rating_charts_dates_are_written_as_the_readers_language_writes_a_day(language, day):
    from datetime import datetime, timedelta

    from replays.charts import rating_chart

    start = datetime(2026, 3, 1)
    history = [
        {"matches": n, "rating": 1490 + 10 * n, "played_at": start + timedelta(days=n)}
        for n in range(1, 5)
    ]
    with translation.override(language):
        chart = rating_chart(history)
    assert chart["date_ticks"][0]["label"] == day
    assert f", {day}: " in chart["points"][0]["title"]
