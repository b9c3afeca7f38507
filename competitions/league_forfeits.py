"""Fixtures not played and teams that leave (issue 36): a conceded fixture, a walkover, a
withdrawn team.

- **Conceded:** a captain concedes their own team's fixture while it is to play. Every leg
  is the other side's; the team that conceded gets no point (``league_points``). It needs
  no confirmation: nobody concedes for the other side.
- **A walkover:** the organiser records that a team did not turn up (or conceded by other
  means), with the same effect, marked as a walkover.
- **Withdrawn:** the organiser withdraws a team. It plays no more (its fixtures to play are
  neither submitted nor conceded), sits at the foot of the table, and its results count as
  the league's ``withdrawn_results`` says: kept (its results stand; the fixtures it will
  not play count for nobody), or expunged (none of its fixtures counts, for either side).
  A withdrawn team is reinstated by the organiser, and everything counts as before.

The organiser's reset (``league_services.fixture_reset``) undoes a conceded fixture or a walkover.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import record as audit
from clubs.refusals import ClubRefusal

from . import audit_actions
from .league_permissions import captain_of, refuse_withdrawn, require_organiser
from .league_services import audit_fixture, locked_fixture
from .models import Fixture, League, Team


def _forfeited(locked: Fixture, *, actor: Any, team: Team, walkover: bool) -> Fixture:
    if locked.status != Fixture.Status.TO_PLAY:
        raise ClubRefusal(
            _("Only a fixture still to play is conceded: reset it first."), "fixture-not-open"
        )
    refuse_withdrawn(locked)
    now = timezone.now()
    locked.status = Fixture.Status.CONCEDED
    locked.conceded_by = team
    locked.walkover = walkover
    locked.submitted_for, locked.submitted_by, locked.submitted_at = team, actor, now
    locked.decided_by, locked.decided_at = actor, now
    locked.save()
    audit_fixture(locked, actor=actor, action=audit_actions.FIXTURE_CONCEDED, team=team.name)
    return locked


def fixture_concede(*, actor: Any, fixture: Fixture) -> Fixture:
    """Concede the fixture for the actor's own team (a captain of one side; a captain of
    both concedes for the home side). Return it."""
    with transaction.atomic():
        locked = locked_fixture(fixture)
        team = next((side for side in (locked.home, locked.away) if captain_of(side, actor)), None)
        if team is None:
            raise PermissionDenied(_("Only a captain of one of the fixture's teams may do this."))
        return _forfeited(locked, actor=actor, team=team, walkover=False)


def fixture_walkover(*, actor: Any, fixture: Fixture, absent: Team) -> Fixture:
    """Record a walkover (the organiser): ``absent``, one of the fixture's teams, did not
    play it, and every leg is the other side's. Return the fixture."""
    require_organiser(fixture.league, actor)
    with transaction.atomic():
        locked = locked_fixture(fixture)
        if absent.pk not in (locked.home_id, locked.away_id):
            raise ClubRefusal(
                _("A walkover is given against one of the fixture's two teams."),
                "fixture-invalid",
            )
        team = locked.home if absent.pk == locked.home_id else locked.away
        return _forfeited(locked, actor=actor, team=team, walkover=True)


def team_withdraw(*, actor: Any, team: Team) -> Team:
    """Withdraw a team from its league (the organiser). Return it."""
    return _withdrawn(actor=actor, team=team, withdrawn=True)


def team_reinstate(*, actor: Any, team: Team) -> Team:
    """Reinstate a withdrawn team (the organiser): its fixtures count again. Return it."""
    return _withdrawn(actor=actor, team=team, withdrawn=False)


def _withdrawn(*, actor: Any, team: Team, withdrawn: bool) -> Team:
    league: League = team.league
    require_organiser(league, actor)
    with transaction.atomic():
        locked = Team.objects.select_for_update().select_related("club").get(pk=team.pk)
        if (locked.withdrawn_at is not None) == withdrawn:
            if withdrawn:
                raise ClubRefusal(_("This team is withdrawn already."), "team-withdrawn")
            raise ClubRefusal(_("This team is not withdrawn."), "team-not-withdrawn")
        locked.withdrawn_at = timezone.now() if withdrawn else None
        locked.save(update_fields=["withdrawn_at"])
        audit(
            club=locked.club,
            actor=actor,
            action=audit_actions.TEAM_WITHDRAWN if withdrawn else audit_actions.TEAM_REINSTATED,
            team=locked.name,
            league=league.name,
        )
    return locked
