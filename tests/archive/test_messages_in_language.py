"""The engine's messages reach pages and the API in the reader's language, built from each
error's code and parameters; English stays the engine's own (and the default)."""

from __future__ import annotations

import copy
import html

import pytest
from rest_framework.test import APIClient

from fives_engine.tiles import NAME, parse_tile
from games.models import Upload
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, illegal_log, ndjson, valid_log

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


def _draw_while_a_tile_fits() -> dict:
    """A log whose second move is a draw while the seat holds a tile that fits (its message
    names the open ends)."""
    doc = copy.deepcopy(valid_log(3))
    hand = doc["hands"][0]
    dealt = {parse_tile(tile)[0] for seat in hand["deal"] for tile in seat}
    second = hand["moves"][1]
    assert "play" in second  # it holds a tile that fits: it plays one
    boneyard = next(NAME[tile] for tile in range(28) if tile not in dealt)
    hand["moves"][1:] = [{"seat": second["seat"], "draw": boneyard}]
    return doc


@pytest.mark.parametrize(("language", "letters"), [("ru", "ЗВ"), ("ka", "და")])
def test_the_open_ends_of_an_error_are_named_in_the_readers_letters(
    client, owner, django_capture_on_commit_callbacks, language, letters
):
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner, data=as_bytes(_draw_while_a_tile_fits()), kind="json"
        )
    [error] = upload.items.get().report["errors"]
    assert error["code"] == "draw-when-playable"
    ends = [end for end, _pip in error["params"]["open"]]
    assert ends == ["W", "E"]
    west, east = (pip for _end, pip in error["params"]["open"])
    client.force_login(owner)
    page = html.unescape(
        client.get(upload.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    assert f"{letters[0]} {west}, {letters[1]} {east}" in page
    assert f"W {west}" not in page
    api = APIClient()
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/uploads/{upload.pk}/", HTTP_ACCEPT_LANGUAGE=language).json()
    [said] = body["items"][0]["report"]["errors"]
    assert f"{letters[0]} {west}, {letters[1]} {east}" in said["message"]


def test_the_upload_page_says_a_schema_error_once_and_titles_a_warning(
    client, owner, django_capture_on_commit_callbacks
):
    claimed = valid_log(4)
    move = claimed["hands"][0]["moves"][0]
    move["points"] = 99  # the lead never scores 99: a points-mismatch warning
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner,
            data=ndjson(valid_log(5, hands=[]), claimed),
            kind="ndjson",
        )
    client.force_login(owner)
    page = html.unescape(client.get(upload.get_absolute_url()).content.decode())
    assert "Not a fives/1 log: $.hands must hold at least one hand" in page
    assert "Not a fives/1 match log" not in page and "log: not a fives/1 log" not in page
    assert "<strong>Claimed points differ</strong>: hand 1, move 1: claimed 99 points" in page


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "not JSON: Expecting value at line 1 column 35"),
        ("ru", "не JSON: ожидалось значение в строке 1, столбце 35"),
        ("ka", "არ არის JSON: მოსალოდნელი იყო მნიშვნელობა, სტრიქონი 1, სვეტი 35"),
    ],
)
def test_a_json_parsers_reason_is_said_in_the_readers_language(
    client, owner, django_capture_on_commit_callbacks, language, reason
):
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner, data=b'{"format": "fives/1", "players": [', kind="json"
        )
    client.force_login(owner)
    page = client.get(upload.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert reason in html.unescape(page.content.decode())
