"""Clubs: made on purpose by a person who owns them; members, admins, invitations, join
requests, leaving and handing the ownership over. Every admin action is written to the
club's audit trail in the change's transaction (``clubs.audit.record``). A handle claim is
the archive's (``games.services.claims``)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import audit_words as actions
from .audit import record
from .models import CLUB_SETTINGS, Club, Invitation, JoinRequest, Membership
from .refusals import ClubRefusal, require_admin, require_owner

Role = Membership.Role

INVITATION_DAYS_MAX = 90
INVITATION_USES_MAX = 1000


def club_create(*, owner: Any, name: str, slug: str, **settings: Any) -> Club:
    """Create a club owned by ``owner``; return it. Names and slugs are unique; a slug is
    an address, kept in lower case (``/clubs/kutaisi-two/``, however it was typed)."""
    slug = slug.lower()
    if Club.objects.filter(name=name).exists():
        raise ClubRefusal(_("A club of that name exists already."), "club-exists")
    if Club.objects.filter(slug=slug).exists():
        raise ClubRefusal(_("A club with that address exists already."), "club-exists")
    fields = {key: value for key, value in settings.items() if key in CLUB_SETTINGS}
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, **fields)
            Membership.objects.create(club=club, user=owner, role=Role.OWNER)
            record(club=club, actor=owner, action=actions.CLUB_CREATED, name=name)
    except IntegrityError:  # made by someone else at the same moment
        raise ClubRefusal(_("A club of that name exists already."), "club-exists") from None
    return club


def club_update(*, actor: Any, club: Club, **changes: Any) -> Club:
    """Change a club's settings (its owner and admins); return it."""
    require_admin(club=club, user=actor)
    changed = {
        key: value
        for key, value in changes.items()
        if key in CLUB_SETTINGS and getattr(club, key) != value
    }
    if "name" in changed and Club.objects.filter(name=changed["name"]).exclude(pk=club.pk):
        raise ClubRefusal(_("A club of that name exists already."), "club-exists")
    if not changed:
        return club
    with transaction.atomic():
        for key, value in changed.items():
            setattr(club, key, value)
        club.save(update_fields=list(changed))
        record(
            club=club,
            actor=actor,
            action=actions.SETTINGS_CHANGED,
            changed={key: str(value) for key, value in changed.items()},
        )
    return club


def _join(*, club: Club, user: Any) -> Membership:
    membership, _created = Membership.objects.get_or_create(
        club=club, user=user, defaults={"role": Role.MEMBER}
    )
    return membership


# --- invitations ----------------------------------------------------------------------------


def invitation_create(*, actor: Any, club: Club, days: int = 7, max_uses: int = 1) -> Invitation:
    """Make an invitation link of the club (its owner and admins); return it."""
    require_admin(club=club, user=actor)
    days = min(max(days, 1), INVITATION_DAYS_MAX)
    max_uses = min(max(max_uses, 1), INVITATION_USES_MAX)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club,
            token=secrets.token_urlsafe(24),
            created_by=actor,
            expires_at=timezone.now() + timedelta(days=days),
            max_uses=max_uses,
        )
        record(
            club=club,
            actor=actor,
            action=actions.INVITATION_CREATED,
            days=days,
            max_uses=max_uses,
        )
    return invitation


def invitation_revoke(*, actor: Any, invitation: Invitation) -> None:
    require_admin(club=invitation.club, user=actor)
    with transaction.atomic():
        Invitation.objects.filter(pk=invitation.pk, revoked_at=None).update(
            revoked_at=timezone.now()
        )
        record(club=invitation.club, actor=actor, action=actions.INVITATION_REVOKED)


