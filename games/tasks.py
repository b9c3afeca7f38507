"""Celery tasks: each takes an id, and calls a service. Safe to run twice.

A transient fault (the database or the broker unreachable for a while) is retried with
growing pauses; anything else ends the upload in the ``failed`` state with its reason,
visible on its page and re-runnable. A pending upload whose task was lost altogether is sent
again by the periodic ``uploads_requeue_task`` (games/periodic.py).
"""

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from .services import ingest, matches

logger = logging.getLogger(__name__)

# Faults that pass: a database or broker restarting, a network blink.
TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError, TimeoutError)
RETRY = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 30,
}


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def upload_process_task(upload_id: int) -> None:
    """Validate and store the logs of an upload."""
    try:
        ingest.upload_process(upload_id=upload_id)
    except TRANSIENT:
        raise
    except Exception as exc:
        logger.exception("upload %s failed", upload_id)
        ingest.upload_fail(upload_id=upload_id, reason=f"{type(exc).__name__}: {exc}")


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def match_rescore_task(match_id: int) -> None:
    """Rescore one stored match with the current engine."""
    matches.match_rescore(match_id=match_id)
