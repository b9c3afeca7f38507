"""Benchmark: the archive's answers as it grows (issue 39, part 1).

    python -m bench.scale [--sizes 10000,100000,1000000] [--seed 39] [--reuse]
                          [--clubs 200] [--players 5000] [--requests 20] [--jobs 2]

Loads one archive and grows it from one size to the next (load the first size, measure, add
up to the next, measure...): ``--clubs`` clubs of about ``--players`` players in all (both
scaled down for a first size under 10,000 matches), a few clubs much busier than the rest,
matches of every preset at 2, 3 and 4 players and 4-player partnerships
(``simulate_match``), played over three years, sent as NDJSON uploads of 1,000 through the
archive's own path (``upload_create``, ``upload_process``, the review of their figures),
``--jobs`` uploads at once, each in a process of its own as that many workers would,
then every rating scope made dirty recomputed (timed). After the first load, through the
competitions' services: a season in ten clubs, a round-robin in three (its matches naming
it) and two team leagues of four clubs (the schedule made, three weeks of fixtures played,
submitted and confirmed; the last one left for the away captain to confirm, in their inbox).
Progress (matches/s) goes to stderr.

At each size it prints a header with what the database holds (matches, moves, players,
clubs), then for each answer the server time in-process (median and 95th percentile of
``--requests`` requests, the cache emptied before each, so that answers are made and not
read; a different match, player or club each time, drawn with the seed) and the queries it
took (least and most): the match list (page and API: the first page, a page 1,000 pages
deep, the page numbered for the HTML list and the cursor's position for the API, filtered
by club, player, ruleset, dates, outcome and the player's result), a match page, its embed,
its API and its replay, a player page and its statistics (of any player, and of the
busiest club's players, whose histories are the longest, with their match list), a club
page and its ranking (page and API), a season, a tournament and a league (page and API), a
match's analysis (API) and the inbox of a captain (page and API). Every answer must be a
200. Then the export's matches/s (``/api/v1/matches/export``), ingest's matches/s of a fixed
batch (``--extra``) with one and with two ``celery worker`` processes on Redis
(``bench.ingest``'s code; skipped without REDIS_URL and PostgreSQL), the time to merge two
handles of one person (with the count of their matches) and recompute the ratings after it
(rolled back, so the same handles merge again at the next size; then the same merge in a
copy of the archive, committed, its re-ratings taken by two ``celery worker`` processes on
the ratings queue, the club's and the all-clubs' at once), and the database's bytes
per move (PostgreSQL: every table, indexes included), first as loaded, before the timings,
then after them (their matches are played years back, so nearly every rating is rated
again, and the merges are rolled back: both leave old rows for the vacuum). At the end,
each figure's growth from the first size to the last.

With DATABASE_URL (PostgreSQL), into a database of its own (``--database``,
``fives_bench_scale``, made anew; ``--reuse`` grows the last run's), with REDIS_URL, the
cache and the workers' broker on its Redis database (``--redis-db``, 13, emptied); else a
fresh SQLite file, the cache in memory and no workers.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode, urlparse, urlunparse
from zoneinfo import ZoneInfo

from bench.benchdb import bench_database
from bench.ingest import MIX, database_room, ingest_timed, start_worker, stop_workers
from bench.inprocess import counted_get, store_batch, tasks_held
from bench.served import NO_THROTTLES

# Three years of club nights, ending at a fixed day: a run made again draws the same.
END = datetime(2026, 6, 1, tzinfo=UTC)
WINDOW = timedelta(days=3 * 365)
# One person's two handles in the busiest club, never at one table: merged at each size.
TWINS = ("Zaza", "Zaza K.")
TWIN_SHARE = 0.15  # of the busiest club's matches, about 1% of all
PAGE = 50  # the match list's page, HTML and API alike
DEEP = 1000  # pages in
LEGS = ["singles", "singles", "pairs"]


@dataclass
class World:
    """The archive's clubs and who plays in them, made once and found again by name."""

    user: object  # owns every club: uploads land only in a club of their uploader
    clubs: list
    rosters: dict[int, list[str]]
    weights: list[float]
    seed: int
    events: dict[str, list] = field(default_factory=dict)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2, help="batches loaded at once")
    parser.add_argument("--extra", type=int, default=2000, help="matches ingested by workers")
    parser.add_argument("--reuse", action="store_true", help="grow the last run's database")
    parser.add_argument("--database", default="fives_bench_scale", help="its PostgreSQL database")
    parser.add_argument("--redis-db", type=int, default=13, help="its Redis database (emptied)")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    kind, redis_url = _environment(args.database, args.redis_db, args.reuse)
    import django

    django.setup()
    from django.core.management import call_command

    import fivesite.urls  # noqa: F401  (every view loaded now, not during the first answer)

    call_command("migrate", verbosity=0)
    if not redis_url:
        tasks_held()
    world = _world(args, sizes[0])
    print(
        f"bench.scale: {len(world.clubs)} clubs, {sum(map(len, world.rosters.values()))} "
        f"handles; {kind}{', Redis' if redis_url else ''}; {args.requests} requests an answer",
        flush=True,
    )
    # SQLite takes one writer at a time: its archive is loaded by one process.
    jobs = args.jobs if kind == "PostgreSQL" else 1
    figures: dict[int, dict[str, float]] = {}
    for size in sizes:
        figures[size] = _load(world, size, args.batch, jobs)
        if not world.events:
            _competitions(world)
        figures[size] |= _measure(world, args, redis_url)
    _growth(figures)


