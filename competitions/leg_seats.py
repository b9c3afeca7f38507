"""Who sits in a league leg's seats: the visiting players are their own club's.

A leg between teams of two clubs is stored in one of them. Its log names the leg in its
``event`` (``leg_named``: "<league>, <home team> v <away team>, leg <n>", docs/leagues.md),
and ingest asks (``games.guests``, registered in ``apps.py``) which of its names are players
of the other club: those on the other team's roster, by handle or former handle, in any
case. Their seats point to their own club's player, and no handle of theirs is made in the
storing club. A name on no roster, or on the storing club's team's too, stays the storing
club's, as in any match; so does every name of a leg between two teams of one club.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from games.cache import lists_changed, names_changed
from games.events import MatchesStored, announce
from games.models import Match, Player, PlayerAlias, Seat

from .models import League, Leg, Team

LEG_TAIL = re.compile(r",\s*leg\s+(\d{1,2})\s*$", re.IGNORECASE)
MOST_READINGS = 24  # ways of reading one event's commas and "v"s that are looked up


@dataclass(frozen=True, slots=True)
class LegName:
    """One reading of an event that names a leg."""

    league: str
    home: str
    away: str
    number: int


def leg_named(event: str) -> list[LegName]:
    """Return the readings of ``event`` as "<league>, <home team> v <away team>, leg <n>"
    (none when it names no leg). A league or team name may itself hold a comma or a " v ":
    every way of cutting the text is a reading, and the one whose league and teams exist
    is the leg (``leg_teams``). The one place the form of a leg's name is read."""
    tail = LEG_TAIL.search(event or "")
    if tail is None:
        return []
    head = event[: tail.start()].strip()
    readings = []
    for comma in re.finditer(r",\s*", head):
        league, teams = head[: comma.start()].strip(), head[comma.end() :]
        for versus in re.finditer(r"\s+v\.?\s+", teams, re.IGNORECASE):
            home, away = teams[: versus.start()].strip(), teams[versus.end() :].strip()
            if league and home and away:
                readings.append(LegName(league, home, away, int(tail.group(1))))
    return readings[:MOST_READINGS]


def leg_teams(event: str) -> tuple[Team, Team] | None:
    """Return the home and the away team of the leg ``event`` names, or None (two queries
    at most; none for an event that names no leg)."""
    readings = leg_named(event)
    if not readings:
        return None
    named = Q()
    for reading in readings:
        named |= Q(name__iexact=reading.league) | Q(name=reading.league)
    leagues = {league.name.casefold(): league for league in League.objects.filter(named)}
    if not leagues:
        return None
    teams = {
        (team.league_id, team.name.casefold()): team
        for team in Team.objects.filter(league__in=leagues.values())
    }
    for reading in readings:
        league = leagues.get(reading.league.casefold())
        if league is None:
            continue
        home = teams.get((league.pk, reading.home.casefold()))
        away = teams.get((league.pk, reading.away.casefold()))
        if home is not None and away is not None and home.pk != away.pk:
            return home, away
    return None


def leg_guests(club: Any, event: str, names: Sequence[str]) -> dict[str, Player]:
    """Return the players of the other club among ``names`` of a leg stored in ``club``, by
    the name as written (``games.guests``)."""
    teams = leg_teams(event)
    if teams is None or club.pk not in {team.club_id for team in teams}:
        return {}
    home, away = teams
    if home.club_id == away.club_id:  # two teams of one club: that club's match
        return {}
    own, other = (home, away) if home.club_id == club.pk else (away, home)
    own_names = _roster_names(own)
    other_names = _roster_names(other)
    return {
        name: other_names[name.casefold()]
        for name in names
        if name.casefold() in other_names and name.casefold() not in own_names
    }


def _roster_names(team: Team) -> dict[str, Player]:
    """Return a team's players by each handle and former handle they had, casefolded."""
    roster = list(team.roster.all())
    named = {player.handle.casefold(): player for player in roster}
    by_pk = {player.pk: player for player in roster}
    for alias in PlayerAlias.objects.filter(player__in=roster):
        named.setdefault(alias.handle.casefold(), by_pk[alias.player_id])
    return named


# --- the data fix: handles a leg made in the storing club before legs were read ------------


