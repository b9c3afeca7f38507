"""Selectors of clubs: who is in them, what waits for their admins, their audit trail (a
club's review queue and handle claims are the archive's: ``games.selectors``)."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import AuditEntry, Club, Invitation, JoinRequest, Membership


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


def club_audit(*, club: Club) -> QuerySet[AuditEntry]:
    return club.audit_entries.select_related("actor", "subject").order_by("-created_at", "-id")
