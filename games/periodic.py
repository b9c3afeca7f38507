"""Periodic tasks of the archive (Celery beat, or the in-process beat of ``make run``)."""

from celery import shared_task

from .services.uploads import uploads_requeue_stale
from .tasks import RETRY


@shared_task(**RETRY)
def uploads_requeue_task() -> int:
    """Send again the pending uploads whose processing was lost; return how many."""
    return uploads_requeue_stale()
