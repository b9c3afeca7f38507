"""Ratings kept as one packed row per match and scope: a recomputation from a time restores
every subject's state just before it from those rows, exactly (the same floats as a
recomputation from the start, in a club and across clubs, for a person with handles in two
clubs and two seats at one table); the history and the change over 30 days read them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from clubs.models import Club
from games.models import Match, Player
from games.services.matches import match_delete
from replays import ratings
from replays.models import AllClubsRatingChange, ClubRatingChange, Rating, RatingScope
from replays.pipeline import matches_review
from replays.rankings import club_ranking, player_profile
from replays.ratings import changes_of, ratings_recompute, seat_values
from tests.replays.helpers import openskill_in_order, store_match

pytestmark = pytest.mark.django_db
TBILISI, MOSCOW = "Tbilisi Fives Club", "Moscow"


def snapshot() -> dict[str, list[tuple]]:
    """Every rating and every packed row, exactly (floats compared bit for bit)."""
    return {
        "ratings": sorted(
            Rating.objects.values_list(
                "scope_id", "player_id", "mu", "sigma", "ordinal", "matches", "wins", "last_played"
            )
        ),
        "changes": sorted(
            (table.__name__, match_id, bytes(seats))
            for table in (ClubRatingChange, AllClubsRatingChange)
            for match_id, seats in table.objects.values_list("match_id", "seats")
        ),
    }


def recompute_all_from_the_start() -> None:
    for scope in RatingScope.objects.all():
        ratings_recompute(scope_id=scope.pk, full=True)


@pytest.fixture
def recomputations(monkeypatch):
    """Record each recomputation: its scope's club, where it started and how many it rated."""
    seen: list[tuple[int | None, datetime | None, int]] = []
    everything, reached = ratings._recompute, ratings._recompute_reached

    def recording(scope, since, *seeds):
        rated = (reached if seeds else everything)(scope, since, *seeds)
        seen.append((scope.club_id, since, rated))
        return rated

    monkeypatch.setattr(ratings, "_recompute", recording)
    monkeypatch.setattr(ratings, "_recompute_reached", recording)
    return seen


def test_a_late_match_recomputes_from_its_time_as_a_recomputation_from_the_start_does(
    owner, django_capture_on_commit_callbacks, recomputations
):
    """Nino has a handle in two clubs and Tamar's handle is Nino's too (claimed), so across
    clubs they are one subject that sits twice at one table. Two matches arrive late; each
    recomputation restores the states before it from the rows and must end exactly where a
    recomputation from the start does: every float, count, date and packed row."""
    tables = [
        (TBILISI, ["Nino", "Giorgi", "Levan"], False, "09-01"),
        (MOSCOW, ["Nino", "Sasha", "Masha"], False, "09-02"),
        (TBILISI, ["Tamar", "Levan", "Nino", "Giorgi"], True, "09-03"),
        (MOSCOW, ["Sasha", "Nino"], False, "09-04"),
        (TBILISI, ["Nino", "Tamar", "Giorgi"], False, "09-05"),  # the person's two seats
        (TBILISI, ["Giorgi", "Levan"], False, "09-06"),
        # Two at the same time: the one stored later is rated later.
        (MOSCOW, ["Masha", "Nino", "Sasha"], False, "09-07"),
        (MOSCOW, ["Nino", "Sasha"], False, "09-07"),
        (TBILISI, ["Levan", "Tamar", "Giorgi", "Nino"], False, "09-08"),
    ]
    for seed, (club, names, teams, day) in enumerate(tables, start=1):
        with django_capture_on_commit_callbacks(execute=True):
            store_match(
                owner, names, seed=seed, played_at=f"2026-{day}T20:00", club=club, teams=teams
            )
    Player.objects.filter(handle__in=["Nino", "Tamar"]).update(user=owner)
    recompute_all_from_the_start()

    late = [
        # Right after the two seats at one table: the person's state is the later seat's.
        (TBILISI, ["Giorgi", "Nino", "Levan"], "2026-09-05T21:00"),
        # Right after two Moscow matches at one time: across clubs, Nino of Moscow holds the
        # state, as the later of the two left it.
        (MOSCOW, ["Nino", "Masha"], "2026-09-07T21:00"),
    ]
    for seed, (club, names, played_at) in enumerate(late, start=100):
        recomputations.clear()
        with django_capture_on_commit_callbacks(execute=True):
            store_match(owner, names, seed=seed, played_at=played_at, club=club)
        since = datetime.fromisoformat(played_at).replace(tzinfo=UTC)
        # Both scopes were recomputed from the late match on, not from the start.
        assert sorted((club_id is None, start, rated) for club_id, start, rated in recomputations)
        for _, start, rated in recomputations:
            assert start == since
            assert 0 < rated < Match.objects.count()
        incremental = snapshot()
        recompute_all_from_the_start()
        assert snapshot() == incremental

    person = Player.objects.filter(user=owner).order_by("id").first()
    everywhere = Rating.objects.get(scope__club=None, player=person)
    # Every seat of every match of Nino and Tamar, in both clubs, counted once.
    assert everywhere.matches == 13


def history_of(matches: list[Match], handle: str) -> list[tuple[int, datetime, float]]:
    """Rate a club's matches in playing order with openskill directly: (matches, time, mu)
    after each of ``handle``'s matches, not rounded."""
    history = []
    for match, after in openskill_in_order(matches):
        if handle in {seat.player.handle for seat in match.seats.select_related("player")}:
            rating = after[handle]
            history.append((len(history) + 1, match.played_at, rating.mu))
    return history


