"""Stored matches: their log, rescoring with the current engine, deletion."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.cache import lists_changed
from games.codec import PackedHand, pack_match
from games.engine import check_document
from games.events import MatchesStored, MatchRemoved, announce
from games.models import AuditEntry, Match, UploadItem

from .clubs import ClubRefusal, audit, require_admin
from .ingest import issue_dicts

REASON_MAX = 500


def match_log(*, match: Match) -> dict[str, Any]:
    """Return the stored match as a ``fives/1`` log (``Match.objects.with_log()`` loaded)."""
    return match.log().as_json()


def match_delete(*, match_id: int) -> None:
    """Delete a match; what was derived from it is told once the deletion is committed."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        club_id, since = match.club_id, match.played_at or match.created_at
        # An accepted upload item's report was its match's: it keeps a copy of its own now.
        UploadItem.objects.filter(match=match, report__isnull=True).update(report=match.report())
        match.delete()
        lists_changed()
        announce(MatchRemoved(club_id=club_id, since=since))


def match_rescore(*, match_id: int) -> Match:
    """Validate a stored match again with the current engine and update what it computed."""
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match_id).first()
        match = Match.objects.with_log().get(pk=match_id)
        checked = check_document(match.log().as_json())
        report = checked.report
        logged = checked.log.hands if checked.log is not None else ()
        hands = []
        # A hand the walk did not finish (the log no longer valid) keeps what was stored.
        for number, stored_hand in enumerate(match.hands):
            facts = checked.moves[number] if number < len(checked.moves) else []
            result = report.hands[number] if number < len(report.hands) else stored_hand.result
            walked = number < len(logged) and len(facts) == len(logged[number].moves)
            hands.append(
                PackedHand(stored_hand.log, facts if walked else stored_hand.facts, result)
            )
        match.packed = pack_match(hands, match.player_count)
        match.warnings = issue_dicts(report.warnings)
        match.errors = issue_dicts(report.errors)
        match.warning_count = len(match.warnings)
        match.outcome = report.outcome
        match.scores = report.scores
        match.winner = report.winner
        match.rescored_at = timezone.now()
        match.save(
            update_fields=[
                "warnings",
                "errors",
                "warning_count",
                "packed",
                "outcome",
                "scores",
                "winner",
                "rescored_at",
            ]
        )
        lists_changed()
        announce(MatchesStored(match_ids=(match.pk,)))
    return match


def match_review(*, actor, match: Match, approve: bool, reason: str = "") -> Match:
    """Approve a match awaiting approval (it then counts: listed, rated) or reject it with a
    reason its uploader sees (stored, never counted); the club's owner and admins only."""
    require_admin(club=match.club, user=actor)
    reason = reason.strip()[:REASON_MAX]
    if not approve and not reason:
        raise ClubRefusal(_("Say why the match is rejected: its uploader reads it."), "reason")
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("club").get(pk=match.pk)
        if match.approval != Match.Approval.PENDING:
            raise ClubRefusal(_("This match was reviewed already."), "already-decided")
        match.approval = Match.Approval.APPROVED if approve else Match.Approval.REJECTED
        match.approval_reason = "" if approve else reason
        match.reviewed_by = actor
        match.reviewed_at = timezone.now()
        match.save(update_fields=["approval", "approval_reason", "reviewed_by", "reviewed_at"])
        audit(
            club=match.club,
            actor=actor,
            action=AuditEntry.Action.MATCH_APPROVED
            if approve
            else AuditEntry.Action.MATCH_REJECTED,
            subject=match.upload.uploader if match.upload_id else None,
            match=match.pk,
            reason=match.approval_reason,
        )
        lists_changed()
        if approve:
            # It counts from now on: statistics and ratings take it in, from its play time.
            announce(MatchesStored(match_ids=(match.pk,)))
    return match
