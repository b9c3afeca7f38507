"""Celery tasks: each takes an id, and calls a service. Safe to run twice.

A transient fault (the database or the broker unreachable for a while) is retried with
growing pauses; anything else ends the upload in the ``failed`` state with its reason,
visible on its page and re-runnable. A pending upload whose task was lost altogether (a
broker that came back empty, a worker killed: its lease runs out) is sent again by the
periodic ``uploads_requeue_task`` (games/periodic.py), whatever the broker kept.
"""

import logging
from typing import Any, NoReturn

from celery import Task, shared_task
from celery.utils.time import get_exponential_backoff_interval
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


def retry_later(task: Task, exc: Exception, kwargs: dict[str, Any]) -> NoReturn:
    """Send ``task`` again with ``kwargs`` after the project's backoff (``RETRY``), or raise
    ``exc`` once it is out of retries."""
    if task.request.retries >= RETRY["max_retries"]:
        raise exc
    countdown = get_exponential_backoff_interval(
        factor=RETRY["retry_backoff"],
        retries=task.request.retries,
        maximum=RETRY["retry_backoff_max"],
        full_jitter=RETRY["retry_jitter"],
    )
    raise task.retry(exc=exc, countdown=countdown, kwargs=kwargs) from None


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def upload_process_task(self: Task, upload_id: int, holder: str | None = None) -> None:
    """Validate and store the logs of an upload.

    The run holds the upload's lease (games.services.ingest): retried after a transient
    fault, it passes its name on, so the retry takes its own lease back at once. A task that
    finds the upload held by another run (a message delivered twice) looks again once that
    lease would run out: the holder has finished by then, or died and left it free.
    """
    holder = holder or ingest.new_holder()
    try:
        ingest.upload_process(upload_id=upload_id, holder=holder)
    except ingest.LeaseLost:
        logger.warning("upload %s: taken over by another run; this one stops", upload_id)
    except ingest.UploadHeld as held:
        if self.request.is_eager:
            return  # in-process: the periodic sweep hands it over once the lease runs out
        raise self.retry(countdown=held.seconds_left + 1) from None
    except TRANSIENT as exc:
        # Out of retries, still pending: the periodic sweep sends it again when its lease
        # runs out.
        retry_later(self, exc, {"upload_id": upload_id, "holder": holder})
    except Exception as exc:
        logger.exception("upload %s failed", upload_id)
        ingest.upload_fail(upload_id=upload_id, reason=f"{type(exc).__name__}: {exc}")


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def match_rescore_task(match_id: int) -> None:
    """Rescore one stored match with the current engine."""
    matches.match_rescore(match_id=match_id)
