"""Seasons of a club: opening and closing them, and their standings.

A season counts the club's approved, complete matches played within its days (in the
club's time zone) of the presets it lists (none listed: every preset). A match scores in the
table by its result: with two sides (two players, or two partnerships) the winners get the
season's points for a win and the others its points for a loss; with three or four players
alone each gets the points of their place (for example 3/2/1/0; a place past the list's end
gets nothing). Points for and against are the match's final scores: the player's side's
score, and the other sides' scores added up.

The table's order (the documented tie-breaks): league points, then points difference, then
head-to-head (the league points each tied player took in the matches they played against
another of the tied players), then name.

A season's table is counted by the database (``season_standings``: a season may hold tens
of thousands of seats, and only a row a player comes back); ``standings`` counts the same
from seats in hand (an event's few matches, and the hand-worked tests).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from functools import reduce
from operator import or_
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import (
    Case,
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.dates import frame_check
from clubs.models import Club
from clubs.services import ClubRefusal, require_admin
from clubs.zones import club_days
from fives_engine import PRESETS
from games.models import Player
from replays.csv_tables import csv_text
from replays.models import SeatResult
from replays.ratings import default_rating, seat_values, shown_rating, with_last_change
from replays.totals import PLACES, season_totals

from .models import Season

LAST_RESULTS = 5


class Result(NamedTuple):
    """One seat of one counted match, as the table reads it (a named tuple: a season reads
    tens of thousands, and a frozen dataclass costs several times as much to make)."""

    match_id: int
    played_at: datetime
    player_id: int
    name: str
    team: int
    rank: int
    won: bool
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    win_points: int = 3
    loss_points: int = 0
    place_points: tuple[int, ...] = (3, 2, 1, 0)

    def league_points(self, result: Result) -> int:
        if len(result.scores) >= 3:
            index = result.rank - 1
            return self.place_points[index] if 0 <= index < len(self.place_points) else 0
        return self.win_points if result.won else self.loss_points


@dataclass(slots=True)
class Row:
    player_id: int
    name: str
    position: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    difference: int = 0
    league_points: int = 0
    last: list[str] = field(default_factory=list)


def standings(results: Iterable[Result], rules: Rules) -> list[Row]:
    """Return the table of ``results`` under ``rules``, in order (pure: no database)."""
    results = sorted(results, key=lambda result: (result.played_at, result.match_id))
    rows: dict[int, Row] = {}
    by_match: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        row = rows.setdefault(result.player_id, Row(result.player_id, result.name))
        mine = result.scores[result.team]
        theirs = sum(result.scores) - mine
        row.played += 1
        row.won += result.won
        row.lost += not result.won
        row.points_for += mine
        row.points_against += theirs
        row.difference = row.points_for - row.points_against
        row.league_points += rules.league_points(result)
        row.last = [*row.last, "W" if result.won else "L"][-LAST_RESULTS:]
        by_match[result.match_id].append(result)

    seats = {
        match_id: [(result.player_id, rules.league_points(result)) for result in results]
        for match_id, results in by_match.items()
    }
    return ranked(list(rows.values()), seats)


def tied_groups(rows: list[Row]) -> list[set[int]]:
    """Return the players of each group of two or more with equal league points and
    difference (the ones head-to-head decides between)."""
    groups: dict[tuple[int, int], set[int]] = defaultdict(set)
    for row in rows:
        groups[(row.league_points, row.difference)].add(row.player_id)
    return [ids for ids in groups.values() if len(ids) >= 2]


def ranked(rows: list[Row], seats: dict[int, list[tuple[int, int]]]) -> list[Row]:
    """Return ``rows`` in the table's order, their positions set: league points, difference,
    head-to-head, name. ``seats`` holds, by match, each seat's player and league points, of
    every match where two or more players of one tied group met (others are not read)."""
    head_to_head: dict[int, int] = {}
    for ids in tied_groups(rows):
        for seated in seats.values():
            inside = [(player_id, points) for player_id, points in seated if player_id in ids]
            if len({player_id for player_id, _points in inside}) < 2:
                continue
            for player_id, points in inside:
                head_to_head[player_id] = head_to_head.get(player_id, 0) + points
    table = sorted(
        rows,
        key=lambda row: (
            -row.league_points,
            -row.difference,
            -head_to_head.get(row.player_id, 0),
            row.name.casefold(),
            row.player_id,
        ),
    )
    for position, row in enumerate(table, start=1):
        row.position = position
    return table


def season_bounds(season: Season) -> tuple[datetime, datetime]:
    """Return the season's first moment and the moment after its last day, in the club's
    time zone (an unknown zone: UTC)."""
    return club_days(season.first_day, season.last_day, season.club.time_zone)


def season_seats(season: Season, *, since: Any = None) -> QuerySet[SeatResult]:
    """Return the seats of the season's counted matches (played from ``since`` on, an
    expression never before the season's start, when given)."""
    start, end = season_bounds(season)
    seats = SeatResult.objects.filter(
        club_id=season.club_id,
        in_club=True,  # no league leg between two clubs (docs/leagues.md)
        played_at__gte=start if since is None else since,
        played_at__lt=end,
        # Only a counted match has seat results (``replays.stats.match_results_store``): no
        # join to the matches for their approval.
        complete=True,
    )
    if season.presets:
        seats = seats.filter(preset__in=season.presets)
    return seats.order_by()


