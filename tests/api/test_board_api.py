"""POST /api/v1/analyse/ (issue 60, item 1): every legal play of a position valued, given a
fives/1 position document or a play of a match (numbered from 1); a hidden tile refused with
its code; a match only for those who may see it, by every role (signed out, a member,
another club's user, on a public and on a private club's match)."""

from __future__ import annotations

import copy

import pytest

from clubs.models import Club
from fives_engine.position import analyse, position_document
from tests.engine.test_position import WORKED
from tests.replays.helpers import store_match

from .conftest import client_with

pytestmark = pytest.mark.django_db

URL = "/api/v1/analyse/"
PLAY_FIELDS = {"play", "chance", "chance_se", "value", "value_se"}


def api_plays(answer):
    return [{field: play[field] for field in PLAY_FIELDS} for play in answer["plays"]]


@pytest.fixture
def match(owner):
    return store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-04-01T19:00:00Z")


def first_play_with_a_choice(match):
    log = match.log()
    for h, hand in enumerate(log.hands):
        for m, move in enumerate(hand.moves):
            if move.kind != "play":
                continue
            doc = position_document(log, h, m)
            if len(analyse(doc, 1)["plays"]) > 1:
                return h, m, doc
    raise AssertionError("no choice in the match")


def test_a_position_document_is_valued(anonymous_api):
    answer = anonymous_api.post(URL, {"position": WORKED, "layouts": 48}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert [play["play"] for play in body["plays"]] == ["0-0 on E", "4-6 on W"]
    assert all(set(play) == PLAY_FIELDS for play in body["plays"])
    assert body["layouts"] == 48 and body["unit"] == "chance"
    # The engine's own figures, to the digit.
    assert body["plays"] == api_plays(analyse(WORKED, 48))
    assert body["best"] == analyse(WORKED, 48)["best"]
    assert body["position"]["tiles"] == ["0-0", "1-3", "2-2", "4-6", "6-6"]


def test_a_hidden_tile_is_refused_with_its_code(anonymous_api):
    doc = copy.deepcopy(WORKED)
    doc["moves"][3]["draw"] = "1-4"
    answer = anonymous_api.post(URL, {"position": doc}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "hidden-tile"
    assert "could not see" in error["message"] and "$.moves[3].draw" in error["message"]
    doc = copy.deepcopy(WORKED) | {"deal": [["5-5"], ["5-0"]]}
    assert anonymous_api.post(URL, {"position": doc}, format="json").json()["error"]["code"] == (
        "hidden-tile"
    )


@pytest.mark.parametrize(
    "body",
    [{}, {"position": WORKED, "from": {"match": 1, "hand": 1, "move": 1}}, {"layouts": 5}],
)
def test_one_of_position_or_from(anonymous_api, body):
    assert anonymous_api.post(URL, body, format="json").status_code == 400


def test_too_many_layouts_are_refused(anonymous_api):
    answer = anonymous_api.post(URL, {"position": WORKED, "layouts": 385}, format="json")
    assert answer.status_code == 400


def test_from_a_match_by_every_role(match, owner, member, outsider, anonymous_api):
    h, m, doc = first_play_with_a_choice(match)
    body = {"from": {"match": match.pk, "hand": h + 1, "move": m + 1}, "layouts": 24}
    expected = analyse(doc, 24)
    for api in (anonymous_api, client_with(member, ["read"]), client_with(outsider, ["read"])):
        answer = api.post(URL, body, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["plays"] == api_plays(expected)
        assert answer.json()["position"] == doc
    # The position holds the seat's own tiles only: no deal, every other draw face down.
    assert "deal" not in doc and all(
        move.get("draw", "?") == "?" for move in answer.json()["position"]["moves"]
    )
    club = Club.objects.get(slug="tbilisi-fives-club")
    club.is_private = True
    club.save()
    assert anonymous_api.post(URL, body, format="json").status_code == 404
    assert client_with(outsider, ["read"]).post(URL, body, format="json").status_code == 404
    assert client_with(member, ["read"]).post(URL, body, format="json").status_code == 200
    assert client_with(owner, ["read"]).post(URL, body, format="json").status_code == 200


def test_no_position_at_a_draw_or_past_the_hand(match, anonymous_api):
    log = match.log()
    draw = next(
        (h, m)
        for h, hand in enumerate(log.hands)
        for m, move in enumerate(hand.moves)
        if move.kind != "play"
    )
    body = {"from": {"match": match.pk, "hand": draw[0] + 1, "move": draw[1] + 1}}
    answer = anonymous_api.post(URL, body, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "no-position")
    body = {"from": {"match": match.pk, "hand": 1, "move": 999}}
    assert anonymous_api.post(URL, body, format="json").json()["error"]["code"] == "no-position"
    body = {"from": {"match": match.pk + 1000, "hand": 1, "move": 1}}
    assert anonymous_api.post(URL, body, format="json").status_code == 404
