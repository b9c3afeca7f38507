"""A change re-rates only what it reaches (issue 39: a merge's re-rating at a million
matches), and ends exactly where a recomputation from the start does.

Three clubs; Nino has a handle in Tbilisi and in Moscow, both hers (so across clubs the two
clubs meet through her); Kutaisi meets nobody. Late matches, a rescore, a merge, a claim and
a deletion arrive through the real services, and after each every rating and every packed
row must be the floats a recomputation from the start gives; across clubs, the ones that
name their players must re-rate no match the change cannot reach (a club's own ratings replay
from the change's time: its players all meet).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, Player
from games.services.claims import claim_decide, handle_claim
from games.services.matches import match_delete
from games.services.players import players_merge
from replays import ratings, stats
from replays.models import Rating, RatingScope
from tests.conftest import join
from tests.replays.helpers import store_match
from tests.replays.test_rating_changes import recompute_all_from_the_start, snapshot

pytestmark = pytest.mark.django_db
TBILISI, MOSCOW, KUTAISI = "Tbilisi Fives Club", "Moscow", "Kutaisi"
HANDLES = {
    TBILISI: ["Nino", "Giorgi", "Levan", "Tamar", "Ana"],
    MOSCOW: ["Nino", "Sasha", "Masha", "Oleg"],
    KUTAISI: ["Dato", "Eka", "Zaza", "Zaza K.", "Lika"],
}
FIRST_DAY = datetime(2026, 3, 1, 20, tzinfo=UTC)


@pytest.fixture
def recomputations(monkeypatch):
    """Record each recomputation: (scope's club, reached (True) or everything from ``since``
    (False), matches rated)."""
    seen: list[tuple[int | None, bool, int]] = []
    everything, reached = ratings._recompute, ratings._recompute_reached

    def recording(scope, since, *seeds):
        rated = (reached if seeds else everything)(scope, since, *seeds)
        seen.append((scope.club_id, bool(seeds), rated))
        return rated

    monkeypatch.setattr(ratings, "_recompute", recording)
    monkeypatch.setattr(ratings, "_recompute_reached", recording)
    return seen


def play(owner, capture, rng: random.Random, club: str, day: datetime, seed: int) -> Match:
    """Store one match of two to four of the club's handles at ``day``, its figures and
    ratings made as the archive makes them (the tasks run in-process on commit)."""
    names = rng.sample(HANDLES[club], rng.choice([2, 3, 4] if len(HANDLES[club]) > 3 else [2]))
    teams = len(names) == 4 and rng.random() < 0.5
    with capture(execute=True):
        return store_match(
            owner, names, seed=seed, played_at=day.isoformat(), club=club, teams=teams
        )


@pytest.fixture
def three_clubs(owner, django_capture_on_commit_callbacks):
    """Thirty matches over thirty days in the three clubs; Nino's two handles hers."""
    rng = random.Random(39)
    clubs = [TBILISI, MOSCOW, KUTAISI]
    for day in range(30):
        club = clubs[day % 3]
        play(owner, django_capture_on_commit_callbacks, rng, club, FIRST_DAY + timedelta(day), day)
    Player.objects.filter(handle="Nino").update(user=owner)
    recompute_all_from_the_start()
    return rng


def rated_as_from_the_start() -> None:
    """Every rating and packed row is what a recomputation from the start gives."""
    assert not RatingScope.objects.exclude(dirty_from=None).exists()
    kept = snapshot()
    recompute_all_from_the_start()
    assert snapshot() == kept


def reached_across(recomputations) -> bool:
    """Whether the all-clubs scope re-rated what the change reached and each club's scope
    replayed from its time."""
    return bool(recomputations) and all(
        reached == (club is None) for club, reached, _ in recomputations
    )


def counted_from(club: str | None, since: datetime) -> int:
    matches = Match.objects.counted().filter(played_at__gte=since)
    return matches.filter(club__name=club).count() if club else matches.count()


def test_a_late_match_in_a_club_nobody_else_meets_rates_that_club_only(
    owner, three_clubs, recomputations, django_capture_on_commit_callbacks
):
    day = FIRST_DAY + timedelta(days=2, hours=1)
    play(owner, django_capture_on_commit_callbacks, three_clubs, KUTAISI, day, 100)
    rated_as = {(club is None, reached): rated for club, reached, rated in recomputations}
    kutaisi_matches = counted_from(KUTAISI, day)
    # Its club's scope (replayed from its time: a club's players all meet) and the all-clubs
    # scope: Kutaisi's matches from it on, no other.
    assert rated_as == {(False, False): kutaisi_matches, (True, True): kutaisi_matches}
    assert counted_from(None, day) > kutaisi_matches
    rated_as_from_the_start()


