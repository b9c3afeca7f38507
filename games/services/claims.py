"""Handle claims: a member of a club says a handle of the club is theirs, and one of its
admins confirms (the handle becomes the person's) or declines, written in the club's audit
trail with the decision."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import record
from clubs.models import Membership
from clubs.refusals import ClubRefusal, require_admin
from games import audit_words as actions
from games.events import HandleClaimed, announce, player_claimed
from games.models import HandleClaim, Player


def handle_claim(*, user: Any, player: Player) -> HandleClaim:
    """A member of the player's club says the handle is theirs; return the (pending) claim."""
    if not player.club.is_member(user):
        raise PermissionDenied(_("Only members of the club may claim its handles."))
    if player.user_id is not None:
        raise ClubRefusal(_("This handle belongs to someone already."), "claimed")
    claim, _created = HandleClaim.objects.get_or_create(
        player=player, user=user, status=HandleClaim.Status.PENDING
    )
    return claim


def claim_decide(*, actor: Any, claim: HandleClaim, confirm: bool) -> HandleClaim:
    """Confirm (the handle becomes the person's) or decline a pending claim; return it."""
    club = claim.player.club
    require_admin(club=club, user=actor)
    with transaction.atomic():
        claim = HandleClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
        if claim.status != HandleClaim.Status.PENDING:
            raise ClubRefusal(_("This claim was decided already."), "already-decided")
        if confirm and claim.player.user_id is not None:
            raise ClubRefusal(_("This handle belongs to someone already."), "claimed")
        claim.decide(
            actor=actor,
            status=HandleClaim.Status.CONFIRMED if confirm else HandleClaim.Status.DECLINED,
        )
        if confirm:
            Player.objects.filter(pk=claim.player_id).update(user=claim.user)
            claim.player.claims.filter(status=HandleClaim.Status.PENDING).update(
                status=HandleClaim.Status.DECLINED, decided_by=actor, decided_at=timezone.now()
            )
            # Across clubs a person's handles are rated as one: that rating changes, from the
            # handle's first match; what it played did not (nothing is reviewed again).
            claim.player.user_id = claim.user_id
            player_claimed(player=claim.player)
            announce(HandleClaimed(club_id=club.pk))
        record(
            club=club,
            actor=actor,
            action=actions.CLAIM_CONFIRMED if confirm else actions.CLAIM_DECLINED,
            subject=claim.user,
            handle=claim.player.handle,
        )
    return claim


def claim_state(*, player: Player, user: Any) -> dict[str, Any]:
    """Return what the player's page says to ``user`` of claiming the handle.

    ``state`` is one of: "own" (the handle is theirs), "taken" (someone else's), "signed-out"
    and "outsider" (not a member of the player's club: it says how to become one), "pending"
    (their claim on it waits for an admin), "declined" (an admin declined their latest claim:
    they may claim again), "has-handle" and "claimed-other" (they hold another handle of the
    club, or their claim on another one waits: ``other`` is that player), or "open" (a member
    with no handle there: they may say it is theirs). ``waiting``: to the club's admins, how
    many claims on the handle wait for their decision."""
    out: dict[str, Any] = {"state": "taken", "other": None, "waiting": 0}
    signed_in = user is not None and user.is_authenticated
    if signed_in and player.user_id == user.pk:
        out["state"] = "own"
        return out
    role = player.club.role_of(user)
    if role in Membership.ADMIN_ROLES and player.user_id is None:
        out["waiting"] = player.claims.filter(status=HandleClaim.Status.PENDING).count()
    if player.user_id is not None:
        return out
    if not signed_in:
        out["state"] = "signed-out"
        return out
    if role is None:
        out["state"] = "outsider"
        return out
    held = Player.objects.filter(club_id=player.club_id, user=user).order_by("handle").first()
    if held is not None:
        out.update(state="has-handle", other=held)
        return out
    claims = HandleClaim.objects.filter(player__club_id=player.club_id, user=user)
    pending = claims.filter(status=HandleClaim.Status.PENDING).select_related("player")
    waiting = {claim.player_id: claim.player for claim in pending}
    if player.pk in waiting:
        out["state"] = "pending"
    elif waiting:
        out.update(state="claimed-other", other=min(waiting.values(), key=lambda p: p.handle))
    else:
        latest = claims.filter(player=player).order_by("-pk").values_list("status", flat=True)
        declined = latest.first() == HandleClaim.Status.DECLINED
        out["state"] = "declined" if declined else "open"
    return out
