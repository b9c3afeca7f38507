"""What the pages and the API read of a team league (issue 28): the clubs one may invite,
a fixture's candidate legs (the stored matches a captain may choose), a fixture's score, the
league's fixtures with their legs and whether each counts in the table. The league's rules
are told in ``league_services``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import F, Prefetch, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.zones import club_days
from games.models import Match, Player

from .models import Fixture, League, LeagueClub, Leg, Team


def invitable_clubs(league: League, user: Any) -> QuerySet[Club]:
    """Return the clubs ``user`` can see that the league has not invited yet, by name."""
    return (
        Club.objects.visible_to(user)
        .exclude(pk__in=LeagueClub.objects.filter(league=league).values("club_id"))
        .order_by("name")
    )


def club_named(user: Any, text: str) -> Club | None:
    """Return the club ``user`` can see whose address name or name is ``text`` (in any case,
    spaces at either end ignored), or None."""
    text = text.strip()
    visible = Club.objects.visible_to(user)
    return visible.filter(slug=text.lower()).first() or visible.filter(name__iexact=text).first()


def private_team_name(team: Team) -> str:
    """Return what a private club's team is called where its club is not shown: "Team N (a
    private club)", N its place among the league's teams in the order they were made."""
    number = Team.objects.filter(league_id=team.league_id, pk__lte=team.pk).count()
    return _("Team %(number)s (a private club)") % {"number": number}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stored match that may be a leg of a fixture, and how it would count."""

    match_id: int
    kind: str
    winner: str  # Leg.Side
    home_score: int
    away_score: int
    home_names: str
    away_names: str
    played_at: datetime


def _day_bounds(day: date, zone_name: str) -> tuple[datetime, datetime]:
    return club_days(day, day, zone_name)


def _on_roster(team: Team, roster: list[Player], match_club_id: int):
    """Return a test of whether a seat's player is on the roster: the roster's player
    itself (a leg's visiting player sits as their own club's, ``leg_seats``), or, for a
    team of the other club, a handle of the match's club of the same name (a leg stored
    before that, or whose log named no leg)."""
    ids = {player.pk for player in roster}
    if team.club_id == match_club_id:
        return lambda player: player.pk in ids
    handles = {player.handle.casefold() for player in roster}
    return lambda player: (
        player.pk in ids
        or (player.club_id == match_club_id and player.handle.casefold() in handles)
    )


def fixture_candidates(fixture: Fixture) -> list[Candidate]:
    """Return the stored matches of the home and away clubs that may be legs of
    ``fixture``, in the order played (a fixed number of queries)."""
    home, away = fixture.home, fixture.away
    rosters = {team.pk: list(team.roster.all()) for team in (home, away)}
    clubs = {club.pk: club for club in Club.objects.filter(pk__in={home.club_id, away.club_id})}
    found = []
    for club in clubs.values():
        start, end = _day_bounds(fixture.day, club.time_zone)
        matches = (
            Match.objects.filter(
                club=club,
                played_at__gte=start,
                played_at__lt=end,
                approval=Match.Approval.APPROVED,
                outcome=Match.Outcome.COMPLETE,
                player_count__in=(2, 4),
            )
            .prefetch_related("seats__player")
            .order_by("played_at", "id")
        )
        at_home = _on_roster(home, rosters[home.pk], club.pk)
        at_away = _on_roster(away, rosters[away.pk], club.pk)
        for match in matches:
            candidate = _candidate(match, at_home, at_away)
            if candidate is not None:
                found.append(candidate)
    return sorted(found, key=lambda c: (c.played_at, c.match_id))


def _candidate(match: Match, at_home, at_away) -> Candidate | None:
    sides: dict[int, list[Player]] = {}
    for seat in sorted(match.seats.all(), key=lambda seat: seat.seat):
        sides.setdefault(seat.team, []).append(seat.player)
    if len(sides) != 2:
        return None
    (team_a, players_a), (team_b, players_b) = sorted(sides.items())
    if len(players_a) != len(players_b) or len(players_a) not in (1, 2):
        return None
    if all(map(at_home, players_a)) and all(map(at_away, players_b)):
        home_team, away_team = team_a, team_b
    elif all(map(at_home, players_b)) and all(map(at_away, players_a)):
        home_team, away_team = team_b, team_a
    else:
        return None
    if match.winner == home_team:
        winner = Leg.Side.HOME
    elif match.winner == away_team:
        winner = Leg.Side.AWAY
    else:
        winner = Leg.Side.DRAW
    kind = League.LegKind.SINGLES if len(players_a) == 1 else League.LegKind.PAIRS
    return Candidate(
        match_id=match.pk,
        kind=kind,
        winner=winner,
        home_score=match.scores[home_team],
        away_score=match.scores[away_team],
        home_names=" & ".join(player.handle for player in sides[home_team]),
        away_names=" & ".join(player.handle for player in sides[away_team]),
        played_at=match.played_at,
    )


def fixture_score(fixture: Fixture, legs: list[Leg] | None = None) -> tuple[int, int] | None:
    """Return the legs won by the home and the away side, or None before any submission
    (``fixture.legs`` prefetched or not, or ``legs`` given). A conceded fixture gives every
    leg of the league's fixtures to the side that did not concede."""
    if fixture.status == Fixture.Status.TO_PLAY:
        return None
    if fixture.status == Fixture.Status.CONCEDED:
        legs_won = len(fixture.league.legs)
        return (0, legs_won) if fixture.conceded_by_id == fixture.home_id else (legs_won, 0)
    legs = list(fixture.legs.all()) if legs is None else legs
    return (
        sum(leg.winner == Leg.Side.HOME for leg in legs),
        sum(leg.winner == Leg.Side.AWAY for leg in legs),
    )


def legs_in_order() -> QuerySet[Leg]:
    """Legs by number, each with the club of its match (``match_club_id``: None when the
    match is deleted)."""
    return Leg.objects.order_by("number").annotate(match_club_id=F("match__club_id"))


def league_fixtures(league: League) -> list[Fixture]:
    """Return the league's fixtures with their teams and legs (three queries)."""
    return list(
        league.fixtures.select_related("home", "away", "league")
        .prefetch_related(Prefetch("legs", queryset=legs_in_order()))
        .order_by("day", "id")
    )


def fixture_counts(fixture: Fixture, withdrawn: set[int], league: League) -> bool:
    """Whether ``fixture`` counts in the table: confirmed or conceded, and not expunged with
    a withdrawn team (``withdrawn``: the ids of the league's withdrawn teams)."""
    if fixture.status not in (Fixture.Status.CONFIRMED, Fixture.Status.CONCEDED):
        return False
    touched = fixture.home_id in withdrawn or fixture.away_id in withdrawn
    return not (touched and league.withdrawn_results == League.Withdrawn.EXPUNGED)
