"""Periodic tasks of the archive (Celery beat, or the in-process beat of ``make run``)."""

from celery import shared_task

from .services.uploads import uploads_requeue_stale
from .tasks import RETRY


@shared_task(**RETRY)
def uploads_requeue_task() -> int:
    """Send again the pending uploads whose processing was lost (a lease that ran out, a
    hand-over never received); return how many. Every ``FIVES_SWEEP_EVERY`` seconds."""
    return uploads_requeue_stale()