def _environment(database: str, redis_db: int, reuse: bool) -> tuple[str, str]:
    """Point Django at the bench's own database (and Redis database); return the database's
    kind and the Redis URL ("" for none)."""
    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), database, reuse=reuse)
    redis_url = os.environ.get("REDIS_URL", "") if kind == "PostgreSQL" else ""
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    if redis_url:
        # A Redis database of its own: the cache is emptied before every answer.
        redis_url = urlunparse(urlparse(redis_url)._replace(path=f"/{redis_db}"))
        os.environ["REDIS_URL"] = redis_url
        import redis

        redis.Redis.from_url(redis_url).flushdb()
    os.environ.update(NO_THROTTLES)  # it measures answers, not limits
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    os.environ.setdefault("FIVES_STATIC_SOURCES", "1")  # pages in-process, as `make run`
    return kind, redis_url


def _world(args, first_size: int) -> World:
    """Make (or find) the clubs, their owner and their players' handles."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club
    from clubs.services import club_create

    clubs_count = min(args.clubs, max(3, first_size // 50))
    per_club = max(8, min(args.players // args.clubs, first_size // clubs_count // 2))
    user, _ = get_user_model().objects.get_or_create(username="bench")
    clubs = []
    for number in range(clubs_count):
        slug = f"scale-{number:03d}"
        club = Club.objects.filter(slug=slug).first() or club_create(
            owner=user, name=f"Scale club {number:03d}", slug=slug
        )
        clubs.append(club)
    rosters = {
        club.pk: [f"P{number:03d}-{seat:02d}" for seat in range(per_club)]
        for number, club in enumerate(clubs)
    }
    # A few busy clubs and a long tail of small ones (Zipf-like).
    weights = [1 / (rank + 1) ** 0.7 for rank in range(clubs_count)]
    return World(user=user, clubs=clubs, rosters=rosters, weights=weights, seed=args.seed)


def _document(world: World, rng: random.Random) -> dict:
    """Return one simulated match of a club drawn by its weight, played in the window."""
    from fives_engine.simulate import simulate_match

    index = rng.choices(range(len(world.clubs)), weights=world.weights)[0]
    club = world.clubs[index]
    ruleset, players, teams = rng.choice(MIX)
    names = rng.sample(world.rosters[club.pk], players)
    if index == 0 and rng.random() < TWIN_SHARE:
        names[0] = rng.choice(TWINS)
    doc = simulate_match(ruleset, players, teams=teams, seed=rng.getrandbits(32), names=names)
    doc["id"] = f"scale-{rng.getrandbits(48):012x}"
    doc["club"] = club.name
    played = END - WINDOW + timedelta(seconds=rng.randrange(int(WINDOW.total_seconds())))
    doc["played_at"] = played.isoformat()
    return doc


def _load(world: World, target: int, batch: int, jobs: int) -> dict[str, float]:
    """Add matches until the archive holds ``target``, ``jobs`` batches at once (each in a
    process of its own, as that many workers would), then recompute the dirty rating
    scopes; return the load's matches/s and the recomputation's seconds."""
    from django.db import connections

    from games.models import Match
    from replays.pipeline import scopes_dirty
    from replays.ratings import ratings_recompute

    done = Match.objects.count()
    _left_unreviewed()
    batches = [(start, min(batch, target - start)) for start in range(done, target, batch)]
    added, started = 0, time.perf_counter()
    global _LOADING
    _LOADING = world
    if jobs > 1 and batches:
        connections.close_all()  # each process opens its own
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for count in pool.imap_unordered(_load_batch, batches):
                added += count
                _progress(done + added, target, added, started)
    else:
        for first_and_count in batches:
            added += _load_batch(first_and_count)
            _progress(done + added, target, added, started)
    print(file=sys.stderr)
    loading = time.perf_counter() - started
    started = time.perf_counter()
    scopes = scopes_dirty()
    rated = sum(ratings_recompute(scope_id=scope) for scope in scopes)
    rating = time.perf_counter() - started
    rate = added / loading if added else 0.0
    print(
        f"loaded {added} matches in {loading:.0f} s ({rate:.0f} matches/s, {jobs} at once); "
        f"ratings of {len(scopes)} scopes recomputed in {rating:.1f} s ({rated} matches rated)",
        flush=True,
    )
    return {"load (matches/s)": rate, "ratings recomputed (s)": rating}


def _left_unreviewed() -> None:
    """Review the valid matches a stopped run stored and left without figures."""
    from django.db.models import Exists, OuterRef

    from games.models import Match
    from replays.models import SeatResult

    left = list(
        Match.objects.counted()
        .filter(~Exists(SeatResult.objects.filter(match=OuterRef("pk"))), errors=[])
        .values_list("id", flat=True)
    )
    for start in range(0, len(left), 1000):
        _reviewed_again_if_deadlocked(left[start : start + 1000])
    if left:
        print(f"reviewed {len(left)} matches a stopped run left without figures", flush=True)


_LOADING: World | None = None  # the world the loading processes draw from (forked)


def _load_batch(first_and_count: tuple[int, int]) -> int:
    """Simulate, store and review one batch (its documents drawn from its first number, so
    a batch is the same whichever process loads it); return how many it stored."""
    first, count = first_and_count
    world = _LOADING
    assert world is not None
    rng = random.Random(f"{world.seed}:{first}")
    lines = [json.dumps(_document(world, rng)).encode() for _ in range(count)]
    stored = store_batch(world.user, lines)
    _reviewed_again_if_deadlocked(stored)
    return count


def _reviewed_again_if_deadlocked(match_ids: list[int]) -> None:
    """Review the matches, again if PostgreSQL ends the review to break a deadlock with
    another's (as the statistics task is retried; a review done twice gives the same)."""
    from django.db import OperationalError

    from replays.pipeline import matches_review

    for attempt in range(5):
        try:
            matches_review(match_ids=match_ids)
            return
        except OperationalError as error:
            if "deadlock" not in str(error) or attempt == 4:
                raise
            print("\nreview ended by PostgreSQL to break a deadlock: again", file=sys.stderr)


