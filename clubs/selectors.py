"""Selectors of clubs: who is in them, what waits for their admins, their audit trail."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from clubs.models import AuditEntry, Club, HandleClaim, Invitation, JoinRequest, Membership
from games.models import Match, Seat


def clubs_of(user) -> QuerySet[Club]:
    """Return the clubs ``user`` is a member of."""
    return Club.objects.with_member(getattr(user, "pk", None)).order_by("name")


def club_members(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("role", "user__username")


def club_join_requests(*, club: Club) -> QuerySet[JoinRequest]:
    """Return a club's pending join requests, oldest first."""
    return (
        club.join_requests.filter(status=JoinRequest.Status.PENDING)
        .select_related("user")
        .order_by("created_at")
    )


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    return club.invitations.filter(revoked_at=None).order_by("-created_at")


def club_review_queue(*, club: Club) -> QuerySet[Match]:
    """Return a club's matches awaiting approval, oldest upload first."""
    return (
        club.matches.filter(approval=Match.Approval.PENDING)
        .select_related("upload__uploader")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
        )
        .order_by("created_at", "id")
    )


def club_claims(*, club: Club) -> QuerySet[HandleClaim]:
    """Return a club's pending handle claims, oldest first."""
    return (
        HandleClaim.objects.filter(player__club=club, status=HandleClaim.Status.PENDING)
        .select_related("player", "user")
        .order_by("created_at")
    )


def club_audit(*, club: Club) -> QuerySet[AuditEntry]:
    return club.audit_entries.select_related("actor", "subject").order_by("-created_at", "-id")


def person_clubs(*, player, user=None) -> list[Club]:
    """Return the clubs of the person behind a claimed handle that ``user`` may see (the
    handle's own club alone when nobody claimed it)."""
    if player.user_id is None:
        return [player.club]
    return list(
        Club.objects.visible_to(user)
        .filter(Q(memberships__user_id=player.user_id) | Q(players__user_id=player.user_id))
        .distinct()
        .order_by("name")
    )
