"""The rating people read: 1500 + 48 × (openskill's mu − 25), with its likely range (mu less
and plus two sigmas, alike), held to figures worked out by hand and to openskill run directly,
on the ranking, the player page and its chart, the stats API and a season's standings (the
rating at its start and at its end)."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from clubs.models import Club
from competitions.seasons import season_open
from games.models import Player
from replays.models import Rating
from replays.ratings import (
    MODEL,
    SHOWN_PER_ORDINAL,
    default_rating,
    ordinal,
    shown_points,
    shown_range,
    shown_rating,
)
from tests.replays.helpers import openskill_in_order, store_match


def test_a_newcomer_shows_1500_and_the_scale_is_200_points_a_beta():
    mu, sigma = default_rating()
    assert shown_rating(mu) == 1500 and ordinal(mu, sigma) == pytest.approx(0)
    assert shown_range(mu, sigma) == (700, 2300)  # 1500 ∓ 2 × 48 × 25/3
    assert SHOWN_PER_ORDINAL == 48 == 200 / MODEL.beta
    # The figures of docs/archive.md and docs/api.md, by hand: 1500 + 48 × (mu − 25), rounded.
    assert shown_rating(20.9) == 1303  # 1500 − 196.8
    assert shown_rating(35.0) == 1980
    assert shown_rating(25.26) == 1512  # 1512.48
    # "1954, likely 1760-2150": mu 34.46, sigma 2.03 (the figures).
    assert (shown_rating(34.46), shown_range(34.46, 2.03)) == (1954, (1759, 2149))
    assert shown_points(25 / 3) == 400  # a newcomer's sigma (48 × sigma)
    assert shown_points(-0.5) == -24


@pytest.fixture
def played(owner, django_capture_on_commit_callbacks):
    """Ana and Beka in the Tbilisi club: two matches in September, three in October."""
    stored = []
    with django_capture_on_commit_callbacks(execute=True):
        for seed, day in [(1, "09-10"), (2, "09-20"), (3, "10-05"), (4, "10-12"), (5, "10-20")]:
            stored.append(
                store_match(owner, ["Ana", "Beka"], seed=seed, played_at=f"2026-{day}T19:00:00Z")
            )
    return Club.objects.get(slug="tbilisi-fives-club"), stored


def reference(matches) -> dict[str, float]:
    """Each handle's ordinal after ``matches``, by openskill itself."""
    *_, (_match, ratings) = openskill_in_order(matches)
    return {handle: rating.ordinal() for handle, rating in ratings.items()}


def shown(matches) -> dict[str, tuple[int, int, int]]:
    """Each handle's rating as shown after ``matches`` (value, low, high), worked out here
    from openskill's own mu and sigma."""
    *_, (_match, ratings) = openskill_in_order(matches)
    return {
        handle: (
            round(1500 + 48 * (r.mu - 25)),
            round(1500 + 48 * (r.mu - 2 * r.sigma - 25)),
            round(1500 + 48 * (r.mu + 2 * r.sigma - 25)),
        )
        for handle, r in ratings.items()
    }


