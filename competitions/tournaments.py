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

A match may count for an event when it is the club's, approved and complete, of a ruleset
the season counts, played (``played_at``) within the event's days in the club's time zone,
between two of its players alone, and its log's ``event`` names this event or none. A log
names an event by its name ("Autumn cup"), or by its name and a round ("Autumn cup, round
2"), in any case (docs/format.md). Which matches then count, in the order played:

- A match whose log names no event, and that could count for another event of the club as
  well (days that meet, both players entered in both), counts for neither: the pages list it
  as passed over, and naming the event in its log settles it. A match counts for one event
  at most.
- A round-robin: a match naming its round fills that round's fixture of the pair; the pair's
  other matches fill its fixtures left, round by round, in the order played. A match beyond
  them is not counted.
- A cup: a tie is decided by the first match of its pair with a winner that was played after
  each player's match that won their tie of the round before (after a bye, any time within
  the event's days) and names no other round. So a champion is crowned by a final played
  after both semi-finals, never before.

Every match of two entered players that is not counted, save a cup's pairs that meet in no
tie without naming the event, is listed with the reason (``PASSED_OVER``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.audit import record as audit
from clubs.dates import frame_check
from clubs.refusals import ClubRefusal, require_admin
from clubs.zones import club_days
from competitions import audit_actions
from games.models import Match, Player
from replays.csv_tables import csv_text
from replays.models import Rating, SeatResult
from replays.ratings import NEWCOMER_MU, shown_rating

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
    """A counted match between two players of an event: whether its log names the event,
    and the round it names (None: no round)."""

    match_id: int
    played_at: datetime
    results: tuple[Result, Result]
    named: bool = False
    round: int | None = None

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


@dataclass(frozen=True, slots=True)
class PassedOver:
    """A match of two of the event's players that the event did not count, and why:
    ``reason`` is one of ``PASSED_OVER``, ``detail`` what its words name."""

    game: Game
    reason: str
    detail: dict[str, Any] = field(default_factory=dict)


# Why a match of two of an event's players is not counted (the API's ``reason``).
PASSED_OVER = (
    "other-event",  # its log names no event, and it could count for another event too
    "other-round",  # its log names a round in which its players do not meet
    "too-early",  # a cup: played before one player's match of the round before
    "no-winner",  # a cup: a draw decides no tie
    "decided",  # their tie (cup) or their fixtures (round-robin) were filled before it
    "no-tie",  # a cup: its log names the cup, but its players meet in no tie (yet)
)

ROUND_NAMED = re.compile(r"^(?P<name>.*?)\s*,\s*round\s+(?P<round>\d{1,3})\s*$", re.IGNORECASE)


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def event_named(written: str, name: str) -> tuple[bool, int | None]:
    """Return whether a log's ``event`` (``written``) names the event called ``name``, and
    the round it names: the name alone ("Autumn cup") or with a round ("Autumn cup, round
    2"), in any case and spacing (docs/format.md, "The event a match counts for")."""
    wanted = _folded(name)
    if not wanted:
        return False, None
    if _folded(written) == wanted:
        return True, None
    found = ROUND_NAMED.match(written.strip())
    if found and _folded(found["name"]) == wanted:
        return True, int(found["round"])
    return False, None


def tournament_bounds(event: Tournament, club_zone: str) -> tuple[datetime, datetime]:
    """Return the event's first moment and the moment after its last day in ``club_zone``."""
    return club_days(event.first_day, event.last_day, club_zone)


@dataclass(frozen=True, slots=True)
class _Rival:
    """Another event of the club whose days meet this one's."""

    name: str
    players: frozenset[int]
    start: datetime
    end: datetime
    presets: tuple[str, ...]

    def could_count(self, game: Game, preset: str) -> bool:
        """Whether a match naming no event could count for this one as well."""
        return (
            game.players <= self.players
            and self.start <= game.played_at < self.end
            and (not self.presets or preset in self.presets)
        )


def _rivals(event: Tournament) -> list[_Rival]:
    """Return the club's other events whose days meet the event's (one query)."""
    season = event.season
    others = (
        Tournament.objects.filter(
            season__club_id=season.club_id,
            first_day__lte=event.last_day,
            last_day__gte=event.first_day,
        )
        .exclude(pk=event.pk)
        .select_related("season")
        .prefetch_related("entries")
    )
    zone = season.club.time_zone
    return [
        _Rival(
            other.name,
            frozenset(entry.player_id for entry in other.entries.all()),
            *tournament_bounds(other, zone),
            tuple(other.season.presets),
        )
        for other in others
    ]


def tournament_games(
    event: Tournament, player_ids: list[int]
) -> tuple[list[Game], list[PassedOver]]:
    """Return the matches that may count for the event, in the order played, and those
    passed over already because they could count for another event as well (a fixed
    number of queries)."""
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
    written: dict[int, tuple[str, str]] = {}
    for row in rows.values_list(
        "match_id",
        "played_at",
        "player_id",
        "player__handle",
        "team",
        "rank",
        "won",
        "match__scores",
        "match__event",
        "preset",
    ):
        match_id, played_at, player_id, handle, team, rank, won, scores, named, preset = row
        seats[match_id].append(
            Result(match_id, played_at, player_id, handle, team, rank, won, tuple(scores))
        )
        written[match_id] = (named, preset)
    rivals = _rivals(event)
    games, passed = [], []
    for match_id, results in seats.items():
        if len(results) != 2 or results[0].team == results[1].team:
            continue
        text, preset = written[match_id]
        named, round_ = event_named(text, event.name)
        if text.strip() and not named:
            continue  # its log names another event
        game = Game(match_id, results[0].played_at, (results[0], results[1]), named, round_)
        clash = [] if named else [r.name for r in rivals if r.could_count(game, preset)]
        if clash:
            passed.append(PassedOver(game, "other-event", {"events": sorted(clash)}))
        else:
            games.append(game)
    return sorted(games, key=_played), passed


def _played(game: Game) -> tuple[datetime, int]:
    return (game.played_at, game.match_id)


def _fixture(
    number: int, a: int | None, b: int | None, names: dict[int, str], game: Game | None
) -> dict[str, Any]:
    """One fixture as the pages, the API and the CSV read it (``how``: the match was named
    for it in its log, or taken by the day and order it was played in)."""
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
        "how": ("named" if game.named else "in-order") if game else None,
    }


def _round_robin_fill(
    rounds: list[Round], games: list[Game]
) -> tuple[dict[tuple[int, int], Game], list[PassedOver]]:
    """Return the match of each fixture (keyed by round number and the pair's place in the
    round) and the matches passed over. A match whose log names its round fills that
    round's fixture of its pair; the others fill their pair's fixtures left, in the order
    of the rounds, in the order played."""
    slots: dict[frozenset[int], list[tuple[int, int]]] = defaultdict(list)
    for round_ in rounds:
        for index, pair in enumerate(round_.pairs):
            slots[frozenset(pair)].append((round_.number, index))
    filled: dict[tuple[int, int], Game] = {}
    passed = []
    games = sorted(games, key=_played)
    for game in (g for g in games if g.round is not None):
        key = next((k for k in slots[game.players] if k[0] == game.round), None)
        if key is None:
            passed.append(PassedOver(game, "other-round", {"round": game.round}))
        elif key in filled:
            passed.append(PassedOver(game, "decided"))
        else:
            filled[key] = game
    for game in (g for g in games if g.round is None):
        key = next((k for k in slots[game.players] if k not in filled), None)
        if key is None:
            passed.append(PassedOver(game, "decided"))
        else:
            filled[key] = game
    return filled, passed


def round_robin_schedule(
    event: Tournament, seeds: list[int], names: dict[int, str], games: list[Game]
) -> dict[str, Any]:
    """Return a round-robin's rounds with its results, and its table from the counted
    matches (the season's scoring and tie-breaks)."""
    drawn = round_robin(seeds, event.legs)
    filled, passed = _round_robin_fill(drawn, games)
    rounds = []
    counted: list[Result] = []
    for round_ in drawn:
        fixtures = []
        for index, (a, b) in enumerate(round_.pairs):
            game = filled.get((round_.number, index))
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
    return {"rounds": rounds, "table": rows, "champion": None, "passed_over": passed}


def _tie_decider(
    games: list[Game], number: int, before: list[tuple[int, datetime | None]]
) -> tuple[Game | None, list[PassedOver]]:
    """Return the match that decides a cup's tie of round ``number`` among its pair's
    ``games`` (in the order played), and those passed over: the first with a winner that
    was played after each player's match of the round before (``before``: each player and
    when their last tie was decided, None after a bye) and names no other round."""
    decider = None
    passed = []
    for game in games:
        early = next((p for p, at in before if at is not None and game.played_at <= at), None)
        if decider is not None:
            passed.append(PassedOver(game, "decided"))
        elif game.round not in (None, number):
            passed.append(PassedOver(game, "other-round", {"round": game.round}))
        elif early is not None:
            passed.append(PassedOver(game, "too-early", {"player": early, "round": number - 1}))
        elif game.winner is None:
            passed.append(PassedOver(game, "no-winner"))
        else:
            decider = game
    return decider, passed


@dataclass(slots=True)
class _Cup:
    """What a cup's draw knows as it goes round by round: each pair's matches in the order
    played, when each player won their last tie, the pairs that met, the matches passed
    over."""

    by_pair: dict[frozenset[int], list[Game]]
    decided_at: dict[int, datetime] = field(default_factory=dict)
    met: set[frozenset[int]] = field(default_factory=set)
    passed: list[PassedOver] = field(default_factory=list)

    def tie(self, number: int, a: int | None, b: int | None) -> tuple[Game | None, int | None]:
        """Return the match deciding the tie of ``a`` and ``b`` in round ``number`` and who
        goes through (None while not known)."""
        if a == BYE or b == BYE:
            return None, b if a == BYE else a  # None while the other is still to be found
        if a is None or b is None:
            return None, None
        self.met.add(frozenset((a, b)))
        before = [(a, self.decided_at.get(a)), (b, self.decided_at.get(b))]
        game, why = _tie_decider(self.by_pair.get(frozenset((a, b)), []), number, before)
        self.passed.extend(why)
        winner = game.winner if game else None
        if game is not None and winner is not None:
            self.decided_at[winner] = game.played_at
        return game, winner


def knockout_schedule(seeds: list[int], names: dict[int, str], games: list[Game]) -> dict[str, Any]:
    """Return a knockout's rounds: the bracket drawn from the seeds, each tie decided by the
    first match of its pair with a winner played after both players' ties of the round
    before, winners moving on; the champion once known; and the matches passed over."""
    size = 1
    while size < len(seeds):
        size *= 2
    places = [seeds[seed - 1] if seed <= len(seeds) else BYE for seed in bracket_order(size)]
    cup = _Cup(defaultdict(list))
    for game in sorted(games, key=_played):
        cup.by_pair[game.players].append(game)
    rounds = []
    current: list[int | None] = places
    number = 1
    while len(current) > 1:
        fixtures, winners = [], []
        for a, b in zip(current[0::2], current[1::2], strict=True):
            game, winner = cup.tie(number, a, b)
            fixtures.append(_fixture(number, a, b, names, game))
            winners.append(winner)
        rounds.append({"number": number, "fixtures": fixtures, "bye": None, "bye_name": ""})
        current = winners
        number += 1
    for pair, pair_games in cup.by_pair.items():
        if pair not in cup.met:
            cup.passed.extend(PassedOver(game, "no-tie") for game in pair_games if game.named)
    champion = current[0] if current and current[0] not in (None, BYE) else None
    return {"rounds": rounds, "table": [], "champion": champion, "passed_over": cup.passed}


def passed_over_words(item: PassedOver, names: dict[int, str]) -> str:
    """Say why a match was not counted for an event."""
    detail = item.detail
    if item.reason == "other-event":
        return _(
            "Its log names no event, and it could count for another event as well "
            "(%(events)s): it counts for neither until its log names one."
        ) % {"events": ", ".join(detail["events"])}
    if item.reason == "other-round":
        return _("Its log names round %(round)s, in which these players do not meet.") % {
            "round": detail["round"]
        }
    if item.reason == "too-early":
        return _(
            "Played before the match in which %(player)s won their tie of round %(round)s."
        ) % {"player": names.get(detail["player"], ""), "round": detail["round"]}
    if item.reason == "no-winner":
        return _("A draw decides no tie of a cup.")
    if item.reason == "no-tie":
        return _("Its log names this event, but its players meet in no tie of it (yet).")
    return _("An earlier match of these players filled their place in the event.")


def _passed_over_rows(passed: list[PassedOver], names: dict[int, str]) -> list[dict[str, Any]]:
    """The matches passed over as the pages and the API read them, in the order played."""
    rows = []
    for item in sorted(passed, key=lambda item: _played(item.game)):
        a, b = (result.player_id for result in item.game.results)
        rows.append(
            {
                "match_id": item.game.match_id,
                "played_at": item.game.played_at,
                "a_name": names.get(a, ""),
                "b_name": names.get(b, ""),
                "reason": item.reason,
                "words": passed_over_words(item, names),
            }
        )
    return rows


def tournament_schedule(event: Tournament) -> dict[str, Any]:
    """Return what the event's page, its API answer and its CSV show: its players in seed
    order with their ratings then, its rounds with results, what is still to play, its
    table (a round-robin) or champion (a cup). A fixed number of queries."""
    entries = list(event.entries.select_related("player").order_by("seed"))
    seeds = [entry.player_id for entry in entries]
    names = {entry.player_id: entry.player.handle for entry in entries}
    games, passed = tournament_games(event, seeds) if len(seeds) >= 2 else ([], [])
    if len(seeds) < 2:
        drawn: dict[str, Any] = {"rounds": [], "table": [], "champion": None, "passed_over": []}
    elif event.kind == Tournament.Kind.KNOCKOUT:
        drawn = knockout_schedule(seeds, names, games)
    else:
        drawn = round_robin_schedule(event, seeds, names, games)
    drawn["passed_over"] = _passed_over_rows(passed + drawn["passed_over"], names)
    fixtures = [fixture for round_ in drawn["rounds"] for fixture in round_["fixtures"]]
    mus = dict(
        Rating.objects.filter(scope__club_id=event.season.club_id, player_id__in=seeds).values_list(
            "player_id", "mu"
        )
    )
    return {
        "players": [
            {
                "seed": entry.seed,
                "player_id": entry.player_id,
                "name": entry.player.handle,
                # The club rating now (the seeds were drawn by the one of the day).
                "rating": shown_rating(mus.get(entry.player_id, NEWCOMER_MU)),
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
    kept = (event.first_day, event.last_day) if event is not None else ()
    frame_check([first_day, last_day], zone_names=[season.club.time_zone], kept=kept)
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
    fields = {"kind": kind, "first_day": first_day, "last_day": last_day, "legs": legs}
    name, players = _checked(season=season, name=name, player_ids=player_ids, **fields)
    try:
        with transaction.atomic():
            event = Tournament.objects.create(season=season, name=name, created_by=actor, **fields)
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


def tournament_values(event: Tournament) -> dict[str, Any]:
    """Return what a change of ``event`` takes, as it stands: its name, days, legs and its
    players' ids (in order)."""
    return {
        "name": event.name,
        "first_day": event.first_day,
        "last_day": event.last_day,
        "legs": event.legs,
        "players": sorted(event.entries.values_list("player_id", flat=True)),
    }


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
    days = {"first_day": first_day, "last_day": last_day, "legs": legs}
    name, players = _checked(
        season=season, name=name, kind=event.kind, player_ids=player_ids, event=event, **days
    )
    with transaction.atomic():
        event = (
            Tournament.objects.select_for_update().select_related("season__club").get(pk=event.pk)
        )
        before = tournament_values(event)
        event.name, event.first_day, event.last_day, event.legs = name, first_day, last_day, legs
        event.save(update_fields=["name", "first_day", "last_day", "legs"])
        after = {"name": name, **days, "players": sorted(player.pk for player in players)}
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
