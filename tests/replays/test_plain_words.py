"""The words the tour as a new user read, as the pages send them, in English, Russian and
Georgian: seats counted from 1 on the match page (the data stays 0-based), the rating and its
uncertainty without openskill's μ and σ, the upload form's file field in the page's language.
The browser's view of the same: test_plain_words_browser.py."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from clubs.models import Club
from games.models import Player
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Beka", "Ciko", "Dato"]
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def read(client, path: str, language: str) -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return html.unescape(response.content.decode())


@pytest.fixture
def four(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(1, 4):
            store_match(owner, NAMES[:2], seed=seed, played_at=f"2026-09-{seed:02d}T16:00:00Z")
        return store_match(owner, NAMES, seed=9, played_at="2026-09-09T16:00:00Z")


@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_the_match_page_numbers_its_seats_from_one_and_its_data_from_zero(client, four, language):
    page = read(client, f"/matches/{four.pk}/", language)
    seats = re.search(r"<dd>(1: <a [^>]*>Ana</a>.*?)</dd>", page)
    assert seats, page
    shown = re.sub(r"<[^>]+>", "", seats.group(1))
    assert shown == "1: Ana; 2: Beka; 3: Ciko; 4: Dato"
    # The data keeps the log's seats: the rows' data-seat and the replay's data.
    assert 'data-seat="0"' in page and 'data-seat="4"' not in page


@pytest.mark.parametrize(
    "language, word", [("en", "likely"), ("ru", "вероятно"), ("ka", "სავარაუდოდ")]
)
def test_the_rating_is_read_with_its_likely_range_not_openskills_figures(
    client, four, language, word
):
    club = Club.objects.get(slug="tbilisi-fives-club")
    ana = Player.objects.get(club=club, handle="Ana")
    player = read(client, f"/players/{ana.pk}/", language)
    rating = re.search(r'id="stat-rating">(.*?)</dd>', player).group(1)
    # "1954, likely 1760–2150": its value, then the range about it (word joiners keep the
    # range whole), never the low end with a "±".
    found = re.fullmatch(
        rf'(\d+), {word} (\d+)\u2060–\u2060(\d+)( <span class="muted">\([^)]+\)</span>)?',
        rating,
    )
    assert found, rating
    value, low, high = (int(found.group(n)) for n in (1, 2, 3))
    assert low < value < high and value - low == pytest.approx(high - value, abs=1)
    ranking = read(client, f"/clubs/{club.slug}/ranking/", language)
    for page in (player, ranking):
        for raw in ("openskill", "μ", "σ", "sigma", "Plackett"):
            assert raw not in page
    assert f'<td class="num muted nowrap rating-range">{low}–{high}</td>' in ranking
    words = re.search(r'id="rating-words">(.*?)</p>', ranking).group(1)
    assert "1500" in words and "±" not in words


@pytest.mark.parametrize(
    "language, choose, none",
    [
        ("en", "Choose a file", "No file chosen"),
        ("ru", "Выбрать файл", "Файл не выбран"),
        ("ka", "ფაილის არჩევა", "ფაილი არ არის არჩეული"),
    ],
)
def test_the_upload_forms_file_field_has_a_button_in_the_pages_language(
    owner, language, choose, none
):
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    page = read(client, "/uploads/new/", language)
    field = re.search(r'<span class="file-field">(.*?)</span></span>', page, re.S).group(1)
    assert re.search(r'<input type="file" name="file"[^>]* id="id_file"', field), field
    assert 'aria-describedby="id_file-name"' in field
    assert f'<label for="id_file" class="file-button">{choose}</label>' in field
    assert f'<span class="file-name" id="id_file-name" data-none="{none}">{none}' in field
