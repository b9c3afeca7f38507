"""The analysis queue is fair (issue 34, item 4): queued analyses are served in turn by asker
(each person's first before anyone's second, a club's own setting counting as the club
asking), each request prompting the next in turn, and an analysis whose run or prompt was
lost is handed back to the queue in its place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from fivesite.celery import app
from replays import analysis as service
from replays.models import AnalysisAsker, MatchAnalysis
from replays.periodic import analyses_requeue_task

from .helpers import store_each

pytestmark = pytest.mark.django_db

Status = MatchAnalysis.Status


def stored(owner, count: int, capture, *, first_seed: int = 100) -> list:
    return store_each(owner, count, capture, first_seed=first_seed)


def serve_one() -> MatchAnalysis | None:
    """Do what one worker does with one prompt, but leave the figures out: claim the
    analysis whose turn it is and mark it done. Return it, or None when none is queued."""
    analysis_id = service.analysis_claim(holder="the-one-worker")
    if analysis_id is None:
        return None
    MatchAnalysis.objects.filter(pk=analysis_id).update(status=Status.DONE)
    return MatchAnalysis.objects.get(pk=analysis_id)


def whose(analysis: MatchAnalysis) -> str:
    asker = analysis.asker
    return asker.club.slug if asker.club_id else asker.user.username


def test_each_asker_is_served_in_turn_whatever_another_queued(
    owner, member, outsider, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 50)
    matches = stored(owner, 34, django_capture_on_commit_callbacks)
    club = matches[0].club
    # Queued only: nothing runs until a worker takes a prompt (no callbacks run here).
    for match in matches[:30]:  # Levan's flood
        service.analysis_request(match=match, user=member)
    service.analysis_request(match=matches[30], user=outsider)  # Giorgi's one
    for match in matches[31:]:  # the club's own setting, three
        service.analysis_request(match=match, user=None)
    assert AnalysisAsker.objects.get(club=club).analyses.count() == 3

    order = []
    while (served := serve_one()) is not None:
        order.append(whose(served))
    assert len(order) == 34
    # A round by asker, each round in the order of the requests: Levan's first went in
    # before Giorgi asked, so Giorgi waits behind one analysis of Levan's, not thirty.
    assert order[:7] == [
        "levan", "giorgi", "tbilisi-fives-club",
        "levan", "tbilisi-fives-club",
        "levan", "tbilisi-fives-club",
    ]  # fmt: skip
    assert order[7:] == ["levan"] * 27
    # Each asker's own analyses in the order asked.
    levans = MatchAnalysis.objects.filter(requested_by=member).order_by("started_at", "pk")
    assert [a.match_id for a in levans] == [m.pk for m in matches[:30]]


def test_a_running_analysis_counts_as_its_askers_turn(
    owner, member, outsider, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 50)
    matches = stored(owner, 6, django_capture_on_commit_callbacks)
    for match in matches[:5]:
        service.analysis_request(match=match, user=member)
    running = service.analysis_claim(holder="worker-1")
    assert MatchAnalysis.objects.get(pk=running).match_id == matches[0].pk
    # Giorgi asks while Levan's first runs: his is next, before Levan's second.
    giorgis = service.analysis_request(match=matches[5], user=outsider)
    assert service.analyses_in_turn()[0] == giorgis.pk
    assert service.analysis_claim(holder="worker-2") == giorgis.pk


def test_an_analysis_is_claimed_once(owner, member, django_capture_on_commit_callbacks):
    match = stored(owner, 1, django_capture_on_commit_callbacks)[0]
    analysis = service.analysis_request(match=match, user=member)
    assert service.analysis_claim(holder="worker-1") == analysis.pk
    assert service.analysis_claim(holder="worker-2") is None
    row = MatchAnalysis.objects.get(pk=analysis.pk)
    assert row.status == Status.RUNNING and row.holder == "worker-1"


def test_each_request_prompts_the_next_analysis_in_turn_not_its_own(
    owner, member, outsider, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 50)
    matches = stored(owner, 4, django_capture_on_commit_callbacks)
    for match in matches[:3]:  # queued, their prompts lost
        service.analysis_request(match=match, user=member)
    # Giorgi's request sends a prompt; it runs Levan's first, whose turn it is.
    with django_capture_on_commit_callbacks(execute=True):
        giorgis = service.analysis_request(match=matches[3], user=outsider)
    done = MatchAnalysis.objects.filter(status=Status.DONE)
    assert [a.match_id for a in done] == [matches[0].pk]
    assert MatchAnalysis.objects.get(pk=giorgis.pk).status == Status.QUEUED
    assert service.analyses_in_turn()[0] == giorgis.pk


def test_the_prompt_task_goes_to_the_analysis_queue_and_does_nothing_without_work():
    route = app.amqp.router.route({}, service.NEXT_TASK, args=())
    assert route["queue"].name == "analysis"
    assert settings.CELERY_TASK_ROUTES[service.NEXT_TASK]["priority"] == 9
    app.tasks[service.NEXT_TASK].apply()  # nothing queued: nothing happens
    assert not MatchAnalysis.objects.exists()


def test_a_queued_analysis_whose_prompt_was_lost_is_prompted_again(
    owner, member, django_capture_on_commit_callbacks
):
    match = stored(owner, 1, django_capture_on_commit_callbacks)[0]
    analysis = service.analysis_request(match=match, user=member)  # its prompt never sent
    assert analyses_requeue_task.apply().get() == 0  # not yet: it may be waiting its turn
    long_ago = timezone.now() - timedelta(seconds=settings.FIVES_ANALYSIS_STUCK_AFTER + 5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(requested_at=long_ago)
    assert service.analysis_is_stuck(MatchAnalysis.objects.get(pk=analysis.pk))
    assert analyses_requeue_task.apply().get() == 1
    assert MatchAnalysis.objects.get(pk=analysis.pk).status == Status.DONE


def test_a_dead_workers_run_is_handed_back_with_its_place_in_turn(
    owner, member, outsider, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 50)
    matches = stored(owner, 3, django_capture_on_commit_callbacks)
    levans = [service.analysis_request(match=m, user=member) for m in matches[:2]]
    assert service.analysis_claim(holder="dead-worker") == levans[0].pk
    giorgis = service.analysis_request(match=matches[2], user=outsider)
    long_ago = timezone.now() - timedelta(seconds=settings.FIVES_ANALYSIS_STUCK_AFTER + 5)
    MatchAnalysis.objects.filter(pk=levans[0].pk).update(heartbeat_at=long_ago)
    # Handed back (the prompts run in-process here): Levan's first goes first again, the
    # dead run's hold is gone, and the queue goes on in turn.
    assert service.analyses_requeue_stuck() == 1
    handed = MatchAnalysis.objects.get(pk=levans[0].pk)
    assert handed.status == Status.DONE and handed.holder != "dead-worker"
    with pytest.raises(service.RunTakenOver):
        service.progress_writer(analysis_id=handed.pk, holder="dead-worker")(1, 1)
    assert service.analyses_in_turn() == [giorgis.pk, levans[1].pk]


def test_an_analysis_waiting_its_turn_long_is_shown_waiting_not_stopped(
    owner, member, django_capture_on_commit_callbacks
):
    match = stored(owner, 1, django_capture_on_commit_callbacks)[0]
    analysis = service.analysis_request(match=match, user=member)  # queued, not yet served
    long_ago = timezone.now() - timedelta(seconds=settings.FIVES_ANALYSIS_STUCK_AFTER + 5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(requested_at=long_ago)
    page = service.analysis_page(match=match, players=["Levan", "Nino"], user=member)
    assert page["state"]["status"] == Status.QUEUED
    assert page["state"]["stuck"] is False and page["under_way"] is True
    # A run that went quiet as long is the one said to have stopped.
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status=Status.RUNNING, heartbeat_at=long_ago
    )
    page = service.analysis_page(match=match, players=["Levan", "Nino"], user=member)
    assert page["state"]["stuck"] is True and page["under_way"] is False
