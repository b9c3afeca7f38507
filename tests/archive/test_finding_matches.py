"""Finding matches: the list searched by a player's or a club's name, sorted by its columns,
the winner shown, and a word when filters find nothing; the ranking sorts both ways and says
what it did not understand."""

from __future__ import annotations

import html
import json

import pytest
from rest_framework.test import APIClient

from games.models import Match
from games.services.uploads import upload_create
from tests.archive.helpers import ndjson, valid_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches(owner, django_capture_on_commit_callbacks):
    docs = [valid_log(1), valid_log(2, players=["Ana", "Beka"])]
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=ndjson(*docs), kind="ndjson")
    return list(Match.objects.order_by("id"))


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_list_is_searched_by_a_players_name_or_a_clubs_name(client, matches):
    ana = _text(client.get("/?q=ana"))
    assert "Beka" in ana and "Giorgi" not in ana
    by_club = _text(client.get("/?q=tbilisi fives"))
    assert "Beka" in by_club and "Giorgi" in by_club


def test_the_winner_is_shown_and_an_empty_search_says_so(client, matches):
    page = _text(client.get("/"))
    for match in matches:
        assert match.winner_names and match.winner_names in page
    nothing = _text(client.get("/?q=nobody-at-all"))
    assert "No match fits these filters." in nothing
    assert "No matches yet." not in nothing


def test_the_list_sorts_by_its_columns_both_ways(client, matches):
    newest = _text(client.get("/"))
    oldest = _text(client.get("/?sort=played_at"))
    assert newest.index("Beka") != oldest.index("Beka")
    assert 'sort=played_at"' in newest  # the column's link turns the order round


def test_the_ranking_sorts_both_ways_and_says_what_it_did_not_understand(owner, client, matches):
    client.force_login(owner)
    slug = matches[0].club.slug
    down = client.get(f"/clubs/{slug}/ranking/?sort=matches&order=desc")
    up = client.get(f"/clubs/{slug}/ranking/?sort=matches&order=asc")
    assert down.context["table"]["order"] == "desc" and up.context["table"]["order"] == "asc"
    odd = _text(client.get(f"/clubs/{slug}/ranking/?sort=shoe-size&period=forever"))
    assert "“shoe-size” is not understood" in odd and "“forever” is not understood" in odd
    api = APIClient()
    api.force_authenticate(owner)
    refused = api.get(f"/api/v1/clubs/{slug}/ranking/?sort=shoe-size")
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"]["sort"]


def test_the_match_page_says_the_ruleset_in_words_the_time_as_written_and_offers_the_file(
    client, matches
):
    match = matches[0]
    page = _text(client.get(match.get_absolute_url()))
    assert "first to 250 points" in page and "multiple of 5" in page
    assert "2026-11-20 19:05 UTC+04:00" in page  # the log's own time zone
    assert "Copy a link to this position" in page
    download = client.get(f"/matches/{match.pk}/fives.json")
    assert download["Content-Disposition"].startswith("attachment;")
    assert json.loads(download.content) == match.log().as_json()