def _progress(done: int, target: int, added: int, started: float) -> None:
    rate = added / (time.perf_counter() - started)
    print(f"\rloaded {done}/{target} matches ({rate:.0f}/s)", end="", file=sys.stderr)


def _competitions(world: World) -> None:
    """Make the seasons, tournaments and leagues (found again with --reuse)."""
    from competitions.models import League, Season, Tournament

    seasons = list(Season.objects.filter(club__in=world.clubs, name="Scale season"))
    if not seasons:
        seasons = _seasons(world)
        _tournaments(world, seasons[:3])
        for number in range(2):
            _league(world, number)
    world.events = {
        "seasons": seasons,
        "tournaments": list(Tournament.objects.filter(season__in=seasons)),
        "leagues": list(League.objects.filter(name__startswith="Scale league")),
    }


def _seasons(world: World) -> list:
    from competitions.seasons import season_open

    last = (END - timedelta(days=1)).date()
    return [
        season_open(
            actor=world.user,
            club=club,
            name="Scale season",
            first_day=last - timedelta(days=364),
            last_day=last,
        )
        for club in world.clubs[:10]
    ]


def _handles(club, names: list[str]) -> list[int]:
    from games.models import Player

    return [Player.objects.get_or_create(club=club, handle=name)[0].pk for name in names]


def _tournaments(world: World, seasons: list) -> None:
    """A round-robin of six in each season's club, a week long, every match played."""
    from competitions.models import Tournament
    from competitions.tournaments import tournament_make
    from fives_engine.simulate import simulate_match

    rng = random.Random(world.seed)
    for season in seasons:
        club = season.club
        names = world.rosters[club.pk][:6]
        first = season.last_day - timedelta(days=30)
        tournament_make(
            actor=world.user,
            season=season,
            name="Scale round-robin",
            kind=Tournament.Kind.ROUND_ROBIN,
            first_day=first,
            last_day=first + timedelta(days=6),
            player_ids=_handles(club, names),
        )
        lines = []
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        for number, pair in enumerate(pairs):
            doc = simulate_match("muggins", 2, seed=rng.getrandbits(32), names=list(pair))
            doc["id"] = f"scale-rr-{club.slug}-{number}"
            doc["club"] = club.name
            doc["event"] = "Scale round-robin"
            day = datetime(first.year, first.month, first.day, 12, tzinfo=UTC)
            doc["played_at"] = (day + timedelta(hours=number * 8)).isoformat()
            lines.append(json.dumps(doc).encode())
        _reviewed(world.user, lines)


def _reviewed(user, lines: list[bytes]) -> list[int]:
    from replays.pipeline import matches_review
    from replays.ratings import ratings_recompute

    ids = store_batch(user, lines)
    for scope in matches_review(match_ids=ids):
        ratings_recompute(scope_id=scope)
    return ids


