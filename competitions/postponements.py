"""A fixture postponed (issue 36), as Guisborough's cup ties are: the home captain offers up
to three days, and the other side accepts one.

- **Offering:** a captain of the home team, while the fixture is still to play and both its
  teams play on, offers one to three different days, each after today (the home club's
  today) and no later than a plan may be (``clubs.dates.plan_check``: two years ahead).
  Offering again replaces the offer.
- **Accepting:** a captain of the away team (or the league's organiser) accepts one of the
  days offered: it becomes the fixture's day, and the offer is gone.
- **Withdrawing:** the home captain who may offer (or the organiser) withdraws the offer.

An offer waits on the away team's captains (``waiting.POSTPONEMENT``, in their inbox and one
email); each step is written in both clubs' audit trails.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.dates import plan_check
from clubs.refusals import ClubRefusal
from clubs.waiting import announce
from clubs.zones import zone_of

from . import audit_actions, waiting
from .league_permissions import captain_of, is_organiser, refuse_withdrawn
from .league_services import audit_fixture, locked_fixture
from .models import Fixture

MOST_DAYS = 3


def _open(locked: Fixture) -> None:
    if locked.status != Fixture.Status.TO_PLAY:
        raise ClubRefusal(_("Only a fixture still to play is postponed."), "fixture-not-open")
    refuse_withdrawn(locked)


def postponement_offer(*, actor: Any, fixture: Fixture, days: list[date]) -> Fixture:
    """Offer ``days`` (one to three, different, each after today) for the fixture (a captain
    of the home team). Return the fixture."""
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if not captain_of(locked.home, actor):
            raise PermissionDenied(_("Only a captain of the home team may offer days."))
        _open(locked)
        # A day past the plan's bounds (years ahead, 9999-12-31) first: a 400, not this 409.
        plan_check(days, zone_names=[locked.home.club.time_zone])
        today = timezone.localtime(timezone.now(), zone_of(locked.home.club.time_zone)).date()
        if (
            not 1 <= len(days) <= MOST_DAYS
            or len(set(days)) != len(days)
            or any(day <= today for day in days)
            or locked.day in days
        ):
            raise ClubRefusal(
                _(
                    "Offer one to three different days, each after today and none the "
                    "fixture's own."
                ),
                "postpone-invalid",
            )
        locked.offered_days = [day.isoformat() for day in sorted(days)]
        locked.offered_by = actor
        locked.offered_at = timezone.now()
        locked.save(update_fields=["offered_days", "offered_by", "offered_at"])
        audit_fixture(
            locked,
            actor=actor,
            action=audit_actions.POSTPONEMENT_OFFERED,
            offered=", ".join(locked.offered_days),
        )
        announce(waiting.POSTPONEMENT, [locked.pk])  # the away captains are told
    return locked


def postponement_accept(*, actor: Any, fixture: Fixture, day: date) -> Fixture:
    """Accept one of the days offered (a captain of the away team, or the organiser): it
    becomes the fixture's day. Return the fixture."""
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if not (captain_of(locked.away, actor) or is_organiser(locked.league, actor)):
            raise PermissionDenied(
                _("Only a captain of the away team or the organiser may accept a day.")
            )
        _open(locked)
        if day.isoformat() not in locked.offered_days:
            raise ClubRefusal(_("That day is not one of the days offered."), "postpone-not-offered")
        before = locked.day
        locked.day = day
        locked.offered_days, locked.offered_by, locked.offered_at = [], None, None
        locked.save(update_fields=["day", "offered_days", "offered_by", "offered_at"])
        audit_fixture(
            locked,
            actor=actor,
            action=audit_actions.POSTPONEMENT_ACCEPTED,
            before=before.isoformat(),
        )
    return locked


def postponement_withdraw(*, actor: Any, fixture: Fixture) -> Fixture:
    """Withdraw the days offered (a captain of the home team, or the organiser)."""
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if not (captain_of(locked.home, actor) or is_organiser(locked.league, actor)):
            raise PermissionDenied(
                _("Only a captain of the home team or the organiser may withdraw the offer.")
            )
        if not locked.offered_days:
            raise ClubRefusal(_("No days are offered."), "postpone-not-offered")
        locked.offered_days, locked.offered_by, locked.offered_at = [], None, None
        locked.save(update_fields=["offered_days", "offered_by", "offered_at"])
    return locked
