"""The presets and options are one table, the engine's (``engine/fives_engine/rules.py``): the
archive's lists and filters, the club's default ruleset, the API's choices, the rules in
words and the translations' sources all read it. A preset made here, in the tests only,
shows it: added to the table at run time, it is in every list, its logs are checked, stored
and listed, and the models need no migration."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import get_resolver
from django.utils import translation
from rest_framework.test import APIClient

from clubs.forms import ClubForm
from clubs.models import Club
from fives_engine import PRESETS
from fives_engine.rules import OPTIONS, Preset, _same_value, resolve_ruleset, ruleset_options
from games.forms import MatchFilterForm
from games.models import Match
from games.presentation import ruleset_words
from replays.rankings import club_ranking
from tests.api.conftest import client_with
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db

# A preset of the tests only: Muggins to 150 with two tiles never drawn, the lead rotating.
TEST_PRESET = "test-muggins-150"
TEST_TITLE = "Test Muggins to 150"
TEST_OPTIONS = {
    **PRESETS["muggins"],
    "target": 150,
    "boneyard_reserve": 2,
    "next_leader": "rotate",
}
SLUG = "tbilisi-fives-club"
# The width of the columns that keep a preset's identifier (Match.preset, the ranking's).
PRESET_COLUMN = Match._meta.get_field("preset").max_length


@pytest.fixture
def test_preset(monkeypatch):
    """Add the test preset to the engine's table for one test (and only there), once every
    view, form and serializer is imported: a list made when they are would miss it."""
    get_resolver().url_patterns  # noqa: B018 (imports every view of the URL map)
    monkeypatch.setitem(PRESETS, TEST_PRESET, Preset(TEST_TITLE, TEST_OPTIONS))
    return TEST_PRESET


def _text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# The table itself.


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_gives_every_option_a_value_it_may_take_and_has_a_title(name):
    preset = PRESETS[name]
    assert set(preset) == set(OPTIONS)
    assert ruleset_options(name) == (name, dict(preset))  # each value checked
    assert preset.title and len(name) <= PRESET_COLUMN
    for players in (2, 3, 4):
        resolve_ruleset(name, players)


def test_every_value_of_every_option_has_its_words():
    for name, option in OPTIONS.items():
        if not option.values:
            assert isinstance(option.words, str) and f"%({name})s" in option.words, name
            continue
        if isinstance(option.words, str):
            assert option.words, name
            continue
        assert len(option.words) == len(option.values), name
        for value in option.values:
            assert any(_same_value(value, said) for said in option.words), (name, value)


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_every_title_and_phrase_of_the_table_is_translated(language):
    messages = [preset.title for preset in PRESETS.values()]
    for option in OPTIONS.values():
        words = option.words
        messages += [words] if isinstance(words, str) else [text for text in words.values()]
    with translation.override(language):
        untranslated = [text for text in messages if text and translation.gettext(text) == text]
    assert untranslated == []


# Fives and Threes in the archive.


def test_fives_and_threes_is_said_option_by_option_on_its_match_page(owner):
    match = store_match(
        owner,
        ["Nino", "Giorgi", "Tamar", "Levan"],
        seed=3,
        played_at="2026-11-20T19:00:00+04:00",
        teams=True,
        ruleset="fives-and-threes",
    )
    assert match.preset == "fives-and-threes"
    page = _text(Client().get(match.get_absolute_url()))
    assert "Fives and Threes" in page
    for words in (
        "first to 61 points",
        "a side must reach 61 exactly: a play that would pass it scores nothing",
        "5 tiles each",
        "nobody draws: a player who cannot play knocks",
        "a play scores how many fives make the count",
        "no spinner",
        "going out scores 1 point more",
        "partners play on until both of them are out",
        "the pips left in hands count for nobody",
        "the lead passes to the next player each hand",
    ):
        assert words in page.replace("&#x27;", "'"), words
    # Options that change nothing in this ruleset are not said; nor tiles kept back.
    for unsaid in ("stay in the boneyard", "multiple of", "blocked hand", "ends with the hand"):
        assert unsaid not in page, unsaid
    with translation.override("ru"):
        russian = ruleset_words(match.rules)
    assert "из базара не берут: кто не может сходить, стучит (пропускает ход)" in russian
    assert "сторона должна набрать ровно 61" in russian[1]
    with translation.override("ka"):
        georgian = ruleset_words(match.rules)
    assert "ხელში დარჩენილი ქვების ქულები არავის ეთვლება" in georgian


def test_fives_and_threes_is_in_every_list_of_rulesets(owner):
    form = ClubForm(instance=Club.objects.get(slug=SLUG))
    assert ("fives-and-threes", "Fives and Threes") in [
        (value, str(label)) for value, label in form.fields["default_ruleset"].choices
    ]
    assert "fives-and-threes" in dict(MatchFilterForm().fields["ruleset"].choices)
    with translation.override("ru"):
        label = str(dict(MatchFilterForm().fields["ruleset"].choices)["fives-and-threes"])
    assert label == "Пятёрки и тройки"


def test_the_other_presets_keep_their_words():
    words = ruleset_words(resolve_ruleset("muggins", 2).as_dict())
    assert "the side that goes out scores the others' pips" in words
    assert "the others' pips are divided by 5" in words
    assert "the first double is a spinner; its sides are covered before its ends open" in words
    words = ruleset_words(
        resolve_ruleset({"base": "all-fives", "boneyard_reserve": 1}, 3).as_dict()
    )
    assert "one tile always stays in the boneyard" in words and "7 tiles each" in words
    # Subtracting one's own pips neither divides them nor gives a blocked hand a bonus.
    assert not any("divided" in phrase or "blocked" in phrase for phrase in words)


# A preset added in the tests only.


def test_a_preset_added_to_the_table_is_in_every_list_and_needs_no_migration(
    test_preset, owner, django_capture_on_commit_callbacks
):
    # No migration: the club's default ruleset reads the table when asked.
    call_command("makemigrations", check=True, dry_run=True, verbosity=0)

    # Its log is checked, stored (with its statistics) and listed.
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(
            owner,
            ["Nino", "Giorgi"],
            seed=11,
            played_at="2026-11-21T19:00:00+04:00",
            ruleset=test_preset,
        )
    assert match.preset == test_preset and match.report()["valid"]
    assert match.rules["target"] == 150 and match.rules["boneyard_reserve"] == 2
    client = Client()
    listed = _text(client.get(f"/?ruleset={test_preset}"))
    assert match.get_absolute_url() in listed and TEST_TITLE in listed
    assert match.get_absolute_url() not in _text(client.get("/?ruleset=muggins"))
    api = client_with(owner, ["read", "upload", "manage"])
    found = api.get(f"/api/v1/matches/?ruleset={test_preset}").json()["results"]
    assert [row["id"] for row in found] == [match.pk]

    # Its rules in words, on the match page.
    page = _text(client.get(match.get_absolute_url())).replace("&#x27;", "'")
    for words in (
        TEST_TITLE,
        "first to 150 points",
        "two tiles always stay in the boneyard",
        "the lead passes to the next player each hand",
        "the others' pips are divided by 5",
    ):
        assert words in page, words

    # The API's choices: the schema's enums, and a club's default ruleset.
    schema = json.loads(APIClient().get("/api/schema/?format=json").content)
    for path in ("/api/v1/matches/", "/api/v1/clubs/{slug}/ranking/"):
        parameters = schema["paths"][path]["get"]["parameters"]
        ruleset = next(p for p in parameters if p["name"] == "ruleset")
        assert test_preset in ruleset["schema"]["enum"], path
    changed = api.patch(f"/api/v1/clubs/{SLUG}/", {"default_ruleset": test_preset}, format="json")
    assert changed.status_code == 200, changed.content
    assert Club.objects.get(slug=SLUG).default_ruleset == test_preset
    refused = api.patch(f"/api/v1/clubs/{SLUG}/", {"default_ruleset": "no-such"}, format="json")
    assert refused.status_code == 400

    # The club's form offers it, and the club takes it.
    club = Club.objects.get(slug=SLUG)
    club.full_clean()
    form = ClubForm(instance=club)
    assert (test_preset, TEST_TITLE) in [
        (value, str(label)) for value, label in form.fields["default_ruleset"].choices
    ]
    client.force_login(owner)
    settings_page = _text(client.get(f"/clubs/{SLUG}/settings/"))
    assert f'<option value="{test_preset}" selected>{TEST_TITLE}</option>' in settings_page

    # Rankings and statistics by preset.
    ranking = _text(client.get(f"/clubs/{SLUG}/ranking/?ruleset={test_preset}"))
    assert "is not understood" not in ranking and f'value="{test_preset}"' in ranking
    table = club_ranking(club=club, ruleset=test_preset)
    rows = table["ranked"] + table["provisional"] + table["inactive"]
    assert sorted(row["player"] for row in rows if row["matches"]) == ["Giorgi", "Nino"]
    assert api.get(f"/api/v1/clubs/{SLUG}/ranking/?ruleset={test_preset}").status_code == 200


def test_without_the_fixture_the_test_preset_is_nowhere(owner):
    assert TEST_PRESET not in PRESETS
    assert TEST_PRESET not in dict(MatchFilterForm().fields["ruleset"].choices)
    api = client_with(owner, ["read", "upload", "manage"])
    refused = api.patch(f"/api/v1/clubs/{SLUG}/", {"default_ruleset": TEST_PRESET}, format="json")
    assert refused.status_code == 400
