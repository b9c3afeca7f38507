"""Celery tasks: each takes an id, and calls a service. Safe to run twice."""

from celery import shared_task

from .services import ingest, matches


@shared_task(acks_late=True, reject_on_worker_lost=True)
def upload_process_task(upload_id: int) -> None:
    """Validate and store the logs of an upload."""
    ingest.upload_process(upload_id=upload_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def match_rescore_task(match_id: int) -> None:
    """Rescore one stored match with the current engine."""
    matches.match_rescore(match_id=match_id)
