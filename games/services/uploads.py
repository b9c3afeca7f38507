"""Uploads: what people send is kept verbatim, then processed by a task."""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from clubs.audit import record
from clubs.text import clean_text
from fives_engine import SchemaError, load_json
from games import audit_words as actions
from games.models import Match, Upload, UploadItem, UploadWorkCopy
from games.selectors import upload_clubs

from .ingest import UPLOAD_LEASE
from .matches import match_delete

# The task that processes an upload, sent by name: games.tasks calls these services, so the
# services do not import it back (games.apps registers it when Django starts).
PROCESS_TASK = "games.tasks.upload_process_task"

logger = logging.getLogger(__name__)


def sniff_kind(data: bytes) -> str:
    """Return the kind of a document nobody named: NDJSON when it holds several lines and
    is not one JSON value, else JSON."""
    lines = [line for line in data.splitlines() if line.strip()]
    if len(lines) <= 1:
        return Upload.Kind.JSON
    try:
        load_json(data)
    except SchemaError:
        return Upload.Kind.NDJSON
    return Upload.Kind.JSON


def _problem(data: bytes, size: int, kind: str) -> str:
    """Return why a document cannot be read at all, or ``""``."""
    limit = settings.FIVES_UPLOAD_MAX_BYTES
    if size > limit:
        return _("The file is %(size)s bytes; the limit is %(limit)s bytes.") % {
            "size": size,
            "limit": limit,
        }
    if not data.strip():
        return _("The document is empty.")
    if kind == Upload.Kind.NDJSON:
        count = sum(1 for line in data.splitlines() if line.strip())
        if count > settings.FIVES_UPLOAD_MAX_MATCHES:
            return _("The file holds %(count)s matches; the limit is %(limit)s.") % {
                "count": count,
                "limit": settings.FIVES_UPLOAD_MAX_MATCHES,
            }
    return ""


def upload_create(
    *,
    uploader: Any,
    data: bytes,
    kind: str,
    filename: str = "",
    club: Any = None,
    size: int | None = None,
    event: str = "",
) -> Upload:
    """Store what was sent and queue its processing; return the upload.

    ``kind`` is ``Upload.Kind.JSON`` (one log) or ``NDJSON`` (one log a line). Nothing sent
    is lost: an empty, oversized or overfull document is stored as a rejected upload saying
    why. The same document sent again by the same person is the same upload (a database
    constraint makes sure, even for two sent at the same moment). ``size`` is the size sent
    when the caller read no more than the limit of it. ``event`` is what its logs that name
    no event count for (docs/format.md, "The event a match counts for").
    """
    size = max(len(data), size or 0)
    if size > settings.FIVES_UPLOAD_MAX_BYTES:
        data = b""  # beyond the limit nothing is kept but the fact and the size
    problem = _problem(data, size, kind)
    content_hash = hashlib.sha256(data).hexdigest()
    if not problem:
        existing = _same_upload(uploader, content_hash, size)
        if existing is not None and club is not None and existing.club_id != club.pk:
            # Sent again for a club (its logs were refused for naming none, or one not the
            # sender's): the same upload, now for that club, its refused logs run again.
            return upload_rerun(upload_id=existing.pk, actor=uploader, club=club)
        if existing is not None:
            _hand_over_if_lost(existing)
            return existing
    try:
        with transaction.atomic():
            raw, codec = Upload.compress(data) if data else (data, "")
            upload = Upload.objects.create(
                uploader=uploader,
                club=club,
                kind=kind,
                event=clean_text(event, 1000) or "",
                filename=filename[:255],
                raw=raw,
                raw_codec=codec,
                size=size,
                content_hash=content_hash,
            )
            if problem:
                upload.reject(problem)
            else:
                UploadWorkCopy.keep(upload, data)
                _queue(upload)
    except IntegrityError:
        # The same document, sent at the same moment, was stored by another request.
        existing = _same_upload(uploader, content_hash, size)
        if existing is None:
            raise
        return existing
    return upload


def _same_upload(uploader: Any, content_hash: str, size: int) -> Upload | None:
    return Upload.objects.filter(
        uploader=uploader, content_hash=content_hash, size=size, problem=""
    ).first()


def _queue(upload: Upload) -> None:
    """Hand the upload's processing to the queue once it is committed."""
    upload.queued_at = timezone.now()
    Upload.objects.filter(pk=upload.pk).update(queued_at=upload.queued_at)
    transaction.on_commit(lambda: hand_over(upload.pk))


