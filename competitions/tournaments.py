"""Events of a season (a club night, a cup): making, changing and deleting them, their
schedule, and their results filled in from the club's matches as they arrive.

A **round-robin** is drawn by the circle method: the first player stays put and the others
turn round them one place a round; with an odd number a bye takes the empty place, so each
round one player sits out. Each pair meets once, or twice (the second time in a second run
of the same rounds). A **knockout cup** is drawn on the next power of two: seed 1 meets the
last seed, and so on (the usual bracket, 1 v 8, 4 v 5, 2 v 7, 3 v 6), the places past the
number of players being byes, so the best seeds go straight to the second round.

Seeds are the players' club ratings when the event is made (or its players changed), the
highest first (a newcomer at a newcomer's rating, ties by name); the schedule is worked out
from them each time, never stored.

A match counts for an event when it is the club's, approved and complete, of a ruleset the
season counts, played (``played_at``) within the event's days in the club's time zone,
between two of its players alone, and its log names no other event (a log's ``event`` that
is given must be the event's name, in any case). A pair's matches fill the pair's fixtures in
the order played (a match beyond them is not counted); in a cup the first match of a pair
with a winner decides their tie.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.audit import record as audit
from clubs.refusals import ClubRefusal, require_admin
from clubs.zones import club_days
from competitions import audit_actions
from games.models import Match, Player
from replays.csv_tables import csv_text
from replays.models import Rating, SeatResult
from replays.ratings import shown_rating

from .models import Season, Tournament, TournamentEntry
from .seasons import Result, season_rules, standings

MAX_PLAYERS = 32  # a round-robin of 32 is 496 matches: more is not an evening or a season
BYE = -1  # a place of the bracket with no player: who meets it goes through


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a round-robin: its pairs (player ids) and who sits out (or None)."""

    number: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def round_robin(players: list[int], legs: int = 1) -> list[Round]:
    """Return the rounds of a round-robin of ``players`` (in seed order) by the circle
    method, each pair once (``legs`` 1) or twice (2: the same rounds again)."""
    places: list[int | None] = [*players, *([None] if len(players) % 2 else [])]
    count = len(places)
    once = []
    for _number in range(count - 1):
        pairs = []
        bye = None
        for i in range(count // 2):
            a, b = places[i], places[count - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b))
        once.append((tuple(pairs), bye))
        # The first place stays; the last comes to the second, the others move one on.
        places = [places[0], places[-1], *places[1:-1]]
    # A second meeting comes in a second run of the rounds, each pair's seats the other way.
    again = [(tuple((b, a) for a, b in pairs), bye) for pairs, bye in once]
    rounds = once + again if legs == 2 else once
    return [Round(number, pairs, bye) for number, (pairs, bye) in enumerate(rounds, start=1)]


def bracket_order(size: int) -> list[int]:
    """Return the seeds of a bracket of ``size`` (a power of two) from top to bottom, each
    first-round pair side by side: seed s meets seed size + 1 - s, and the two best meet
    last (4: 1 4 2 3; 8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@dataclass(frozen=True, slots=True)
class Game:
    """A counted match between two players of an event."""

    match_id: int
    played_at: datetime
    results: tuple[Result, Result]

    @property
    def players(self) -> frozenset[int]:
        return frozenset(result.player_id for result in self.results)

    @property
    def winner(self) -> int | None:
        won = [result.player_id for result in self.results if result.won]
        return won[0] if len(won) == 1 else None

    def score_of(self, player_id: int) -> int:
        mine = next(result for result in self.results if result.player_id == player_id)
        return mine.scores[mine.team]


def tournament_bounds(event: Tournament, club_zone: str) -> tuple[datetime, datetime]:
    """Return the event's first moment and the moment after its last day in ``club_zone``."""
    return club_days(event.first_day, event.last_day, club_zone)