@dataclass
class Rehoming:
    """A handle of ``club`` that only a league's legs made, to move to ``target`` (the
    visiting player of the other club it stands for), or left alone (``why``)."""

    source: Player
    target: Player
    match_ids: set[int]
    why: str = ""  # why it is left alone ("" once it may move)
    source_id: int = 0  # the handle's id, kept once it is deleted

    def __post_init__(self) -> None:
        self.source_id = self.source.pk


def _leg_matches() -> dict[int, tuple[Team, Team]]:
    """Return every stored match that is a leg, by id: the legs submitted to fixtures, and
    the matches whose ``event`` names a leg; with the home and the away team."""
    found: dict[int, tuple[Team, Team]] = {}
    for leg in Leg.objects.exclude(match=None).select_related("fixture__home", "fixture__away"):
        found[leg.match_id] = (leg.fixture.home, leg.fixture.away)
    for match_id, event in Match.objects.filter(event__icontains="leg").values_list("id", "event"):
        if match_id not in found and (teams := leg_teams(event)) is not None:
            found[match_id] = teams
    return found


def _guest_handles(legs: dict[int, tuple[Team, Team]]) -> dict[int, Rehoming]:
    """Return, by the handle's id, the handles of a storing club that sit in its legs for a
    player of the other team's roster."""
    found: dict[int, Rehoming] = {}
    matches = Match.objects.filter(pk__in=legs).prefetch_related("seats__player")
    for match in matches:
        home, away = legs[match.pk]
        if home.club_id == away.club_id or match.club_id not in (home.club_id, away.club_id):
            continue
        own, other = (home, away) if home.club_id == match.club_id else (away, home)
        own_names, other_names = _roster_names(own), _roster_names(other)
        own_ids = {player.pk for player in own_names.values()}
        for seat in match.seats.all():
            player, name = seat.player, seat.player.handle.casefold()
            if player.club_id != match.club_id or player.pk in own_ids or name in own_names:
                continue
            target = other_names.get(name)
            if target is None:
                continue
            entry = found.setdefault(player.pk, Rehoming(player, target, set()))
            if entry.target.pk != target.pk:
                entry.why = "it stands for two players of other clubs"
            entry.match_ids.add(match.pk)
    return found


def _checked(entry: Rehoming) -> Rehoming:
    """Say why ``entry`` stays where it is, if it does: the handle sits in a match that is
    no such leg, a person claimed it, a roster or an event has it, or its target sat in one
    of the matches too."""
    source = entry.source
    if entry.why:
        return entry
    theirs = set(Seat.objects.filter(player=source).values_list("match_id", flat=True))
    if theirs - entry.match_ids:
        entry.why = "it plays in other matches of its club"
    elif source.user_id is not None or source.claims.exists():
        entry.why = "a person claimed it, or asked to"
    elif source.league_teams.exists() or source.event_entries.exists():
        entry.why = "a league roster or an event has it"
    elif Seat.objects.filter(player=entry.target, match_id__in=entry.match_ids).exists():
        entry.why = "its player sits in the same match"
    return entry


def legs_rehome(*, apply: bool = False) -> list[Rehoming]:
    """Find the handles a club got from the visiting players of its league legs (stored
    before a leg's names were read against the rosters) and, with ``apply``, move their
    seats to the visiting players themselves and delete the handles emptied. Only a handle
    that sits in no other match of its club, claimed by nobody, on no roster or event
    moves; the others are returned with the reason they stay. The matches moved are
    reviewed again (statistics, ratings of both scopes). Return every handle found."""
    with transaction.atomic():
        entries = [_checked(entry) for entry in _guest_handles(_leg_matches()).values()]
        moving = [entry for entry in entries if not entry.why]
        if apply and moving:
            moved: set[int] = set()
            for entry in moving:
                Seat.objects.filter(player=entry.source, match_id__in=entry.match_ids).update(
                    player=entry.target
                )
                entry.source.delete()
                names_changed(entry.source.club_id)
                moved |= entry.match_ids
            lists_changed()
            announce(MatchesStored(match_ids=tuple(sorted(moved))))
    return sorted(entries, key=lambda entry: (entry.source.club_id, entry.source.handle))