DAYS = [
    "2026-08-01",
    "2026-08-20",
    "2026-09-02",
    "2026-09-10",
    "2026-09-25",
    "2026-10-05",
    "2026-08-10",
]
TABLES = [
    ["Ana", "Beka"],
    ["Beka", "Ciko", "Ana"],
    ["Ana", "Ciko"],
    ["Dato", "Beka"],
    ["Ciko", "Ana", "Beka"],
    ["Ana", "Dato"],
    ["Eka", "Ana"],
]
NOW = datetime(2026, 10, 10, tzinfo=UTC)  # the cutoff of the change: 2026-09-10


@pytest.fixture
def kutaisi(owner, django_capture_on_commit_callbacks):
    matches = []
    order = [2, 0, 5, 1, 6, 4, 3]  # sent late and shuffled: the rows are rewritten on the way
    for i in order:
        with django_capture_on_commit_callbacks(execute=True):
            matches.append(store_match(owner, TABLES[i], seed=i, played_at=DAYS[i], club="Kutaisi"))
    return matches


def shown(history: list[tuple[int, datetime, float]]) -> list[tuple[int, datetime, int]]:
    """The history as shown: 1500 + 48 × (mu − 25), rounded (docs/api.md's Ratings)."""
    return [
        (matches, played_at, round(1500 + 48 * (mu - 25))) for matches, played_at, mu in history
    ]


def test_the_history_is_the_rating_after_each_match(kutaisi, monkeypatch):
    ana = Player.objects.get(handle="Ana")
    want = shown(history_of(kutaisi, "Ana"))
    assert len(want) == 6
    got = player_profile(player=ana)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == want
    assert got[-1]["rating"] == player_profile(player=ana)["rating"]["rating"]

    from replays import rankings

    monkeypatch.setattr(rankings, "HISTORY_POINTS", 4)  # every 2nd match
    got = player_profile(player=ana)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == want[1::2]
    monkeypatch.setattr(rankings, "HISTORY_POINTS", 5)  # every 2nd match, and the last
    got = player_profile(player=ana)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == want[1::2]
    monkeypatch.setattr(rankings, "HISTORY_POINTS", 1)  # the last alone
    got = player_profile(player=ana)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == want[-1:]
    ciko = Player.objects.get(handle="Ciko")
    want = shown(history_of(kutaisi, "Ciko"))
    monkeypatch.setattr(rankings, "HISTORY_POINTS", 2)  # the 2nd of 3, and the last
    got = player_profile(player=ciko)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == want[1:]


def test_the_change_over_30_days_is_from_the_last_match_before_the_cutoff(kutaisi):
    ranking = club_ranking(club=Club.objects.get(name="Kutaisi"), now=NOW)
    rows = {
        row["player"]: row
        for group in ("ranked", "provisional", "inactive")
        for row in ranking[group]
    }
    cutoff = datetime(2026, 9, 10, tzinfo=UTC)
    want = {}
    for handle in ("Ana", "Beka", "Ciko", "Dato", "Eka"):
        history = history_of(kutaisi, handle)
        then = [rating for _, played_at, rating in history if played_at < cutoff]
        want[handle] = round(48 * (history[-1][2] - (then[-1] if then else 25.0)))
    assert {handle: row["change"] for handle, row in rows.items()} == want
    # Eka played before the cutoff only: no change. Dato first played on the cutoff's day,
    # not before it: his change is his whole rating above a newcomer's 1500.
    assert want["Eka"] == 0
    assert want["Dato"] == rows["Dato"]["rating"] - 1500


def test_a_deleted_match_takes_its_rows_with_it(kutaisi, django_capture_on_commit_callbacks):
    gone = next(m for m in kutaisi if m.played_at.date().isoformat() == DAYS[1])

    def rows_of_gone() -> int:  # in its club's scope and all clubs'
        return sum(
            table.objects.filter(match_id=gone.pk).count()
            for table in (ClubRatingChange, AllClubsRatingChange)
        )

    assert rows_of_gone() == 2
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=gone.pk)
    assert rows_of_gone() == 0
    after = snapshot()
    recompute_all_from_the_start()
    assert snapshot() == after
    ana = Player.objects.get(handle="Ana")
    kept = [m for m in kutaisi if m.pk != gone.pk]
    got = player_profile(player=ana)["history"]
    assert [(p["matches"], p["played_at"], p["rating"]) for p in got] == shown(
        history_of(kept, "Ana")
    )


def test_a_match_rescored_out_of_the_ratings_takes_its_rows_with_it(kutaisi):
    # Rescored invalid (say the engine was mended): stored still, rated no longer.
    gone = next(m for m in kutaisi if m.played_at.date().isoformat() == DAYS[1])
    Match.objects.filter(pk=gone.pk).update(errors=[{"code": "illegal-play"}])
    for scope_id in matches_review(match_ids=[gone.pk]):
        ratings_recompute(scope_id=scope_id)
    assert not ClubRatingChange.objects.filter(match_id=gone.pk).exists()
    assert not AllClubsRatingChange.objects.filter(match_id=gone.pk).exists()
    after = snapshot()
    recompute_all_from_the_start()
    assert snapshot() == after


def test_each_seat_is_packed_at_its_place(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(
            owner, ["Nino", "Giorgi", "Tamar", "Levan"], seed=4, played_at=DAYS[0], teams=True
        )
    for scope in RatingScope.objects.all():
        packed = changes_of(scope.club_id).objects.get(match=match).seats
        assert len(packed) == 4 * ratings.SEAT.size
        for seat in match.seats.select_related("player"):
            rating = Rating.objects.get(scope=scope, player=seat.player)
            assert seat_values(packed, seat.seat) == (
                rating.mu,
                rating.sigma,
                1,
                int(seat.team == match.winner),
            )
