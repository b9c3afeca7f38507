"""Benchmark: ingest simulated matches end to end, against the engine alone.

    python -m bench.ingest [--matches 2000] [--per-upload 200] [--seed 7]

With DATABASE_URL (PostgreSQL) and REDIS_URL set, uploads go through the upload service to
one real ``celery worker`` process serving the uploads queue into a database of its own
(``fives_bench``, made anew on that server); a second worker then serves the statistics and
ratings queues, timed on its own. Without them, into a fresh SQLite file with tasks
in-process (statistics included in the ingest time). In the same run the engine alone
validates the same matches, both as ``validate_log`` and as ingest's one walk
(``check_document``: report, per-move trace and review). Prints matches/s and moves/s for
each, the ratios, and the database bytes per stored move.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import secrets
import subprocess
import sys
import time

from bench.benchdb import bench_database

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--per-upload", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), "fives_bench")
    redis_url = os.environ.get("REDIS_URL", "") if kind == "PostgreSQL" else ""
    os.environ["DATABASE_URL"] = database_url
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    else:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    # A key of its own for this run (DEBUG stays off: it would keep every query in memory).
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from games.engine import check_document, validate_log
    from games.engine.simulate import simulate_matches
    from games.models import Match, Move, Upload
    from games.services.uploads import upload_create
    from replays.models import RatingScope, SeatResult

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    docs = list(simulate_matches(args.matches, seed=args.seed, ruleset="muggins", players=2))
    for number, doc in enumerate(docs):
        doc["id"] = f"bench-{number}"
    moves = sum(len(hand["moves"]) for doc in docs for hand in doc["hands"])
    files = [
        b"".join(json.dumps(doc).encode() + b"\n" for doc in docs[start : start + args.per_upload])
        for start in range(0, len(docs), args.per_upload)
    ]

    worker = None
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        worker = start_worker("uploads")
        time.sleep(3)  # let the worker connect before the clock starts
    try:
        started = time.perf_counter()
        uploads = [
            upload_create(uploader=user, data=data, kind="ndjson") for n, data in enumerate(files)
        ]
        while Upload.objects.filter(
            pk__in=[u.pk for u in uploads], status=Upload.Status.PENDING
        ).exists():
            time.sleep(0.1)
        ingest_seconds = time.perf_counter() - started
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
    stats_seconds = None
    if redis_url:
        worker = start_worker("stats,ratings")
        try:
            started = time.perf_counter()
            while (
                SeatResult.objects.count() < 2 * len(docs)
                or RatingScope.objects.filter(dirty_from__isnull=False).exists()
            ):
                time.sleep(0.2)
            stats_seconds = time.perf_counter() - started - 3  # less the worker's start
        finally:
            worker.terminate()
            worker.wait(30)
    stored = Match.objects.count()
    stored_moves = Move.objects.count()
    assert stored == len(docs), f"{stored} matches stored of {len(docs)}"
    assert stored_moves == moves

    started = time.perf_counter()
    for doc in docs:
        validate_log(doc)
    engine_seconds = time.perf_counter() - started
    texts = [json.dumps(doc).encode() for doc in docs]
    started = time.perf_counter()
    for text in texts:
        check_document(text)
    walk_seconds = time.perf_counter() - started

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_total_relation_size('games_move')")
            move_bytes = cursor.fetchone()[0]
            cursor.execute("SELECT pg_database_size(current_database())")
            database_bytes = cursor.fetchone()[0]
    else:
        path = pathlib.Path(connection.settings_dict["NAME"])
        connection.close()
        database_bytes = path.stat().st_size
        move_bytes = None

    print(
        f"{len(docs)} two-player muggins matches, {moves} moves; {kind}"
        f"{', one celery worker on Redis' if redis_url else ''}; {len(files)} NDJSON uploads"
    )
    print(f"{'':34}{'matches/s':>11}{'moves/s':>12}")
    print(
        f"{'ingest (upload -> worker -> db)':34}{len(docs) / ingest_seconds:11,.0f}"
        f"{moves / ingest_seconds:12,.0f}"
    )
    if stats_seconds is not None:
        print(
            f"{'statistics and ratings (worker)':34}{len(docs) / stats_seconds:11,.0f}"
            f"{moves / stats_seconds:12,.0f}"
        )
    print(
        f"{'engine alone (validate_log)':34}{len(docs) / engine_seconds:11,.0f}"
        f"{moves / engine_seconds:12,.0f}"
    )
    print(
        f"{'engine walk of ingest (check_doc)':34}{len(docs) / walk_seconds:11,.0f}"
        f"{moves / walk_seconds:12,.0f}"
    )
    print(f"ratio engine/ingest: {ingest_seconds / engine_seconds:.1f}x (validate_log)")
    print(f"ratio walk/ingest: {ingest_seconds / walk_seconds:.1f}x (check_document)")
    print(f"10,000 matches would take about {ingest_seconds * 10_000 / len(docs):.0f} s to ingest")
    if move_bytes is not None:
        print(
            f"bytes per stored move: {move_bytes / moves:.0f} in games_move with its indexes, "
            f"{database_bytes / moves:.0f} for the whole database"
        )
    else:
        print(f"bytes per stored move: {database_bytes / moves:.0f} for the whole SQLite file")


def start_worker(queues: str) -> subprocess.Popen:
    """Start one ``celery worker`` process serving ``queues``."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "fivesite",
            "worker",
            "-Q",
            queues,
            "--pool=solo",
            "--without-mingle",
            "--without-gossip",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
    )


if __name__ == "__main__":
    main()