def _league(world: World, number: int) -> None:
    """A team league of four clubs (the next four, or the first ones of a small archive):
    a double round robin, its first three weeks played; the last fixture played is left
    for the away captain to confirm."""
    from django.contrib.auth import get_user_model

    from clubs.models import Membership
    from competitions.league_points import SCHEME_BY_SLUG
    from competitions.league_results import fixture_confirm
    from competitions.league_services import league_invite, league_make, team_make
    from competitions.schedule import schedule_make

    user = world.user
    clubs = world.clubs[4 * number : 4 * number + 4]
    if len(clubs) < 4:
        clubs = world.clubs[:4]
    name = f"Scale league {number + 1}"
    league = league_make(actor=user, name=name, legs=LEGS, **SCHEME_BY_SLUG["leek"].points)
    teams = []
    for club in clubs:
        league_invite(actor=user, league=league, club=club)  # its owner's: accepted at once
        captain, _ = get_user_model().objects.get_or_create(username=f"captain-{club.slug}")
        Membership.objects.get_or_create(club=club, user=captain)
        roster = world.rosters[club.pk][len(world.rosters[club.pk]) - 3 * number - 3 :][:3]
        teams.append(
            team_make(
                actor=user,
                league=league,
                club=club,
                name=f"{club.name} {number + 1}",
                player_ids=_handles(club, roster),
                captain_ids=[captain.pk],
            )
        )
    # The second league plays three days after the first: no leg is a candidate of both.
    first_day = (END - timedelta(weeks=8)).date() + timedelta(days=3 * number)
    fixtures = schedule_make(actor=user, league=league, first_day=first_day, as_of=first_day)
    played = [f for f in fixtures if f.day < first_day + timedelta(weeks=3)]
    rng = random.Random(world.seed + number)
    for index, fixture in enumerate(played):
        fixture = _leg_matches(world, fixture, rng)
        if index < len(played) - 1:
            fixture_confirm(actor=fixture.away.captains.get(), fixture=fixture)


def _leg_matches(world: World, fixture, rng: random.Random):
    """Play a fixture's legs at the home club on its day and submit them (its captain)."""
    from competitions.league_results import fixture_submit
    from competitions.league_selectors import fixture_candidates

    home, away = fixture.home, fixture.away
    ours = [p.handle for p in home.roster.order_by("handle")]
    theirs = [p.handle for p in away.roster.order_by("handle")]
    seatings = [
        [ours[0], theirs[0]],
        [theirs[1], ours[1]],
        [ours[1], theirs[1], ours[2], theirs[2]],
    ]
    zone = ZoneInfo(home.club.time_zone)
    start = datetime(fixture.day.year, fixture.day.month, fixture.day.day, 19, tzinfo=zone)
    lines = []
    for number, names in enumerate(seatings):
        doc = _simulate_leg(names, rng)
        doc["id"] = f"scale-leg-{fixture.pk}-{number}"
        doc["club"] = home.club.name
        doc["played_at"] = (start + timedelta(minutes=30 * number)).isoformat()
        doc["event"] = f"{fixture.league.name}, {home.name} v {away.name}, leg {number + 1}"
        lines.append(json.dumps(doc).encode())
    _reviewed(world.user, lines)
    chosen: list[int] = []
    found = fixture_candidates(fixture)
    for kind in LEGS:
        chosen.append(
            next(c.match_id for c in found if c.kind == kind and c.match_id not in chosen)
        )
    return fixture_submit(actor=home.captains.get(), fixture=fixture, match_ids=chosen)


def _simulate_leg(names: list[str], rng: random.Random) -> dict:
    from fives_engine.simulate import simulate_match

    return simulate_match(
        "muggins", len(names), teams=len(names) == 4, seed=rng.getrandbits(32), names=names
    )


# --- measuring ------------------------------------------------------------------------


def _measure(world: World, args, redis_url: str) -> dict[str, float]:
    """Print the header and every figure at this size; return them by name."""
    from django.db import connection
    from django.db.models import Sum

    from clubs.models import Club
    from games.models import Match, Player

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # As autovacuum would, given the time: the statistics, and the visibility map
            # that lets an index-only scan skip the table (a million matches just loaded
            # have none: measured at once, the club ranking page's 95th percentile was
            # 61.1 ms, and 19.1 ms after a vacuum).
            cursor.execute("VACUUM (ANALYZE)")
    moves = Match.objects.aggregate(n=Sum("move_count"))["n"] or 0
    matches = Match.objects.count()
    print(
        f"\n=== {matches:,} matches, {moves:,} moves, {Player.objects.count():,} players, "
        f"{Club.objects.count()} clubs",
        flush=True,
    )
    # The room first, as loaded: the timings below add matches played years back (every
    # rating after them rated again, its old rows left to the vacuum) and roll merges back
    # (their rows left dead): what they leave is printed after them, not taken as the
    # archive's size.
    figures = _room(moves, "as loaded")
    figures |= _answers(world, args)
    figures |= _export(matches)
    figures |= _workers(world, args, redis_url)
    figures |= _merge(world)
    figures |= _merge_by_workers(world, redis_url)
    moves = Match.objects.aggregate(n=Sum("move_count"))["n"] or 0
    _room(moves, "after the timings above")
    return figures