def test_a_late_match_of_nino_reaches_the_other_club_through_her(
    owner, three_clubs, recomputations, django_capture_on_commit_callbacks
):
    day = FIRST_DAY + timedelta(days=4, hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        store_match(owner, ["Nino", "Levan"], seed=101, played_at=day.isoformat(), club=TBILISI)
    across = next(rated for club, _, rated in recomputations if club is None)
    # Across clubs: Tbilisi's and Moscow's matches from then on (Nino reaches Moscow, and
    # everyone she meets there), never Kutaisi's.
    assert across == counted_from(TBILISI, day) + counted_from(MOSCOW, day)
    assert counted_from(KUTAISI, day) > 0
    rated_as_from_the_start()


def test_random_late_matches_each_rate_as_from_the_start(
    owner, three_clubs, recomputations, django_capture_on_commit_callbacks
):
    rng = three_clubs
    for seed in range(200, 208):
        recomputations.clear()
        club = rng.choice([TBILISI, MOSCOW, KUTAISI])
        day = FIRST_DAY + timedelta(days=rng.randrange(30), hours=rng.choice([0, 1]))
        play(owner, django_capture_on_commit_callbacks, rng, club, day, seed)
        assert reached_across(recomputations)
        rated_as_from_the_start()


def test_a_rescore_out_of_the_ratings_rates_as_from_the_start(
    three_clubs, recomputations, django_capture_on_commit_callbacks
):
    from replays.pipeline import matches_review

    gone = Match.objects.filter(club__name=TBILISI).order_by("played_at")[3]
    Match.objects.filter(pk=gone.pk).update(errors=[{"code": "illegal-play"}])
    for scope_id in matches_review(match_ids=[gone.pk]):
        ratings.ratings_recompute(scope_id=scope_id)
    assert reached_across(recomputations)
    rated_as_from_the_start()


def test_a_merge_rates_as_from_the_start(
    owner, three_clubs, recomputations, django_capture_on_commit_callbacks
):
    source = Player.objects.get(club__name=KUTAISI, handle="Zaza K.")
    target = Player.objects.get(club__name=KUTAISI, handle="Zaza")
    shared = set(source.seats.values_list("match_id", flat=True)) & set(
        target.seats.values_list("match_id", flat=True)
    )
    Match.objects.filter(pk__in=shared).delete()  # the two never sat at one table
    recompute_all_from_the_start()
    recomputations.clear()
    with django_capture_on_commit_callbacks(execute=True):
        players_merge(actor=owner, source=source, target=target)
    assert reached_across(recomputations)
    # Only Kutaisi's matches were re-rated, across clubs as in the club.
    for _, _, rated in recomputations:
        assert rated <= Match.objects.counted().filter(club__name=KUTAISI).count()
    rated_as_from_the_start()


@pytest.fixture
def reviewed(monkeypatch):
    """Record every match reviewed again (its seat results made anew)."""
    seen: list[int] = []
    made = stats.seat_results
    monkeypatch.setattr(stats, "seat_results", lambda match: seen.append(match.pk) or made(match))
    return seen


def test_a_claim_joins_a_handle_to_its_person_as_from_the_start(
    owner, three_clubs, recomputations, reviewed, django_capture_on_commit_callbacks
):
    sasha = Player.objects.get(club__name=MOSCOW, handle="Sasha")
    claim = handle_claim(user=owner, player=sasha)
    with django_capture_on_commit_callbacks(execute=True):
        claim_decide(actor=owner, claim=claim, confirm=True)
    # Only who Sasha is across clubs changed: no match is reviewed, no club re-rated.
    assert reviewed == []
    assert [club for club, _, _ in recomputations] == [None]
    assert reached_across(recomputations)
    rated_as_from_the_start()


def test_a_claim_of_a_handle_older_than_its_persons_first_rates_as_from_the_start(
    owner, three_clubs, recomputations, reviewed, django_capture_on_commit_callbacks
):
    """Across clubs a person is rated as their first handle: claiming an older one moves
    the person's whole rating to it, and the handle it was kept under loses its row."""
    oldest = Player.objects.order_by("pk").first()
    Player.objects.filter(pk=oldest.pk).update(user=None)
    newest = Player.objects.exclude(club=oldest.club).order_by("-pk").first()
    lika = get_user_model().objects.create_user("lika-person")
    Player.objects.filter(pk=newest.pk).update(user=lika)
    join(lika, oldest.club.slug)
    recompute_all_from_the_start()
    recomputations.clear()
    claim = handle_claim(user=lika, player=oldest)
    with django_capture_on_commit_callbacks(execute=True):
        claim_decide(actor=owner, claim=claim, confirm=True)
    assert reviewed == []
    assert [club for club, _, _ in recomputations] == [None]
    across = RatingScope.objects.get(club=None)
    assert not Rating.objects.filter(scope=across, player=newest).exists()
    assert Rating.objects.filter(scope=across, player=oldest).exists()
    rated_as_from_the_start()


def test_a_claim_of_a_handle_that_never_played_owes_no_rating(
    owner, three_clubs, recomputations, django_capture_on_commit_callbacks
):
    club = Player.objects.filter(club__name=MOSCOW).first().club
    idle = Player.objects.create(club=club, handle="Idle")
    claim = handle_claim(user=owner, player=idle)
    marks = RatingScope.objects.get(club=None).dirty_marks
    with django_capture_on_commit_callbacks(execute=True):
        claim_decide(actor=owner, claim=claim, confirm=True)
    assert recomputations == []
    assert RatingScope.objects.get(club=None).dirty_marks == marks


def test_a_deletion_names_nobody_and_rates_everything_from_its_time(
    three_clubs, recomputations, django_capture_on_commit_callbacks
):
    gone = Match.objects.filter(club__name=MOSCOW).order_by("played_at")[2]
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=gone.pk)
    assert {reached for _, reached, _ in recomputations} == {False}
    rated_as_from_the_start()


