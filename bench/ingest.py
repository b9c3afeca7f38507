"""Benchmark: ingest simulated matches end to end, against the engine alone.

    python -m bench.ingest [--matches 2000] [--mix] [--per-upload 200] [--seed 7]

With DATABASE_URL (PostgreSQL) and REDIS_URL set, uploads go through the upload service to
one real ``celery worker`` process serving the uploads queue into a database of its own
(``fives_bench``, made anew on that server): the uploads are accepted first (timed: the web
process's part, hashing and compressing each document), then the ready worker is let at
the queue and timed until every upload is done; a second worker then serves the statistics
and ratings queues, timed on its own. Without them, into a fresh SQLite file with tasks
in-process (statistics included in the ingest time). In the same run the engine alone
validates the same matches, as ``validate_log``, as ``read_document`` then
``check_document`` alone (report and review), and as ingest's own reading and one walk
(``ingest.log_checked``: that, the canonical text and its hash, and the hands packed by the
codec: all ingest makes of a log before the database; the walk/ingest goal of issue 39 is
set on it, as it was when ``check_document`` itself packed). ``--mix`` draws the matches
from every preset and 2, 3 and 4 players and partnerships instead of two-player muggins.

It also times what the worker must do to each document before any walk (its upload's work
copy back to text, zstd, then JSON), alone and added to ``validate_log``: the least any
ingest of these documents can take, whatever it does next; and the same from the document
as kept (bz2), which a worker reads only for an upload without a work copy. The table of
work copies (emptied by then) is vacuumed before the room is measured, as autovacuum would.

Prints matches/s and moves/s for each and the ratios; the worker's peak memory at a quarter,
half and all of the uploads (it must not grow with the number of matches); the database
bytes per stored move (everything: documents as sent, matches, hands, statistics, ratings);
and the export's matches/s.
"""

from __future__ import annotations

import argparse
import bz2
import itertools
import json
import os
import pathlib
import secrets
import subprocess
import sys
import time

from bench.benchdb import bench_database
from fives_engine import PRESETS

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Every preset of the engine's table, at every table.
MIX = [
    (ruleset, players, teams)
    for ruleset in PRESETS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--per-upload", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mix", action="store_true", help="every preset and player count")
    args = parser.parse_args()
    kind, redis_url = _environment()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create
    from fives_engine.simulate import simulate_matches

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    club = club_create(owner=user, name="Bench club", slug="bench-club")
    docs = _corpus(simulate_matches, args)
    for number, doc in enumerate(docs):
        doc["id"] = f"bench-{number}"
        doc["club"] = club.name
    moves = sum(len(hand["moves"]) for doc in docs for hand in doc["hands"])
    files = [
        b"".join(json.dumps(doc).encode() + b"\n" for doc in docs[start : start + args.per_upload])
        for start in range(0, len(docs), args.per_upload)
    ]
    timed = ingest_timed(user, files, redis_url)
    if redis_url:
        timed["statistics and ratings (worker)"] = _statistics(docs)
    _check_stored(docs, moves)
    timed |= _engine_alone(docs, files)
    room = database_room()
    what = "matches of every preset, 2-4 players" if args.mix else "two-player muggins matches"
    print(
        f"{len(docs)} {what}, {moves} moves; {kind}"
        f"{', one celery worker on Redis' if redis_url else ''}; {len(files)} NDJSON uploads"
    )
    _report(timed, len(docs), moves, room)


def _environment() -> tuple[str, str]:
    """Point Django at the bench's own database (and Redis, with PostgreSQL); return the
    database's kind and the Redis URL ("" for tasks in-process)."""
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
    return kind, redis_url