def _answers(world: World, args) -> dict[str, float]:
    """Time every answer ``args.requests`` times; print and return the medians and 95th
    percentiles."""
    from django.core.cache import cache
    from django.test import Client

    rng = random.Random(world.seed)
    anonymous, captain = Client(), Client()
    captain.force_login(_inbox_reader(world))
    figures = {}
    print(f"{'answer':34}{'median ms':>10}{'p95 ms':>9}{'queries':>10}  an address asked")
    for name, make, client in _addresses(world, rng, anonymous, captain, args.requests):
        paths = make()
        counted_get(client, paths[0])  # the code paths warmed
        times, queries = [], []
        for path in paths:
            cache.clear()  # the answer is made, not read from the cache
            milliseconds, count, response = counted_get(client, path)
            assert response.status_code == 200, f"{name}: {path} answered {response.status_code}"
            times.append(milliseconds)
            queries.append(count)
        median = statistics.median(times)
        p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
        spread = (
            f"{min(queries)}" if min(queries) == max(queries) else f"{min(queries)}-{max(queries)}"
        )
        print(f"{name:34}{median:10.1f}{p95:9.1f}{spread:>10}  {paths[-1]}", flush=True)
        figures[f"{name} median ms"] = median
        figures[f"{name} p95 ms"] = p95
        figures[f"{name} queries"] = max(queries)
    return figures


def _busy_players(world: World, count: int) -> dict[str, list]:
    """Return ``count`` players of the busiest club, drawn with the seed: their ids, and
    their match list's query."""
    from games.models import Player

    rng = random.Random(f"{world.seed}:busy")
    busy = world.clubs[0]
    players = list(
        Player.objects.filter(club=busy, seats__isnull=False)
        .distinct()
        .order_by("pk")
        .values_list("id", "handle")
    )
    chosen = [rng.choice(players) for _ in range(count)]
    return {
        "ids": [pk for pk, _handle in chosen],
        "list": [urlencode({"player": handle}) for _pk, handle in chosen],
    }


def _inbox_reader(world: World):
    """The away captain of the fixture left to confirm: something waits in their inbox."""
    from competitions.models import Fixture

    waiting = Fixture.objects.filter(
        league__in=world.events["leagues"], status=Fixture.Status.SUBMITTED
    ).first()
    return waiting.away.captains.get()


