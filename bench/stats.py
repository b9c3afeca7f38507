"""Benchmark: statistics and ratings of one club with many matches.

    python -m bench.stats [--matches 100000] [--players 24] [--seed 3]

Loads simulated matches into one club through the services (upload, processing, the
per-seat review), then prints the time of a full rating recomputation and the server time
(in-process, median of 5) of the ranking page, a player page, a season's standings (one
season over every match loaded) and their API endpoints, with the queries each answer takes. With
DATABASE_URL (PostgreSQL) set, into a database of its own (``fives_bench_stats``, made anew);
else a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import statistics
import sys
import time

from bench.benchdb import bench_database
from bench.inprocess import counted_get, store_batch, tasks_held

ROOT = pathlib.Path(__file__).resolve().parents[1]

NAMES = [f"Player {n:02d}" for n in range(100)]


def timed(call, repeat: int = 5) -> float:
    """Return the median milliseconds of ``call``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument(
        "--reuse", action="store_true", help="time again on the last run's PostgreSQL database"
    )
    args = parser.parse_args()

    database_url, kind = bench_database(
        os.environ.get("DATABASE_URL"), "fives_bench_stats", reuse=args.reuse
    )
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # the services are called here, in this process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    # Pages in-process: static files from the sources, as `make run` serves them.
    os.environ.setdefault("FIVES_STATIC_SOURCES", "1")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    import fivesite.urls  # noqa: F401  (load every view now, not half-way through the run)
    from clubs.models import Club
    from clubs.services import club_create
    from competitions.models import Season
    from competitions.seasons import season_open
    from fives_engine.simulate import simulate_match
    from games.models import Match, Player
    from replays.models import ClubRatingChange, RatingScope, SeatResult
    from replays.ratings import ratings_recompute, scope_for
    from replays.stats import match_results_store

    call_command("migrate", verbosity=0)
    tasks_held()  # the follow-up tasks are run below by hand, batch by batch
    user, _ = get_user_model().objects.get_or_create(username="bench")
    # Made as a person makes a club (its owner a member): uploads land only in such clubs.
    club = Club.objects.filter(slug="bench-club").first() or club_create(
        owner=user, name="Bench club", slug="bench-club"
    )
    rng = random.Random(args.seed)
    names = NAMES[: args.players]
    start_day = timezone.now() - timezone.timedelta(days=365)
    tables = [(2, False), (2, False), (3, False), (4, True)]

    loading = time.perf_counter()
    done = Match.objects.filter(club=club).count() if args.reuse else 0
    while done < args.matches:
        lines = []
        for number in range(done, min(done + args.batch, args.matches)):
            players, teams = rng.choice(tables)
            doc = simulate_match(
                {"base": "muggins", "target": 50},
                players,
                teams=teams,
                seed=rng.getrandbits(32),
                names=rng.sample(names, players),
            )
            doc["id"] = f"bench-{number}"
            doc["played_at"] = (start_day + timezone.timedelta(minutes=5 * number)).isoformat()
            lines.append(json.dumps(doc).encode())
        match_results_store(match_ids=store_batch(user, lines, club))
        done += len(lines)
        rate = done / (time.perf_counter() - loading)
        print(f"\rloaded {done}/{args.matches} matches ({rate:.0f}/s)", end="", file=sys.stderr)
    print(file=sys.stderr)
    loading = time.perf_counter() - loading

    scope = scope_for(club.pk)
    started = time.perf_counter()
    rated = ratings_recompute(scope_id=scope.pk, full=True)
    recompute = time.perf_counter() - started
    RatingScope.objects.filter(pk=scope.pk).update(dirty_from=None)
    print(
        f"full rating recomputation: {recompute:.1f} s for {rated} matches "
        f"({ClubRatingChange.objects.count()} rating rows of the club)",
        flush=True,
    )

    if connection.vendor == "postgresql":
        # The statistics autovacuum keeps for a running database: just loaded, the tables have
        # none, and the planner guesses one row where there are 27,000.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    client = Client()
    player = Player.objects.filter(club=club).order_by("id").first()
    # One season over every match loaded, counting the one preset they are of.
    season = Season.objects.filter(club=club, name="Bench season").first() or season_open(
        actor=user,
        club=club,
        name="Bench season",
        first_day=(start_day - timezone.timedelta(days=1)).date(),
        last_day=timezone.now().date(),
    )
    pages = {
        "ranking page": f"/clubs/{club.slug}/ranking/",
        "ranking API": f"/api/v1/clubs/{club.slug}/ranking/",
        "player page": f"/players/{player.pk}/",
        "player API": f"/api/v1/players/{player.pk}/stats/",
        "season page": f"/clubs/{club.slug}/seasons/{season.pk}/",
        "season API": f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/",
    }
    for path in pages.values():
        assert client.get(path).status_code == 200  # warm the code paths
    print(
        f"{Match.objects.count()} matches ({SeatResult.objects.count()} seat results) in one "
        f"club of {args.players} players; {kind}; loaded in {loading:.0f} s"
    )
    for name, path in pages.items():
        cache.clear()  # the first answer is made, not read from the cache
        first, queries, _response = counted_get(client, path)
        milliseconds = timed(lambda path=path: client.get(path))
        print(
            f"{name:14} first {first:8.1f} ms {queries:4} queries, "
            f"then {milliseconds:8.1f} ms  {path}"
        )


if __name__ == "__main__":
    main()
