"""What one reader may see of a team league (issue 34): a private club that joins a league
stays private in it.

**The rule.** Who may see a club is ``Club.objects.visible_to`` (its members and the site's
staff, for a private club); in a league its organiser may see every club too (they made its
teams and fixtures). To everyone else (signed out, signed in outside the club, members and
captains of the league's other clubs) a private club of the league is hidden:

- the club reads "a private club", with no slug and no link;
- its team reads "Team N (a private club)", N the team's place among the league's teams in
  the order they were made (a team's name is typed by the organiser and may name the club),
  with its results (table, fixtures, legs' scores) and no roster and no captains;
- a leg's players of that side read as the team does, and the leg's match (a private club's
  match, 404 to the reader) is not linked;
- a dispute's reason, typed by a captain, is left out of a fixture with a hidden side, but
  for the captains of its two teams (the dispute is between them).

**Captains** are named by the handle their account claimed in the team's club (one on the
team's roster first), never by the account's username, for every club; a captain who claimed
none reads "a captain with no claimed handle". Their user ids (what the organiser's API input
takes) are given to the organiser and staff only.

The decision is made once a request (:class:`LeagueSight`, two queries) and everything a page,
the API or the CSV shows of a league passes through it: the views and serializers read the
``Shown*`` records it returns, never a team's or club's own fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Club
from games.models import Player

from .league_permissions import is_organiser
from .league_selectors import Candidate, fixture_score
from .league_table import table_order
from .models import Fixture, League, Leg, Team


def hidden_clubs(user: Any) -> frozenset[int]:
    """Return the ids of the private clubs in any league that ``user`` may not see (one
    query; staff see every club)."""
    private = Club.objects.filter(is_private=True, league_places__isnull=False)
    return frozenset(
        private.exclude(pk__in=Club.objects.visible_to(user).values("pk"))
        .values_list("pk", flat=True)
        .distinct()
    )


@dataclass(frozen=True, slots=True)
class ShownPlayer:
    pk: int
    handle: str


@dataclass(frozen=True, slots=True)
class ShownCaptain:
    handle: str | None  # None: the captain claimed no handle in the team's club
    player_id: int | None
    user_id: int | None  # the organiser's and staff's only

    @property
    def label(self) -> str:
        return self.handle or _("a captain with no claimed handle")


@dataclass(frozen=True, slots=True)
class ShownClub:
    name: str
    slug: str | None  # None: hidden
    hidden: bool
    accepted: bool = True

    @property
    def url(self) -> str | None:
        return None if self.hidden else reverse("competitions:club-detail", args=[self.slug])


@dataclass(frozen=True, slots=True)
class ShownTeam:
    pk: int
    name: str
    club: ShownClub
    roster: list[ShownPlayer] = field(default_factory=list)
    captains: list[ShownCaptain] = field(default_factory=list)
    withdrawn: bool = False

    @property
    def hidden(self) -> bool:
        return self.club.hidden


@dataclass(frozen=True, slots=True)
class ShownLeg:
    number: int
    kind: str
    kind_label: str
    match_id: int | None
    winner: str
    home_score: int
    away_score: int
    home_names: str
    away_names: str


@dataclass(frozen=True, slots=True)
class ShownFixture:
    pk: int
    day: date
    status: str
    status_label: str
    home_id: int
    away_id: int
    home_name: str
    away_name: str
    score: tuple[int, int] | None
    submitted_for_id: int | None
    dispute_reason: str
    legs: list[ShownLeg]
    # A conceded fixture: the side that conceded (its name as shown), and whether the
    # organiser recorded it as a walkover.
    conceded_by: str = ""
    walkover: bool = False
    # A postponement's days offered by the home side (ISO dates), waiting for an answer.
    offered_days: list[str] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.pk


class LeagueSight:
    """What one reader may see of one league, decided once (``hidden``: the ids of the clubs
    shown to them as "a private club"; given for a list of leagues, read once)."""

    def __init__(self, league: League, user: Any, hidden: frozenset[int] | None = None):
        self.league = league
        self.organiser = is_organiser(league, user)
        self.staff = bool(user is not None and user.is_authenticated and user.is_staff)
        if self.organiser:
            self.hidden: frozenset[int] = frozenset()
        else:
            self.hidden = hidden_clubs(user) if hidden is None else hidden
        self._numbers: dict[int, int] | None = None

    def hides(self, club_id: int) -> bool:
        return club_id in self.hidden

    def _number(self, team_id: int) -> int:
        if self._numbers is None:
            ids = self.league.teams.order_by("pk").values_list("pk", flat=True)
            self._numbers = {pk: number for number, pk in enumerate(ids, start=1)}
        return self._numbers.get(team_id, 0)

    def team_name(self, team: Team) -> str:
        return self._team_name(team.pk, team.club_id, team.name)

    def _team_name(self, team_id: int, club_id: int, name: str) -> str:
        # As ``league_selectors.private_team_name`` says, the numbers read once for the league.
        if self.hides(club_id):
            return _("Team %(number)s (a private club)") % {"number": self._number(team_id)}
        return name

    def club(self, club: Club, accepted: bool = True) -> ShownClub:
        if self.hides(club.pk):
            return ShownClub(name=_("a private club"), slug=None, hidden=True, accepted=accepted)
        return ShownClub(name=club.name, slug=club.slug, hidden=False, accepted=accepted)

    def places(self) -> list[ShownClub]:
        """The league's clubs, invited and accepted, the hidden ones after the others."""
        places = self.league.clubs.all()
        if "clubs" not in getattr(self.league, "_prefetched_objects_cache", {}):
            places = places.select_related("club")
        shown = [self.club(place.club, place.accepted_at is not None) for place in places]
        return sorted(shown, key=lambda club: club.hidden)

    def teams(self, teams: list[Team] | None = None) -> list[ShownTeam]:
        """The league's teams (or ``teams``, of this league) with rosters and captains as
        this reader may see them (a fixed number of queries)."""
        if teams is None:
            teams = list(
                self.league.teams.select_related("club").prefetch_related(
                    Prefetch("roster", queryset=Player.objects.order_by("handle")), "captains"
                )
            )
        handles = self._captain_handles([team for team in teams if not self.hides(team.club_id)])
        shown = []
        for team in teams:
            if self.hides(team.club_id):
                shown.append(
                    ShownTeam(
                        pk=team.pk,
                        name=self.team_name(team),
                        club=self.club(team.club),
                        withdrawn=team.withdrawn_at is not None,
                    )
                )
                continue
            roster = [ShownPlayer(pk=p.pk, handle=p.handle) for p in team.roster.all()]
            on_roster = {p.pk for p in roster}
            captains = []
            for user in sorted(team.captains.all(), key=lambda user: user.pk):
                claimed = handles.get((team.club_id, user.pk), [])
                claimed = sorted(claimed, key=lambda p: (p[0] not in on_roster, p[1].casefold()))
                player_id, handle = claimed[0] if claimed else (None, None)
                captains.append(
                    ShownCaptain(
                        handle=handle,
                        player_id=player_id,
                        user_id=user.pk if self.organiser or self.staff else None,
                    )
                )
            captains.sort(key=lambda c: (c.handle is None, (c.handle or "").casefold()))
            shown.append(
                ShownTeam(
                    pk=team.pk,
                    name=team.name,
                    club=self.club(team.club),
                    roster=roster,
                    captains=captains,
                    withdrawn=team.withdrawn_at is not None,
                )
            )
        # The hidden teams after the others, in the order of their numbers: placed by their
        # own names they would tell where those names fall.
        return sorted(shown, key=lambda t: (t.hidden, t.pk if t.hidden else 0))

    @staticmethod
    def _captain_handles(teams: list[Team]) -> dict[tuple[int, int], list[tuple[int, str]]]:
        """The handles each captain claimed in each team's club: (club, user) -> [(id,
        handle)] (one query)."""
        users = {user.pk for team in teams for user in team.captains.all()}
        clubs = {team.club_id for team in teams}
        found: dict[tuple[int, int], list[tuple[int, str]]] = {}
        if not users:
            return found
        rows = Player.objects.filter(user_id__in=users, club_id__in=clubs).values_list(
            "club_id", "user_id", "pk", "handle"
        )
        for club_id, user_id, pk, handle in rows:
            found.setdefault((club_id, user_id), []).append((pk, handle))
        return found

    def fixture(
        self, fixture: Fixture, legs: list[Leg] | None = None, *, party: bool = False
    ) -> ShownFixture:
        """``fixture`` (its home and away teams loaded) as this reader may see it; a
        ``party`` to it (a captain of either side) reads the dispute's reason."""
        home, away = fixture.home, fixture.away
        hidden_home, hidden_away = self.hides(home.club_id), self.hides(away.club_id)
        home_name, away_name = self.team_name(home), self.team_name(away)
        legs = list(fixture.legs.all()) if legs is None else legs
        shown_legs = []
        for leg in sorted(legs, key=lambda leg: leg.number):
            match_club = getattr(leg, "match_club_id", None)
            hide_match = leg.match_id is not None and (
                self.hides(match_club) if match_club is not None else hidden_home or hidden_away
            )
            shown_legs.append(
                ShownLeg(
                    number=leg.number,
                    kind=leg.kind,
                    kind_label=leg.get_kind_display(),
                    match_id=None if hide_match else leg.match_id,
                    winner=leg.winner,
                    home_score=leg.home_score,
                    away_score=leg.away_score,
                    home_names=home_name if hidden_home else leg.home_names,
                    away_names=away_name if hidden_away else leg.away_names,
                )
            )
        return ShownFixture(
            pk=fixture.pk,
            day=fixture.day,
            status=fixture.status,
            status_label=fixture.get_status_display(),
            home_id=home.pk,
            away_id=away.pk,
            home_name=home_name,
            away_name=away_name,
            score=fixture_score(fixture, legs),
            submitted_for_id=fixture.submitted_for_id,
            dispute_reason=(
                "" if (hidden_home or hidden_away) and not party else fixture.dispute_reason
            ),
            legs=shown_legs,
            conceded_by=(
                ""
                if fixture.conceded_by_id is None
                else home_name
                if fixture.conceded_by_id == home.pk
                else away_name
            ),
            walkover=fixture.walkover,
            offered_days=list(fixture.offered_days),
        )

    def fixtures(self, fixtures: list[Fixture]) -> list[ShownFixture]:
        return [self.fixture(fixture) for fixture in fixtures]

    def candidate(self, fixture: Fixture, candidate: Candidate) -> Candidate:
        """A match a captain may choose as a leg, a hidden side's players named as its team."""
        changes = {}
        if self.hides(fixture.home.club_id):
            changes["home_names"] = self.team_name(fixture.home)
        if self.hides(fixture.away.club_id):
            changes["away_names"] = self.team_name(fixture.away)
        return _replaced(candidate, changes)

    def averages(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The players' league averages (``league_averages``) this reader may see: a private
        club's players are left out for anyone its rosters are hidden from."""
        return [row for row in rows if not self.hides(row["club_id"])]

    def table(self, table: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The league's table (``league_table``) with a hidden club's teams and club as this
        reader may see them, in the documented order by the names shown."""
        rows = []
        for row in table:
            if self.hides(row["club_id"]):
                name = self._team_name(row["team_id"], row["club_id"], row["name"])
                row = {**row, "name": name, "club": _("a private club")}
            rows.append(row)
        rows.sort(key=table_order)
        for position, row in enumerate(rows, start=1):
            row["position"] = position
        return rows


def _replaced(candidate: Candidate, changes: dict[str, str]) -> Candidate:
    if not changes:
        return candidate
    values = {name: getattr(candidate, name) for name in Candidate.__dataclass_fields__}
    return Candidate(**{**values, **changes})