def tournament_games(event: Tournament, player_ids: list[int]) -> list[Game]:
    """Return the matches that count for the event, in the order played (one query)."""
    season = event.season
    start, end = tournament_bounds(event, season.club.time_zone)
    rows = SeatResult.objects.filter(
        club_id=season.club_id,
        played_at__gte=start,
        played_at__lt=end,
        complete=True,
        match__approval=Match.Approval.APPROVED,
        match__player_count=2,
        player_id__in=player_ids,
    )
    if season.presets:
        rows = rows.filter(preset__in=season.presets)
    seats: dict[int, list[Result]] = defaultdict(list)
    named: dict[int, str] = {}
    for (
        match_id,
        played_at,
        player_id,
        handle,
        team,
        rank,
        won,
        scores,
        written,
    ) in rows.values_list(
        "match_id",
        "played_at",
        "player_id",
        "player__handle",
        "team",
        "rank",
        "won",
        "match__scores",
        "match__event",
    ):
        seats[match_id].append(
            Result(match_id, played_at, player_id, handle, team, rank, won, tuple(scores))
        )
        named[match_id] = written
    wanted = event.name.strip().casefold()
    games = [
        Game(match_id, results[0].played_at, (results[0], results[1]))
        for match_id, results in seats.items()
        if len(results) == 2
        and results[0].team != results[1].team
        and named[match_id].strip().casefold() in ("", wanted)
    ]
    return sorted(games, key=lambda game: (game.played_at, game.match_id))


def _fixture(
    number: int, a: int | None, b: int | None, names: dict[int, str], game: Game | None
) -> dict[str, Any]:
    """One fixture as the pages, the API and the CSV read it."""
    if BYE in (a, b):
        state = "bye"
    elif a is None or b is None:
        state = "waiting"
    else:
        state = "played" if game is not None else "to-play"
    return {
        "round": number,
        "a": None if a in (None, BYE) else a,
        "b": None if b in (None, BYE) else b,
        "a_name": names.get(a, "") if a is not None else "",
        "b_name": names.get(b, "") if b is not None else "",
        "state": state,
        "match_id": game.match_id if game else None,
        "played_at": game.played_at if game else None,
        "winner": game.winner if game else None,
        "score": [game.score_of(a), game.score_of(b)] if game and a and b else None,
    }


def round_robin_schedule(
    event: Tournament, seeds: list[int], names: dict[int, str], games: list[Game]
) -> dict[str, Any]:
    """Return a round-robin's rounds with its results, and its table from the counted
    matches (the season's scoring and tie-breaks)."""
    waiting: dict[frozenset[int], deque[Game]] = defaultdict(deque)
    for game in games:
        waiting[game.players].append(game)
    rounds = []
    counted: list[Result] = []
    for round_ in round_robin(seeds, event.legs):
        fixtures = []
        for a, b in round_.pairs:
            queue = waiting.get(frozenset((a, b)))
            game = queue.popleft() if queue else None
            if game is not None:
                counted.extend(game.results)
            fixtures.append(_fixture(round_.number, a, b, names, game))
        rounds.append(
            {
                "number": round_.number,
                "fixtures": fixtures,
                "bye": round_.bye,
                "bye_name": names.get(round_.bye, "") if round_.bye else "",
            }
        )
    table = standings(counted, season_rules(event.season))
    # Who played nothing yet is in the table too, at the bottom, in seed order.
    listed = {row.player_id for row in table}
    rows = [
        {
            "position": row.position,
            "player_id": row.player_id,
            "name": row.name,
            "played": row.played,
            "won": row.won,
            "lost": row.lost,
            "league_points": row.league_points,
            "difference": row.difference,
        }
        for row in table
    ]
    for player_id in seeds:
        if player_id not in listed:
            rows.append(
                {
                    "position": len(rows) + 1,
                    "player_id": player_id,
                    "name": names[player_id],
                    "played": 0,
                    "won": 0,
                    "lost": 0,
                    "league_points": 0,
                    "difference": 0,
                }
            )
    return {"rounds": rounds, "table": rows, "champion": None}


