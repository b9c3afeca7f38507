"""Benchmark: a match stored to its webhook answered (issue 59, item 1; goal: p95 <= 1 s).

    python -m bench.webhooks [--matches 1000] [--per-upload 5] [--rate 20] [--seed 7]

A club's endpoint takes ``match.stored`` at a receiver this bench starts (an HTTP server on
127.0.0.1, so private addresses are allowed for the run), which verifies every delivery with
the ``standardwebhooks`` package and notes when it answered. Simulated matches are uploaded
``--per-upload`` at a time at ``--rate`` matches a second; each match's time is from its row
stored (``Match.created_at``) to its webhook answered.

With DATABASE_URL (PostgreSQL) and REDIS_URL set, the production way: a database of its own
(``fives_bench_webhooks``), one ``celery worker`` serving the uploads, statistics and ratings
queues, one task at a time, and one serving the ``webhooks`` queue with ``--concurrency``
processes (docs/deploy.md's 2). Without them, a fresh
SQLite file with tasks in-process (the delivery then runs in the uploading process itself).

Prints the median, p95 and the slowest, the deliveries verified, and the goal.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import secrets
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.benchdb import bench_database
from bench.ingest import start_worker, stop_workers

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOAL_P95 = 1.0  # seconds (issue 59's goal, on the production way)


class Arrivals:
    """What the receiver got: each webhook-id once, its match and when it answered."""

    def __init__(self, secret: str) -> None:
        from standardwebhooks import Webhook

        self.hook = Webhook(secret)
        self.at: dict[str, tuple[int, float]] = {}
        self.unverified = 0
        self.duplicates = 0
        self.lock = threading.Lock()

    def take(self, body: bytes, headers: dict[str, str]) -> None:
        now = time.time()
        try:
            event = self.hook.verify(body, headers)
        except Exception:  # the package raises its own on a bad signature
            with self.lock:
                self.unverified += 1
            return
        with self.lock:
            if headers["webhook-id"] in self.at:
                self.duplicates += 1
            else:
                self.at[headers["webhook-id"]] = (event["data"]["id"], now)


def receiver(arrivals: Arrivals) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            arrivals.take(body, {key.lower(): value for key, value in self.headers.items()})
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--per-upload", type=int, default=5)
    parser.add_argument("--rate", type=float, default=20.0, help="matches uploaded a second")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--concurrency", type=int, default=2, help="the webhooks worker's")
    args = parser.parse_args()
    kind, redis_url = _environment()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create
    from fives_engine.simulate import simulate_matches
    from fivesite.celery import app
    from games.models import Match, Upload
    from games.services.uploads import upload_create
    from webhooks.services import endpoint_create

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    club = club_create(owner=user, name="Bench club", slug="bench-club")
    docs = list(simulate_matches(args.matches, seed=args.seed, ruleset="muggins", players=2))
    for number, doc in enumerate(docs):
        doc["id"] = f"bench-{number}"
    server = None
    workers = []
    try:
        if redis_url:
            workers = [
                start_worker(app, "celery@fives-bench-uploads", "uploads,stats,ratings"),
                webhooks_worker(app, args.concurrency),
            ]
        arrivals_box: list[Arrivals] = []
        server = receiver(_Late(arrivals_box))
        endpoint = endpoint_create(
            actor=user,
            club=club,
            url=f"http://127.0.0.1:{server.server_address[1]}/fives",
            events=["match.stored"],
        )
        arrivals = Arrivals(endpoint.secret)
        arrivals_box.append(arrivals)
        started = time.monotonic()
        pause = args.per_upload / args.rate
        for first in range(0, len(docs), args.per_upload):
            batch = docs[first : first + args.per_upload]
            data = b"".join(json.dumps(doc).encode() + b"\n" for doc in batch)
            upload_create(uploader=user, data=data, kind=Upload.Kind.NDJSON, club=club)
            time.sleep(max(0.0, started + (first + len(batch)) / args.rate - time.monotonic()))
        deadline = time.monotonic() + 120 + args.matches * pause / args.per_upload
        while len(arrivals.at) < args.matches and time.monotonic() < deadline:
            time.sleep(0.1)
        took = time.monotonic() - started
    finally:
        stop_workers(workers)
        if server is not None:
            server.shutdown()
    stored = dict(Match.objects.values_list("pk", "created_at"))
    waits = sorted(at - stored[pk].timestamp() for pk, at in arrivals.at.values() if pk in stored)
    way = (
        f"PostgreSQL, Redis, a webhooks worker of {args.concurrency} processes"
        if redis_url
        else f"{kind}, tasks in-process"
    )
    print(
        f"{len(docs)} matches stored ({args.per_upload} an upload, {args.rate:g} a second; "
        f"{way}) in {took:.1f} s; {len(arrivals.at)} webhooks answered, "
        f"{arrivals.unverified} failed standardwebhooks' verification, "
        f"{arrivals.duplicates} came twice"
    )
    if not waits:
        raise SystemExit("no webhook arrived")
    p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))]
    print(
        f"stored to webhook answered: median {statistics.median(waits) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, slowest {waits[-1] * 1000:.0f} ms "
        f"(goal: p95 <= {GOAL_P95 * 1000:.0f} ms on the production way)"
    )
    if len(arrivals.at) < len(docs) or arrivals.unverified:
        raise SystemExit("some webhooks did not arrive, or did not verify")


class _Late:
    """The receiver's taker before the endpoint's secret is known (none arrives before)."""

    def __init__(self, box: list[Arrivals]) -> None:
        self.box = box

    def take(self, body: bytes, headers: dict[str, str]) -> None:
        self.box[0].take(body, headers)


def webhooks_worker(app, concurrency: int) -> subprocess.Popen:
    """Start the ``celery worker`` of the webhooks queue, ``concurrency`` processes; return
    once it answers."""
    name = "celery@fives-bench-webhooks"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "fivesite",
            "worker",
            "-n",
            name,
            "-Q",
            "webhooks",
            f"--concurrency={concurrency}",
            "--without-mingle",
            "--without-gossip",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
    )
    while not app.control.ping(destination=[name], timeout=0.5):
        if worker.poll() is not None:
            raise SystemExit("the celery worker did not start")
    return worker


def _environment() -> tuple[str, str]:
    """Point Django at the bench's own database (and Redis, with PostgreSQL); return the
    database's kind and the Redis URL ("" for tasks in-process)."""
    database_url, kind = bench_database(os.environ.get("DATABASE_URL"), "fives_bench_webhooks")
    redis_url = os.environ.get("REDIS_URL", "") if kind == "PostgreSQL" else ""
    os.environ["DATABASE_URL"] = database_url
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    else:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["FIVES_WEBHOOKS_ALLOW_PRIVATE"] = "1"  # the receiver is on 127.0.0.1
    os.environ.setdefault("FIVES_INPROCESS_BEAT", "0")
    return kind, redis_url


if __name__ == "__main__":
    main()