def _addresses(world: World, rng: random.Random, anonymous, captain, count: int):
    """Yield (name, a function returning the ``count`` addresses to ask, the client asking)."""
    from games.models import Match, Player

    match_ids = list(Match.objects.order_by("?").values_list("id", flat=True)[:count])
    if len(match_ids) < count:
        match_ids = [rng.choice(match_ids) for _ in range(count)]
    # Players with matches, a club's busy ones among them, and the clubs drawn by weight.
    players = list(
        Player.objects.filter(seats__isnull=False).distinct().values_list("id", "handle", "club")
    )
    chosen = [rng.choice(players) for _ in range(count)]
    clubs = rng.choices(world.clubs, weights=world.weights, k=count)
    slugs = [club.slug for club in clubs]
    ruleset = [rng.choice(MIX)[0] for _ in range(count)]
    days = [(END - timedelta(days=rng.randrange(30, 1000))).date() for _ in range(count)]
    handles = [handle for _pk, handle, _club in chosen]
    seasons = world.events["seasons"]
    tournaments = world.events["tournaments"]
    leagues = world.events["leagues"]

    def each(template, values):
        return lambda: [
            template.format(*value) if isinstance(value, tuple) else template.format(value)
            for value in values
        ]

    filters = {
        "club": [f"club={slug}" for slug in slugs],
        "player": [urlencode({"player": handle}) for handle in handles],
        "ruleset": [f"ruleset={name}" for name in ruleset],
        "dates": [f"date_from={day}&date_to={day + timedelta(days=30)}" for day in days],
        "outcome": [f"outcome={rng.choice(['complete', 'unfinished'])}" for _ in range(count)],
    }
    deep = _deep_cursors(count)
    deep_pages = _deep_page_cursors(count)
    yield "match list page", lambda: ["/"] * count, anonymous
    yield "match list API", lambda: ["/api/v1/matches/"] * count, anonymous
    yield (
        "match list page 1000 pages in",
        lambda: [f"/?cursor={c}" for c in deep_pages],
        anonymous,
    )
    yield (
        "match list API 1000 pages in",
        lambda: [f"/api/v1/matches/?cursor={c}" for c in deep],
        anonymous,
    )
    for name, queries in filters.items():
        yield f"match list page by {name}", each("/?{}", queries), anonymous
        yield f"match list API by {name}", each("/api/v1/matches/?{}", queries), anonymous
    results = [
        urlencode({"player": handle, "result": rng.choice(["win", "loss"])}) for handle in handles
    ]
    yield "match list API by result", each("/api/v1/matches/?{}", results), anonymous
    yield "match page", each("/matches/{}/", match_ids), anonymous
    yield "match embed (replay)", each("/embed/matches/{}/", match_ids), anonymous
    yield "match API", each("/api/v1/matches/{}/", match_ids), anonymous
    yield "match replay API", each("/api/v1/matches/{}/replay/", match_ids), anonymous
    yield "match analysis API", each("/api/v1/matches/{}/analysis/", match_ids), anonymous
    player_ids = [pk for pk, _handle, _club in chosen]
    yield "player page", each("/players/{}/", player_ids), anonymous
    yield "player stats API", each("/api/v1/players/{}/stats/", player_ids), anonymous
    # The busiest club's players, whose histories are the longest (drawn apart, so the
    # addresses above stay those of earlier runs).
    busy = _busy_players(world, count)
    yield "match list page, busy player", each("/?{}", busy["list"]), anonymous
    # A busy player's list is full at every size: its growth is the archive's, not the
    # page's filling up (a player drawn at random has a few matches at 10,000).
    sides = random.Random(f"{world.seed}:busy-results")  # the draws after it stay as they were
    busy_results = [f"{query}&result={sides.choice(['win', 'loss'])}" for query in busy["list"]]
    yield "match list API by result, busy", each("/api/v1/matches/?{}", busy_results), anonymous
    yield "player page, busy player", each("/players/{}/", busy["ids"]), anonymous
    yield "player stats API, busy player", each("/api/v1/players/{}/stats/", busy["ids"]), anonymous
    yield "club page", each("/clubs/{}/", slugs), anonymous
    yield "club ranking page", each("/clubs/{}/ranking/", slugs), anonymous
    yield "club ranking API", each("/api/v1/clubs/{}/ranking/", slugs), anonymous
    season_keys = [(s.club.slug, s.pk) for s in rng.choices(seasons, k=count)]
    yield "season page", each("/clubs/{}/seasons/{}/", season_keys), anonymous
    yield "season API", each("/api/v1/clubs/{}/seasons/{}/", season_keys), anonymous
    event_keys = [(t.season.club.slug, t.pk) for t in rng.choices(tournaments, k=count)]
    yield "tournament page", each("/clubs/{}/events/{}/", event_keys), anonymous
    yield "tournament API", each("/api/v1/clubs/{}/events/{}/", event_keys), anonymous
    league_ids = [league.pk for league in rng.choices(leagues, k=count)]
    yield "league page", each("/leagues/{}/", league_ids), anonymous
    yield "league API", each("/api/v1/leagues/{}/", league_ids), anonymous
    yield "inbox page", lambda: ["/inbox/"] * count, captain
    yield "inbox API", lambda: ["/api/v1/inbox/"] * count, captain