def knockout_schedule(seeds: list[int], names: dict[int, str], games: list[Game]) -> dict[str, Any]:
    """Return a knockout's rounds: the bracket drawn from the seeds, each tie decided by the
    first match of its pair with a winner, winners moving on; and the champion once known."""
    size = 1
    while size < len(seeds):
        size *= 2
    places = [seeds[seed - 1] if seed <= len(seeds) else BYE for seed in bracket_order(size)]
    deciders: dict[frozenset[int], Game] = {}
    for game in games:
        if game.winner is not None:
            deciders.setdefault(game.players, game)
    rounds = []
    current: list[int | None] = places
    number = 1
    while len(current) > 1:
        fixtures, winners = [], []
        for a, b in zip(current[0::2], current[1::2], strict=True):
            game = None
            if a == BYE or b == BYE:
                winner = b if a == BYE else a  # None while the other is still to be found
            elif a is None or b is None:
                winner = None
            else:
                game = deciders.get(frozenset((a, b)))
                winner = game.winner if game else None
            fixtures.append(_fixture(number, a, b, names, game))
            winners.append(winner)
        rounds.append({"number": number, "fixtures": fixtures, "bye": None, "bye_name": ""})
        current = winners
        number += 1
    champion = current[0] if current and current[0] not in (None, BYE) else None
    return {"rounds": rounds, "table": [], "champion": champion}


def tournament_schedule(event: Tournament) -> dict[str, Any]:
    """Return what the event's page, its API answer and its CSV show: its players in seed
    order with their ratings then, its rounds with results, what is still to play, its
    table (a round-robin) or champion (a cup). A fixed number of queries."""
    entries = list(event.entries.select_related("player").order_by("seed"))
    seeds = [entry.player_id for entry in entries]
    names = {entry.player_id: entry.player.handle for entry in entries}
    games = tournament_games(event, seeds) if len(seeds) >= 2 else []
    if len(seeds) < 2:
        drawn: dict[str, Any] = {"rounds": [], "table": [], "champion": None}
    elif event.kind == Tournament.Kind.KNOCKOUT:
        drawn = knockout_schedule(seeds, names, games)
    else:
        drawn = round_robin_schedule(event, seeds, names, games)
    fixtures = [fixture for round_ in drawn["rounds"] for fixture in round_["fixtures"]]
    ordinals = dict(
        Rating.objects.filter(scope__club_id=event.season.club_id, player_id__in=seeds).values_list(
            "player_id", "ordinal"
        )
    )
    return {
        "players": [
            {
                "seed": entry.seed,
                "player_id": entry.player_id,
                "name": entry.player.handle,
                # The club rating now (the seeds were drawn by the one of the day).
                "rating": shown_rating(ordinals.get(entry.player_id, 0.0)),
            }
            for entry in entries
        ],
        **drawn,
        "champion_name": names.get(drawn["champion"], "") if drawn["champion"] else "",
        "played": sum(fixture["state"] == "played" for fixture in fixtures),
        "to_play": sum(fixture["state"] in ("to-play", "waiting") for fixture in fixtures),
    }


CSV_COLUMNS = ("round", "player_a", "player_b", "state", "score_a", "score_b", "winner", "match")


def schedule_csv(schedule: dict[str, Any]) -> str:
    """Return the schedule and its results as CSV, a header row first (a bye: player_b empty,
    state "bye"; a tie whose players are not known yet: "waiting")."""
    names = {player["player_id"]: player["name"] for player in schedule["players"]}
    rows = []
    for round_ in schedule["rounds"]:
        for fixture in round_["fixtures"]:
            score = fixture["score"] or ["", ""]
            rows.append(
                [
                    round_["number"],
                    fixture["a_name"],
                    fixture["b_name"],
                    fixture["state"],
                    *score,
                    names.get(fixture["winner"], ""),
                    fixture["match_id"] or "",
                ]
            )
        if round_["bye"]:
            rows.append([round_["number"], round_["bye_name"], "", "bye", "", "", "", ""])
    return csv_text(CSV_COLUMNS, rows)


