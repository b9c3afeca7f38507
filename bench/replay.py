"""Benchmark: the first replay of a long match against a cached one, in one run.

    python -m bench.replay [--hands 200] [--matches 5] [--repeat 5]

Stores ``--matches`` simulated two-player matches of ``--hands`` hands each (All Fives to a
target no one reaches) through the upload service, then times, in-process: the replay API's
first answer for each match (the cache empty: the stored log walked once, each play's best
read from the figures stored with the match, the states rendered as JSON), the same
request answered from the cache, and, beside them, how the replay was built before (the log
written as JSON, read again, and walked with every play reviewed again). Medians in
milliseconds; the machine is noisy, so read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from bench.benchdb import bench_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), "fives_bench_replay")
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # tasks in-process, the cache in this process's memory
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    import fivesite.urls  # noqa: F401  (load every view now)
    from games.engine import COMPILED_FROM
    from games.engine.replay import replay_log
    from games.engine.simulate import simulate_match
    from games.models import Match
    from games.services.clubs import club_create
    from games.services.ingest import upload_process
    from games.services.uploads import upload_create

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
    client = Client()

    def ask(match_id: int) -> float:
        started = time.perf_counter()
        response = client.get(f"/api/v1/matches/{match_id}/replay/")
        assert response.status_code == 200
        return (time.perf_counter() - started) * 1000

    first, cached, before = [], [], []
    for _ in range(args.repeat):
        for match_id in ids:
            cache.clear()
            first.append(ask(match_id))
            cached.append(ask(match_id))
            match = Match.objects.with_log().get(pk=match_id)
            started = time.perf_counter()
            replay_log(match.log().as_json(), review=True)  # how it was built before
            before.append((time.perf_counter() - started) * 1000)
    moves = Match.objects.filter(pk=ids[0]).values_list("move_count", flat=True).get()
    p50 = statistics.median
    engine = "compiled" if COMPILED_FROM else "pure Python"
    print(
        f"{args.matches} matches of {args.hands} hands (about {moves} moves each); {kind}; "
        f"engine {engine}; medians of {len(first)} requests"
    )
    print(f"{'':52}{'ms':>8}{'x cached':>10}")
    for name, times in (
        ("replay API, first request (cache empty)", first),
        ("replay API, cached", cached),
        ("the walk as before (JSON again, every play reviewed)", before),
    ):
        print(f"{name:52}{p50(times):8.1f}{p50(times) / p50(cached):10.1f}")


if __name__ == "__main__":
    main()