def _league_points(rules: Rules) -> Case:
    """The seat's league points under ``rules``, as ``Rules.league_points`` counts them:
    three sides or more by place, else by win or loss."""
    by_place = Case(
        *(
            When(rank=place, then=Value(points))
            for place, points in enumerate(rules.place_points, start=1)
        ),
        default=Value(0),
        output_field=IntegerField(),
    )
    return Case(
        When(sides__gte=3, then=by_place),
        When(won=True, then=Value(rules.win_points)),
        default=Value(rules.loss_points),
        output_field=IntegerField(),
    )


def season_standings(season: Season) -> list[Row]:
    """Return the season's table, counted by the database: two queries whatever the
    season's size (each player's figures, then each one's last results), and a third when
    players are tied on league points and difference (their seats where they met)."""
    rules = season_rules(season)
    seats = season_seats(season)
    points = _league_points(rules)
    # Each player's sums over the season's days, kept as matches arrive (replays.totals):
    # a row a player a day, whatever the club's history.
    rows = []
    for sums in season_totals(
        club=season.club,
        first_day=season.first_day,
        last_day=season.last_day,
        presets=season.presets,
    ):
        played, won = sums["sum_rated"], sums["sum_rated_won"]
        two_sided, two_won = sums["sum_rated_two_sided"], sums["sum_rated_two_sided_won"]
        league = rules.win_points * two_won + rules.loss_points * (two_sided - two_won)
        for place, place_points in enumerate(rules.place_points[:PLACES], start=1):
            league += place_points * sums[f"sum_rated_place_{place}"]
        scored, conceded = sums["sum_rated_score"], sums["sum_rated_against"]
        rows.append(
            Row(
                sums["player_id"],
                "",
                played=played,
                won=won,
                lost=played - won,
                points_for=scored,
                points_against=conceded,
                difference=scored - conceded,
                league_points=league,
            )
        )
    # Each player's name and last results, newest first, read from the player's own index
    # (the names not joined to every seat above). First each player's fifth newest moment
    # (the index gives it without sorting), then the seats from that moment on, sorted
    # (matches of one moment go in the order they were stored): a handful a player, where
    # sorting every seat by both reads the whole season, and where one query holding both
    # had PostgreSQL work out the fifth moment again for each of the five results.
    start, _end = season_bounds(season)
    fifth = (
        seats.filter(player_id=OuterRef("pk"))
        .order_by("-played_at")
        .values("played_at")[LAST_RESULTS - 1 : LAST_RESULTS]
    )
    names = {}
    lately = []
    for player_id, name, since in (
        Player.objects.filter(pk__in=[row.player_id for row in rows])
        .order_by()
        .values_list("pk", "handle", Subquery(fifth))
    ):
        names[player_id] = name
        # (That moment the only lower bound: SQLite reads the index from one bound alone.)
        lately.append(Q(player_id=player_id, played_at__gte=since or start))
    won_lately: dict[int, list[bool]] = defaultdict(list)
    for player_id, won in (
        season_seats(season, since=start)
        .filter(reduce(or_, lately, Q(player_id__in=[])))
        .order_by("player_id", "-played_at", "-match_id")
        .values_list("player_id", "won")
    ):
        if len(won_lately[player_id]) < LAST_RESULTS:
            won_lately[player_id].append(won)
    for row in rows:
        row.name = names[row.player_id]
        row.last = [
            "W" if won else "L"
            for won in reversed(won_lately.get(row.player_id, ()))
            if won is not None
        ]
    # Head-to-head reads only the tied players' seats in the matches where they met.
    by_match: dict[int, list[tuple[int, int]]] = defaultdict(list)
    tied = set().union(*tied_groups(rows))
    if tied:
        met = (
            seats.filter(player_id__in=tied)
            .values("match_id")
            .annotate(tied_players=Count("player_id", distinct=True))
            .filter(tied_players__gte=2)
            .values("match_id")
        )
        for match_id, player_id, league in (
            seats.filter(player_id__in=tied, match_id__in=met)
            .annotate(league=points)
            .values_list("match_id", "player_id", "league")
        ):
            by_match[match_id].append((player_id, league))
    return ranked(rows, by_match)


def season_rules(season: Season) -> Rules:
    return Rules(
        win_points=season.win_points,
        loss_points=season.loss_points,
        place_points=tuple(season.place_points or ()),
    )


def live_table(season: Season) -> list[dict[str, Any]]:
    """Return the season's table as counted now, each row a dict (as stored when closed)."""
    return [asdict(row) for row in season_standings(season)]


