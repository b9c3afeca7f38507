"""Pages of the HTML lists by cursor (issue 39): walked forward and back in every sort of the
match list, they give every match once, in the list's order, matches of one moment and
matches with no play time included; no page counts the list; a cursor this site did not
sign gives the first page."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from clubs.pages import page_of
from games.models import Match, Player, Seat
from games.selectors import MATCH_SORTS, match_list
from tests.replays.helpers import store_matches

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches(owner):
    ids = store_matches(owner, 9, first_seed=300)
    ids += store_matches(owner, 4, first_seed=400, played_at="2026-11-21T19:00:00Z")
    moments = [datetime(2026, 11, 1, tzinfo=UTC) + timedelta(hours=n // 3) for n in range(9)]
    for match_id, moment in zip(ids, moments, strict=False):
        _played_at(match_id, moment)  # three a moment
    # Two with no play time (a log may leave it out), sorted where the database puts them.
    for match_id in ids[9:11]:
        _played_at(match_id, None)
    return ids


def _played_at(match_id: int, moment) -> None:
    """Set a stored match's time as ingest does: on the match and on each of its seats."""
    Match.objects.filter(pk=match_id).update(played_at=moment)
    Seat.objects.filter(match_id=match_id).update(played_at=moment)


def _walk(sort: str, size: int, player: str = "") -> tuple[list[int], list[int]]:
    """Follow "next" from the first page to the last, then "previous" back to the first;
    return the ids met each way."""
    factory = RequestFactory()
    filters = {"sort": sort, "player": player} if player else {"sort": sort}
    queryset = match_list(filters=filters)
    query = f"sort={sort}&player={player}"
    forward, pages = [], []
    while True:
        page = page_of(factory.get(f"/?{query}"), queryset, size=size)
        pages.append(page)
        forward += [match.pk for match in page.object_list]
        if not page.has_next:
            break
        query = page.next_query
    backward = [match.pk for match in pages[-1].object_list]
    page = pages[-1]
    while page.has_previous:
        page = page_of(factory.get(f"/?{page.previous_query}"), queryset, size=size)
        backward = [match.pk for match in page.object_list] + backward
    return forward, backward


@pytest.mark.parametrize("sort", sorted(MATCH_SORTS))
@pytest.mark.parametrize("size", [2, 4])
def test_walking_the_pages_both_ways_gives_every_match_once_in_order(matches, sort, size):
    everything = list(match_list(filters={"sort": sort}).values_list("pk", flat=True))
    assert sorted(everything) == sorted(matches)
    forward, backward = _walk(sort, size)
    assert forward == everything
    assert backward == everything


@pytest.mark.parametrize("sort", sorted(MATCH_SORTS))
@pytest.mark.parametrize("size", [1, 3])
def test_one_players_pages_are_their_matches_in_the_lists_order(owner, matches, sort, size):
    # Four more, of Nino and Dato: Levan plays 13 of 17 matches, Dato 4 (two at a moment
    # other matches share, one with no time). Their lists are read from their seats' index
    # when in time order, by the match list's own filter in the other orders.
    others = store_matches(owner, 4, first_seed=500, names=("Nino", "Dato"))
    for match_id, moment in zip(others, [datetime(2026, 11, 1, 1, tzinfo=UTC), None], strict=False):
        _played_at(match_id, moment)
    seats = Counter(Seat.objects.values_list("player_id", flat=True))
    levan, dato = Player.objects.get(handle="Levan").pk, Player.objects.get(handle="Dato").pk
    assert (seats[levan], seats[dato]) == (13, 4)
    for player_id in (levan, dato):
        _walks_as_the_list_does(sort, size, player_id)


def _walks_as_the_list_does(sort: str, size: int, player_id: int) -> None:
    theirs = set(Seat.objects.filter(player_id=player_id).values_list("match_id", flat=True))
    # Counted another way: the whole list in this order, narrowed here to their matches.
    everything = match_list(filters={"sort": sort}).values_list("pk", flat=True)
    expected = [pk for pk in everything if pk in theirs]
    forward, backward = _walk(sort, size, player=str(player_id))
    assert forward == expected
    assert backward == expected


def test_a_cursor_not_signed_here_gives_the_first_page(matches):
    queryset = match_list(filters={})
    first = page_of(RequestFactory().get("/"), queryset, size=4)
    forged = page_of(RequestFactory().get("/?cursor=W2ZhbHNlLFsxXV0"), queryset, size=4)
    assert [m.pk for m in forged.object_list] == [m.pk for m in first.object_list]
    assert not first.has_previous and first.has_next


def test_the_match_list_pages_by_cursor_and_counts_nothing(matches, settings):
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/matches/?sort=played_at").content.decode()
    assert not [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]
    # Thirteen matches fit one page of 50: no other page is offered.
    assert 'rel="next"' not in html
    assert html.count('href="/matches/') >= len(matches)
    assert not re.search(r"Page \d+ of", html)
