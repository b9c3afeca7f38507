"""What clubs write of the archive's changes: the audit trail of what a club's owner or
admins did to its matches, handles and uploads. ``games`` sends these signals inside the
transaction of the change (``games.signals``), so an entry is written with the change and
rolled back with it."""

from __future__ import annotations

from typing import Any

from games.selectors import upload_clubs

from .models import AuditEntry
from .services import audit

Action = AuditEntry.Action


def on_matches_reviewed(*, club, actor, matches, approve: bool, **_: Any) -> None:
    """Each decision of a review is an entry of its own."""
    AuditEntry.objects.bulk_create(
        AuditEntry(
            club=club,
            actor=actor,
            action=Action.MATCH_APPROVED if approve else Action.MATCH_REJECTED,
            subject=match.upload.uploader if match.upload_id else None,
            detail={"match": match.pk, "reason": match.approval_reason},
        )
        for match in matches
    )


def on_player_renamed(*, player, actor, before: str, after: str, **_: Any) -> None:
    audit(club=player.club, actor=actor, action=Action.HANDLE_RENAMED, before=before, after=after)


def on_player_merging(*, source, target, actor=None, matches: int = 0, **_: Any) -> None:
    audit(
        club=target.club,
        actor=actor,
        action=Action.HANDLES_MERGED,
        merged=source.handle,
        into=target.handle,
        matches=matches,
    )


def _upload_acted_on(upload, actor, action: str) -> None:
    """Write to the trail of its clubs when someone else than its uploader acts on it."""
    if actor is None or actor.pk == upload.uploader_id:
        return
    for club in upload_clubs(upload=upload):
        audit(club=club, actor=actor, action=action, subject=upload.uploader, upload=upload.pk)


def on_upload_deleting(*, upload, actor=None, **_: Any) -> None:
    _upload_acted_on(upload, actor, Action.UPLOAD_DELETED)


def on_upload_running_again(*, upload, actor=None, **_: Any) -> None:
    _upload_acted_on(upload, actor, Action.UPLOAD_RERUN)
