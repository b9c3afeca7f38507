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
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import PRESETS
from games.models import Club, Match, Player
from games.services.clubs import ClubRefusal, require_admin

from .models import Season, SeatResult
from .ratings import seat_ordinal, shown_rating, with_last_change

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

    groups: dict[tuple[int, int], list[Row]] = defaultdict(list)
    for row in rows.values():
        groups[(row.league_points, row.difference)].append(row)
    head_to_head: dict[int, int] = {}
    for tied in groups.values():
        if len(tied) < 2:
            continue
        ids = {row.player_id for row in tied}
        for seats in by_match.values():
            inside = [result for result in seats if result.player_id in ids]
            if len({result.player_id for result in inside}) < 2:
                continue
            for result in inside:
                head_to_head[result.player_id] = head_to_head.get(
                    result.player_id, 0
                ) + rules.league_points(result)
    table = sorted(
        rows.values(),
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
    try:
        zone = ZoneInfo(season.club.time_zone)
    except (ValueError, KeyError, OSError):
        zone = ZoneInfo("UTC")
    start = datetime.combine(season.first_day, time.min, tzinfo=zone)
    end = datetime.combine(season.last_day + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def season_results(season: Season) -> list[Result]:
    """Return the seats of the season's counted matches (three queries: the seats, each
    match's time and scores once, not once a seat, and the players' names)."""
    start, end = season_bounds(season)
    rows = SeatResult.objects.filter(
        club_id=season.club_id,
        played_at__gte=start,
        played_at__lt=end,
        complete=True,
        match__approval=Match.Approval.APPROVED,
    )
    if season.presets:
        rows = rows.filter(preset__in=season.presets)
    seats = list(rows.values_list("match_id", "player_id", "team", "rank", "won"))
    # A match's time and scores from its first seat's row: read (and converted) once a match.
    matches = {
        match_id: (played_at, tuple(scores))
        for match_id, played_at, scores in rows.filter(seat=0).values_list(
            "match_id", "played_at", "match__scores"
        )
    }
    names = dict(
        Player.objects.filter(pk__in={seat[1] for seat in seats}).values_list("pk", "handle")
    )
    return [
        Result(
            match_id,
            *matches[match_id][:1],
            player_id,
            names[player_id],
            team,
            rank,
            won,
            matches[match_id][1],
        )
        for match_id, player_id, team, rank, won in seats
    ]


def season_rules(season: Season) -> Rules:
    return Rules(
        win_points=season.win_points,
        loss_points=season.loss_points,
        place_points=tuple(season.place_points or ()),
    )


def live_table(season: Season) -> list[dict[str, Any]]:
    """Return the season's table as counted now, each row a dict (as stored when closed)."""
    return [asdict(row) for row in standings(season_results(season), season_rules(season))]


def season_table(season: Season) -> dict[str, Any]:
    """Return what the standings page and the API show: the table (the frozen one of a
    closed season), and whether the matches changed since it was closed."""
    live = live_table(season)
    if season.closed_at is None:
        return {"rows": with_ratings(season, live), "closed": False, "changed_since_closed": False}
    frozen = season.frozen or []
    kept = [{key: value for key, value in row.items() if key not in RATING_KEYS} for row in frozen]
    # A season closed before the ratings were kept with its table has them read now.
    if any(not row.keys() >= RATING_KEYS for row in frozen):
        frozen = with_ratings(season, kept)
    return {"rows": frozen, "closed": True, "changed_since_closed": kept != live}


RATING_KEYS = frozenset({"rating_start", "rating_end", "ordinal_start", "ordinal_end"})


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
            then[(key, player_id)] = 0.0 if packed is None else seat_ordinal(packed, seat)
    out = []
    for row in rows:
        row = dict(row)
        for key in ("start", "end"):
            value = then.get((key, row["player_id"]), 0.0)
            row[f"rating_{key}"] = shown_rating(value)
            row[f"ordinal_{key}"] = round(value, 2)
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
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                row["position"],
                _cell(row["name"]),
                *(row[column] for column in CSV_COLUMNS[2:-3]),
                "".join(row["last"]),
                row.get("rating_start", ""),
                row.get("rating_end", ""),
            ]
        )
    return out.getvalue()


def _cell(text: str) -> str:
    """A handle as a spreadsheet reads it: never as a formula (a leading = + - @ quoted)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
