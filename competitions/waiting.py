"""What waits on a person in team leagues (issue 36), filled into
``clubs.hooks.WAITING_KINDS`` in ``CompetitionsConfig.ready()``:

- a league's invitation of a club, on the club's owner and admins (accept or decline);
- a fixture whose legs one side submitted, on the other side's captains (confirm or
  dispute);
- a disputed fixture, on the league's organiser (count it as submitted or reset it);
- days offered for a fixture postponed, on the away side's captains (accept one).

``competitions.league_services`` and ``league_results`` announce each when it happens. A
private club's team is named to a captain who is not its member as "Team N (a private club)",
as the league's pages do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import F, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.dates import shown_day
from clubs.models import Club, Membership
from clubs.waiting import Kind, Waiting

from .models import Fixture, LeagueClub, Team

LEAGUE_INVITATION = "league-invitation"
FIXTURE_CONFIRM = "fixture-confirm"
DISPUTE = "dispute"
POSTPONEMENT = "postponement"


# --- league invitations --------------------------------------------------------------------


def _invitation_items(places: Iterable[LeagueClub], admins: dict[int, list[int]]) -> list[Waiting]:
    items = []
    for place in places:
        title = _("The league “%(league)s” invites %(club)s: accept or decline.") % {
            "league": place.league.name,
            "club": place.club.name,
        }
        for user_id in admins.get(place.club_id, ()):
            items.append(
                Waiting(
                    kind=LEAGUE_INVITATION,
                    key=f"{LEAGUE_INVITATION}:{place.pk}",
                    user_id=user_id,
                    title=title,
                    where=place.club.name,
                    url=reverse("competitions:league-detail", args=[place.league_id]),
                    since=place.league.created_at,
                )
            )
    return items


def _open_invitations() -> QuerySet[LeagueClub]:
    return (
        LeagueClub.objects.filter(accepted_at__isnull=True)
        .select_related("league", "club")
        .order_by("pk")
    )


def invitations_waiting(user: Any) -> list[Waiting]:
    """The invitations not yet answered of the clubs ``user`` owns or administers."""
    places = _open_invitations().filter(club__in=Club.objects.administered_by(user.pk))
    return _invitation_items(places, {place.club_id: [user.pk] for place in places})


def invitations_of(ids: Iterable[int]) -> list[Waiting]:
    """The invitations of ``ids`` not yet answered, an item for each of the club's admins."""
    places = list(_open_invitations().filter(pk__in=list(ids)))
    admins: dict[int, list[int]] = {}
    rows = Membership.objects.filter(
        club_id__in={place.club_id for place in places}, role__in=Membership.ADMIN_ROLES
    ).order_by("user_id")
    for club_id, user_id in rows.values_list("club_id", "user_id"):
        admins.setdefault(club_id, []).append(user_id)
    return _invitation_items(places, admins)


# --- fixtures: the names a reader may see --------------------------------------------------


class TeamNames:
    """Each team's name as a reader sees it: a private club's team, to someone who is not
    its member, by its private name (its number among the league's teams, read in one
    query for all the fixtures' leagues)."""

    def __init__(self, fixtures: list[Fixture]) -> None:
        self.numbers: dict[int, int] = {}
        leagues = {fixture.league_id for fixture in fixtures}
        rows = Team.objects.filter(league_id__in=leagues).order_by("league_id", "pk")
        counted: dict[int, int] = {}
        for league_id, team_id in rows.values_list("league_id", "pk"):
            counted[league_id] = counted.get(league_id, 0) + 1
            self.numbers[team_id] = counted[league_id]

    def name(self, team: Team, member_of: set[int] | None) -> str:
        if member_of is None or not team.club.is_private or team.club_id in member_of:
            return team.name
        return _("Team %(number)s (a private club)") % {"number": self.numbers.get(team.pk, 0)}

    def fixture(self, fixture: Fixture, member_of: set[int] | None) -> str:
        return _("%(home)s – %(away)s, %(day)s") % {
            "home": self.name(fixture.home, member_of),
            "away": self.name(fixture.away, member_of),
            "day": shown_day(fixture.day),
        }