def invitation_accept(*, user: Any, token: str) -> Membership:
    """Join the club of an invitation link that is still good; return the membership."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("club")
            .filter(token=token)
            .first()
        )
        if invitation is None or not invitation.is_usable:
            raise ClubRefusal(
                _("This invitation link has expired, was used up or revoked: ask for a new one."),
                "invitation-unusable",
            )
        if invitation.club.is_member(user):
            return invitation.club.memberships.get(user=user)
        membership = _join(club=invitation.club, user=user)
        invitation.uses += 1
        invitation.save(update_fields=["uses"])
        JoinRequest.objects.filter(
            club=invitation.club, user=user, status=JoinRequest.Status.PENDING
        ).update(status=JoinRequest.Status.ACCEPTED, decided_at=timezone.now())
        record(club=invitation.club, actor=user, action=actions.MEMBER_JOINED, subject=user)
    return membership


# --- join requests --------------------------------------------------------------------------


def join_request_create(*, user: Any, club: Club, message: str = "") -> JoinRequest:
    """Ask to join a club; return the request (the pending one, if one is already)."""
    if club.is_member(user):
        raise ClubRefusal(_("You are a member of this club already."), "already-member")
    pending = club.join_requests.filter(user=user, status=JoinRequest.Status.PENDING).first()
    if pending is not None:
        return pending
    try:
        with transaction.atomic():
            return JoinRequest.objects.create(club=club, user=user, message=message[:500])
    except IntegrityError:
        return club.join_requests.get(user=user, status=JoinRequest.Status.PENDING)


def join_request_decide(*, actor: Any, join_request: JoinRequest, accept: bool) -> JoinRequest:
    """Accept (the person becomes a member) or decline a pending request; return it."""
    club = join_request.club
    require_admin(club=club, user=actor)
    with transaction.atomic():
        join_request = JoinRequest.objects.select_for_update().get(pk=join_request.pk)
        if join_request.status != JoinRequest.Status.PENDING:
            raise ClubRefusal(_("This request was decided already."), "already-decided")
        status = JoinRequest.Status.ACCEPTED if accept else JoinRequest.Status.DECLINED
        join_request.decide(actor=actor, status=status)
        if accept:
            _join(club=club, user=join_request.user)
        record(
            club=club,
            actor=actor,
            action=actions.JOIN_ACCEPTED if accept else actions.JOIN_DECLINED,
            subject=join_request.user,
        )
    return join_request


# --- members --------------------------------------------------------------------------------


def member_remove(*, actor: Any, club: Club, user: Any) -> None:
    """Remove a member (admins remove members; only the owner removes admins)."""
    require_admin(club=club, user=actor)
    membership = club.memberships.filter(user=user).first()
    if membership is None:
        raise ClubRefusal(_("This person is not a member of the club."), "not-member")
    if membership.role == Role.OWNER:
        raise ClubRefusal(_("The owner cannot be removed."), "owner")
    if membership.role == Role.ADMIN and not club.is_owner(actor):
        raise PermissionDenied(_("Only the club's owner may remove an admin."))
    with transaction.atomic():
        membership.delete()
        record(club=club, actor=actor, action=actions.MEMBER_REMOVED, subject=user)


def member_set_role(*, actor: Any, club: Club, user: Any, role: str) -> Membership:
    """Make a member an admin or an admin a member again (the owner only); return it."""
    require_owner(club=club, user=actor)
    if role not in (Role.ADMIN, Role.MEMBER):
        raise ClubRefusal(_("The role is admin or member."), "bad-role")
    membership = club.memberships.filter(user=user).first()
    if membership is None:
        raise ClubRefusal(_("This person is not a member of the club."), "not-member")
    if membership.role == Role.OWNER:
        raise ClubRefusal(_("The owner stays owner until they hand the ownership over."), "owner")
    if membership.role != role:
        with transaction.atomic():
            before = membership.role
            membership.role = role
            membership.save(update_fields=["role"])
            record(
                club=club,
                actor=actor,
                action=actions.ROLE_CHANGED,
                subject=user,
                before=before,
                after=role,
            )
    return membership


def club_leave(*, user: Any, club: Club) -> None:
    """Leave a club (its owner must hand the ownership over first)."""
    membership = club.memberships.filter(user=user).first()
    if membership is None:
        raise ClubRefusal(_("You are not a member of this club."), "not-member")
    if membership.role == Role.OWNER:
        raise ClubRefusal(
            _("The owner cannot leave: hand the ownership over to another member first."),
            "owner",
        )
    with transaction.atomic():
        membership.delete()
        record(club=club, actor=user, action=actions.MEMBER_LEFT, subject=user)


def ownership_transfer(*, actor: Any, club: Club, to: Any) -> None:
    """Hand a club's ownership to another member; the owner stays on as an admin."""
    require_owner(club=club, user=actor)
    target = club.memberships.filter(user=to).first()
    if target is None:
        raise ClubRefusal(
            _("Ownership goes to a member of the club: invite them first."), "not-member"
        )
    if target.role == Role.OWNER:
        return
    with transaction.atomic():
        club.memberships.filter(user=actor).update(role=Role.ADMIN)
        club.memberships.filter(pk=target.pk).update(role=Role.OWNER)
        record(club=club, actor=actor, action=actions.OWNERSHIP_TRANSFERRED, subject=to)