def _deep_cursors(count: int) -> list[str]:
    """Return the API's cursors of the pages ``DEEP - n`` pages in (the deepest there is in
    a smaller archive), as its cursor pagination writes them: the position is the id of the
    last match of the page before (newest first), checked against the ``next`` links."""
    from django.test import Client

    from games.models import Match

    ids = list(Match.objects.order_by("-id").values_list("id", flat=True))
    pages = max(1, (len(ids) - 1) // PAGE)

    def cursor(page: int) -> str:
        position = ids[min(page, pages) * PAGE - 1]
        return base64.b64encode(urlencode({"p": position}).encode()).decode()

    # The cursor made here is the one the API's own links give (two pages in).
    client, path = Client(), "/api/v1/matches/"
    for _page in range(2):
        path = client.get(path).json()["next"] or path
    if pages >= 2:
        made = client.get(f"/api/v1/matches/?cursor={cursor(2)}").json()["results"][0]["id"]
        assert client.get(path).json()["results"][0]["id"] == made, "the cursor is not the API's"
    return [cursor(DEEP - 1 - n) for n in range(count)]


def _deep_page_cursors(count: int) -> list[str]:
    """Return the HTML list's cursors of the pages ``DEEP - n`` pages in (the deepest there
    is in a smaller archive): the position of the last match of the page before, in the
    list's order (newest first), checked against the page's own "next" link."""
    import re

    from django.test import Client

    from clubs.pages import PAGE_SIZE, cursor_at
    from games.selectors import match_list

    rows = list(match_list(filters={}, user=None).values_list("played_at", "id"))
    pages = max(1, (len(rows) - 1) // PAGE_SIZE)

    def cursor(page: int) -> str:
        played_at, pk = rows[min(page, pages) * PAGE_SIZE - 1]
        return cursor_at([played_at.isoformat() if played_at else None, pk])

    if pages >= 2:
        client = Client()
        html = client.get("/").content.decode()
        following = re.search(r'rel="next" href="\?([^"]+)"', html).group(1).replace("&amp;", "&")
        first = re.findall(r'href="/matches/(\d+)/"', client.get(f"/?{following}").content.decode())
        made = re.findall(
            r'href="/matches/(\d+)/"', client.get(f"/?cursor={cursor(1)}").content.decode()
        )
        assert first[:3] == made[:3], "the cursor is not the page's"
    return [cursor(DEEP - 1 - n) for n in range(count)]


def _export(matches: int) -> dict[str, float]:
    """Time the export streamed in-process (at most 20,000 matches)."""
    from django.test import Client

    limit = min(matches, 20_000)
    started = time.perf_counter()
    response = Client().get(f"/api/v1/matches/export?limit={limit}")
    assert response.status_code == 200
    exported = sum(chunk.count(b"\n") for chunk in response.streaming_content)
    rate = exported / (time.perf_counter() - started)
    print(f"export: {exported:,} matches at {rate:,.0f} matches/s", flush=True)
    return {"export (matches/s)": rate}


def _workers(world: World, args, redis_url: str) -> dict[str, float]:
    """Time ``args.extra`` matches ingested by one, then two celery workers; then review
    them here (the workers serve the uploads queue only)."""
    from games.models import Match
    from replays.pipeline import matches_review, scopes_dirty
    from replays.ratings import ratings_recompute

    if not redis_url:
        print("ingest by celery workers: skipped (needs PostgreSQL and REDIS_URL)")
        return {}
    figures = {}
    for workers in (1, 2):
        rng = random.Random(f"{world.seed}:workers:{Match.objects.count()}")
        lines = [json.dumps(_document(world, rng)).encode() for _ in range(args.extra)]
        files = [b"\n".join(lines[start : start + 200]) for start in range(0, len(lines), 200)]
        before = Match.objects.order_by("-id").values_list("id", flat=True).first()
        seconds = ingest_timed(world.user, files, redis_url, workers=workers)
        took = seconds["ingest (queue -> worker -> db)"]
        new = list(Match.objects.filter(id__gt=before).values_list("id", flat=True))
        _all_stored(args.extra, new)
        rate = args.extra / took
        print(f"ingest by {workers} celery worker(s): {rate:,.0f} matches/s ({took:.1f} s)")
        figures[f"ingest, {workers} worker(s) (matches/s)"] = rate
        matches_review(match_ids=new)
    for scope in scopes_dirty():
        ratings_recompute(scope_id=scope)
    return figures


def _all_stored(sent: int, stored: list[int]) -> None:
    """Stop the run when the workers stored fewer matches than were sent: a failed upload
    is done at once, and its time would read as a rate (a worker running code newer than
    the database's tables failed every upload in 0.0 s, reported as 152,672 matches/s)."""
    from games.models import Upload

    if len(stored) == sent:
        return
    failures = Upload.objects.filter(status=Upload.Status.FAILED).order_by("-id")
    reason = failures.values_list("failure", flat=True).first() or "none given"
    raise SystemExit(f"ingest: {len(stored):,} of {sent:,} matches stored; a failure: {reason}")


def _merge(world: World) -> dict[str, float]:
    """Time merging the twins' handles and the ratings recomputed after it, rolled back."""
    from django.db import transaction

    from games.models import Player
    from games.services.players import players_merge
    from replays.pipeline import scopes_dirty_of
    from replays.ratings import ratings_recompute

    club = world.clubs[0]
    source, target = (Player.objects.filter(club=club, handle=h).first() for h in TWINS)
    if source is None or target is None:
        print("merge: the twins have not both played yet: skipped")
        return {}
    from replays.models import RatingScope

    with contextlib.suppress(_RolledBack), transaction.atomic():
        started = time.perf_counter()
        moved = list(source.seats.values_list("match_id", flat=True))
        players_merge(actor=world.user, source=source, target=target)
        scopes = scopes_dirty_of(club_id=club.pk)  # what the merge's event queues
        merged = time.perf_counter()
        # The club's ratings (its pages' and its players'), then the all-clubs ratings,
        # which replay every club's matches from the earliest one moved.
        club_scope = RatingScope.objects.get(club=club).pk
        rated_club = ratings_recompute(scope_id=club_scope)
        club_done = time.perf_counter()
        rated_all = sum(ratings_recompute(scope_id=s) for s in scopes if s != club_scope)
        seconds = time.perf_counter() - started
        raise _RolledBack
    matches = len(moved) + target.seats.count()
    print(
        f"merge of two handles with {matches:,} matches between them ({len(moved):,} moved): "
        f"{seconds:.2f} s in all; the merge and the figures {merged - started:.2f} s, the "
        f"club's ratings {club_done - merged:.2f} s ({rated_club:,} matches rated), the "
        f"all-clubs ratings {started + seconds - club_done:.2f} s ({rated_all:,} matches)"
    )
    return {
        "merge and re-rate (s)": seconds,
        "merge and the club's ratings (s)": club_done - started,
    }


def _merge_by_workers(world: World, redis_url: str) -> dict[str, float]:
    """Time the twins' merge as a deployment runs it, in a copy of the archive (there the
    merge is committed, so the archive measured goes on unmerged): the merge's event queues
    the club's and the all-clubs' re-ratings, which two ``celery worker`` processes on the
    ratings queue take at once. The clock runs from the merge's call until both scopes are
    rated."""
    import psycopg
    import redis
    from django.db import connection

    from fivesite.celery import app
    from games.models import Player
    from games.services.players import players_merge
    from replays.models import RatingScope

    if not redis_url:
        print("merge by celery workers: skipped (needs PostgreSQL and REDIS_URL)")
        return {}
    settings = connection.settings_dict
    archive, copy = settings["NAME"], f"{settings['NAME']}_merge"
    server = urlparse(os.environ["DATABASE_URL"])
    admin = urlunparse(server._replace(path="/postgres"))
    connection.close()
    with psycopg.connect(admin, autocommit=True) as conn:
        # A template must have no other session: autovacuum's, after a load, is ended.
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [archive],
        )
        conn.execute(f"DROP DATABASE IF EXISTS {copy} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {copy} TEMPLATE {archive} STRATEGY FILE_COPY")
    settings["NAME"], address = copy, os.environ["DATABASE_URL"]
    os.environ["DATABASE_URL"] = urlunparse(server._replace(path=f"/{copy}"))
    names = ["celery@fives-bench-ratings", "celery@fives-bench-ratings-1"]
    workers = []
    try:
        # The tasks this process queued and ran in-process are dropped first (the bench's
        # Redis database is its own): the workers take the merge's alone.
        redis.Redis.from_url(redis_url).flushdb()
        workers = [start_worker(app, name) for name in names]
        club = world.clubs[0]
        source, target = (Player.objects.filter(club=club, handle=h).first() for h in TWINS)
        if source is None or target is None:
            return {}
        app.control.add_consumer("ratings", destination=names, reply=True)
        started = time.perf_counter()
        players_merge(actor=world.user, source=source, target=target)
        merged = time.perf_counter()
        while RatingScope.objects.filter(dirty_from__isnull=False).exists():
            time.sleep(0.02)
        seconds = time.perf_counter() - started
    finally:
        stop_workers(workers)
        connection.close()
        settings["NAME"], os.environ["DATABASE_URL"] = archive, address
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {copy} WITH (FORCE)")
    print(
        f"merge by 2 celery workers on the ratings queue (in a copy of the archive): "
        f"{seconds:.2f} s in all; the merge {merged - started:.2f} s, then both re-ratings "
        f"at once {started + seconds - merged:.2f} s",
        flush=True,
    )
    return {"merge, 2 ratings workers (s)": seconds}


class _RolledBack(Exception):
    """Leaves the merge's transaction: the same handles merge again at the next size."""


def _room(moves: int, when: str) -> dict[str, float]:
    """Print and return the database's bytes per move, ``when`` saying at which point."""
    database_bytes, empty_bytes, tables = database_room()
    if empty_bytes is None:
        print(f"bytes per move, {when}: {database_bytes / moves:.1f} (the whole SQLite file)")
        return {"bytes per move": database_bytes / moves}
    per_move = (database_bytes - empty_bytes) / moves
    largest = ", ".join(f"{name} {size / moves:.1f}" for name, size in tables[:8])
    print(
        f"bytes per move, {when}: {per_move:.1f} (every table with its indexes); largest: {largest}"
    )
    return {"bytes per move": per_move}


def _growth(figures: dict[int, dict[str, float]]) -> None:
    """Print each figure at the first and the last size, and their ratio (last / first);
    an answer's median and 95th percentile on one line, with its queries at both sizes."""
    sizes = sorted(figures)
    first, last = figures[sizes[0]], figures[sizes[-1]]
    print(f"\n=== growth from {sizes[0]:,} to {sizes[-1]:,} matches (last / first)")
    print(f"{'answer':34}{'median ms':>20}{'ratio':>8}{'p95 ratio':>10}{'queries':>10}")
    for key in first:
        if not key.endswith(" median ms") or key not in last:
            continue
        name = key.removesuffix(" median ms")
        p95 = _ratio(first[f"{name} p95 ms"], last[f"{name} p95 ms"])
        queries = f"{first[name + ' queries']:.0f}->{last[name + ' queries']:.0f}"
        print(
            f"{name:34}{first[key]:10.1f}{last[key]:10.1f}{_ratio(first[key], last[key]):7.2f}x"
            f"{p95:9.2f}x{queries:>10}"
        )
    for key, value in first.items():
        if key in last and not key.endswith((" median ms", " p95 ms", " queries")):
            print(f"{key:34}{value:10.1f}{last[key]:10.1f}{_ratio(value, last[key]):7.2f}x")


def _ratio(first: float, last: float) -> float:
    return last / first if first else float("nan")


if __name__ == "__main__":
    main()
