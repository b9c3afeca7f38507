"""Webhooks' use cases (issue 59, item 1): a club's admins register, change, turn on and
delete endpoints and roll their secrets; the events of the apps below become deliveries, one
per endpoint that takes them, each attempted until answered (2xx) or three days have passed,
on a schedule of growing waits (``FIVES_WEBHOOK_RETRIES``); an endpoint failing that long is
turned off and its club's admins told (``webhooks.waiting``).

The database is the record, the broker only a doorbell: a delivery row says when it is next
due (``next_at``); a task is a prompt to attempt it now, and a periodic sweep
(``deliveries_due``) prompts whatever is due and was not prompted (a lost task, a wait longer
than a task should be held). An attempt claims its row by a conditional update first, so two
prompts of one delivery make one attempt."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clubs.audit import record
from clubs.models import Club
from clubs.refusals import ClubRefusal, require_admin
from clubs.waiting import announce

from . import audit_actions as actions
from .addresses import target_of, url_parts
from .events import EVENTS
from .hooks import PAYLOADS
from .models import Delivery, Endpoint
from .sending import Answer, headers, post, secret_new
from .waiting import OFF

ENDPOINTS_MAX = 10  # a club's endpoints

Status = Delivery.Status


# --- endpoints ------------------------------------------------------------------------------


def endpoints_of(*, club: Club) -> QuerySet[Endpoint]:
    return Endpoint.objects.filter(club=club).order_by("pk")


def deliveries_of(*, endpoint: Endpoint) -> QuerySet[Delivery]:
    """The endpoint's delivery log, the newest first."""
    return Delivery.objects.filter(endpoint=endpoint).order_by("-pk")


def _events_checked(events: Iterable[str]) -> list[str]:
    chosen = [event for event in EVENTS if event in set(events)]
    if not chosen or len(chosen) != len(set(events)):
        raise ClubRefusal(
            _("Choose what it is told of among the choices offered."), "webhook-events"
        )
    return chosen


def endpoint_create(*, actor: Any, club: Club, url: str, events: Iterable[str]) -> Endpoint:
    """Register ``url`` for ``events`` of ``club`` (its owner and admins); its address is
    resolved now and refused if it leads to a private network. The new endpoint's
    ``secret`` is said once, to whoever made it."""
    require_admin(club=club, user=actor)
    url = url.strip()
    url_parts(url)
    target_of(url)
    chosen = _events_checked(events)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one count at a time
        if endpoints_of(club=club).count() >= ENDPOINTS_MAX:
            raise ClubRefusal(
                _("The club has as many webhook endpoints as allowed: delete one first."),
                "webhook-too-many",
            )
        made = Endpoint.objects.create(
            club=club, url=url, events=chosen, secret=secret_new(), created_by=actor
        )
        record(club=club, actor=actor, action=actions.WEBHOOK_CREATED, url=url, events=chosen)
    return made


def endpoint_change(
    *,
    actor: Any,
    endpoint: Endpoint,
    events: Iterable[str] | None = None,
    active: bool | None = None,
) -> Endpoint:
    """Change the events an endpoint takes, or turn it on or off. Turned on again, its
    address is checked again and its days of failing forgotten."""
    require_admin(club=endpoint.club, user=actor)
    if events is not None:
        endpoint.events = _events_checked(events)
    if active is not None and active != endpoint.active:
        if active:
            target_of(endpoint.url)
            endpoint.failing_since = endpoint.disabled_at = None
        else:
            endpoint.disabled_at = None  # turned off by its admins: nothing waits on them
        endpoint.active = active
    with transaction.atomic():
        endpoint.save()
        record(
            club=endpoint.club,
            actor=actor,
            action=actions.WEBHOOK_CHANGED,
            url=endpoint.url,
            events=endpoint.events,
            active=endpoint.active,
        )
    return endpoint


def endpoint_delete(*, actor: Any, endpoint: Endpoint) -> None:
    require_admin(club=endpoint.club, user=actor)
    with transaction.atomic():
        record(club=endpoint.club, actor=actor, action=actions.WEBHOOK_DELETED, url=endpoint.url)
        endpoint.delete()


