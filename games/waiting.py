"""What waits on a club's owner and admins in the archive (issue 36): matches awaiting
approval, and join requests (the club's, listed here beside their page, the club's manage
page, which is the archive's). Registered with ``clubs.waiting`` in ``GamesConfig.ready()``;
matches are announced by ``competitions.inbox`` from the archive's ``MatchesStored``, join
requests by ``clubs.services.join_request_create``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, JoinRequest, Membership
from clubs.waiting import Waiting, register

from .models import Match

APPROVAL = "approval"
JOIN_REQUEST = "join-request"


def _admins(club_ids: Iterable[int]) -> dict[int, list[int]]:
    """Return the owner and admins of each club, by the club's id (one query)."""
    admins: dict[int, list[int]] = {}
    rows = Membership.objects.filter(
        club_id__in=set(club_ids), role__in=Membership.ADMIN_ROLES
    ).order_by("user_id")
    for club_id, user_id in rows.values_list("club_id", "user_id"):
        admins.setdefault(club_id, []).append(user_id)
    return admins


def _approval_items(matches: Iterable[Match], admins: dict[int, list[int]]) -> list[Waiting]:
    items = []
    for match in matches:
        uploader = match.upload.uploader
        title = _("Match %(id)s, uploaded by %(name)s, waits for your approval.") % {
            "id": match.pk,
            "name": uploader.get_username() if uploader else "?",
        }
        for user_id in admins.get(match.club_id, ()):
            items.append(
                Waiting(
                    kind=APPROVAL,
                    key=f"{APPROVAL}:{match.pk}",
                    user_id=user_id,
                    title=title,
                    where=match.club.name,
                    url=reverse("games:club-manage", args=[match.club.slug]) + "#review",
                    since=match.created_at,
                )
            )
    return items


def _pending_matches():
    return (
        Match.objects.filter(approval=Match.Approval.PENDING)
        .select_related("club", "upload__uploader")
        .order_by("created_at", "pk")
    )


def approvals_waiting(user: Any) -> list[Waiting]:
    """The matches awaiting approval in the clubs ``user`` owns or administers (one query)."""
    matches = _pending_matches().filter(club__in=Club.objects.administered_by(user.pk))
    return _approval_items(matches, {match.club_id: [user.pk] for match in matches})


def approvals_of(ids: Iterable[int]) -> list[Waiting]:
    """The matches of ``ids`` awaiting approval, an item for each of their club's admins."""
    matches = list(_pending_matches().filter(pk__in=list(ids)))
    return _approval_items(matches, _admins(match.club_id for match in matches))


def _join_items(requests: Iterable[JoinRequest], admins: dict[int, list[int]]) -> list[Waiting]:
    items = []
    for request in requests:
        title = _("%(name)s asks to join the club.") % {"name": request.user.get_username()}
        for user_id in admins.get(request.club_id, ()):
            items.append(
                Waiting(
                    kind=JOIN_REQUEST,
                    key=f"{JOIN_REQUEST}:{request.pk}",
                    user_id=user_id,
                    title=title,
                    where=request.club.name,
                    url=reverse("games:club-manage", args=[request.club.slug]) + "#requests",
                    since=request.created_at,
                )
            )
    return items


def _pending_requests():
    return (
        JoinRequest.objects.filter(status=JoinRequest.Status.PENDING)
        .select_related("club", "user")
        .order_by("created_at", "pk")
    )


def join_requests_waiting(user: Any) -> list[Waiting]:
    """The pending join requests of the clubs ``user`` owns or administers (one query)."""
    requests = _pending_requests().filter(club__in=Club.objects.administered_by(user.pk))
    return _join_items(requests, {request.club_id: [user.pk] for request in requests})


def join_requests_of(ids: Iterable[int]) -> list[Waiting]:
    """The pending join requests of ``ids``, an item for each of the club's admins."""
    requests = list(_pending_requests().filter(pk__in=list(ids)))
    return _join_items(requests, _admins(request.club_id for request in requests))


def pending_of(ids: Iterable[int]) -> list[int]:
    """Return which of the matches of ``ids`` await approval (one query)."""
    return list(
        Match.objects.filter(pk__in=list(ids), approval=Match.Approval.PENDING).values_list(
            "pk", flat=True
        )
    )


def register_kinds() -> None:
    register(APPROVAL, gettext_lazy("matches awaiting approval"), approvals_waiting, approvals_of)
    register(JOIN_REQUEST, gettext_lazy("join requests"), join_requests_waiting, join_requests_of)
