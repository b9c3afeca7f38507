"""Who sits in a league leg's seats: the visiting players are their own club's.

A leg between teams of two clubs is stored in one of them. Its log names the leg in its
``event`` ("<league>, <home team> v <away team>, leg <n>", docs/leagues.md), and ingest reads
which of its names are players of the other club from the teams' sides (``games.guests``,
``games.models.LegSide``): those on the other team's roster, by handle or former handle, in
any case. Their seats point to their own club's player, and no handle of theirs is made in
the storing club.

This module keeps each team's side as its team is (``side_keep``, ``side_drop``, called in
the change's transaction by the receivers ``apps.py`` connects, whatever makes the change:
a service, the merge of a handle, a test's own rows), and moves the handles legs made in a
club before legs were read (``legs_rehome``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from games.cache import lists_changed, names_changed
from games.events import MatchesStored, announce
from games.guests import leg_sides, side_names
from games.models import LegSide, Match, Player, Seat

from .models import League, Leg, Team


def side_keep(team_ids: Iterable[int]) -> None:
    """Write the sides of the teams of ``team_ids`` as the teams are now: their league's
    name, their own, their club and their roster."""
    for team in Team.objects.filter(pk__in=set(team_ids)).select_related("league"):
        side, _made = LegSide.objects.update_or_create(
            team_id=team.pk,
            defaults={"league": team.league.name, "name": team.name, "club_id": team.club_id},
        )
        side.players.set(team.roster.all())


def side_drop(team_id: int) -> None:
    """Drop the side of a team deleted."""
    LegSide.objects.filter(team_id=team_id).delete()


def league_renamed(league: League) -> None:
    """Write a league's name into its teams' sides."""
    teams = Team.objects.filter(league=league).values("pk")
    LegSide.objects.filter(team_id__in=teams).exclude(league=league.name).update(league=league.name)


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


def _leg_matches() -> dict[int, tuple[LegSide, LegSide]]:
    """Return every stored match that is a leg, by id: the legs submitted to fixtures, and
    the matches whose ``event`` names a leg; with the home and the away team's side."""
    legs = Leg.objects.exclude(match=None).values_list(
        "match_id", "fixture__home_id", "fixture__away_id"
    )
    sides = LegSide.objects.in_bulk(
        {team_id for _match, home, away in legs for team_id in (home, away)},
        field_name="team_id",
    )
    found: dict[int, tuple[LegSide, LegSide]] = {}
    for match_id, home, away in legs:
        if home in sides and away in sides:
            found[match_id] = (sides[home], sides[away])
    for match_id, event in Match.objects.filter(event__icontains="leg").values_list("id", "event"):
        if match_id not in found and (pair := leg_sides(event)) is not None:
            found[match_id] = pair
    return found


def _guest_handles(legs: dict[int, tuple[LegSide, LegSide]]) -> dict[int, Rehoming]:
    """Return, by the handle's id, the handles of a storing club that sit in its legs for a
    player of the other team's roster."""
    found: dict[int, Rehoming] = {}
    matches = Match.objects.filter(pk__in=legs).prefetch_related("seats__player")
    for match in matches:
        home, away = legs[match.pk]
        if home.club_id == away.club_id or match.club_id not in (home.club_id, away.club_id):
            continue
        own, other = (home, away) if home.club_id == match.club_id else (away, home)
        own_names, other_names = side_names(own), side_names(other)
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
