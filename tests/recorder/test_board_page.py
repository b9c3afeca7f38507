"""The analysis board's page (/analyse/, issue 60 item 1) as the server answers it: the empty
board, a position opened from a match's play (only a match the reader may see, as its
replay) or from the address, a refusal named, and the equity samples the worker reads."""

from __future__ import annotations

import base64
import json

import pytest
from django.test import Client

from clubs.models import Club
from fives_engine.position import analyse, position_document
from tests.engine.test_position import WORKED
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db


def config_of(response):
    text = response.content.decode()
    start = text.index('<script id="analyse-config" type="application/json">')
    body = text[start:].split(">", 1)[1].split("</script>", 1)[0]
    return json.loads(body)


def encoded(doc) -> str:
    return base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")


def play_with_a_choice(match):
    log = match.log()
    for h, hand in enumerate(log.hands):
        for m, move in enumerate(hand.moves):
            if move.kind == "play":
                doc = position_document(log, h, m)
                if len(analyse(doc, 1)["plays"]) > 1:
                    return h, m, doc
    raise AssertionError("no choice")


def test_the_empty_board():
    response = Client().get("/analyse/")
    assert response.status_code == 200
    config = config_of(response)
    assert config["position"] is None and config["refused"] is None
    assert "wasm-unsafe-eval" in response["Content-Security-Policy"]


def test_a_position_from_the_address():
    config = config_of(Client().get(f"/analyse/?position={encoded(WORKED)}"))
    assert config["position"] == WORKED
    assert config_of(Client().get("/analyse/?position=%%%"))["refused"] == "unreadable"


def test_a_position_from_a_match_only_for_its_readers(owner, member, outsider):
    match = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")
    h, m, doc = play_with_a_choice(match)
    address = f"/analyse/?match={match.pk}&hand={h + 1}&move={m + 1}"
    config = config_of(Client().get(address))
    assert config["position"] == doc
    assert config["opened_from"]["replay"] == f"/matches/{match.pk}/"
    draw = next(
        (hh, mm)
        for hh, hand in enumerate(match.log().hands)
        for mm, move in enumerate(hand.moves)
        if move.kind != "play"
    )
    refused = Client().get(f"/analyse/?match={match.pk}&hand={draw[0] + 1}&move={draw[1] + 1}")
    assert config_of(refused)["refused"] == "no-position"
    club = Club.objects.get(slug="tbilisi-fives-club")
    club.is_private = True
    club.save()
    assert Client().get(address).status_code == 404
    outside = Client()
    outside.force_login(outsider)
    assert outside.get(address).status_code == 404
    inside = Client()
    inside.force_login(member)
    assert config_of(inside.get(address))["position"] == doc
    assert Client().get("/analyse/?match=x").status_code == 404


def test_the_equity_samples():
    response = Client().get("/analyse/equity/muggins-2.json")
    assert response.status_code == 200
    assert "samples" in json.loads(b"".join(response.streaming_content))
    assert Client().get("/analyse/equity/..%2Fsettings.json").status_code == 404
    assert Client().get("/analyse/equity/nothing.json").status_code == 404


def test_the_replay_links_the_board_by_a_plain_path(owner):
    match = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f'data-base="/analyse/?match={match.pk}"' in page
    assert "Analyse from here" in page
    embed = Client().get(f"/embed/matches/{match.pk}/")
    assert embed.status_code == 200 and "analyse-here" not in embed.content.decode()
