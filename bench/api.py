"""Benchmark: the API under gunicorn on this machine.

    python -m bench.api [--matches 3000] [--seconds 8] [--clients 4] [--workers 2]

Loads simulated matches through the services into a database of its own (PostgreSQL
``fives_bench_api`` when DATABASE_URL is set, else a fresh SQLite file), starts gunicorn on
127.0.0.1, and prints requests/s for the match list, a match and a replay next to a trivial
endpoint of the same server (the ceiling), then the export rate in matches/s. Throttling is
lifted for the run: it measures capacity, not limits.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

from bench.benchdb import bench_database

ROOT = pathlib.Path(__file__).resolve().parents[1]

PORT = 8765


def load(count: int) -> list[int]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create
    from fives_engine.simulate import simulate_matches
    from fivesite.celery import app
    from games.models import Match
    from games.services.ingest import upload_process
    from games.services.uploads import upload_create

    call_command("migrate", verbosity=0)
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    user = get_user_model().objects.create_user("bench")
    # Clubs are made on purpose (a log never makes one): the bench's, owned by its user.
    club_create(owner=user, name="Bench club", slug="bench-club")
    docs = list(simulate_matches(count, seed=9, ruleset="muggins", players=2))
    for number, doc in enumerate(docs):
        doc["id"] = f"api-{number}"
        doc["club"] = "Bench club"
    for start in range(0, count, 1000):
        data = b"\n".join(json.dumps(doc).encode() for doc in docs[start : start + 1000])
        upload = upload_create(uploader=user, data=data, kind="ndjson")
        upload_process(upload_id=upload.pk)
    return list(Match.objects.order_by("id").values_list("id", flat=True))


def hammer(path: str, seconds: float, clients: int) -> float:
    """Return requests/s answered 200 by ``clients`` threads asking ``path`` for ``seconds``."""
    done = [0] * clients
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        while time.monotonic() < stop:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status == 200:
                done[index] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.monotonic() - started)


@contextlib.contextmanager
def serving(workers: int, env: dict[str, str]) -> Iterator[None]:
    """Run gunicorn on 127.0.0.1:PORT (as the README serves the archive) until the block
    ends; return once it answers."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "fivesite.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=2).request(
                    "GET", "/api/v1/ping/"
                )
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), "fives_bench_api")
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    import django

    django.setup()
    ids = load(args.matches)
    match_id = ids[len(ids) // 2]

    env = dict(
        os.environ,
        FIVES_THROTTLE_READ="100000000/min",
        FIVES_THROTTLE_EXPORT="100000000/min",
    )
    with serving(args.workers, env):
        paths = {
            "trivial (ping)": "/api/v1/ping/",
            "match list": "/api/v1/matches/",
            "a match": f"/api/v1/matches/{match_id}/",
            "a replay": f"/api/v1/matches/{match_id}/replay/",
        }
        for path in paths.values():
            hammer(path, 0.5, 1)  # warm every worker
        rates = {name: hammer(path, args.seconds, args.clients) for name, path in paths.items()}

        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=600)
        connection.request("GET", "/api/v1/matches/export")
        response = connection.getresponse()
        exported = 0
        for _line in response:
            exported += 1
        export_seconds = time.monotonic() - started

    print(
        f"{len(ids)} matches; {kind}; gunicorn with {args.workers} sync workers; "
        f"{args.clients} client threads for {args.seconds:.0f} s each"
    )
    ceiling = rates["trivial (ping)"]
    for name, rate in rates.items():
        print(f"{name:16} {rate:9.0f} requests/s   {rate / ceiling:5.2f} of the trivial endpoint")
    print(
        f"export: {exported} matches in {export_seconds:.2f} s = "
        f"{exported / export_seconds:,.0f} matches/s"
    )


if __name__ == "__main__":
    main()
