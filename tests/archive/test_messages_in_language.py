"""The engine's messages reach pages and the API in the reader's language, built from each
error's code and parameters; English stays the engine's own (and the default)."""

from __future__ import annotations

import html

import pytest
from rest_framework.test import APIClient

from games.models import Upload
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, illegal_log

pytestmark = pytest.mark.django_db

ENGLISH = "hand 1, move 2: Nino (seat 0) moves, but it is Giorgi (seat 1)'s turn"
RUSSIAN = "кон 1, ход 2: Nino (место 0) ходит, но сейчас очередь игрока Giorgi (место 1)"
GEORGIAN = "დარიგება 1, სვლა 2: Nino (ადგილი 0) დადის, მაგრამ ახლა რიგი აქვს: Giorgi (ადგილი 1)"


@pytest.fixture
def rejected(owner, django_capture_on_commit_callbacks) -> Upload:
    with django_capture_on_commit_callbacks(execute=True):
        return upload_create(uploader=owner, data=as_bytes(illegal_log()), kind="json")


@pytest.mark.parametrize(
    ("language", "message"), [("en", ENGLISH), ("ru", RUSSIAN), ("ka", GEORGIAN)]
)
def test_the_upload_page_says_the_error_in_the_readers_language(
    client, owner, rejected, language, message
):
    client.force_login(owner)
    page = client.get(rejected.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert message in html.unescape(page.content.decode())


@pytest.mark.parametrize(
    ("language", "message"), [("en", ENGLISH), ("ru", RUSSIAN), ("ka", GEORGIAN)]
)
def test_the_api_report_is_in_the_asked_language_with_the_same_code(rejected, language, message):
    api = APIClient()
    api.force_authenticate(rejected.uploader)  # an upload is its uploader's to see
    body = api.get(f"/api/v1/uploads/{rejected.pk}/", HTTP_ACCEPT_LANGUAGE=language).json()
    [error] = body["items"][0]["report"]["errors"]
    assert error == {"code": "wrong-turn", "hand": 0, "move": 1, "seat": 0, "message": message}


def test_the_stored_report_keeps_the_english_message_and_the_parameters(rejected):
    [error] = rejected.items.get().report["errors"]
    assert error["message"] == ENGLISH
    assert error["params"]["turn_player"] == "Giorgi"
