"""The tasks of competitions: the emails of what waits on a person, their digests and the
reminders of tomorrow's fixtures (``competitions.inbox``), on the ``notices`` queue. They
take ids and call a service; a task run twice sends nothing twice (each email's
``Notice``)."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from celery import shared_task

from games.events import MatchesStored
from games.waiting import APPROVAL, pending_of

from . import inbox

logger = logging.getLogger(__name__)

# An SMTP server away or refusing for a moment: tried again, up to an hour later.
SMTP_TROUBLE = (OSError, smtplib.SMTPException)


@shared_task(autoretry_for=SMTP_TROUBLE, retry_backoff=True, retry_backoff_max=600, max_retries=10)
def notices_send_task(kind: str, ids: list[int]) -> int:
    return inbox.notices_send(kind, ids)


@shared_task(autoretry_for=SMTP_TROUBLE, retry_backoff=True, retry_backoff_max=600, max_retries=10)
def fixture_reminders_task() -> int:
    return inbox.fixture_reminders_send()


@shared_task(autoretry_for=SMTP_TROUBLE, retry_backoff=True, retry_backoff_max=600, max_retries=10)
def notices_retry_task() -> int:
    return inbox.notices_retry_stale()


@shared_task(autoretry_for=SMTP_TROUBLE, retry_backoff=True, retry_backoff_max=600, max_retries=10)
def notices_digest_task() -> int:
    return inbox.notices_digest_send()


def on_waiting(kind: str, ids: tuple[int, ...]) -> None:
    """Listener of ``clubs.waiting`` (after the change's commit): the new items' emails are
    sent in a task."""
    try:
        if notices_send_task.app.conf.task_always_eager:
            # Tasks in-process (no broker): sent here, once, without the retries a worker
            # waits between (in-process they would run back to back, holding the request).
            inbox.notices_send(kind, list(ids))
        else:
            notices_send_task.delay(kind, list(ids))
    except Exception:  # the change is committed: a lost email must not fail it
        logger.exception("the emails of %s %s were not sent", kind, ids)


def on_archive_event(event: Any) -> None:
    """Receiver of the archive's events: matches stored awaiting approval are told."""
    if isinstance(event, MatchesStored):
        pending = pending_of(event.match_ids)
        if pending:
            on_waiting(APPROVAL, tuple(pending))