def secret_roll(*, actor: Any, endpoint: Endpoint, now: datetime | None = None) -> Endpoint:
    """Give the endpoint a new secret; the old one signs too for
    ``FIVES_WEBHOOK_ROLL_GRACE`` seconds, so the receiver has time to take the new one."""
    require_admin(club=endpoint.club, user=actor)
    now = now or timezone.now()
    with transaction.atomic():
        locked = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
        locked.previous_secret = locked.secret
        locked.previous_until = now + timedelta(seconds=settings.FIVES_WEBHOOK_ROLL_GRACE)
        locked.secret = secret_new()
        locked.save(update_fields=["secret", "previous_secret", "previous_until"])
        record(club=endpoint.club, actor=actor, action=actions.WEBHOOK_SECRET, url=locked.url)
    return locked


def secrets_signing(endpoint: Endpoint, now: datetime) -> list[str]:
    """The secrets that sign now: the endpoint's, and the previous one in its grace."""
    kept = endpoint.previous_secret and endpoint.previous_until and endpoint.previous_until > now
    return [endpoint.secret, endpoint.previous_secret] if kept else [endpoint.secret]


def delivery_resend(*, actor: Any, delivery: Delivery) -> Delivery:
    """Make a delivery due again ("send again"), with its id and body, as a new run of
    attempts (the caller prompts it: ``tasks.deliveries_prompt``)."""
    require_admin(club=delivery.endpoint.club, user=actor)
    if not delivery.endpoint.active:
        raise ClubRefusal(_("Turn the endpoint on first."), "webhook-off")
    now = timezone.now()
    Delivery.objects.filter(pk=delivery.pk).update(status=Status.PENDING, since=now, next_at=now)
    delivery.refresh_from_db()
    return delivery


# --- events become deliveries ---------------------------------------------------------------


def wanted(type: str) -> bool:
    """Whether any endpoint that is on takes events of ``type`` (a few rows: read whole)."""
    return any(
        type in events
        for events in Endpoint.objects.filter(active=True).values_list("events", flat=True)
    )


def payload_of(kind: str, object_id: int) -> dict[str, Any] | None:
    """The ``data`` of an event about the object of ``object_id``, in English."""
    filler = PAYLOADS.get(kind)
    if filler is None:
        return {"id": object_id}
    with translation.override("en"):
        return filler.data(object_id)


def body_of(type: str, at: str, data: dict[str, Any], object_id: int) -> str:
    """The body sent: ``type``, ``timestamp``, ``data``; a ``data`` too long for the cap
    (``FIVES_WEBHOOK_MAX_BODY``) is sent as its id alone, said truncated."""
    body = json.dumps({"type": type, "timestamp": at, "data": data}, ensure_ascii=False)
    if len(body.encode()) > settings.FIVES_WEBHOOK_MAX_BODY:
        data = {"id": object_id, "truncated": True}
        body = json.dumps({"type": type, "timestamp": at, "data": data}, ensure_ascii=False)
    return body


def events_emit(*, type: str, ids: Iterable[int], at: str | None = None) -> list[Delivery]:
    """Make the deliveries of event ``type`` about the objects of ``ids`` to every endpoint
    of their clubs that is on and takes it; return them, held for their first attempt by
    the caller (``attempt``) for a lease, after which the sweep would prompt them. A private
    club's objects are only ever its own (and a fixture its two sides')."""
    event = EVENTS[type]
    at = at or timezone.now().isoformat().replace("+00:00", "Z")
    clubs = event.clubs(ids)
    endpoints: dict[int, list[Endpoint]] = {}
    for endpoint in Endpoint.objects.filter(
        active=True, club__in={club for found in clubs.values() for club in found}
    ):
        if type in endpoint.events:
            endpoints.setdefault(endpoint.club_id, []).append(endpoint)
    made = []
    now = timezone.now()
    for object_id, its_clubs in clubs.items():
        told = [endpoint for club in its_clubs for endpoint in endpoints.get(club, [])]
        if not told:
            continue
        data = payload_of(event.kind, object_id)
        if data is None:
            continue
        body = body_of(type, at, data, object_id)
        message_id = f"msg_{uuid.uuid4().hex}"  # one event, one id, kept through retries
        made += [
            Delivery(
                endpoint=endpoint,
                message_id=message_id,
                event=type,
                body=body,
                since=now,
                next_at=_lease(),
            )
            for endpoint in told
        ]
    Delivery.objects.bulk_create(made)
    return made


