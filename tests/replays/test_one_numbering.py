"""One numbering (issue 56, item 3): the same play has the same hand and move, from 1, in the
analysis API, the mistakes API, the replay (its API's states, the marks and the addresses of
its page, and in chromium what the page shows at each address) and the practice drill (its
page and its API), over every analysed play of the demo."""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from html import unescape
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Seat
from replays.models import MatchAnalysis

DRILLED = ("mistake", "blunder")
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def demo_analysed(settings) -> list[int]:
    """Build the demo (its analysed matches among it) and return the analysed matches."""
    settings.DEBUG = True  # the demo's league is organised by the user demo, made with DEBUG
    call_command("demo", matches=9, stdout=open(os.devnull, "w"))  # noqa: SIM115
    analysed = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE)
    match_ids = sorted(analysed.values_list("match_id", flat=True))
    assert len(match_ids) >= 2, "the demo analyses a few matches"
    return match_ids


def script_json(html: str, name: str) -> object:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    assert found, name
    return json.loads(unescape(found[1]))


def address_positions(replay: dict) -> dict[str, int]:
    """Each address of the replay page ("h3m17", "h3m0" the deal) and its position among the
    states, as replay.js reads an address: hand and move from 1, each hand its deal and then
    its moves."""
    positions, at = {}, 0
    for number, hand in enumerate(replay["hands"], start=1):
        for move in range(hand["moves"] + 1):
            positions[f"h{number}m{move}"] = at + move
        at += hand["moves"] + 1
    return positions


def is_the_play(state: dict, play: dict) -> bool:
    """Whether a replay state is the table just after the analysis's ``play``."""
    tile, _, end = play["played"].partition(" on ")
    action = state["action"] or {}
    return (
        state["seat"] == play["seat"]
        and pips(action.get("play")) == pips(tile)  # "3-2" as logged is the review's "2-3"
        and action.get("end") == (end or None)
    )


def pips(tile: str | None) -> list[str]:
    return sorted((tile or "").split("-"))


def plays_by_number(client: Client, match_ids: list[int]) -> dict[tuple[int, int, int], dict]:
    """Every analysed play of these matches, by (match, hand, move) as the analysis API
    numbers them; each is also checked against the replay: its API's states and its page."""
    plays: dict[tuple[int, int, int], dict] = {}
    for match_id in match_ids:
        result = client.get(f"/api/v1/matches/{match_id}/analysis/").json()["result"]
        states = client.get(f"/api/v1/matches/{match_id}/replay/").json()["states"]
        html = client.get(f"/matches/{match_id}/").content.decode()
        positions = address_positions(script_json(html, "replay-data"))
        marks = {(hand, move): mark for hand, move, mark, *_ in script_json(html, "review-marks")}
        # The marks are at plays of the analysis, each with its own mark.
        numbered = {(play["hand"], play["move"]): play for play in result["plays"]}
        assert set(marks) <= set(numbered), match_id
        for (hand, move), mark in marks.items():
            assert numbered[(hand, move)]["mark"] == mark
        for play in result["plays"]:
            hand, move = play["hand"], play["move"]
            assert hand >= 1 and move >= 1
            # The replay's address of the play is its table just after it: the API's state
            # there is numbered the same and is that play.
            state = states[positions[f"h{hand}m{move}"]]
            assert (state["hand"], state["move"]) == (hand, move)
            assert is_the_play(state, play), (match_id, hand, move)
            if play["mark"]:
                assert marks[(hand, move)] == play["mark"]
            plays[(match_id, hand, move)] = play
    return plays


def seats_of(match_ids: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Each player of these matches: their (match, seat) pairs."""
    seats = defaultdict(list)
    for player_id, match_id, seat in Seat.objects.filter(match_id__in=match_ids).values_list(
        "player_id", "match_id", "seat"
    ):
        seats[player_id].append((match_id, seat))
    return seats


def drill_positions(client: Client, match_ids: list[int]) -> dict[tuple[int, int, int], dict]:
    """Each position of the mistakes API of every player of these matches, by (match, hand,
    move), checked against the practice page at the same numbers."""
    served: dict[tuple[int, int, int], dict] = {}
    for player_id in seats_of(match_ids):
        body = client.get(f"/api/v1/players/{player_id}/mistakes/").json()
        for position in body["positions"]:
            match_id, hand, move = position["match"], position["hand"], position["move"]
            if match_id not in match_ids:
                continue
            key = (match_id, hand, move)
            served[key] = position | {"player": player_id}
            replay = f"/matches/{match_id}/#h{hand}m{move}"
            assert position["replay"] == replay
            # The practice page shows the same position at the same numbers (the play made
            # picked: the verdict links the replay just after it).
            query = urlencode({"at": f"{match_id}-{hand}-{move}", "picked": position["played"]})
            page = client.get(f"/players/{player_id}/practice/?{query}")
            html = page.content.decode()
            assert page.status_code == 200
            assert f'data-position="{match_id}-{hand}-{move}"' in html
            assert f"hand {hand}, move {move}" in html
            assert f'href="{replay}"' in html
            assert f'href="/matches/{match_id}/#h{hand}m{move - 1}"' in html
    return served


@pytest.mark.django_db
def test_every_analysed_play_of_the_demo_has_one_number_everywhere(settings):
    match_ids = demo_analysed(settings)
    client = Client()
    plays = plays_by_number(client, match_ids)
    served = drill_positions(client, match_ids)
    # The drill is every mistake and blunder of the analysis, at the same numbers, with the
    # same player, play and mark.
    drilled = {key for key, play in plays.items() if play["mark"] in DRILLED}
    assert drilled, "the demo's analysed matches have mistakes to drill"
    assert set(served) == drilled
    players = Seat.objects.filter(match_id__in=match_ids)
    seats = {
        (match, seat): player
        for match, seat, player in players.values_list("match_id", "seat", "player_id")
    }
    for key, position in served.items():
        play = plays[key]
        assert (position["seat"], position["played"], position["mark"]) == (
            play["seat"],
            play["played"],
            play["mark"],
        )
        assert seats[(key[0], play["seat"])] == position["player"]
    print(f"{len(plays)} analysed plays of {len(match_ids)} matches, {len(served)} drilled")


@pytest.mark.django_db(transaction=True)
def test_the_replay_shows_each_marked_play_at_its_numbers(settings, browser, live_server):
    """In chromium: each play the analysis marked, opened at its address, is the play the
    page names at that hand and move, with its mark."""
    match_ids = demo_analysed(settings)
    client = Client()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    checked = 0
    try:
        for match_id in match_ids:
            result = client.get(f"/api/v1/matches/{match_id}/analysis/").json()["result"]
            page.goto(f"{live_server.url}/matches/{match_id}/")
            page.wait_for_selector("#replay[data-ready]", state="attached")
            for play in result["plays"]:
                if not play["mark"]:
                    continue
                hand, move = play["hand"], play["move"]
                page.evaluate(f"location.hash = '#h{hand}m{move}'")
                page.wait_for_function(
                    "text => document.getElementById('position').textContent === text",
                    arg=f"Hand {hand}, move {move}",
                )
                last = page.locator("#last-move").inner_text()
                low, high = play["played"].split(" ")[0].split("-")
                assert f"{low}-{high}" in last or f"{high}-{low}" in last, (match_id, last)
                assert f"{MARK_SIGNS[play['mark']]} {play['mark']}" in last, last
                checked += 1
    finally:
        context.close()
    assert errors == []
    assert checked > 0
    print(f"{checked} marked plays shown at their numbers in chromium")
