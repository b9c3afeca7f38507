"""Webhooks' tasks, on the ``webhooks`` queue (settings ``CELERY_TASK_ROUTES``): each takes
ids and calls a service; each can run twice without harm (an attempt claims its delivery
first)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import services
from .models import Delivery


def deliveries_prompt(ids: list[int], countdown: float | None = None) -> None:
    """Prompt the deliveries of ``ids``, after the current transaction commits."""

    def send() -> None:
        for pk in ids:
            if countdown:
                delivery_send_task.apply_async((pk,), countdown=countdown)
            else:
                delivery_send_task.delay(pk)

    if ids:
        transaction.on_commit(send)


@shared_task
def events_emit_task(type: str, ids: list[int], at: str) -> None:
    """Make the deliveries of an event and make each one's first attempt here, at once (a
    task each would cost a trip through the broker per delivery); the retries are prompted
    as they fall due."""
    for delivery in services.events_emit(type=type, ids=ids, at=at):
        _attempted(services.attempt(delivery))


@shared_task
def delivery_send_task(delivery_id: int) -> None:
    """Attempt a delivery."""
    _attempted(services.delivery_attempt(delivery_id=delivery_id))


def _attempted(delivery: Delivery | None) -> None:
    """Prompt again a failure soon retried, with its wait (a longer wait is the sweep's: a
    broker should not hold a task for hours)."""
    if delivery is None or delivery.status != Delivery.Status.PENDING or delivery.next_at is None:
        return
    wait = max((delivery.next_at - timezone.now()).total_seconds(), 0.0)
    eager = delivery_send_task.app.conf.task_always_eager  # in-process: the sweep retries
    if wait <= settings.FIVES_WEBHOOK_PROMPT_WITHIN and not eager:
        deliveries_prompt([delivery.pk], countdown=wait or 0.01)


@shared_task
def deliveries_due_task() -> None:
    """The periodic sweep: prompt every delivery due that no prompt reached."""
    deliveries_prompt(services.deliveries_due())