def ingest_timed(user, files: list[bytes], redis_url: str, workers: int = 1) -> dict[str, object]:
    """Send the uploads and time them until every one is done: accepted by the web
    process, then stored by ``workers`` workers on the uploads queue (with Redis), or
    in-process. Return the times by name (and the first worker's peak memory, ``"memory"``).
    ``bench.scale`` times one and two workers with it."""
    from games.models import Upload
    from games.services.uploads import upload_create

    running: list[subprocess.Popen] = []
    app = None
    names = [WORKER if number == 0 else f"{WORKER}-{number}" for number in range(workers)]
    memory: dict[str, int] = {}
    if redis_url:
        import redis

        from fivesite.celery import app

        redis.Redis.from_url(redis_url).flushdb()
        # The worker ready, but not taking uploads while they are sent: the clock then
        # times the worker alone (the web process's part, hashing and compressing each
        # document as sent, is timed on its own above it).
        running = [start_worker(app, name) for name in names]
    worker = running[0] if running else None
    try:
        started = time.perf_counter()
        uploads = [upload_create(uploader=user, data=data, kind="ndjson") for data in files]
        accept_seconds = time.perf_counter() - started
        ids = [upload.pk for upload in uploads]
        started = time.perf_counter()
        if worker is not None:
            app.control.add_consumer("uploads", destination=names, reply=True)
        marks = {len(ids) // 4: "a quarter", len(ids) // 2: "half", len(ids): "all"}
        while True:
            done = Upload.objects.filter(pk__in=ids).exclude(status=Upload.Status.PENDING).count()
            for mark, name in marks.items():
                if worker is not None and done >= mark and name not in memory:
                    memory[name] = peak_kib(worker.pid)
            if done == len(ids):
                break
            time.sleep(0.1)
        ingest_seconds = time.perf_counter() - started
    finally:
        stop_workers(running)
    if worker is None:  # in-process: accepting an upload ingests it
        return {"ingest (upload -> db, in-process)": ingest_seconds + accept_seconds}
    return {
        "uploads accepted (web: hash, bz2, zstd)": accept_seconds,
        "ingest (queue -> worker -> db)": ingest_seconds,
        "memory": memory,
    }


def _statistics(docs: list[dict]) -> float:
    """Time a second worker serving the statistics and ratings queues until all is done."""
    from fivesite.celery import app
    from replays.models import RatingScope, SeatResult

    seats = sum(len(doc["players"]) for doc in docs)
    worker = start_worker(app)
    try:
        started = time.perf_counter()
        for queue in ("stats", "ratings"):
            app.control.add_consumer(queue, destination=[WORKER], reply=True)
        while SeatResult.objects.count() < seats or (
            RatingScope.objects.filter(dirty_from__isnull=False).exists()
        ):
            time.sleep(0.2)
        return time.perf_counter() - started
    finally:
        worker.terminate()
        worker.wait(30)


def _check_stored(docs: list[dict], moves: int) -> None:
    from django.db.models import Sum

    from games.models import Match

    stored = Match.objects.count()
    assert stored == len(docs), f"{stored} matches stored of {len(docs)}"
    assert Match.objects.aggregate(n=Sum("move_count"))["n"] == moves


def _engine_alone(docs: list[dict], files: list[bytes]) -> dict[str, float]:
    """Time the engine alone on the same matches, what the worker must do to every
    document before any walk, and the export."""
    from fives_engine import check_document, validate_log
    from games.export import export_lines
    from games.models import Match, Upload, UploadWorkCopy
    from games.services.ingest import log_checked, read_document

    started = time.perf_counter()
    for doc in docs:
        validate_log(doc)
    engine_seconds = time.perf_counter() - started
    texts = [json.dumps(doc).encode() for doc in docs]
    started = time.perf_counter()
    for text in texts:
        check_document(read_document(text))
    check_seconds = time.perf_counter() - started
    # Ingest's own read and walk: all it makes of a log before the database (its report,
    # canonical text and hash, and packed hands), as its batches do it.
    started = time.perf_counter()
    for index, text in enumerate(texts):
        log_checked(index, text)
    walk_seconds = time.perf_counter() - started

    # What the worker must do to every document before any walk: read it back (the
    # upload's work copy, zstd: UploadWorkCopy.document_of) and decode its JSON
    # (ingest.read_document); and the same from the document as kept (Upload.document:
    # bz2), which a worker reads only for an upload without a work copy.
    def read_back(stored: list[bytes], decompress) -> float:
        started = time.perf_counter()
        for raw in stored:
            for line in decompress(raw).splitlines():
                read_document(line)
        return time.perf_counter() - started

    work_copies = [UploadWorkCopy.compress(data) for data in files]
    read_seconds = read_back(work_copies, UploadWorkCopy.decompress)
    kept_seconds = read_back([Upload.compress(data)[0] for data in files], bz2.decompress)
    started = time.perf_counter()
    exported = sum(1 for _line in export_lines(Match.objects.order_by("id")))
    export_seconds = time.perf_counter() - started
    return {
        "engine alone (validate_log)": engine_seconds,
        "read and check_document alone": check_seconds,
        "ingest's read and walk (log_checked)": walk_seconds,
        "documents read back (zstd, JSON)": read_seconds,
        "read back + validate_log": read_seconds + engine_seconds,
        "documents as kept read (bz2, JSON)": kept_seconds,
        "export (fives/1 NDJSON)": export_seconds * len(docs) / exported,
    }


def database_room() -> tuple[int, int | None, list[tuple[str, int]]]:
    """Return the database's bytes, an empty one's (None for SQLite) and each table's."""
    from django.db import connection

    from games.models import UploadWorkCopy

    if connection.vendor != "postgresql":
        path = pathlib.Path(connection.settings_dict["NAME"])
        connection.close()
        return path.stat().st_size, None, []
    with connection.cursor() as cursor:
        # As autovacuum would once it sees them: give back the room of the work copies,
        # deleted as their uploads were processed, before the room is measured.
        cursor.execute(f"VACUUM {UploadWorkCopy._meta.db_table}")
        # Every table with its indexes and TOAST, largest first.
        cursor.execute(
            "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC"
        )
        tables = cursor.fetchall()
        cursor.execute("SELECT pg_database_size(current_database())")
        database_bytes = cursor.fetchone()[0]
        cursor.execute("SELECT pg_database_size('template1')")
        empty_bytes = cursor.fetchone()[0]
    return database_bytes, empty_bytes, tables


def _report(timed: dict, matches: int, moves: int, room) -> None:
    """Print matches/s and moves/s of each timed step, the ratios, the worker's memory and
    the database's bytes per move."""
    memory = timed.pop("memory", {})
    print(f"{'':36}{'matches/s':>11}{'moves/s':>12}")
    for name, seconds in timed.items():
        print(f"{name:36}{matches / seconds:11,.0f}{moves / seconds:12,.0f}")
    ingest_seconds = next(seconds for name, seconds in timed.items() if name.startswith("ingest ("))
    engine_seconds = timed["engine alone (validate_log)"]
    print(f"ratio engine/ingest: {ingest_seconds / engine_seconds:.1f}x (validate_log)")
    walk_seconds = timed["ingest's read and walk (log_checked)"]
    print(f"ratio walk/ingest: {ingest_seconds / walk_seconds:.1f}x (log_checked)")
    check_seconds = timed["read and check_document alone"]
    print(f"ratio check/ingest: {ingest_seconds / check_seconds:.1f}x (check_document alone)")
    floor = timed["read back + validate_log"] / engine_seconds
    print(
        f"ratio engine/(read back + engine): {floor:.1f}x"
        " (the least any ingest of these stored documents can take, before a move is stored)"
    )
    if memory:
        print(
            "worker peak memory (VmHWM) after "
            + ", ".join(
                f"{name} of the uploads: {kib / 1024:.0f} MiB" for name, kib in memory.items()
            )
        )
    database_bytes, empty_bytes, tables = room
    if empty_bytes is None:
        print(f"bytes per stored move: {database_bytes / moves:.1f} for the whole SQLite file")
        return
    print(
        f"bytes per stored move: {(database_bytes - empty_bytes) / moves:.1f} for the whole "
        "database (less an empty one); per table, with its indexes: "
        + ", ".join(f"{name} {size / moves:.1f}" for name, size in tables if size / moves >= 0.1)
    )


def _corpus(simulate_matches, args) -> list[dict]:
    """Return the matches to ingest: two-player muggins, or every preset and table."""
    if not args.mix:
        return list(simulate_matches(args.matches, seed=args.seed, ruleset="muggins", players=2))
    per_kind = -(-args.matches // len(MIX))
    kinds = [
        simulate_matches(
            per_kind, seed=args.seed + n, ruleset=ruleset, players=players, teams=teams
        )
        for n, (ruleset, players, teams) in enumerate(MIX)
    ]
    mixed = [doc for group in itertools.zip_longest(*kinds) for doc in group if doc is not None]
    return mixed[: args.matches]


def peak_kib(pid: int) -> int:
    """Return the peak resident memory of a process so far (Linux's VmHWM), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


WORKER = "celery@fives-bench"


def start_worker(app, name: str = WORKER, queue: str = "bench-idle") -> subprocess.Popen:
    """Start one ``celery worker`` process named ``name`` on ``queue``, one task at a time;
    return once it answers. By default it takes no task yet (it serves a queue nobody sends
    to; ``add_consumer`` gives it work when the clock
    starts)."""
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
            queue,
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
    while not app.control.ping(destination=[name], timeout=0.5):
        if worker.poll() is not None:
            raise SystemExit("the celery worker did not start")
    return worker


def stop_workers(workers: list[subprocess.Popen]) -> None:
    """Stop the ``celery worker`` processes ``start_worker`` started (a warm shutdown: the
    task in hand is finished)."""
    for worker in workers:
        worker.terminate()
        worker.wait(30)


if __name__ == "__main__":
    main()
