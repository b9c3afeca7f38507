"""Find by name: the match list's "Player" filter and the API's ``?player=`` take a player's
handle or former handle in any case (or an id), the page suggests names as they are typed,
and a private club's players are never suggested to anyone outside it."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from games.models import Match, Player
from games.services.players import player_rename
from tests.clubs.conftest import log, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(owner, django_capture_on_commit_callbacks):
    """Levan played Nino twice, Ana played Beka once (Tbilisi); Zurab plays in Kutaisi,
    a private club; Леван in Moscow."""
    Club.objects.filter(slug="kutaisi").update(is_private=True)
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(1, names=("Levan", "Nino")), log(2, names=("Nino", "Levan")))
        send(owner, log(3, names=("Ana", "Beka")))
        send(owner, log(4, names=("Zurab", "Levan"), club="Kutaisi"))
        send(owner, log(5, names=("Леван", "Ольга"), club="Moscow"))
    return {p.handle + "@" + p.club.slug: p for p in Player.objects.select_related("club")}


def matches_of(*handles: str, club: str = "tbilisi-fives-club") -> set[int]:
    return set(
        Match.objects.filter(club__slug=club, seats__player__handle__in=handles).values_list(
            "pk", flat=True
        )
    )


def listed(client, query: str) -> set[int]:
    text = client.get("/?" + query).content.decode()
    return {match.pk for match in Match.objects.all() if f'href="/matches/{match.pk}/"' in text}


def api_ids(client, query: str) -> set[int]:
    answer = client.get("/api/v1/matches/?" + query)
    assert answer.status_code == 200, answer.json()
    return {match["id"] for match in answer.json()["results"]}


@pytest.mark.parametrize("typed", ["Levan", "levan", "LEVAN", " levan "])
def test_the_page_and_the_api_find_a_player_by_name_in_any_case(night, typed):
    levan = matches_of("Levan")
    assert len(levan) == 2
    assert listed(Client(), f"player={typed}") == levan  # Kutaisi's is private
    assert api_ids(APIClient(), f"player={typed}") == levan
    assert listed(Client(), "player=ana") == matches_of("Ana")


def test_an_id_still_finds_its_player(night):
    levan = night["Levan@tbilisi-fives-club"]
    assert listed(Client(), f"player={levan.pk}") == matches_of("Levan")
    assert api_ids(APIClient(), f"player={levan.pk}") == matches_of("Levan")


def test_a_former_handle_finds_the_renamed_player(night, owner):
    player_rename(actor=owner, player=night["Levan@tbilisi-fives-club"], handle="Levan B.")
    levan = matches_of("Levan B.")
    assert len(levan) == 2
    assert listed(Client(), "player=levan") == levan
    assert api_ids(APIClient(), "player=Levan") == levan
    assert api_ids(APIClient(), "player=levan b.") == levan


def test_names_beyond_ascii_are_found_in_any_case(night):
    assert api_ids(APIClient(), "player=леван") == matches_of("Леван", club="moscow")


def test_a_part_of_a_name_finds_the_players_that_contain_it_when_none_is_named(night):
    assert listed(Client(), "player=bek") == matches_of("Beka")


def test_a_private_clubs_player_is_found_by_its_members_only(night, owner, outsider):
    mine = Client()
    mine.force_login(owner, backend="django.contrib.auth.backends.ModelBackend")
    assert listed(mine, "player=zurab") == matches_of("Zurab", club="kutaisi")
    assert listed(Client(), "player=zurab") == set()
    assert api_ids(APIClient(), "player=Zurab") == set()


def test_the_result_filter_takes_a_name_too(night):
    wins = api_ids(APIClient(), "player=levan&result=win")
    losses = api_ids(APIClient(), "player=levan&result=loss")
    assert wins | losses == matches_of("Levan") and not wins & losses


def test_the_api_says_what_it_wants_only_when_nothing_can_be_understood(night):
    answer = APIClient().get("/api/v1/matches/?player=" + "x" * 101)
    assert answer.status_code == 400
    message = " ".join(answer.json()["error"]["fields"]["player"])
    assert "name" in message and "id" in message
    assert APIClient().get("/api/v1/matches/?player=nobody-here").json()["results"] == []


def test_names_are_suggested_as_typed_but_never_a_private_clubs_to_outsiders(
    night, owner, outsider
):
    page = Client().get("/").content.decode()
    assert 'list="player-names"' in page and '<datalist id="player-names"' in page
    found = Client().get("/players/names/?q=lev").json()["players"]
    assert {"handle": "Levan", "club": "Tbilisi Fives Club"} in found
    assert all(name["club"] != "Kutaisi" for name in found)
    stranger = Client()
    stranger.force_login(outsider, backend="django.contrib.auth.backends.ModelBackend")
    assert stranger.get("/players/names/?q=zur").json()["players"] == []
    member = Client()
    member.force_login(owner, backend="django.contrib.auth.backends.ModelBackend")
    assert member.get("/players/names/?q=ZUR").json()["players"] == [
        {"handle": "Zurab", "club": "Kutaisi"}
    ]
    assert APIClient().get("/api/v1/players/?q=zur").json()["results"] == []
    handles = [p["handle"] for p in APIClient().get("/api/v1/players/?q=lev").json()["results"]]
    assert handles == ["Levan"]


def test_the_api_guide_lists_every_filter_and_sort_value():
    from pathlib import Path

    from api.views import LIST_PARAMETERS, MatchList, PlayerList
    from games.models import Upload
    from replays.rankings import SORTS
    from replays.stats import PERIODS

    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    filters = guide[guide.index("## Filters") :]
    named = [*SORTS, *PERIODS, *LIST_PARAMETERS, *Upload.Status.values, "q", "order"]
    named += [*MatchList.ordering_fields, *PlayerList.ordering_fields]
    assert [value for value in named if f"`{value}`" not in filters] == []
