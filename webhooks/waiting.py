"""What waits on a club's admins from webhooks: an endpoint turned off after three days of
failing, until it is turned on again or deleted (``clubs.waiting``; the inbox tells them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Membership
from clubs.waiting import Kind, Waiting

from .models import Endpoint

OFF = "webhook-off"


def _item(endpoint: Endpoint, user_id: int) -> Waiting:
    return Waiting(
        kind=OFF,
        key=f"{OFF}:{endpoint.pk}:{endpoint.disabled_at:%Y%m%d%H%M%S}",
        user_id=user_id,
        title=_("A webhook endpoint failed for three days and is turned off: %(url)s")
        % {"url": endpoint.url},
        where=endpoint.club.name,
        url=f"/clubs/{endpoint.club.slug}/webhooks/{endpoint.pk}/",
        since=endpoint.disabled_at,
    )


def _off() -> Any:
    return Endpoint.objects.filter(active=False, disabled_at__isnull=False).select_related("club")


def waiting(user: Any) -> list[Waiting]:
    clubs = Club.objects.administered_by(user.pk)
    return [_item(endpoint, user.pk) for endpoint in _off().filter(club__in=clubs)]


def of(ids: Iterable[int]) -> list[Waiting]:
    endpoints = list(_off().filter(pk__in=list(ids)))
    admins = Membership.objects.filter(
        club__in={endpoint.club_id for endpoint in endpoints}, role__in=Membership.ADMIN_ROLES
    ).values_list("club_id", "user_id")
    return [
        _item(endpoint, user_id)
        for endpoint in endpoints
        for club_id, user_id in admins
        if club_id == endpoint.club_id
    ]


KINDS = (Kind(OFF, gettext_lazy("Webhook endpoints turned off"), waiting, of),)
