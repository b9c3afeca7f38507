"""Ratings against the openskill API: free-for-all of 3 and 4, partnerships, the order of
play, out-of-order arrival and deleted matches."""

from __future__ import annotations

import pytest

from games.models import Match
from games.services.matches import match_delete
from replays.models import Rating, RatingScope
from replays.rankings import club_ranking
from replays.ratings import ratings_recompute
from tests.replays.helpers import openskill_in_order, store_match

pytestmark = pytest.mark.django_db


def expected_after(matches: list[Match]) -> dict[str, tuple[float, float]]:
    """Rate the matches in playing order with openskill directly: handle -> (mu, sigma)."""
    last: dict[str, object] = {}
    for _match, after in openskill_in_order(matches):
        last = after
    return {handle: (r.mu, r.sigma) for handle, r in last.items()}


def stored(club_only: bool = True) -> dict[str, tuple[float, float]]:
    ratings = Rating.objects.select_related("player", "scope")
    ratings = ratings.filter(scope__club__isnull=not club_only)
    return {r.player.handle: (r.mu, r.sigma) for r in ratings}


def assert_close(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for handle in want:
        assert got[handle] == pytest.approx(want[handle], abs=1e-9), handle


@pytest.mark.parametrize(
    ("names", "teams"),
    [
        (["Nino", "Giorgi", "Tamar"], False),
        (["Nino", "Giorgi", "Tamar", "Levan"], False),
        (["Nino", "Giorgi", "Tamar", "Levan"], True),
    ],
)
def test_one_match_rates_every_player_as_openskill_does(
    owner, django_capture_on_commit_callbacks, names, teams
):
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(owner, names, seed=7, played_at="2026-10-01T20:00:00Z", teams=teams)
    want = expected_after([match])
    assert_close(stored(club_only=True), want)
    assert_close(stored(club_only=False), want)
    for rating in Rating.objects.all():
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
        assert rating.matches == 1


def test_a_partnership_moves_both_partners_alike(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(owner, ["A", "B", "C", "D"], seed=3, played_at="2026-10-01", teams=True)
    mine = stored()
    winners = [
        s.player.handle for s in match.seats.select_related("player") if s.team == match.winner
    ]
    assert mine[winners[0]] == pytest.approx(mine[winners[1]])
    assert mine[winners[0]][0] > 25


DAYS = ["2026-09-01", "2026-09-05", "2026-09-09", "2026-09-13", "2026-09-17"]
TABLES = [
    ["Nino", "Giorgi"],
    ["Giorgi", "Tamar"],
    ["Nino", "Tamar", "Levan"],
    ["Levan", "Nino"],
    ["Tamar", "Giorgi", "Nino"],
]


def table_now() -> list[tuple[str, float, int]]:
    from clubs.models import Club

    ranking = club_ranking(club=Club.objects.get(name="Tbilisi Fives Club"))
    rows = ranking["ranked"] + ranking["provisional"] + ranking["inactive"]
    return sorted((row["player"], row["rating"], row["rated_matches"]) for row in rows)


def test_matches_arriving_out_of_order_give_the_table_of_the_playing_order(
    owner, django_capture_on_commit_callbacks
):
    order = [3, 0, 4, 1, 2]  # the club sends its results late and shuffled
    matches = []
    for i in order:
        with django_capture_on_commit_callbacks(execute=True):
            matches.append(store_match(owner, TABLES[i], seed=i, played_at=DAYS[i]))
    assert_close(stored(), expected_after(matches))
    shuffled = table_now()
    # A full recomputation in playing order gives the very same table.
    for scope in RatingScope.objects.all():
        ratings_recompute(scope_id=scope.pk, full=True)
    assert table_now() == shuffled
    assert_close(stored(), expected_after(matches))


def test_a_deleted_match_disappears_from_the_table(owner, django_capture_on_commit_callbacks):
    matches = []
    for i in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            matches.append(store_match(owner, TABLES[i], seed=i, played_at=DAYS[i]))
    assert "Levan" in stored()
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=matches[2].pk)  # Levan's first match
    assert_close(stored(), expected_after([matches[0], matches[1], matches[3]]))
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=matches[3].pk)  # and his only other one
    assert "Levan" not in stored()
    assert "Levan" not in [row[0] for row in table_now()]


def test_a_rescored_match_recomputes_the_ratings_after_it(
    owner, django_capture_on_commit_callbacks
):
    from games.services.matches import match_rescore

    matches = []
    for i in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            matches.append(store_match(owner, TABLES[i], seed=i, played_at=DAYS[i]))
    before = stored()
    with django_capture_on_commit_callbacks(execute=True):
        match_rescore(match_id=matches[0].pk)
    assert_close(stored(), before)
    assert RatingScope.objects.filter(dirty_from__isnull=False).count() == 0


def test_one_person_in_two_seats_of_a_match_is_rated_at_both_and_left_at_the_later(
    owner, django_capture_on_commit_callbacks
):
    """Across clubs a person's handles are rated as one, so two of their handles at one table
    give that rating two seats of one match: each seat of the match's row holds the values
    after it (one more match at each), and the person's rating goes on from the later one,
    now and when recomputed."""
    from games.models import Player
    from replays.models import AllClubsRatingChange
    from replays.ratings import seat_values

    with django_capture_on_commit_callbacks(execute=True):
        first = store_match(owner, ["Nino", "Tamar", "Giorgi"], seed=1, played_at=DAYS[0])
    Player.objects.filter(handle__in=["Nino", "Tamar"]).update(user=owner)
    person = Player.objects.filter(user=owner).order_by("id").first()  # rated as the first
    everywhere = RatingScope.objects.get(club=None)
    ratings_recompute(scope_id=everywhere.pk, full=True)
    with django_capture_on_commit_callbacks(execute=True):
        second = store_match(owner, ["Tamar", "Giorgi"], seed=2, played_at=DAYS[1])

    def seen() -> tuple[list[int], int, bytes]:
        rows = dict(AllClubsRatingChange.objects.values_list("match_id", "seats"))
        counts = [seat_values(rows[first.pk], seat)[2] for seat in (0, 1)]
        rating = Rating.objects.get(scope=everywhere, player=person)
        assert seat_values(rows[second.pk], 0)[:3] == (rating.mu, rating.sigma, 3)
        return counts, rating.matches, bytes(rows[second.pk])

    before = seen()
    assert before[:2] == ([1, 2], 3)
    ratings_recompute(scope_id=everywhere.pk, full=True)
    assert seen() == before
