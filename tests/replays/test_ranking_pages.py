"""The ranking table and the player page, for a club with players in every state."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import Club
from games.models import Player
from replays.stats import player_figures
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db


def days_ago(days: int) -> str:
    return (timezone.now() - timedelta(days=days)).isoformat()


@pytest.fixture
def club(owner, django_capture_on_commit_callbacks):
    """Ana and Beka ranked, Dato inactive (last played long ago), Ciko provisional."""
    seed = 0
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(10):
            seed += 1
            store_match(
                owner, ["Ana", "Beka"], seed=seed, played_at=days_ago(3 + n), club="Kutaisi"
            )
        for n in range(10):
            seed += 1
            store_match(
                owner, ["Dato", "Ana"], seed=seed, played_at=days_ago(400 + n), club="Kutaisi"
            )
        for n in range(2):
            seed += 1
            store_match(
                owner, ["Ciko", "Beka"], seed=seed, played_at=days_ago(40 + n), club="Kutaisi"
            )
    return Club.objects.get(name="Kutaisi")


def names(rows):
    return [row["player"] for row in rows]


def test_the_ranking_lists_ranked_provisional_and_inactive_players_apart(client, club):
    body = client.get(f"/api/v1/clubs/{club.slug}/ranking/").json()
    assert sorted(names(body["ranked"])) == ["Ana", "Beka"]
    assert [row["rank"] for row in body["ranked"]] == [1, 2]
    assert body["ranked"][0]["rating"] >= body["ranked"][1]["rating"]
    assert names(body["provisional"]) == ["Ciko"]
    assert names(body["inactive"]) == ["Dato"]
    ana = next(row for row in body["ranked"] if row["player"] == "Ana")
    assert (ana["matches"], ana["rated_matches"]) == (20, 20)
    assert ana["wins"] == player_figures(player_id=ana["player_id"])["wins"]


def test_the_ranking_sorts_and_filters(client, club):
    by_matches = client.get(f"/api/v1/clubs/{club.slug}/ranking/?sort=matches").json()
    assert names(by_matches["ranked"]) == ["Ana", "Beka"]  # 20 matches, then 12
    recent = client.get(f"/api/v1/clubs/{club.slug}/ranking/?period=30d").json()
    assert names(recent["inactive"]) == []
    assert names(recent["provisional"]) == []  # Ciko last played 40 days ago
    assert {row["matches"] for row in recent["ranked"]} == {10}
    assert (
        client.get(f"/api/v1/clubs/{club.slug}/ranking/?ruleset=all-fives").json()["ranked"] == []
    )


def test_the_ranking_page_shows_the_three_groups(client, club):
    html = client.get(f"/clubs/{club.slug}/ranking/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert text.index("Ranked") < text.index("Provisional") < text.index("Inactive")
    assert text.index("Ciko") > text.index("Provisional")
    assert text.index("Dato") > text.index("Inactive")


def test_the_player_page_shows_every_figure(client, club):
    ana = Player.objects.get(handle="Ana")
    figures = player_figures(player_id=ana.pk)
    html = client.get(f"/players/{ana.pk}/").content.decode()

    def shown(name):
        return re.search(rf'id="stat-{name}">([^<]*)<', html).group(1).strip()

    assert shown("matches") == "20"
    assert shown("wins") == str(figures["wins"])
    assert shown("dominoes") == str(figures["dominoes"])
    assert shown("blocked") == str(figures["blocked"])
    assert shown("settlement") == f"{figures['settlement_won']} / {figures['settlement_lost']}"
    assert shown("points-per-hand") == f"{figures['points_per_hand']:.2f}"
    assert shown("missed-per-hand") == f"{figures['missed_per_hand']:.2f}"
    assert "Head to head" in html and "Dato" in html and "Beka" in html
    assert 'points="' in html  # the rating history line
    body = client.get(f"/api/v1/players/{ana.pk}/stats/").json()
    assert body["figures"]["matches"] == 20
    assert len(body["history"]) == 20
    assert {row["opponent"]: row["matches"] for row in body["head_to_head"]} == {
        "Beka": 10,
        "Dato": 10,
    }


@pytest.mark.parametrize("path", ["/clubs/{slug}/ranking/", "/api/v1/clubs/{slug}/ranking/"])
def test_the_ranking_takes_a_fixed_number_of_queries(
    client, club, django_assert_max_num_queries, path
):
    with django_assert_max_num_queries(5):
        assert client.get(path.format(slug=club.slug)).status_code == 200


@pytest.mark.parametrize("path", ["/players/{pk}/", "/api/v1/players/{pk}/stats/"])
def test_the_player_page_takes_a_fixed_number_of_queries(
    client, club, django_assert_max_num_queries, path
):
    ana = Player.objects.get(handle="Ana")
    with django_assert_max_num_queries(12):
        assert client.get(path.format(pk=ana.pk)).status_code == 200


def test_a_long_rating_history_is_thinned_and_ends_at_the_last_match(client, club, monkeypatch):
    from replays import rankings

    monkeypatch.setattr(rankings, "HISTORY_POINTS", 5)
    ana = Player.objects.get(handle="Ana")
    history = client.get(f"/api/v1/players/{ana.pk}/stats/").json()["history"]
    assert [point["matches"] for point in history] == [4, 8, 12, 16, 20]
    assert client.get(f"/players/{ana.pk}/").status_code == 200