def _fixtures(queryset: QuerySet[Fixture]) -> list[Fixture]:
    return list(
        queryset.select_related("league", "home__club", "away__club").order_by("pk").distinct()
    )


def _stamp(moment) -> int:
    return int(moment.timestamp()) if moment is not None else 0


# --- fixtures to confirm -------------------------------------------------------------------


def _confirm_item(fixture: Fixture, user_id: int, names: TeamNames, member_of: set[int]) -> Waiting:
    submitter = fixture.home if fixture.submitted_for_id == fixture.home_id else fixture.away
    return Waiting(
        kind=FIXTURE_CONFIRM,
        key=f"{FIXTURE_CONFIRM}:{fixture.pk}:{_stamp(fixture.submitted_at)}",
        user_id=user_id,
        title=_("%(fixture)s: %(team)s submitted the legs; confirm or dispute them.")
        % {"fixture": names.fixture(fixture, member_of), "team": names.name(submitter, member_of)},
        where=fixture.league.name,
        url=reverse("competitions:league-fixture", args=[fixture.league_id, fixture.pk]),
        since=fixture.submitted_at or fixture.league.created_at,
    )


def _submitted() -> QuerySet[Fixture]:
    return Fixture.objects.filter(status=Fixture.Status.SUBMITTED)


def fixtures_waiting(user: Any) -> list[Waiting]:
    """The submitted fixtures a captain of the other side, ``user`` (a member of that
    side's club), may confirm or dispute (three queries)."""
    mine = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    fixtures = _fixtures(
        _submitted()
        .filter(
            Q(submitted_for=F("home"), away__captains=user, away__club__in=mine)
            | Q(submitted_for=F("away"), home__captains=user, home__club__in=mine)
        )
        .exclude(submitted_by=user)
    )
    names = TeamNames(fixtures)
    return [_confirm_item(fixture, user.pk, names, mine) for fixture in fixtures]


def fixtures_of(ids: Iterable[int]) -> list[Waiting]:
    """The submitted fixtures of ``ids``, an item for each captain of the other side who is
    a member of its club (four queries)."""
    fixtures = _fixtures(_submitted().filter(pk__in=list(ids)))
    others = {
        fixture.pk: fixture.away_id
        if fixture.submitted_for_id == fixture.home_id
        else fixture.home_id
        for fixture in fixtures
    }
    captains: dict[int, list[int]] = {}
    through = Team.captains.through.objects.filter(team_id__in=set(others.values()))
    for team_id, user_id in through.order_by("user_id").values_list("team_id", "user_id"):
        captains.setdefault(team_id, []).append(user_id)
    users = {user_id for ids_ in captains.values() for user_id in ids_}
    clubs = {team.club_id for fixture in fixtures for team in (fixture.home, fixture.away)}
    member_of: dict[int, set[int]] = {}
    for user_id, club_id in Membership.objects.filter(
        user_id__in=users, club_id__in=clubs
    ).values_list("user_id", "club_id"):
        member_of.setdefault(user_id, set()).add(club_id)
    names = TeamNames(fixtures)
    items = []
    for fixture in fixtures:
        team = fixture.home if others[fixture.pk] == fixture.home_id else fixture.away
        for user_id in captains.get(team.pk, ()):
            clubs_of = member_of.get(user_id, set())
            if team.club_id in clubs_of and user_id != fixture.submitted_by_id:
                items.append(_confirm_item(fixture, user_id, names, clubs_of))
    return items


# --- disputes ------------------------------------------------------------------------------


