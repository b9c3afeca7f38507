"""Celery tasks of statistics, ratings and analyses: each takes ids and calls a service. Transient
faults are retried with growing pauses; work lost altogether is found again by the periodic
``statistics_catch_up_task`` (replays/periodic.py)."""

import logging
import uuid
from datetime import datetime

from celery import Task, shared_task

from games.tasks import RETRY, TRANSIENT, retry_later

from . import analysis, pipeline, replay_cache

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def matches_review_task(match_ids: list[int]) -> None:
    """Store the figures of new or rescored matches, then bring the ratings up to date."""
    for scope_id in pipeline.matches_review(match_ids=match_ids):
        ratings_recompute_task.delay(scope_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def replays_store_task(match_ids: list[int]) -> None:
    """Make and keep the replays of the long matches among these (run twice, it finds them
    made and does nothing)."""
    replay_cache.replays_store(match_ids=match_ids)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def matches_forget_task(club_id: int, since: str) -> None:
    """Recompute a club's ratings without the matches deleted from ``since`` on."""
    scopes = pipeline.matches_forget(club_id=club_id, since=datetime.fromisoformat(since))
    for scope_id in scopes:
        ratings_recompute_task.delay(scope_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def ratings_recompute_task(scope_id: int) -> None:
    """Recompute a scope's ratings from where they were marked dirty."""
    pipeline.ratings_update(scope_id=scope_id)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def analysis_next_task(
    self: Task, analysis_id: int | None = None, holder: str | None = None
) -> None:
    """Run the analysis whose turn it is (on the ``analysis`` queue, at low priority): each
    request sends one such prompt, and the prompt claims the fairest queued analysis
    (``analysis.analysis_claim``), not the one that sent it; with none queued it does nothing.

    A transient fault is retried by the same run: the analysis it claimed (``analysis_id``)
    and its name passed on, so it takes its own analysis back at once; any other failure
    leaves the analysis failed with its reason, to be asked for again."""
    holder = holder or uuid.uuid4().hex
    try:
        if analysis_id is None:
            analysis_id = analysis.analysis_claim(holder=holder)
            if analysis_id is None:
                return
        analysis.analysis_run(analysis_id=analysis_id, holder=holder)
    except TRANSIENT as exc:
        # Out of retries, still running: the periodic sweep hands it back once it counts as
        # stuck.
        retry_later(self, exc, {"analysis_id": analysis_id, "holder": holder})
    except Exception as exc:
        logger.exception("analysis %s failed", analysis_id)
        if analysis_id is not None:
            analysis.analysis_fail(analysis_id=analysis_id, reason=f"{type(exc).__name__}: {exc}")


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def match_analyse_task(self: Task, analysis_id: int, holder: str | None = None) -> None:
    """Run this analysis, whoever's turn it is, on the ``analysis`` queue at low priority:
    sent by hand, or before analyses were served in turn (a message still in the broker at an
    upgrade). Requests send ``analysis_next_task``.

    Run twice it does nothing more (``analysis.analysis_run``); a transient fault is retried
    by the same run (its name passed on, so it takes its own analysis back at once); any
    other failure leaves the analysis failed with its reason, to be asked for again.
    """
    holder = holder or uuid.uuid4().hex
    try:
        analysis.analysis_run(analysis_id=analysis_id, holder=holder)
    except TRANSIENT as exc:
        # Out of retries, still running: the periodic sweep sends it again once it counts as
        # stuck.
        retry_later(self, exc, {"analysis_id": analysis_id, "holder": holder})
    except Exception as exc:
        logger.exception("analysis %s failed", analysis_id)
        analysis.analysis_fail(analysis_id=analysis_id, reason=f"{type(exc).__name__}: {exc}")


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def analyses_follow_task(match_ids: list[int]) -> None:
    """After matches were stored: keep the analyses' players true and ask for the analysis
    of each match of a club that analyses every match."""
    analysis.analyses_follow_matches(match_ids=match_ids)
