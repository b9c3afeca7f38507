"""Stored matches: their log, rescoring with the current engine, deletion."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import AuditEntry, Club
from clubs.refusals import ClubRefusal, require_admin
from clubs.tool_events import MATCH_REJECTED, publish
from fives_engine import check_document
from games import audit_words as actions
from games.cache import lists_changed
from games.codec import PackedHand, pack_match
from games.events import MatchesStored, MatchRemoved, announce, match_deleting
from games.models import Match, UploadItem

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
        match_deleting(match_id=match.pk)
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
    return matches_review(
        actor=actor, club=match.club, match_ids=[match.pk], approve=approve, reason=reason
    )[0]


def matches_review(
    *, actor, club: Club, match_ids: list[int], approve: bool, reason: str = ""
) -> list[Match]:
    """Approve (or reject with one reason) matches of ``club`` awaiting approval, all or none,
    in one transaction; return them. Each decision is its own audit entry, and the approved
    ones are announced once together, as one stored batch."""
    require_admin(club=club, user=actor)
    reason = reason.strip()[:REASON_MAX]
    if not approve and not reason:
        raise ClubRefusal(_("Say why the match is rejected: its uploader reads it."), "reason")
    wanted = sorted(set(match_ids))
    if not wanted:
        raise ClubRefusal(_("Choose the matches first."), "nothing-chosen")
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update(of=("self",))  # not the joined rows
            .filter(club=club, pk__in=wanted)
            .select_related("club", "upload__uploader")
            .order_by("pk")
        )
        if len(matches) != len(wanted) or any(
            match.approval != Match.Approval.PENDING for match in matches
        ):
            raise ClubRefusal(_("This match was reviewed already."), "already-decided")
        now = timezone.now()
        for match in matches:
            match.approval = Match.Approval.APPROVED if approve else Match.Approval.REJECTED
            match.approval_reason = "" if approve else reason
            match.reviewed_by = actor
            match.reviewed_at = now
        Match.objects.bulk_update(
            matches, ["approval", "approval_reason", "reviewed_by", "reviewed_at"]
        )
        # Each decision an entry of the club's audit trail, with the change.
        AuditEntry.objects.bulk_create(
            AuditEntry(
                club=club,
                actor=actor,
                action=actions.MATCH_APPROVED if approve else actions.MATCH_REJECTED,
                subject=match.upload.uploader if match.upload_id else None,
                detail={"match": match.pk, "reason": match.approval_reason},
            )
            for match in matches
        )
        lists_changed()
        if approve:
            # They count from now on: statistics and ratings take them in, from their play
            # times, as one batch (the ratings recomputed once from the earliest).
            announce(MatchesStored(match_ids=tuple(match.pk for match in matches)))
        else:
            publish(MATCH_REJECTED, [match.pk for match in matches])  # tools are told
    return matches