# --- making, changing and deleting ----------------------------------------------------------


def _checked(
    *,
    season: Season,
    name: str,
    kind: str,
    first_day: date,
    last_day: date,
    player_ids: list[int],
    legs: int,
    event: Tournament | None = None,
) -> tuple[str, list[Player]]:
    """Return the event's name as kept and its players, or refuse what the rules do not
    allow (each refusal says why, with the code ``event-invalid``)."""
    name = " ".join(name.split())
    if not name:
        raise ClubRefusal(_("An event needs a name."), "event-invalid")
    if len(name) > 100:
        raise ClubRefusal(_("An event's name is at most 100 characters."), "event-invalid")
    if kind not in Tournament.Kind.values:
        raise ClubRefusal(_("An event is a round-robin or a knockout cup."), "event-invalid")
    if legs not in (1, 2) or (kind == Tournament.Kind.KNOCKOUT and legs != 1):
        raise ClubRefusal(
            _("In a round-robin each pair meets once or twice; in a cup, once."), "event-invalid"
        )
    if season.closed_at is not None:
        raise ClubRefusal(_("This season is closed already."), "season-closed")
    if last_day < first_day:
        raise ClubRefusal(_("An event's last day cannot come before its first."), "event-invalid")
    if first_day < season.first_day or last_day > season.last_day:
        raise ClubRefusal(
            _("An event's days fall within its season's: from %(first)s to %(last)s.")
            % {
                "first": date_format(season.first_day, "SHORT_DATE_FORMAT"),
                "last": date_format(season.last_day, "SHORT_DATE_FORMAT"),
            },
            "event-invalid",
        )
    ids = list(dict.fromkeys(player_ids))
    if not 2 <= len(ids) <= MAX_PLAYERS:
        raise ClubRefusal(
            _("An event has from 2 to %(most)s players.") % {"most": MAX_PLAYERS},
            "event-invalid",
        )
    players = list(Player.objects.filter(club_id=season.club_id, pk__in=ids))
    if len(players) != len(ids):
        raise ClubRefusal(_("An event's players are players of its club."), "event-invalid")
    taken = Tournament.objects.filter(season=season, name__iexact=name)
    if event is not None:
        taken = taken.exclude(pk=event.pk)
    if taken.exists():
        raise ClubRefusal(_("This season has an event of that name already."), "event-name-taken")
    return name, players


def _seeded(club_id: int, players: list[Player]) -> list[Player]:
    """Return the players by club rating, the highest first (a newcomer: a newcomer's
    ordinal, 0), ties by name."""
    ordinals = dict(
        Rating.objects.filter(scope__club_id=club_id, player__in=players).values_list(
            "player_id", "ordinal"
        )
    )
    return sorted(players, key=lambda p: (-ordinals.get(p.pk, 0.0), p.handle.casefold(), p.pk))


def _enter(event: Tournament, players: list[Player]) -> None:
    TournamentEntry.objects.filter(event=event).delete()
    TournamentEntry.objects.bulk_create(
        TournamentEntry(event=event, player=player, seed=seed)
        for seed, player in enumerate(_seeded(event.season.club_id, players), start=1)
    )