def season_table(season: Season) -> dict[str, Any]:
    """Return what the standings page and the API show: the table (the frozen one of a
    closed season), and whether the matches changed since it was closed."""
    live = live_table(season)
    if season.closed_at is None:
        return {"rows": with_ratings(season, live), "closed": False, "changed_since_closed": False}
    frozen = season.frozen or []
    kept = [{key: value for key, value in row.items() if key not in RATING_KEYS} for row in frozen]
    # A season closed before the ratings were kept with its table (or kept on the scale
    # before, ``RATING_SCALE``) has them read now.
    if any(not row.keys() >= RATING_KEYS or row["rating_scale"] != RATING_SCALE for row in frozen):
        frozen = with_ratings(season, kept)
    return {"rows": frozen, "closed": True, "changed_since_closed": kept != live}


# ``rating_scale``: the scale the kept ratings are on (2: centred on mu, issue 36); a table
# kept on another is read again.
RATING_KEYS = frozenset(
    {"rating_start", "rating_end", "ordinal_start", "ordinal_end", "rating_scale"}
)
RATING_SCALE = 2


def with_ratings(season: Season, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return copies of the table's rows with each player's club rating at the season's start
    and at its end (the last rated match before each moment; none: a newcomer's), shown
    (``rating_start``, ``rating_end``) and raw (``ordinal_start``, ``ordinal_end``): two
    queries whatever the size of the table. Closing a season keeps them with its table."""
    start, end = season_bounds(season)
    ids = [row["player_id"] for row in rows]
    then = {}
    for key, moment in (("start", start), ("end", end)):
        found = with_last_change(
            Player.objects.filter(pk__in=ids).order_by(),
            player="pk",
            club_id=season.club_id,
            before=moment,
        ).values_list("pk", "seat_then", "seats_then")
        for player_id, seat, packed in found:
            if packed is not None:
                then[(key, player_id)] = seat_values(packed, seat)[:2]
    newcomer = default_rating()
    out = []
    for row in rows:
        row = dict(row)
        for key in ("start", "end"):
            mu, sigma = then.get((key, row["player_id"]), newcomer)
            row[f"rating_{key}"] = shown_rating(mu)
            row[f"ordinal_{key}"] = round(mu - 3.0 * sigma, 2)
        row["rating_scale"] = RATING_SCALE
        out.append(row)
    return out


def parse_place_points(text: str) -> list[int]:
    """Read "3/2/1/0" (slashes, commas or spaces) as a list of points by place."""
    parts = [part for part in text.replace(",", "/").replace(" ", "/").split("/") if part]
    try:
        points = [int(part) for part in parts]
    except ValueError:
        raise ClubRefusal(
            _("Points by place are whole numbers, such as 3/2/1/0."), "season-invalid"
        ) from None
    if len(points) > 4 or any(point < 0 or point > 100 for point in points):
        raise ClubRefusal(
            _("Points by place are at most four whole numbers from 0 to 100."), "season-invalid"
        )
    return points


def season_open(
    *,
    actor: Any,
    club: Club,
    name: str,
    first_day: date,
    last_day: date,
    presets: list[str] | None = None,
    win_points: int = 3,
    loss_points: int = 0,
    place_points: list[int] | None = None,
) -> Season:
    """Open a season of ``club`` (its owner and admins); return it."""
    require_admin(club=club, user=actor)
    name = name.strip()
    if not name:
        raise ClubRefusal(_("A season needs a name."), "season-invalid")
    if last_day < first_day:
        raise ClubRefusal(_("A season's last day cannot come before its first."), "season-invalid")
    frame_check([first_day, last_day], zone_names=[club.time_zone])
    unknown = [preset for preset in presets or () if preset not in PRESETS]
    if unknown:
        raise ClubRefusal(
            _("Unknown rulesets: %(names)s.") % {"names": ", ".join(unknown)}, "season-invalid"
        )
    return Season.objects.create(
        club=club,
        name=name[:100],
        first_day=first_day,
        last_day=last_day,
        presets=list(presets or ()),
        win_points=win_points,
        loss_points=loss_points,
        place_points=list(place_points if place_points is not None else (3, 2, 1, 0)),
    )


def season_close(*, actor: Any, season: Season) -> Season:
    """Close a season (its club's owner and admins): its table is stored as it stands."""
    require_admin(club=season.club, user=actor)
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
        if season.closed_at is not None:
            raise ClubRefusal(_("This season is closed already."), "season-closed")
        season.frozen = with_ratings(season, live_table(season))
        season.closed_at = timezone.now()
        season.save(update_fields=["frozen", "closed_at"])
    return season


CSV_COLUMNS = (
    "position",
    "name",
    "played",
    "won",
    "lost",
    "points_for",
    "points_against",
    "difference",
    "league_points",
    "last",
    "rating_start",
    "rating_end",
)


def table_csv(rows: list[dict[str, Any]]) -> str:
    """Return the table as CSV text, a header row first (results as W and L, oldest first)."""
    return csv_text(
        CSV_COLUMNS,
        (
            [
                row["position"],
                row["name"],
                *(row[column] for column in CSV_COLUMNS[2:-3]),
                "".join(row["last"]),
                row.get("rating_start", ""),
                row.get("rating_end", ""),
            ]
            for row in rows
        ),
    )