# --- attempts -------------------------------------------------------------------------------


def _lease() -> datetime:
    """Until when an attempt holds its delivery: past it, the sweep may prompt it again."""
    return timezone.now() + timedelta(seconds=settings.FIVES_WEBHOOK_TIMEOUT + 20)


def delivery_attempt(*, delivery_id: int) -> Delivery | None:
    """Attempt the delivery of ``delivery_id`` if it is due and no other run holds it;
    return it as the attempt left it, or None when there was nothing to do."""
    now = timezone.now()
    due = Q(next_at__isnull=True) | Q(next_at__lte=now)
    if not Delivery.objects.filter(due, pk=delivery_id, status=Status.PENDING).update(
        next_at=_lease()
    ):
        return None
    return attempt(Delivery.objects.select_related("endpoint").get(pk=delivery_id))


def attempt(delivery: Delivery) -> Delivery:
    """Attempt ``delivery``, which this run holds (claimed, or made by it under a lease)."""
    now = timezone.now()
    endpoint = delivery.endpoint
    if not endpoint.active:
        delivery.status, delivery.next_at = Status.FAILED, None
        delivery.save(update_fields=["status", "next_at"])
        return delivery
    body = delivery.body.encode()
    signed = headers(secrets_signing(endpoint, now), delivery.message_id, int(time.time()), body)
    answer = post(endpoint.url, body, signed)
    return _settle(delivery, answer)


def _wait(attempts: int) -> int | None:
    """The wait before attempt ``attempts + 1``, or None when none is left."""
    waits = settings.FIVES_WEBHOOK_RETRIES
    return waits[attempts - 1] if attempts - 1 < len(waits) else None


# What an attempt changes of its delivery (never its body, written once).
SETTLED = ["status", "next_at", "attempts", "last_at", "answer_status", "answer", "delivered_at"]


def _settle(delivery: Delivery, answer: Answer) -> Delivery:
    """Keep what an attempt got; schedule the next, or give up; turn off an endpoint that
    has failed for three days."""
    now = timezone.now()
    delivery.attempts += 1
    delivery.last_at = now
    delivery.answer_status = answer.status
    delivery.answer = answer.text[:500]
    if answer.ok:
        delivery.status, delivery.next_at, delivery.delivered_at = Status.DELIVERED, None, now
        delivery.save(update_fields=SETTLED)
        Endpoint.objects.filter(pk=delivery.endpoint_id, failing_since__isnull=False).update(
            failing_since=None
        )
        return delivery
    give_up = timedelta(seconds=settings.FIVES_WEBHOOK_GIVE_UP)
    with transaction.atomic():
        endpoint = Endpoint.objects.select_for_update().get(pk=delivery.endpoint_id)
        wait = _wait(delivery.attempts)
        if wait is None or delivery.since + give_up < now + timedelta(seconds=wait):
            delivery.status, delivery.next_at = Status.FAILED, None
        else:
            delivery.next_at = now + timedelta(seconds=wait)
        if endpoint.failing_since is None:
            endpoint.failing_since = now
            endpoint.save(update_fields=["failing_since"])
        if endpoint.active and endpoint.failing_since <= now - give_up:
            _turn_off(endpoint, now)
            delivery.status, delivery.next_at = Status.FAILED, None
        delivery.save(update_fields=SETTLED)
    return delivery


def _turn_off(endpoint: Endpoint, now: datetime) -> None:
    """Turn off an endpoint that failed for three days; its admins are told (the inbox)."""
    endpoint.active = False
    endpoint.disabled_at = now
    endpoint.save(update_fields=["active", "disabled_at"])
    Delivery.objects.filter(endpoint=endpoint, status=Status.PENDING).update(
        status=Status.FAILED, next_at=None
    )
    announce(OFF, [endpoint.pk])


def deliveries_due(*, limit: int = 1000) -> list[int]:
    """Return the deliveries due now that no run holds (for the periodic sweep to
    prompt)."""
    return list(
        Delivery.objects.filter(status=Status.PENDING, next_at__lte=timezone.now())
        .order_by("next_at")
        .values_list("pk", flat=True)[:limit]
    )
