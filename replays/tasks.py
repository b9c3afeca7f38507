"""Celery tasks of statistics and ratings: each takes ids and calls a service."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, reject_on_worker_lost=True)
def matches_review_task(match_ids: list[int]) -> None:
    """Store the figures of new or rescored matches and bring the ratings up to date."""
    services.matches_review(match_ids=match_ids)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def ratings_recompute_task(scope_id: int) -> None:
    """Recompute a scope's ratings from where they were marked dirty."""
    services.ratings_update(scope_id=scope_id)
