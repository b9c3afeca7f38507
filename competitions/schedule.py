"""A league's fixtures made at once (issue 36): a double round robin, one round a week on the
league's match night.

Every team meets every other team twice, once at home and once away, by the circle method
(the first team fixed, the others turning round it; an odd number of teams gets a bye, a
team that sits a round out). The first half's rounds are played first, then the same rounds
with home and away swapped; within each half a team's home and away games alternate as far
as the circle allows. Round ``r`` falls ``r`` weeks after the first day the organiser picks
(a plan: from the clubs' today to two years ahead, ``clubs.dates``), so every fixture is on
that day's weekday (the league's match night, starting at its ``match_time``) and no team
plays twice in a week.

Teams withdrawn from the league are left out. The schedule is made only for a league with no
fixture yet (the organiser deletes those made by hand first), so nothing made or played is
touched.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.dates import plan_check
from clubs.refusals import ClubRefusal

from . import audit_actions
from .league_permissions import require_organiser
from .league_services import audit_clubs
from .models import Fixture, League, Team

MOST_TEAMS = 40


def round_robin(count: int) -> list[list[tuple[int, int]]]:
    """Return the rounds of a double round robin of ``count`` teams (0 to count - 1): each
    round a list of (home, away) pairs; every ordered pair exactly once; each team at most
    once a round."""
    if count < 2:
        return []
    slots: list[int | None] = list(range(count))
    if count % 2:
        slots.append(None)  # the bye
    size = len(slots)
    half = []
    for number in range(size - 1):
        pairs = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if a is None or b is None:
                continue
            # The fixed team alternates home and away; the others by round and place.
            home_first = number % 2 == 0 if i == 0 else i % 2 == 1
            pairs.append((a, b) if home_first else (b, a))
        half.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]  # turn all but the first
    return half + [[(away, home) for home, away in pairs] for pairs in half]


def _playing(league: League) -> list[Team]:
    """The league's teams that play on, in the schedule's order (name, then id)."""
    playing = league.teams.filter(withdrawn_at__isnull=True).select_related("club")
    return list(playing.order_by("name", "pk"))


def _planned(
    teams: list[Team], first_day: date, as_of: date | None = None
) -> list[tuple[date, Team, Team]]:
    # A first day is a plan (clubs.dates): from the teams' clubs' today to two years ahead,
    # so every round's day is in the calendar (from 9999-12-28 it was an OverflowError).
    plan_check([first_day], zone_names=[team.club.time_zone for team in teams], as_of=as_of)
    return [
        (first_day + timedelta(weeks=number), teams[home], teams[away])
        for number, pairs in enumerate(round_robin(len(teams)))
        for home, away in pairs
    ]


def schedule_preview(league: League, first_day: date) -> list[tuple[date, Team, Team]]:
    """Return the fixtures ``schedule_make`` would make: (day, home, away), by day. Refuse
    what it would refuse of the teams (a preview of 52 teams showed 40 of them, "1560
    matches", and the button then refused) and a first day out of a plan's bounds
    (``DateOutOfRange``)."""
    teams = _playing(league)
    _check_teams(teams)
    return _planned(teams, first_day)


def _check_teams(teams: list[Team]) -> None:
    """Refuse a schedule of fewer than two or more than ``MOST_TEAMS`` teams playing."""
    if len(teams) < 2:
        raise ClubRefusal(_("A schedule needs two teams or more."), "schedule-too-few-teams")
    if len(teams) > MOST_TEAMS:
        raise ClubRefusal(
            _("A schedule is made for at most %(most)s teams.") % {"most": MOST_TEAMS},
            "schedule-too-many-teams",
        )


def schedule_make(
    *, actor: Any, league: League, first_day: date, as_of: date | None = None
) -> list[Fixture]:
    """Make every fixture of the league at once (its organiser): a double round robin, a
    round a week from ``first_day``. Refused when the league has fixtures already, or fewer
    than two or more than ``MOST_TEAMS`` teams playing. Return the fixtures made. ``as_of``:
    the day the schedule was made, for a past season loaded as history (today by default:
    no page or API answer gives it)."""
    require_organiser(league, actor)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.fixtures.exists():
            raise ClubRefusal(
                _("This league has fixtures already: the schedule is made for a league with none."),
                "schedule-has-fixtures",
            )
        teams = _playing(league)
        _check_teams(teams)
        planned = _planned(teams, first_day, as_of)
        fixtures = Fixture.objects.bulk_create(
            Fixture(league=league, home=home, away=away, day=day) for day, home, away in planned
        )
        audit_clubs(
            list({team.club_id: team.club for team in teams}.values()),
            actor=actor,
            action=audit_actions.SCHEDULE_MADE,
            league=league.name,
            fixtures=len(fixtures),
            first_day=first_day.isoformat(),
        )
    return fixtures
