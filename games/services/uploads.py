"""Uploads: what people send is kept verbatim, then processed by a task."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine import SchemaError, load_json
from games.models import Club, Match, Upload, UploadItem
from games.tasks import upload_process_task

from .matches import match_delete


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
    club: Club | None = None,
    size: int | None = None,
) -> Upload:
    """Store what was sent and queue its processing; return the upload.

    ``kind`` is ``Upload.Kind.JSON`` (one log) or ``NDJSON`` (one log a line). Nothing sent
    is lost: an empty, oversized or overfull document is stored as a rejected upload saying
    why. The same document sent again by the same person is the same upload (a database
    constraint makes sure, even for two sent at the same moment). ``size`` is the size sent
    when the caller read no more than the limit of it.
    """
    size = max(len(data), size or 0)
    if size > settings.FIVES_UPLOAD_MAX_BYTES:
        data = b""  # beyond the limit nothing is kept but the fact and the size
    problem = _problem(data, size, kind)
    content_hash = hashlib.sha256(data).hexdigest()
    if not problem:
        existing = _same_upload(uploader, content_hash, size)
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            upload = Upload.objects.create(
                uploader=uploader,
                club=club,
                kind=kind,
                filename=filename[:255],
                raw=data,
                size=size,
                content_hash=content_hash,
            )
            if problem:
                upload.reject(problem)
            else:
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
    transaction.on_commit(lambda: upload_process_task.delay(upload.pk))


def upload_delete(*, upload_id: int) -> None:
    """Delete an upload and the matches it brought into the archive."""
    for match_id in Match.objects.filter(upload_id=upload_id).values_list("id", flat=True):
        match_delete(match_id=match_id)
    Upload.objects.filter(pk=upload_id).delete()


def upload_rerun(*, upload_id: int) -> Upload:
    """Queue an upload's rejected logs to be processed again; return the upload."""
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload_id)
        if upload.problem:  # nothing was read from it: nothing to run again
            return upload
        upload.items.filter(status=UploadItem.Status.REJECTED).delete()
        upload.status = Upload.Status.PENDING
        upload.processed_at = None
        upload.save(update_fields=["status", "processed_at"])
        _queue(upload)
    return upload