def entries_move(*, source_id: int, target_id: int) -> int:
    """Move the event entries of player ``source_id`` to ``target_id`` (a merge of two
    handles of one person): an event that had both keeps one entry, the better seed, and
    its seeds are numbered again from 1. Return the number of events touched."""
    entries = list(TournamentEntry.objects.filter(player_id=source_id).select_related("event"))
    both = set(
        TournamentEntry.objects.filter(
            player_id=target_id, event_id__in=[entry.event_id for entry in entries]
        ).values_list("event_id", flat=True)
    )
    for entry in entries:
        if entry.event_id not in both:
            TournamentEntry.objects.filter(pk=entry.pk).update(player_id=target_id)
            continue
        # The survivor takes the better of the two seeds; the other place goes.
        kept = TournamentEntry.objects.get(event_id=entry.event_id, player_id=target_id)
        best = min(kept.seed, entry.seed)
        entry.delete()
        if best != kept.seed:
            TournamentEntry.objects.filter(pk=kept.pk).update(seed=best)
        ordered = list(TournamentEntry.objects.filter(event_id=entry.event_id).order_by("seed"))
        # Two steps: out of the way of the unique seeds, then 1, 2, 3...
        TournamentEntry.objects.filter(event_id=entry.event_id).update(seed=F("seed") + MAX_PLAYERS)
        for seed, row in enumerate(ordered, start=1):
            TournamentEntry.objects.filter(pk=row.pk).update(seed=seed)
    return len(entries)


def tournament_make(
    *,
    actor: Any,
    season: Season,
    name: str,
    kind: str,
    first_day: date,
    last_day: date,
    player_ids: list[int],
    legs: int = 1,
) -> Tournament:
    """Make an event of ``season`` (its club's owner and admins) with its players seeded by
    rating; return it."""
    require_admin(club=season.club, user=actor)
    name, players = _checked(
        season=season,
        name=name,
        kind=kind,
        first_day=first_day,
        last_day=last_day,
        player_ids=player_ids,
        legs=legs,
    )
    try:
        with transaction.atomic():
            event = Tournament.objects.create(
                season=season,
                name=name,
                kind=kind,
                first_day=first_day,
                last_day=last_day,
                legs=legs,
                created_by=actor,
            )
            _enter(event, players)
            audit(
                club=season.club,
                actor=actor,
                action=audit_actions.EVENT_CREATED,
                event=name,
                season=season.name,
                kind=kind,
                players=len(players),
            )
    except IntegrityError:  # the same name made at the same moment by another admin
        raise ClubRefusal(
            _("This season has an event of that name already."), "event-name-taken"
        ) from None
    return event


def tournament_change(
    *,
    actor: Any,
    event: Tournament,
    name: str,
    first_day: date,
    last_day: date,
    player_ids: list[int],
    legs: int,
) -> Tournament:
    """Change an event's name, days, players (drawn again, by rating) or legs (its club's
    owner and admins; its kind stays); return it."""
    season = event.season
    require_admin(club=season.club, user=actor)
    name, players = _checked(
        season=season,
        name=name,
        kind=event.kind,
        first_day=first_day,
        last_day=last_day,
        player_ids=player_ids,
        legs=legs,
        event=event,
    )
    with transaction.atomic():
        event = (
            Tournament.objects.select_for_update().select_related("season__club").get(pk=event.pk)
        )
        before = {
            "name": event.name,
            "first_day": event.first_day,
            "last_day": event.last_day,
            "legs": event.legs,
            "players": set(event.entries.values_list("player_id", flat=True)),
        }
        event.name, event.first_day, event.last_day, event.legs = name, first_day, last_day, legs
        event.save(update_fields=["name", "first_day", "last_day", "legs"])
        after = {
            "name": name,
            "first_day": first_day,
            "last_day": last_day,
            "legs": legs,
            "players": {player.pk for player in players},
        }
        if after["players"] != before["players"]:
            _enter(event, players)
        changed = sorted(key for key in before if before[key] != after[key])
        if changed:
            audit(
                club=season.club,
                actor=actor,
                action=audit_actions.EVENT_CHANGED,
                event=name,
                before=before["name"],
                changed=changed,
            )
    return event


def tournament_delete(*, actor: Any, event: Tournament) -> None:
    """Delete an event (its club's owner and admins); its matches stay in the archive."""
    club = event.season.club
    require_admin(club=club, user=actor)
    with transaction.atomic():
        audit(
            club=club,
            actor=actor,
            action=audit_actions.EVENT_DELETED,
            event=event.name,
            season=event.season.name,
        )
        event.delete()
