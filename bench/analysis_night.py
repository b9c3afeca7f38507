"""Benchmark: a club night of matches analysed by real Celery workers on the analysis queue.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.analysis_night [--matches 20] [--workers 2]

Stores ``--matches`` simulated two-player matches (All Fives and Muggins in turn, full
length, greedy bots) in a club of a database of its own, then starts ``--workers`` ``celery
worker -Q analysis`` processes (one task at a time each, as the README runs them), asks for
every match's analysis as the club's "analyse every match" does, and times from the first
request until every analysis is done. Prints the time, the plays reviewed per second, and
the review of the same matches one after another in this process, beside it (the workers'
share of two cores). Without PostgreSQL and Redis it says so and stops: the analyses would
run in-process, one at a time, and there is no worker to time.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import time
from urllib.parse import urlparse, urlunparse

from bench.benchdb import bench_database
from bench.ingest import start_worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL", "")
    url = os.environ.get("DATABASE_URL", "")
    if not redis_url or not url.startswith(("postgres://", "postgresql://")):
        print("bench.analysis_night needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): skipped")
        return
    database_url, _kind = bench_database(url, "fives_bench_night")
    os.environ["DATABASE_URL"] = database_url
    # A Redis database of its own (15), emptied first: the tests' and the archive's are left
    # alone.
    redis_url = urlunparse(urlparse(redis_url)._replace(path="/15"))
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create
    from fives_engine import parse_log
    from fives_engine.expected import review_match
    from fives_engine.simulate import simulate_match
    from fivesite.celery import app
    from games.services.ingest import upload_process
    from games.services.uploads import upload_create
    from replays.analysis import analysis_request
    from replays.models import MatchAnalysis

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(redis_url).flushdb()
    user = get_user_model().objects.create_user("night")
    club = club_create(owner=user, name="Night club", slug="night-club")
    matches, docs = [], []
    for index in range(args.matches):
        ruleset = ("all-fives", "muggins")[index % 2]
        doc = simulate_match(ruleset, 2, seed=args.seed + index, names=["Nino", "Giorgi"])
        doc["id"] = f"night-{index}"
        doc["club"] = club.name
        upload = upload_create(uploader=user, data=json.dumps(doc).encode(), kind="json")
        matches.append(upload_process(upload_id=upload.pk).items.get().match)
        docs.append(doc)
    plays = sum(
        1 for doc in docs for hand in doc["hands"] for move in hand["moves"] if "play" in move
    )
    host = socket.gethostname()
    workers = [
        start_worker(app, f"night{number}@{host}", "analysis") for number in range(args.workers)
    ]
    try:
        started = time.perf_counter()
        for match in matches:
            analysis_request(match=match, user=None)
        done = 0
        while done < len(matches):
            time.sleep(0.2)
            done = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE).count()
            failed = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.FAILED).count()
            if failed:
                raise SystemExit(f"{failed} analyses failed")
        took = time.perf_counter() - started
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(30)
    started = time.perf_counter()
    for doc in docs:
        review_match(parse_log(doc))
    alone = time.perf_counter() - started
    print(
        f"a club night of {len(matches)} two-player matches ({plays} plays), analysed by"
        f" {args.workers} celery workers (PostgreSQL, Redis): {took:.1f} s,"
        f" {plays / took:.0f} plays/s; one after another in one process: {alone:.1f} s"
        f" ({alone / took:.2f}x the workers' time)"
    )


if __name__ == "__main__":
    main()
