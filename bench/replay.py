"""Benchmark: the first replay of a long match against a cached one, in one run.

    python -m bench.replay [--hands 200] [--matches 5] [--repeat 5]

Stores ``--matches`` simulated two-player matches of ``--hands`` hands each (All Fives to a
target no one reaches) through the upload service (which keeps a long match's replay,
``StoredReplay``), then times, in-process, each with the cache emptied first: the replay
API's first answer (read from the kept replay) and the same request cached; the match page's
first answer and cached; the page's and the API's first answers when nothing was kept (made
on request, as after a rescore: the page's states from the stored hands, the API's by a
walk); the work of keeping it when stored; and how the replay was built before
(the log written as JSON, read again, and walked with every play reviewed again). Medians in
milliseconds; the machine is noisy, so read the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import secrets
import statistics
import time

from bench.api import PORT, serving
from bench.benchdb import bench_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--gunicorn",
        action="store_true",
        help="ask a gunicorn server (the README's production way) with its cache in Redis "
        "(REDIS_URL, required), not the test client in this process",
    )
    args = parser.parse_args()
    if args.gunicorn and not os.environ.get("REDIS_URL"):
        parser.error("--gunicorn needs REDIS_URL: the server's cache, emptied between requests")

    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), "fives_bench_replay")
    os.environ["DATABASE_URL"] = database_url
    if not args.gunicorn:
        os.environ.pop("REDIS_URL", None)  # the cache in this process's memory
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    os.environ.setdefault("FIVES_STATIC_SOURCES", "1")  # pages without collectstatic
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    import fivesite.urls  # noqa: F401  (load every view now)
    from clubs.services import club_create
    from fives_engine import COMPILED_FROM
    from fives_engine.simulate import simulate_match
    from fivesite.celery import app
    from games.models import Match
    from games.services.ingest import upload_process
    from games.services.uploads import upload_create
    from replays.models import StoredReplay
    from replays.replay_cache import replays_store

    app.conf.task_always_eager = True  # the upload's tasks in this process, as `make run`
    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    club = club_create(owner=user, name="Bench club", slug="bench-replay")
    ruleset = {"base": "all-fives", "target": 100000}
    lines = []
    for seed in range(args.matches):
        doc = simulate_match(ruleset, 2, seed=seed, max_hands=args.hands)
        doc["id"] = f"bench-replay-{seed}"
        lines.append(json.dumps(doc).encode())
    upload = upload_create(uploader=user, data=b"\n".join(lines), kind="ndjson", club=club)
    upload_process(upload_id=upload.pk)
    ids = list(Match.objects.filter(club=club).order_by("id").values_list("id", flat=True))
    assert len(ids) == args.matches
    replays_store(match_ids=ids)  # what the stats worker does once they are stored
    client = Client()

    def ask(path: str) -> float:
        started = time.perf_counter()
        if args.gunicorn:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            connection.close()
            status = response.status
        else:
            status = client.get(path).status_code
        assert status == 200, (path, status)
        return (time.perf_counter() - started) * 1000

    server = contextlib.nullcontext()
    if args.gunicorn:
        env = dict(
            os.environ, SECRET_KEY=secrets.token_urlsafe(50), FIVES_THROTTLE_READ="1000000/min"
        )
        server = serving(2, env)
    with server:
        times = measure(args, ids, ask, cache)

    moves = Match.objects.filter(pk=ids[0]).values_list("move_count", flat=True).get()
    # None for a match under REPLAY_KEPT_FROM moves (a small run's): its replay is made on
    # each first request, never kept.
    kept = StoredReplay.objects.filter(match_id=ids[0]).first()
    answer = client.get(f"/api/v1/matches/{ids[0]}/replay/").content
    packed = Match.objects.filter(pk=ids[0]).values_list("packed", flat=True).get()
    p50 = statistics.median
    engine = "compiled" if COMPILED_FROM else "pure Python"
    way = "gunicorn (2 workers), cache in Redis" if args.gunicorn else "in-process"
    print(
        f"{args.matches} matches of {args.hands} hands (about {moves} moves each); {kind}; "
        f"{way}; engine {engine}; medians of {len(times['first'])} requests"
    )
    print(f"{'':60}{'ms':>8}{'x cached':>10}")
    cached = p50(times["cached"])
    for name, label in ROWS.items():
        print(f"{label:60}{p50(times[name]):8.1f}{p50(times[name]) / cached:10.1f}")
    size = f"{len(kept.body) + len(kept.page):,} bytes" if kept else "none (too short to keep)"
    print(
        f"kept replay: {size} "
        f"(the API's answer: {len(answer):,} bytes; the packed hands: {len(packed):,})"
    )


def measure(args, ids: list[int], ask, cache) -> dict[str, list[float]]:
    """Time each row of ``ROWS`` for every match, ``--repeat`` times."""
    from fives_engine.replay import replay_log
    from games.models import Match
    from replays.models import StoredReplay
    from replays.replay_cache import replays_store

    times: dict[str, list[float]] = {name: [] for name in ROWS}
    for _ in range(args.repeat):
        for match_id in ids:
            api, page = f"/api/v1/matches/{match_id}/replay/", f"/matches/{match_id}/"
            # Kept at store time (the stats worker made it after ingest), the cache empty.
            cache.clear()
            times["first"].append(ask(api))
            times["cached"].append(ask(api))
            cache.clear()
            times["page first"].append(ask(page))
            times["page cached"].append(ask(page))
            # Not kept (as a rescore leaves it until it is made again): made on request, the
            # page's states from the stored hands, the API's by a walk.
            cache.clear()
            StoredReplay.objects.filter(match_id=match_id).delete()
            times["page made"].append(ask(page))
            cache.clear()
            StoredReplay.objects.filter(match_id=match_id).delete()
            times["made"].append(ask(api))
            match = Match.objects.with_log().get(pk=match_id)
            started = time.perf_counter()
            StoredReplay.objects.filter(match_id=match_id).delete()
            replays_store(match_ids=[match_id])
            times["store"].append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            replay_log(match.log().as_json(), review=True)  # how it was built before
            times["before"].append((time.perf_counter() - started) * 1000)
    return times


ROWS = {
    "first": "replay API, first request (kept when stored)",
    "cached": "replay API, cached",
    "page first": "match page, first request (kept when stored)",
    "page cached": "match page, cached",
    "page made": "match page, first request, not kept (made on request)",
    "made": "replay API, first request, not kept (made on request)",
    "store": "keeping it when stored (the stats worker, once a match)",
    "before": "the walk as before (JSON again, every play reviewed)",
}

if __name__ == "__main__":
    main()