def test_marks_naming_players_add_up_and_one_naming_nobody_names_anyone(three_clubs):
    club = Player.objects.get(club__name=KUTAISI, handle="Dato").club
    day = FIRST_DAY + timedelta(days=5)
    marks = RatingScope.objects.get(club=None).dirty_marks
    first, across = ratings.ratings_mark_dirty(club_id=club.pk, since=day, players=[3, 1])
    ratings.ratings_mark_dirty(club_id=club.pk, since=day + timedelta(1), players=[2])
    # A club's scope replays from the change's time: it keeps no names.
    assert RatingScope.objects.get(pk=first).dirty_players is None
    scope = RatingScope.objects.get(pk=across)
    assert (scope.dirty_from, scope.dirty_players) == (day, [1, 2, 3])
    assert scope.dirty_marks == marks + 2
    ratings.ratings_mark_dirty(club_id=club.pk, since=day - timedelta(1))
    ratings.ratings_mark_dirty(club_id=club.pk, since=day, players=[4])
    scope.refresh_from_db()
    assert (scope.dirty_from, scope.dirty_players) == (day - timedelta(1), None)
    # Too many players named: anyone.
    ratings.ratings_recompute(scope_id=first)
    ratings.ratings_recompute(scope_id=across)
    many = range(ratings.DIRTY_PLAYERS_MAX + 1)
    ratings.ratings_mark_dirty(club_id=club.pk, since=day, players=many)
    scope.refresh_from_db()
    assert scope.dirty_players is None and scope.dirty_from == day


def test_a_mark_during_a_recomputation_leaves_the_scope_dirty(three_clubs, monkeypatch):
    """A change marked while a recomputation runs is not cleared by it (it may not have
    seen the change), even at the same time as the mark the recomputation started from."""
    club = Player.objects.get(club__name=KUTAISI, handle="Dato").club
    day = FIRST_DAY + timedelta(days=5)
    _, scope_id = ratings.ratings_mark_dirty(club_id=club.pk, since=day, players=[1])
    real = ratings._recompute_reached

    def marked_meanwhile(scope, since, seeds):
        rated = real(scope, since, seeds)
        ratings.ratings_mark_dirty(club_id=club.pk, since=day, players=[2])
        return rated

    monkeypatch.setattr(ratings, "_recompute_reached", marked_meanwhile)
    ratings.ratings_recompute(scope_id=scope_id)
    scope = RatingScope.objects.get(pk=scope_id)
    assert scope.dirty_from == day and scope.dirty_players == [1, 2]
