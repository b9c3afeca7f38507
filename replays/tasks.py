"""Celery tasks of statistics and ratings: each takes ids and calls a service. Transient
faults are retried with growing pauses; work lost altogether is found again by the periodic
``statistics_catch_up_task`` (replays/periodic.py)."""

from datetime import datetime

from celery import shared_task

from games.tasks import RETRY

from . import services


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def matches_review_task(match_ids: list[int]) -> None:
    """Store the figures of new or rescored matches, then bring the ratings up to date."""
    for scope_id in services.matches_review(match_ids=match_ids):
        ratings_recompute_task.delay(scope_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def matches_forget_task(club_id: int, since: str) -> None:
    """Recompute a club's ratings without the matches deleted from ``since`` on."""
    scopes = services.matches_forget(club_id=club_id, since=datetime.fromisoformat(since))
    for scope_id in scopes:
        ratings_recompute_task.delay(scope_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def ratings_recompute_task(scope_id: int) -> None:
    """Recompute a scope's ratings from where they were marked dirty."""
    services.ratings_update(scope_id=scope_id)
