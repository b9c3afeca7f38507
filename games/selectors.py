"""Selectors: the queries the pages and the API read matches with."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from .models import Match, Seat, Upload

FILTERS = ("club", "player", "ruleset", "outcome", "date_from", "date_to")


def match_list(*, filters: dict[str, Any] | None = None) -> QuerySet[Match]:
    """Return matches, newest first, with their club and seats, narrowed by ``filters``.

    ``club`` is a club slug, ``player`` a player id, ``ruleset`` a preset name,
    ``outcome`` complete or unfinished, ``date_from``/``date_to`` dates (inclusive).
    """
    filters = filters or {}
    matches = Match.objects.select_related("club").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
    )
    if "ids" in filters:
        matches = matches.filter(pk__in=filters["ids"])
    if filters.get("club"):
        matches = matches.filter(club__slug=filters["club"])
    if filters.get("player"):
        matches = matches.filter(seats__player_id=filters["player"])
    if filters.get("ruleset"):
        matches = matches.filter(preset=filters["ruleset"])
    if filters.get("outcome"):
        matches = matches.filter(outcome=filters["outcome"])
    if filters.get("date_from"):
        matches = matches.filter(played_at__gte=_start_of(filters["date_from"]))
    if filters.get("date_to"):
        matches = matches.filter(played_at__lt=_start_of(filters["date_to"], next_day=True))
    return matches.order_by("-played_at", "-id")


def _start_of(day: date, *, next_day: bool = False) -> datetime:
    moment = datetime.combine(day + timedelta(days=1) if next_day else day, time())
    return timezone.make_aware(moment, timezone.get_current_timezone())


def uploads_visible_to(user) -> QuerySet[Upload]:
    """Return the uploads ``user`` may see: their own and those of the clubs they administer
    (staff see every one; someone signed out, none). Others' uploads are simply not there,
    so their ids answer 404 and cannot be walked."""
    uploads = Upload.objects.all()
    if user is None or not user.is_authenticated:
        return uploads.none()
    if user.is_staff:
        return uploads
    return uploads.filter(Q(uploader=user) | Q(club__admins=user)).distinct()