def hand_over(upload_id: int) -> bool:
    """Send an upload's processing task; return whether the broker took it.

    The stored upload is the durable record, not the message: when the broker cannot be
    reached the upload stays pending, and ``uploads_requeue_stale`` sends it again later.
    """
    try:
        current_app.tasks[PROCESS_TASK].delay(upload_id)
    except (BrokerError, ConnectionError, TimeoutError) as exc:
        logger.warning("upload %s kept pending, the broker is unreachable: %s", upload_id, exc)
        return False
    return True


def handover_after() -> timedelta:
    """Return how long a pending upload may wait, handed over but not started, before its
    hand-over counts as lost."""
    return timedelta(seconds=settings.FIVES_HANDOVER_AFTER)


def _hand_over_if_lost(upload: Upload) -> None:
    """Send a pending upload again when it is lost (sent again by its uploader, who would
    otherwise get the same stuck upload back)."""
    if upload.status != Upload.Status.PENDING or upload.problem:
        return
    if Upload.objects.filter(_lost(timezone.now()), pk=upload.pk).exists():
        with transaction.atomic():
            _queue(upload)


def _lost(now: datetime) -> Q:
    """Return the condition of a pending upload whose processing was lost: nobody holds it,
    and either the lease of its last run ran out since it was last handed over (the run
    died: a worker killed, a machine lost) or it was handed over more than
    ``FIVES_HANDOVER_AFTER`` ago and never started (a broker that lost the message)."""
    cutoff = now - handover_after()
    free = UPLOAD_LEASE.ran_out(now)
    ran_out = Q(lease_until__lt=now) & (Q(queued_at=None) | Q(queued_at__lt=F("lease_until")))
    not_received = Q(queued_at__lt=cutoff) | Q(queued_at=None, created_at__lt=cutoff)
    return Q(status=Upload.Status.PENDING, problem="") & free & (ran_out | not_received)


def uploads_requeue_stale(*, limit: int = 1000) -> int:
    """Send again the pending uploads whose processing was lost (``_lost``), whatever the
    broker kept; return how many. The periodic sweep, every ``FIVES_SWEEP_EVERY`` seconds.

    Sending twice is harmless: processing is idempotent and takes the upload's lease
    atomically, so an upload that was only waiting in a long queue costs a task that finds
    it done (or held, and looks again when the lease would run out).
    """
    now = timezone.now()
    lost = list(
        Upload.objects.filter(_lost(now)).order_by("id").values_list("id", flat=True)[:limit]
    )
    Upload.objects.filter(pk__in=lost).update(queued_at=now)
    for upload_id in lost:
        hand_over(upload_id)
    if lost:
        logger.warning("uploads handed over again (lost): %s", lost)
    return len(lost)


def upload_may_manage(*, upload: Upload, user: Any) -> bool:
    """Return whether ``user`` may delete or re-run the upload: its uploader, an admin of its
    club (or of the club of a match it brought), or staff."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or upload.uploader_id == user.pk:
        return True
    return any(club.is_admin(user) for club in upload_clubs(upload=upload))


def _audit(upload: Upload, actor: Any, action: str) -> None:
    """Write to the trail of its clubs when someone else than its uploader acts on it."""
    if actor is None or actor.pk == upload.uploader_id:
        return
    for club in upload_clubs(upload=upload):
        record(club=club, actor=actor, action=action, subject=upload.uploader, upload=upload.pk)


def upload_delete(*, upload_id: int, actor: Any = None) -> None:
    """Delete an upload and the matches it brought into the archive."""
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is not None:
        _audit(upload, actor, actions.UPLOAD_DELETED)
    for match_id in Match.objects.filter(upload_id=upload_id).values_list("id", flat=True):
        match_delete(match_id=match_id)
    Upload.objects.filter(pk=upload_id).delete()


def upload_rerun(*, upload_id: int, actor: Any = None, club: Any = None) -> Upload:
    """Queue an upload's rejected logs (or a failed upload) to be processed again; return
    the upload. With ``club`` (one the caller made sure the uploader is a member of), its
    logs go to that club from now on: logs refused for their club are put right so."""
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload_id)
        if upload.problem:  # nothing was read from it: nothing to run again
            return upload
        if club is not None and upload.club_id != club.pk:
            upload.club = club
            upload.save(update_fields=["club"])
        _audit(upload, actor, actions.UPLOAD_RERUN)
        upload.items.filter(status=UploadItem.Status.REJECTED).delete()
        upload.status = Upload.Status.PENDING
        upload.processed_at = None
        upload.failure = ""
        upload.save(update_fields=["status", "processed_at", "failure"])
        _queue(upload)
    return upload