@pytest.mark.django_db
def test_the_ranking_and_the_player_page_show_the_mapped_rating_beside_the_raw_figures(played):
    club, stored = played
    expected = reference(stored)
    rows = Client().get(f"/api/v1/clubs/{club.slug}/ranking/").json()["provisional"]
    assert {row["player"]: row["ordinal"] for row in rows} == {
        handle: round(value, 2) for handle, value in expected.items()
    }
    assert {
        row["player"]: (row["rating"], row["rating_low"], row["rating_high"]) for row in rows
    } == shown(stored)
    sigmas = dict(Rating.objects.filter(scope__club=club).values_list("player__handle", "sigma"))
    assert {row["player"]: row["deviation"] for row in rows} == {
        handle: round(48 * sigma) for handle, sigma in sigmas.items()
    }
    ana = Player.objects.get(club=club, handle="Ana")
    stats = Client().get(f"/api/v1/players/{ana.pk}/stats/").json()
    assert stats["rating"]["rating"] == shown(stored)["Ana"][0]
    history = stats["history"]
    assert [point["matches"] for point in history] == [1, 2, 3, 4, 5]
    assert history[-1]["rating"] == stats["rating"]["rating"]
    assert [point["rating"] for point in history] == [
        shown(stored[:count])["Ana"][0] for count in range(1, 6)
    ]
    assert [point["ordinal"] for point in history] == [
        round(reference(stored[:count])["Ana"], 2) for count in range(1, 6)
    ]

    page = Client().get(f"/players/{ana.pk}/").content.decode()
    value, low, high = shown(stored)["Ana"]
    assert f'id="stat-rating">{value}, likely {low}\u2060–\u2060{high}' in page
    assert 'class="key team-0"' in page  # the chart's legend
    assert "rating after each match" in page
    ranking = Client().get(f"/clubs/{club.slug}/ranking/").content.decode()
    assert f'<td class="num score">{stats["rating"]["rating"]}</td>' in ranking
    # The page says it in words; the raw figures are the API's (and the CSV's).
    assert "a newcomer shows 1500" in ranking
    assert "μ" not in ranking and "σ" not in ranking and "μ" not in page


@pytest.mark.django_db
def test_a_season_shows_each_rating_at_its_start_and_at_its_end(owner, played):
    club, stored = played
    season = season_open(
        actor=owner,
        club=club,
        name="October",
        first_day=date(2026, 10, 1),
        last_day=date(2026, 10, 15),
    )
    start = reference(stored[:2])  # the September matches
    rows = Client().get(f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/").json()["rows"]
    # By 15 October: the two September matches and the two played by then (not the 20th's).
    before, by_end = shown(stored[:2]), shown(stored[:4])
    assert {row["name"]: (row["rating_start"], row["rating_end"]) for row in rows} == {
        handle: (before[handle][0], by_end[handle][0]) for handle in ("Ana", "Beka")
    }
    assert {row["name"]: row["ordinal_start"] for row in rows} == {
        handle: round(start[handle], 2) for handle in ("Ana", "Beka")
    }
    page = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "Rating, start" in page
    for row in rows:
        assert f"<td>{row['rating_start']}</td><td>{row['rating_end']}</td>" in page


@pytest.mark.django_db
def test_a_newcomer_to_the_season_starts_at_1500(owner, played):
    club, _stored = played
    season = season_open(
        actor=owner,
        club=club,
        name="Autumn",
        first_day=date(2026, 9, 1),
        last_day=date(2026, 9, 30),
    )
    rows = Client().get(f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/").json()["rows"]
    assert [(row["rating_start"], row["ordinal_start"]) for row in rows] == [(1500, 0.0)] * 2


@pytest.mark.django_db
def test_the_ranking_csv_carries_the_shown_rating_beside_the_raw_figures(played):
    club, _stored = played
    answer = Client().get(f"/clubs/{club.slug}/ranking.csv?sort=matches")
    assert answer["Content-Type"].startswith("text/csv")
    lines = answer.content.decode().splitlines()
    assert lines[0].startswith(
        "group,rank,player,rating,rating_low,rating_high,deviation,change,ordinal,mu,sigma,"
    )
    rows = Client().get(f"/api/v1/clubs/{club.slug}/ranking/?sort=matches").json()["provisional"]
    assert [line.split(",")[:11] for line in lines[1:]] == [
        [
            "provisional",
            "",
            row["player"],
            str(row["rating"]),
            str(row["rating_low"]),
            str(row["rating_high"]),
            str(row["deviation"]),
            str(row["change"]),
            str(row["ordinal"]),
            str(row["mu"]),
            str(row["sigma"]),
        ]
        for row in rows
    ]
    page = Client().get(f"/clubs/{club.slug}/ranking/").content.decode()
    assert f"/clubs/{club.slug}/ranking.csv?" in page
