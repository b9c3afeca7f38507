"""The expected-value analysis of a stored match (replays/analysis.py): asked for by a person
within a daily quota or by the club, run by a task on its own queue, stored with the match,
done once per version of the engine's analysis, never lost nor doubled by a worker's death."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from clubs.models import Club
from clubs.services import club_update
from fives_engine.expected import ANALYSIS_VERSION, review_match
from fivesite.celery import app
from games.models import Match
from replays import analysis as service
from replays.models import MatchAnalysis, SeatAnalysis
from replays.periodic import analyses_requeue_task
from replays.rankings import club_ranking, player_profile

from .helpers import store_match

pytestmark = pytest.mark.django_db

Status = MatchAnalysis.Status


@pytest.fixture
def match(owner, django_capture_on_commit_callbacks) -> Match:
    with django_capture_on_commit_callbacks(execute=True):
        return store_match(owner, ["Levan", "Nino"], seed=7, played_at="2026-03-01T19:00:00Z")


def ask(match, user, django_capture_on_commit_callbacks):
    """Ask for the analysis and run what the commit sends (in-process, as without Redis)."""
    with django_capture_on_commit_callbacks(execute=True):
        return service.analysis_request(match=match, user=user)


def test_an_analysis_asked_for_is_run_and_stored_with_the_engines_figures(
    match, member, django_capture_on_commit_callbacks
):
    analysis = ask(match, member, django_capture_on_commit_callbacks)
    analysis.refresh_from_db()
    assert analysis.status == Status.DONE
    assert analysis.version == str(ANALYSIS_VERSION)
    assert analysis.requested_by == member
    # The engine's own figures, exactly (its seed comes from what each seat saw).
    expected = review_match(Match.objects.with_log().get(pk=match.pk).log()).as_dict()
    assert analysis.result == service.finite(expected)
    assert analysis.done == analysis.total == len(expected["plays"]) > 0
    # Each seat's summary, for the player page and the ranking.
    rows = {row.seat: row for row in SeatAnalysis.objects.filter(match=match)}
    assert sorted(rows) == [0, 1]
    for seat, row in rows.items():
        losses = [play["loss"] for play in expected["plays"] if play["seat"] == seat]
        assert row.plays == len(losses)
        assert row.loss == pytest.approx(sum(losses))
        assert row.accuracy == pytest.approx(expected["accuracy"][seat])


def test_the_progress_is_written_as_the_run_goes(match, member, monkeypatch):
    seen = []
    monkeypatch.setattr(service, "PROGRESS_EVERY", 0.0)
    original = service.progress_writer

    def watching(**kwargs):
        write = original(**kwargs)

        def progress(done, total):
            write(done, total)
            row = MatchAnalysis.objects.get(pk=kwargs["analysis_id"])
            seen.append((row.status, row.done, row.total))

        return progress

    monkeypatch.setattr(service, "progress_writer", watching)
    analysis = service.analysis_request(match=match, user=member)  # queued: nothing sent
    service.analysis_run(analysis_id=analysis.pk)
    assert seen and all(status == Status.RUNNING for status, _, _ in seen)
    assert [done for _, done, _ in seen] == sorted(done for _, done, _ in seen)
    assert seen[-1][1] == seen[-1][2] > 0


def test_asking_again_for_a_current_analysis_costs_nothing_and_runs_nothing(
    match, member, django_capture_on_commit_callbacks, monkeypatch
):
    first = ask(match, member, django_capture_on_commit_callbacks)
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 1)
    runs = []
    monkeypatch.setattr(service, "review_match", lambda *a, **k: runs.append(1))
    again = ask(match, member, django_capture_on_commit_callbacks)
    assert again.pk == first.pk and again.status == Status.DONE
    assert runs == []
    assert MatchAnalysis.objects.count() == 1


def test_a_task_delivered_twice_runs_the_analysis_once(match, member, monkeypatch):
    analysis = service.analysis_request(match=match, user=member)
    app.tasks[service.ANALYSE_TASK].apply(args=[analysis.pk])
    first = MatchAnalysis.objects.get(pk=analysis.pk)
    runs = []
    monkeypatch.setattr(service, "review_match", lambda *a, **k: runs.append(1))
    app.tasks[service.ANALYSE_TASK].apply(args=[analysis.pk])  # the same message again
    assert runs == []
    again = MatchAnalysis.objects.get(pk=analysis.pk)
    assert again.result == first.result and again.finished_at == first.finished_at
    assert SeatAnalysis.objects.filter(match=match).count() == 2


def test_a_run_held_by_a_living_worker_is_left_to_it(match, member, monkeypatch):
    analysis = service.analysis_request(match=match, user=member)
    assert service.analysis_take(analysis_id=analysis.pk, holder="worker-1") is not None
    runs = []
    monkeypatch.setattr(service, "review_match", lambda *a, **k: runs.append(1))
    assert service.analysis_run(analysis_id=analysis.pk, holder="worker-2") is None
    assert runs == []
    assert MatchAnalysis.objects.get(pk=analysis.pk).holder == "worker-1"


def test_a_dead_workers_run_is_sent_again_and_stored_once(
    match, member, monkeypatch, django_capture_on_commit_callbacks
):
    analysis = service.analysis_request(match=match, user=member)
    # A worker took it and died half-way: running, its last sign of life long ago.
    service.analysis_take(analysis_id=analysis.pk, holder="dead-worker")
    long_ago = timezone.now() - timedelta(seconds=settings.FIVES_ANALYSIS_STUCK_AFTER + 5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(done=3, total=40, heartbeat_at=long_ago)
    assert service.analysis_is_stuck(MatchAnalysis.objects.get(pk=analysis.pk))
    # The periodic sweep sends it again; the new run takes it over and finishes.
    assert analyses_requeue_task.apply().get() == 1
    done = MatchAnalysis.objects.get(pk=analysis.pk)
    assert done.status == Status.DONE and done.holder != "dead-worker"
    assert SeatAnalysis.objects.filter(match=match).count() == 2
    # The dead run, should it wake, may write nothing more.
    write = service.progress_writer(analysis_id=analysis.pk, holder="dead-worker")
    with pytest.raises(service.RunTakenOver):
        write(40, 40)
    assert MatchAnalysis.objects.count() == 1
    # Nothing left to sweep.
    assert analyses_requeue_task.apply().get() == 0


def test_a_person_asking_for_a_stuck_run_sends_it_again_without_counting(
    match, member, monkeypatch, django_capture_on_commit_callbacks
):
    analysis = service.analysis_request(match=match, user=member)
    long_ago = timezone.now() - timedelta(seconds=settings.FIVES_ANALYSIS_STUCK_AFTER + 5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(requested_at=long_ago)
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 1)  # used up by the first ask
    again = ask(match, member, django_capture_on_commit_callbacks)
    again.refresh_from_db()
    assert again.status == Status.DONE
    assert again.requested_at == long_ago


def test_a_failure_is_kept_with_its_reason_and_may_be_asked_again(
    match, member, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(*args, **kwargs):
        raise ValueError("the engine could not read hand 3")

    monkeypatch.setattr(service, "review_match", broken)
    analysis = ask(match, member, django_capture_on_commit_callbacks)
    analysis.refresh_from_db()
    assert analysis.status == Status.FAILED
    assert analysis.failure == "ValueError: the engine could not read hand 3"
    assert service.analysis_may_run_again(analysis)
    monkeypatch.undo()
    again = ask(match, member, django_capture_on_commit_callbacks)
    again.refresh_from_db()
    assert again.status == Status.DONE and again.failure == ""


def test_a_stale_analysis_shows_as_stale_and_is_done_again_once_asked(
    match, member, monkeypatch, django_capture_on_commit_callbacks
):
    analysis = ask(match, member, django_capture_on_commit_callbacks)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(version="0")
    SeatAnalysis.objects.filter(match=match).update(version="0")
    state = service.analysis_state(match=match)
    assert state["status"] == "done" and state["stale"] is True
    assert state["version"] == "0" and state["current_version"] == str(ANALYSIS_VERSION)
    assert state["result"] is not None  # the old figures are still shown, marked stale
    # A stale player's summary is not averaged with the current version's.
    seat = SeatAnalysis.objects.filter(match=match).first()
    assert service.players_expected_loss(player_ids=[seat.player_id]) == {}
    again = ask(match, member, django_capture_on_commit_callbacks)
    again.refresh_from_db()
    assert again.status == Status.DONE and again.version == str(ANALYSIS_VERSION)
    assert service.analysis_state(match=match)["stale"] is False
    assert set(SeatAnalysis.objects.values_list("version", flat=True)) == {str(ANALYSIS_VERSION)}


def test_the_quota_counts_a_persons_analyses_of_the_last_day(
    owner, member, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 2)
    with django_capture_on_commit_callbacks(execute=True):
        matches = [
            store_match(owner, ["Levan", "Nino"], seed=seed, played_at="2026-03-01T19:00:00Z")
            for seed in (1, 2, 3)
        ]
    # Queued only (nothing runs): the quota counts requests, not results.
    service.analysis_request(match=matches[0], user=member)
    service.analysis_request(match=matches[1], user=member)
    assert service.quota_left(user=member)[0] == 0
    with pytest.raises(service.QuotaExceeded) as refused:
        service.analysis_request(match=matches[2], user=member)
    assert refused.value.limit == 2
    assert 0 < refused.value.retry_after <= 86400
    assert not MatchAnalysis.objects.filter(match=matches[2]).exists()
    # Another person has a quota of their own; the club's own requests count in none.
    service.analysis_request(match=matches[2], user=owner)
    # A day later the first request has left the window.
    MatchAnalysis.objects.filter(match=matches[0]).update(
        requested_at=timezone.now() - timedelta(days=1, seconds=1)
    )
    assert service.quota_left(user=member)[0] == 1


def test_the_analysis_task_goes_to_its_own_queue_at_low_priority():
    route = app.amqp.router.route({}, service.ANALYSE_TASK, args=(1,))
    assert route["queue"].name == "analysis"
    assert settings.CELERY_TASK_ROUTES[service.ANALYSE_TASK]["priority"] == 9
    # A worker started without -Q serves every queue, this one too.
    assert "analysis" in [queue.name for queue in settings.CELERY_TASK_QUEUES]
    assert app.amqp.router.route({}, "replays.tasks.analyses_follow_task")["queue"].name == (
        "stats"
    )


def test_a_club_that_analyses_every_match_gets_each_new_match_analysed(
    owner, django_capture_on_commit_callbacks
):
    club = Club.objects.get(slug="tbilisi-fives-club")
    club_update(actor=owner, club=club, analyse_every_match=True)
    with django_capture_on_commit_callbacks(execute=True):
        mine = store_match(owner, ["Levan", "Nino"], seed=11, played_at="2026-03-02T19:00:00Z")
        other = store_match(
            owner, ["Ivan", "Olga"], seed=12, played_at="2026-03-02T19:00:00Z", club="Moscow"
        )
    analysis = MatchAnalysis.objects.get(match=mine)
    assert analysis.status == Status.DONE
    assert analysis.requested_by is None  # the club's, in no one's quota
    assert not MatchAnalysis.objects.filter(match=other).exists()


def test_the_player_page_and_the_ranking_carry_the_average_expected_loss(
    match, member, django_capture_on_commit_callbacks
):
    ask(match, member, django_capture_on_commit_callbacks)
    result = MatchAnalysis.objects.get(match=match).result
    seat = match.seats.select_related("player").get(seat=0)
    losses = [play["loss"] for play in result["plays"] if play["seat"] == 0]
    profile = player_profile(player=seat.player)
    assert profile["analysis"]["analysed_matches"] == 1
    assert profile["analysis"]["expected_loss"] == round(sum(losses) / len(losses), 2)
    table = club_ranking(club=match.club)
    rows = [row for group in ("ranked", "provisional", "inactive") for row in table[group]]
    row = next(row for row in rows if row["player_id"] == seat.player_id)
    assert row["expected_loss"] == profile["analysis"]["expected_loss"]


def test_deleting_a_match_deletes_its_analysis(match, member, django_capture_on_commit_callbacks):
    from games.services.matches import match_delete

    ask(match, member, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=match.pk)
    assert not MatchAnalysis.objects.exists() and not SeatAnalysis.objects.exists()


def test_the_demo_analyses_a_few_two_player_matches_of_its_first_club(
    owner, django_capture_on_commit_callbacks
):
    from io import StringIO

    from django.core.management import call_command

    with django_capture_on_commit_callbacks(execute=True):
        for seed in (21, 22, 23):
            store_match(owner, ["Levan", "Nino"], seed=seed, played_at="2026-03-03T19:00:00Z")
    call_command("demo_analysis", "--count", "2", stdout=StringIO())
    assert MatchAnalysis.objects.filter(status=Status.DONE).count() == 2
    call_command("demo_analysis", "--count", "2", stdout=StringIO())  # again: no more
    assert MatchAnalysis.objects.count() == 2


def test_the_latest_analysed_matches_are_each_players_own_alone_or_among_others(
    owner, django_capture_on_commit_callbacks
):
    """A player's page asks for one player (read from their index and stopped), a ranking
    for many (numbered per player): both count each player's latest ``recent`` matches
    analysed with the current version, and only those."""
    with django_capture_on_commit_callbacks(execute=True):
        stored = [
            store_match(owner, ["Nino", "Levan"], seed=seed, played_at=f"2026-05-0{seed}T19:00:00Z")
            for seed in range(1, 6)
        ]
    matches = Match.objects.filter(pk__in=[match.pk for match in stored]).order_by("played_at")
    for number, match in enumerate(matches, start=1):
        for seat in match.seats.all():
            SeatAnalysis.objects.create(
                match=match,
                seat=seat.seat,
                player_id=seat.player_id,
                club_id=match.club_id,
                played_at=match.played_at,
                loss=float(number),
                plays=1,
                accuracy=1.0,
                # The oldest was analysed by an earlier version: never counted.
                version=ANALYSIS_VERSION if number > 1 else "0",
            )
    nino, levan = (match.seats.get(seat=s).player_id for s in (0, 1))
    both = service.players_expected_loss(player_ids=[nino, levan], recent=3)
    # The latest three of the four current ones: losses 3, 4 and 5.
    assert both[nino]["expected_loss"] == both[levan]["expected_loss"] == 4.0
    assert both[nino]["analysed_matches"] == 3
    alone = service.players_expected_loss(player_ids=[nino], recent=3)
    assert alone == {nino: both[nino]}
    assert service.players_expected_loss(player_ids=[nino], recent=10)[nino]["expected_loss"] == 3.5