def _dispute_item(fixture: Fixture, names: TeamNames) -> Waiting:
    # The organiser sees every club of the league, private or not (league_shown).
    return Waiting(
        kind=DISPUTE,
        key=f"{DISPUTE}:{fixture.pk}:{_stamp(fixture.decided_at)}",
        user_id=fixture.league.organiser_id,
        title=_(
            "%(fixture)s: the legs are disputed (“%(reason)s”); count them or reset the fixture."
        )
        % {"fixture": names.fixture(fixture, None), "reason": fixture.dispute_reason},
        where=fixture.league.name,
        url=reverse("competitions:league-fixture", args=[fixture.league_id, fixture.pk]),
        since=fixture.decided_at or fixture.league.created_at,
    )


def _disputed() -> QuerySet[Fixture]:
    return Fixture.objects.filter(status=Fixture.Status.DISPUTED)


def disputes_waiting(user: Any) -> list[Waiting]:
    """The disputed fixtures of the leagues ``user`` organises (two queries)."""
    fixtures = _fixtures(_disputed().filter(league__organiser=user))
    names = TeamNames(fixtures)
    return [_dispute_item(fixture, names) for fixture in fixtures]


def disputes_of(ids: Iterable[int]) -> list[Waiting]:
    """The disputed fixtures of ``ids``, an item for each league's organiser."""
    fixtures = _fixtures(_disputed().filter(pk__in=list(ids)))
    names = TeamNames(fixtures)
    return [_dispute_item(fixture, names) for fixture in fixtures]


# --- days offered for a postponed fixture ---------------------------------------------------


def _offer_item(fixture: Fixture, user_id: int, names: TeamNames, member_of: set[int]) -> Waiting:
    return Waiting(
        kind=POSTPONEMENT,
        key=f"{POSTPONEMENT}:{fixture.pk}:{_stamp(fixture.offered_at)}",
        user_id=user_id,
        title=_("%(fixture)s: %(team)s offers other days (%(days)s); accept one.")
        % {
            "fixture": names.fixture(fixture, member_of),
            "team": names.name(fixture.home, member_of),
            "days": ", ".join(shown_day(day) for day in fixture.offered_days),
        },
        where=fixture.league.name,
        url=reverse("competitions:league-fixture", args=[fixture.league_id, fixture.pk]),
        since=fixture.offered_at or fixture.league.created_at,
    )


def _offered() -> QuerySet[Fixture]:
    return Fixture.objects.filter(status=Fixture.Status.TO_PLAY).exclude(offered_days=[])


def offers_waiting(user: Any) -> list[Waiting]:
    """The fixtures whose home side offered days to ``user``, a captain of the away side
    and a member of its club (three queries)."""
    mine = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    fixtures = _fixtures(_offered().filter(away__captains=user, away__club__in=mine))
    names = TeamNames(fixtures)
    return [_offer_item(fixture, user.pk, names, mine) for fixture in fixtures]


def offers_of(ids: Iterable[int]) -> list[Waiting]:
    """The fixtures of ``ids`` with days offered, an item for each captain of the away side
    who is a member of its club."""
    fixtures = _fixtures(_offered().filter(pk__in=list(ids)))
    names = TeamNames(fixtures)
    items = []
    for fixture in fixtures:
        team = fixture.away
        members = set(
            Membership.objects.filter(club_id=team.club_id).values_list("user_id", flat=True)
        )
        for user_id in team.captains.order_by("pk").values_list("pk", flat=True):
            if user_id in members:
                items.append(_offer_item(fixture, user_id, names, {team.club_id}))
    return items


KINDS = (
    Kind(
        LEAGUE_INVITATION, gettext_lazy("league invitations"), invitations_waiting, invitations_of
    ),
    Kind(FIXTURE_CONFIRM, gettext_lazy("fixtures to confirm"), fixtures_waiting, fixtures_of),
    Kind(DISPUTE, gettext_lazy("disputed fixtures"), disputes_waiting, disputes_of),
    Kind(POSTPONEMENT, gettext_lazy("days offered for a fixture"), offers_waiting, offers_of),
)
