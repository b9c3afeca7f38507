"""Who may do what in a team league (issue 28): the organiser, a team's captains, the
parties to a fixture, and what a user may do with a fixture now (``fixture_roles``). The
league's rules are told in ``league_services``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from clubs.models import Membership
from clubs.refusals import ClubRefusal

from .models import Fixture, League, Team


def is_organiser(league: League, user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and league.organiser_id == user.pk)


def captain_of(team: Team, user: Any) -> bool:
    """Return whether ``user`` is a captain of ``team`` (and still a member of its club)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        team.captains.filter(pk=user.pk).exists()
        and Membership.objects.filter(club_id=team.club_id, user=user).exists()
    )


def is_party(fixture: Fixture, user: Any) -> bool:
    """Return whether ``user`` is a captain of either team of ``fixture``."""
    return captain_of(fixture.home, user) or captain_of(fixture.away, user)


def require_organiser(league: League, user: Any) -> None:
    if not is_organiser(league, user):
        raise PermissionDenied(_("Only the league's organiser may do this."))


def refuse_withdrawn(fixture: Fixture) -> None:
    """Refuse to play, concede or move a fixture one of whose teams is withdrawn."""
    if fixture.home.withdrawn_at or fixture.away.withdrawn_at:
        raise ClubRefusal(
            _("A team of this fixture is withdrawn: the fixture is not played."),
            "team-withdrawn",
        )


def fixture_roles(fixture: Fixture, user: Any) -> dict[str, bool]:
    """Return what ``user`` may do with ``fixture`` now: submit, confirm or dispute,
    resolve, concede, record a walkover."""
    home, away = captain_of(fixture.home, user), captain_of(fixture.away, user)
    status = fixture.status
    other = (
        (fixture.submitted_for_id == fixture.home_id and away)
        or (fixture.submitted_for_id == fixture.away_id and home)
    ) and fixture.submitted_by_id != getattr(user, "pk", None)
    open_to_play = status == Fixture.Status.TO_PLAY and not (
        fixture.home.withdrawn_at or fixture.away.withdrawn_at
    )
    return {
        "submit": (home or away)
        and (
            status == Fixture.Status.TO_PLAY
            or (status == Fixture.Status.SUBMITTED and fixture.submitted_by_id == user.pk)
        ),
        "confirm": bool(other) and status == Fixture.Status.SUBMITTED,
        "resolve": is_organiser(fixture.league, user) and status == Fixture.Status.DISPUTED,
        # Conceding and walkovers (``league_forfeits``): a fixture still to play whose
        # teams both play on.
        "concede": bool(home or away) and open_to_play,
        "walkover": is_organiser(fixture.league, user) and open_to_play,
        # A postponement (``postponements``): the home side offers days, the away side (or
        # the organiser) accepts one.
        "postpone": home and open_to_play,
        "accept_day": bool(fixture.offered_days)
        and open_to_play
        and (away or is_organiser(fixture.league, user)),
    }
