"""What waits on a club's owner and admins in the archive (issue 36): matches awaiting
approval, and join requests (the club's, listed here beside their page, the club's manage
page, which is the archive's). Filled into ``clubs.hooks.WAITING_KINDS`` in
``GamesConfig.ready()``; matches are announced by ``competitions.inbox`` from the archive's
``MatchesStored``, join requests by ``clubs.services.join_request_create``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, JoinRequest, Membership
from clubs.waiting import Kind, Waiting

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


@dataclass(frozen=True, slots=True)
class _AdminsKind:
    """A kind of item that waits on a club's owner and admins: the rows of ``pending()``,
    each said by ``title`` and done on the club's manage page at ``anchor``."""

    kind: str
    pending: Callable[[], QuerySet]
    title: Callable[[Any], str]
    anchor: str

    def _items(self, rows: Iterable[Any], admins: dict[int, list[int]]) -> list[Waiting]:
        items = []
        for row in rows:
            title = self.title(row)
            for user_id in admins.get(row.club_id, ()):
                items.append(
                    Waiting(
                        kind=self.kind,
                        key=f"{self.kind}:{row.pk}",
                        user_id=user_id,
                        title=title,
                        where=row.club.name,
                        url=reverse("games:club-manage", args=[row.club.slug]) + self.anchor,
                        since=row.created_at,
                    )
                )
        return items

    def waiting(self, user: Any) -> list[Waiting]:
        """The rows waiting in the clubs ``user`` owns or administers (one query)."""
        rows = self.pending().filter(club__in=Club.objects.administered_by(user.pk))
        return self._items(rows, {row.club_id: [user.pk] for row in rows})

    def of(self, ids: Iterable[int]) -> list[Waiting]:
        """The rows of ``ids`` still waiting, an item for each of their club's admins."""
        rows = list(self.pending().filter(pk__in=list(ids)))
        return self._items(rows, _admins(row.club_id for row in rows))


def _match_title(match: Match) -> str:
    uploader = match.upload.uploader if match.upload else None
    return _("Match %(id)s, uploaded by %(name)s, waits for your approval.") % {
        "id": match.pk,
        "name": uploader.get_username() if uploader else "?",
    }


def _request_title(request: JoinRequest) -> str:
    return _("%(name)s asks to join the club.") % {"name": request.user.get_username()}


APPROVALS = _AdminsKind(
    APPROVAL,
    lambda: (
        Match.objects.filter(approval=Match.Approval.PENDING)
        .select_related("club", "upload__uploader")
        .order_by("created_at", "pk")
    ),
    _match_title,
    "#review",
)
JOIN_REQUESTS = _AdminsKind(
    JOIN_REQUEST,
    lambda: (
        JoinRequest.objects.filter(status=JoinRequest.Status.PENDING)
        .select_related("club", "user")
        .order_by("created_at", "pk")
    ),
    _request_title,
    "#requests",
)


def pending_of(ids: Iterable[int]) -> list[int]:
    """Return which of the matches of ``ids`` await approval (one query)."""
    return list(
        Match.objects.filter(pk__in=list(ids), approval=Match.Approval.PENDING).values_list(
            "pk", flat=True
        )
    )


KINDS = (
    Kind(APPROVAL, gettext_lazy("matches awaiting approval"), APPROVALS.waiting, APPROVALS.of),
    Kind(JOIN_REQUEST, gettext_lazy("join requests"), JOIN_REQUESTS.waiting, JOIN_REQUESTS.of),
)
