"""Seats of a log filled by players of another club: the guests of a league's leg.

A log is stored in one club, and each name it writes is that club's player, made by the
name when the club has none. A league's leg is the exception: a match between teams of two
clubs, stored in one of them, whose visiting players are players of their own club. A log
names its leg in its ``event`` (or its upload counts for one: ``Upload.event``) as
"<league>, <home team> v <away team>, leg <n>" (docs/leagues.md); the teams are read from
their ``LegSide``, the data ``competitions`` keeps of each team in this layer, so ingest asks
no app above it. A name on the other club's team's roster (a handle or a former handle, in
any case) is that club's player; a name on the storing club's team's roster too, on neither,
or in a leg between two teams of one club, is the storing club's, as in any match.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from .models import LegSide, Player, PlayerAlias

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
    is the leg (``leg_sides``). The one place the form of a leg's name is read."""
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


def leg_sides(event: str) -> tuple[LegSide, LegSide] | None:
    """Return the home and the away side of the leg ``event`` names, or None (one query at
    most; none for an event that names no leg)."""
    readings = leg_named(event)
    if not readings:
        return None
    named = Q()
    for reading in readings:
        named |= Q(league__iexact=reading.league) | Q(league=reading.league)
    sides = list(LegSide.objects.filter(named))
    # A league's name read in any case, as its own (two leagues apart only in case: one).
    leagues = {side.league.casefold(): side.league for side in sides}
    teams = {(side.league, side.name.casefold()): side for side in sides}
    for reading in readings:
        league = leagues.get(reading.league.casefold())
        if league is None:
            continue
        home = teams.get((league, reading.home.casefold()))
        away = teams.get((league, reading.away.casefold()))
        if home is not None and away is not None and home.pk != away.pk:
            return home, away
    return None


def side_names(side: LegSide) -> dict[str, Player]:
    """Return a side's players by each handle and former handle they had, casefolded."""
    roster = list(side.players.all())
    named = {player.handle.casefold(): player for player in roster}
    by_pk = {player.pk: player for player in roster}
    for alias in PlayerAlias.objects.filter(player__in=roster):
        named.setdefault(alias.handle.casefold(), by_pk[alias.player_id])
    return named


def seat_guests(club: Any, event: str, names: Sequence[str]) -> dict[str, Player]:
    """Return the players of the other club among ``names`` of a log stored in ``club``
    that names the leg ``event``, by the name as written; a name not among them is the
    club's own, as always."""
    sides = leg_sides(event) if event else None
    if sides is None or club.pk not in {side.club_id for side in sides}:
        return {}
    home, away = sides
    if home.club_id == away.club_id:  # two teams of one club: that club's match
        return {}
    own, other = (home, away) if home.club_id == club.pk else (away, home)
    own_names, other_names = side_names(own), side_names(other)
    return {
        name: other_names[name.casefold()]
        for name in names
        if name.casefold() in other_names
        and name.casefold() not in own_names
        and other_names[name.casefold()].club_id != club.pk
    }
