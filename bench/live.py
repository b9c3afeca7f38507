"""Benchmark: live tables on the production shape (issue 38, goals 3 and 4).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.live [--watchers 200] [--tables 4] [--table-steps 40] [--finishes 10]
    [DATABASE_URL=... REDIS_URL=...] python -m bench.live --steps [2000]

Starts the archive the README's production way on a PostgreSQL database of its own and
Redis database 15: gunicorn's threaded workers for pages and the phones' steps
(``fivesite.wsgi``), gunicorn with uvicorn's workers for the event streams
(``fivesite.asgi``), and a Celery worker per queue (uploads; stats and ratings; analysis).

1. **Watchers.** ``--tables`` phones record simulated matches, a step every ``--pace``
   seconds each, while ``--watchers`` streams follow the club night (a fifth on the club's
   page, the rest on the tables' pages), from a process of their own (issue 55: 1,000 of
   them). Prints, from a step's send to each watcher's receipt of it, the median, 95th
   percentile and worst (goal: 95th percentile within 1 s); the steps any watcher of a table
   never received (goal: none); and the median and 95th percentile of two other pages (the
   club page, the match list) with the watchers and without them, side by side (goal: the
   95th percentile at most doubles).
2. **The last tile.** ``--finishes`` matches are recorded live to their last step but one;
   then, for each, from the send of the last step: the stored match's watchers are sent to
   it (the stream's end), and its page shows the new ratings. Prints each phase's median
   and 95th percentile.

Without PostgreSQL and Redis it says so and stops (with neither, the pages poll: there is
no stream to time).

3. **One walk per step** (``--steps``, alone: issue 57, item 3). A phone puts the steps of
   a long match one by one through the service (``live.live_steps_put``, in this process:
   the engine's walk, the database's reads and writes, the watchers told through Redis with
   PostgreSQL), at two tables: one to step 2,000, one to step 200, the hundred steps before
   each put one of each in turn (the machine's load then falls on both alike). Prints the
   median cost of those steps at each and their ratio (goal: at most 1.3: a step costs its
   hand, not the match). Beside it, the old way: the walk of the whole match to each of
   those steps (``live.views_walked_whole``, what a view is), alone. On a PostgreSQL
   database of its own (``fives_bench_live_steps``), else a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from bench.benchdb import bench_database
from bench.served import NO_THROTTLES, ROOT, TEST_GUNICORN, Gunicorn, free_port
from deploy.nginx import Nginx, site
from deploy.nginx import missing as nginx_missing

CLUB = "bench-live-club"
PASSWORD = "bench-live-password-1"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


class Phone:
    """A phone at a table: sends its steps (``/record/live/``) over one kept connection."""

    def __init__(self, port: int, cookie: str, csrf: str, doc: dict, setup: dict, steps: list):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Content-Type": "application/json",
        }
        self.doc, self.setup, self.steps = doc, setup, steps

    def send(self, start: int, count: int = 1) -> dict:
        body = {
            "id": self.doc["id"],
            "club": CLUB,
            "setup": self.setup,
            "from": start,
            "steps": self.steps[start : start + count],
        }
        try:
            self.connection.request("POST", "/record/live/", json.dumps(body), self.headers)
            answer = self.connection.getresponse()
        except (ConnectionError, http.client.HTTPException):
            # gunicorn closed the kept connection (idle past its keep-alive): a new one.
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.connection.request("POST", "/record/live/", json.dumps(body), self.headers)
            answer = self.connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"step {start}: {answer.status} {data[:300]!r}")
        return json.loads(data)


async def watch(port: int, path: str, cookie: str, on_event, ready: asyncio.Event | None):
    """Follow one event stream until it ends or is cancelled; call ``on_event(data)``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"{path}: {status!r}")
    chunked = False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        chunked |= line.lower().startswith(b"transfer-encoding: chunked")
    buffer = b""
    try:
        while True:
            if chunked:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                chunk = await reader.readexactly(size + 2)
                buffer += chunk[:-2]
            else:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"data: "):
                        on_event(json.loads(line[6:]))
                        if ready is not None:
                            ready.set()
                            ready = None
    finally:
        writer.close()


def server_times(
    port: int, cookie: str, paths: list[str], rounds: int
) -> dict[str, tuple[float, float]]:
    """The median and 95th percentile time of each page, asked ``rounds`` times (one kept
    connection)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: dict[str, list[float]] = {path: [] for path in paths}
    for _ in range(rounds):
        for path in paths:
            started = time.perf_counter()
            connection.request("GET", path, headers={"Cookie": cookie})
            answer = connection.getresponse()
            answer.read()
            if answer.status != 200:
                raise RuntimeError(f"{path}: {answer.status}")
            times[path].append(time.perf_counter() - started)
    return {
        path: (statistics.median(values), percentile(values, 0.95))
        for path, values in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--table-steps", type=int, default=40, help="steps each table sends")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's steps")
    parser.add_argument("--finishes", type=int, default=10)
    parser.add_argument(
        "--steps",
        type=int,
        nargs="?",
        const=2000,
        metavar="N",
        help="alone: put N steps (2000) of a match one by one; the cost of a step at N/10 and N",
    )
    args = parser.parse_args()
    if args.steps is not None:
        one_by_one(args.steps)
        return
    redis_url = os.environ.get("REDIS_URL", "")
    url = os.environ.get("DATABASE_URL", "")
    if not redis_url or not url.startswith(("postgres://", "postgresql://")):
        print("bench.live needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): skipped")
        return
    database_url, _ = bench_database(url, "fives_bench_live")
    redis_url = urlunparse(urlparse(redis_url)._replace(path="/15"))
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=redis_url, **NO_THROTTLES)
    os.environ.update(FIVES_STATIC_SOURCES="1", DJANGO_SETTINGS_MODULE="fivesite.settings")
    os.environ.pop("DEBUG", None)
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    redis.Redis.from_url(redis_url).flushdb()
    call_command("migrate", verbosity=0)
    cookies = _people(args.tables)
    workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = dict(os.environ)
    web_port, stream_port = free_port(), free_port()
    web = Gunicorn(env, web_port, TEST_GUNICORN, log=workdir / "web.log")
    streams = Gunicorn(
        {**env, "FIVES_DATABASE_POOL": "8"},
        stream_port,
        ["--worker-class", "uvicorn_worker.UvicornWorker", "--workers", "1"],
        log=workdir / "streams.log",
    )
    streams.command[streams.command.index("fivesite.wsgi")] = "fivesite.asgi"
    workers = [
        _worker(env, queues, workdir)
        for queues in ("uploads", "stats,ratings", "analysis", "notices")
    ]
    web.start()
    streams.start()
    proxy = None
    front = "straight to the servers (no nginx here: make proxy installs it)"
    if nginx_missing() is None:
        # nginx in front, the README's way: the pages and steps to gunicorn, the streams to
        # the ASGI server.
        port = free_port()
        text = site(
            upstream=f"127.0.0.1:{web_port}",
            stream_upstream=f"127.0.0.1:{stream_port}",
            static_root=workdir / "static",
            http_listen=f"127.0.0.1:{port}",
        )
        proxy = Nginx(workdir / "nginx", text, ports=[port])
        proxy.start()
        web_port = stream_port = port
        front = "through nginx (deploy/nginx-site.conf)"
    try:
        print(
            f"bench.live: gunicorn (2 gthread workers) + gunicorn/uvicorn (1 worker) + 4 "
            f"celery workers, PostgreSQL, Redis, {front}; {os.cpu_count()} cores"
        )
        _watchers(args, web_port, stream_port, cookies)
        _finishes(args, web_port, stream_port, cookies)
    finally:
        if proxy is not None:
            proxy.stop()
        web.stop()
        streams.stop()
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(20)


def _worker(env: dict, queues: str, workdir: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "fivesite", "worker", "-Q", queues,
         "--pool=solo", "--without-mingle", "--without-gossip", "-l", "warning",
         "-n", f"{queues.replace(',', '-')}@bench-live"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=(workdir / f"celery-{queues}.log").open("wb"),
    )  # fmt: skip


def _people(tables: int) -> dict[str, str]:
    """The club, its phones' recorders and a watcher: each one's session cookie."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from clubs.models import Membership
    from clubs.services import club_create

    users = get_user_model().objects
    owner = users.create_user("bench-organiser", password=PASSWORD)
    club = club_create(owner=owner, name="Bench live club", slug=CLUB)
    cookies = {}
    for name in [f"bench-phone-{i}" for i in range(tables)] + ["bench-watcher"]:
        user = users.create_user(name, password=PASSWORD)
        Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
        client = Client()
        client.force_login(user)
        cookies[name] = f"sessionid={client.cookies['sessionid'].value}"
    return cookies


def _records(count: int, seed: int, steps_min: int) -> list[tuple[dict, dict, list]]:
    from fives_engine import to_table_record
    from fives_engine.simulate import simulate_match
    from recorder.live import steps_of

    records = []
    while len(records) < count:
        seed += 1
        doc = to_table_record(simulate_match("all-fives", 2, seed=seed))
        doc.pop("final_scores", None)
        doc = {**doc, "id": f"rec-bench-{seed}", "club": "Bench live club"}
        setup, steps = steps_of(doc)
        if len(steps) > steps_min:
            records.append((doc, setup, steps))
    return records


def _watch_all(pipe, port: int, cookie: str, plan: list[tuple[str, int | None]], ids: list[int]):
    """The watchers, in a process of their own (the phones' and the pages' clients stay in
    the bench's): each of ``plan`` follows a stream (a table's, ``(path, table)``, or the
    club night's, ``(path, None)``), says "ready" once every stream has its first event,
    then gathers each step's receipt times (``time.monotonic``, one clock for every process
    of the machine) until told to stop, and sends them back with the steps each table's
    watcher saw."""
    received: dict[tuple[int, int], list[float]] = {}
    seen_by: list[tuple[int, list[int]]] = []

    async def run() -> None:
        tasks, readies = [], []
        for path, table in plan:
            ready = asyncio.Event()
            readies.append(ready)
            if table is None:

                def on_event(data):
                    now = time.monotonic()
                    for row in [data["table"]] if "table" in data else data["tables"]:
                        if row["id"] in ids:
                            key = (ids.index(row["id"]), row["steps"] - 1)
                            received.setdefault(key, []).append(now)

            else:
                seen: list[int] = []
                seen_by.append((table, seen))

                def on_event(data, _table=table, _seen=seen):
                    now = time.monotonic()
                    for step in data["steps"]:
                        _seen.append(step["n"])
                        received.setdefault((_table, step["n"]), []).append(now)

            tasks.append(asyncio.create_task(watch(port, path, cookie, on_event, ready)))
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        pipe.send("ready")
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)  # "stop"
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    pipe.send((received, seen_by))


def _watchers(args, web_port: int, stream_port: int, cookies: dict[str, str]) -> None:
    from recorder.models import LiveMatch

    csrf = secrets.token_hex(16)
    phones = []
    for table, (doc, setup, steps) in enumerate(_records(args.tables, 100, args.table_steps + 2)):
        phone = Phone(web_port, cookies[f"bench-phone-{table}"], csrf, doc, setup, steps)
        phone.send(0)
        phones.append(phone)
    ids = [LiveMatch.objects.get(record_id=p.doc["id"]).pk for p in phones]
    watcher = cookies["bench-watcher"]
    pages = [f"/clubs/{CLUB}/", "/matches/"]
    quiet = server_times(web_port, watcher, pages, 20)
    sent: dict[tuple[int, int], float] = {}
    busy: dict[str, tuple[float, float]] = {}
    # A fifth of the watchers on the club night's page, the rest on the tables' pages.
    plan: list[tuple[str, int | None]] = [
        (f"/live/stream/clubs/{CLUB}/", None)
        if index % 5 == 0
        else (f"/live/stream/{ids[index % len(ids)]}/?after=0", index % len(ids))
        for index in range(args.watchers)
    ]
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    watchers = multiprocessing.get_context("spawn").Process(
        target=_watch_all, args=(theirs, stream_port, watcher, plan, ids)
    )
    watchers.start()
    if not ours.poll(180) or ours.recv() != "ready":
        watchers.kill()
        raise RuntimeError("the watchers' process did not connect its streams")

    def play(table: int) -> None:
        phone = phones[table]
        time.sleep(args.pace * table / len(phones))
        for number in range(1, args.table_steps):
            sent[(table, number)] = time.monotonic()
            phone.send(number)
            time.sleep(args.pace)

    def pages_meanwhile() -> None:
        time.sleep(args.pace * 3)
        busy.update(server_times(web_port, watcher, pages, 20))

    threads = [threading.Thread(target=play, args=(table,)) for table in range(len(phones))]
    threads.append(threading.Thread(target=pages_meanwhile))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(2)  # the last steps' events
    ours.send("stop")
    received, seen_by = ours.recv()
    watchers.join(30)
    delays = [
        receipt - sent[key] for key, receipts in received.items() if key in sent
        for receipt in receipts
    ]  # fmt: skip
    expected = set(range(args.table_steps))
    dropped = sum(len(expected - set(seen)) for _, seen in seen_by)
    print(
        f"\n1. A tap at a table to a watcher's stream: {len(phones)} tables, a step every "
        f"{args.pace} s each, {args.watchers} watchers ({args.watchers // 5} on the club "
        f"night's page) in a process of their own, {len(delays)} receipts"
    )
    print(
        f"   median {ms(statistics.median(delays))}, 95th percentile "
        f"{ms(percentile(delays, 0.95))} (goal 1 s), worst {ms(max(delays))}"
    )
    print(f"   steps a table's watcher never received: {dropped} (goal 0)")
    for path in pages:
        (busy_median, busy_p95), (quiet_median, quiet_p95) = busy[path], quiet[path]
        print(
            f"   {path}: median {ms(busy_median)}, 95th percentile {ms(busy_p95)} with the "
            f"watchers; {ms(quiet_median)}, {ms(quiet_p95)} without "
            f"(95th percentile {busy_p95 / quiet_p95:.2f}x, goal at most 2x)"
        )


def _finishes(args, web_port: int, stream_port: int, cookies: dict[str, str]) -> None:
    from recorder.models import LiveMatch

    csrf = secrets.token_hex(16)
    watcher = cookies["bench-watcher"]
    phases: dict[str, list[float]] = {"answered": [], "sent to the match": [], "page": []}
    for doc, setup, steps in _records(args.finishes, 500, 20):
        phone = Phone(web_port, cookies["bench-phone-0"], csrf, doc, setup, steps)
        phone.send(0, len(steps) - 1)
        live_id = LiveMatch.objects.get(record_id=doc["id"]).pk
        ended: dict[str, float | str] = {}

        def on_event(data, _ended=ended):
            url = (data.get("end") or {}).get("url")
            if url:
                _ended.update(at=time.perf_counter(), url=url)

        async def finish(_phone=phone, _steps=steps, _live_id=live_id, _ended=ended) -> float:
            ready = asyncio.Event()
            path = f"/live/stream/{_live_id}/"
            task = asyncio.create_task(watch(stream_port, path, watcher, on_event, ready))
            await ready.wait()
            started = time.perf_counter()
            await asyncio.get_running_loop().run_in_executor(None, _phone.send, len(_steps) - 1)
            answered = time.perf_counter()
            await asyncio.wait_for(task, 30)
            phases["answered"].append(answered - started)
            return started

        started = asyncio.run(finish())
        phases["sent to the match"].append(ended["at"] - started)
        page = _page_with_ratings(web_port, watcher, str(ended["url"]))
        phases["page"].append(page - started)
    print(
        f"\n2. The last tap to the stored match's page with its new ratings "
        f"({args.finishes} matches, one at a time)"
    )
    for name, values in phases.items():
        print(
            f"   {name}: median {ms(statistics.median(values))}, 95th percentile "
            f"{ms(percentile(values, 0.95))}" + (" (goal 1 s)" if name == "page" else "")
        )


def one_by_one(count: int) -> None:
    """``--steps``: put ``count`` steps of a match one by one through the service; print the
    cost of a step at ``count / 10`` and at ``count`` (see the module's words)."""
    url = os.environ.get("DATABASE_URL", "")
    database_url, kind = bench_database(url, "fives_bench_live_steps")
    os.environ.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="fivesite.settings")
    if kind != "PostgreSQL":
        os.environ.pop("REDIS_URL", None)  # the watchers told only with PostgreSQL's
    os.environ.pop("DEBUG", None)  # (DEBUG keeps every query in memory)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create
    from fives_engine import COMPILED_FROM
    from recorder import live

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench-phone")
    club = club_create(owner=user, name="Bench live club", slug=CLUB)
    setup, steps = _long_match(count)
    width = max(1, min(100, count // 10))
    points = (count // 10, count)
    started = time.perf_counter()

    def put(record_id: str, number: int) -> float:
        began = time.perf_counter()
        live.live_steps_put(
            user=user, club=club, record_id=record_id, setup=setup, start=number,
            steps=[steps[number]],
        )  # fmt: skip
        return time.perf_counter() - began

    def walk_whole(number: int) -> float:
        """The old way: the step's walk of the whole match to it, alone."""
        began = time.perf_counter()
        live.views_walked_whole(setup, steps[: number + 1], number)
        return time.perf_counter() - began

    # Two tables playing the same match, each put a step at a time, one to step 200 and
    # one to 2,000. The steps before each point are put one of each table in turn: on a
    # machine shared with other work, whose load drifts over a minute, both windows then
    # meet the same load.
    tables = [f"rec-steps-{point}" for point in points]
    for number in range(points[1] - width):
        put(tables[1], number)
    for number in range(points[0] - width):
        put(tables[0], number)
    costs: dict[int, list[float]] = {point: [] for point in points}
    walks: dict[int, list[float]] = {point: [] for point in points}
    for offset in range(width):
        for table, point in zip(tables, points, strict=True):
            costs[point].append(put(table, point - width + offset))
            walks[point].append(walk_whole(point - width + offset))
    took = time.perf_counter() - started
    low, high = (statistics.median(costs[point]) for point in points)
    old = [statistics.median(walks[point]) for point in points]
    redis_url = os.environ.get("REDIS_URL")
    told = "the watchers told through Redis" if redis_url else "no Redis: nobody told"
    engine = "compiled" if COMPILED_FROM else "pure Python"
    print(
        f"bench.live --steps: a match put step by step through live_steps_put at two tables, "
        f"to steps {points[0]:,} and {points[1]:,}, their last {width} in turn ({kind}, "
        f"{told}; the engine {engine}; {os.cpu_count()} cores)"
    )
    print(
        f"3. A step's cost (the median of the {width} before): {ms3(low)} at step "
        f"{points[0]:,}, {ms3(high)} at step {points[1]:,}: {high / low:.2f}x (goal at most "
        f"1.3x); {ms3(took)} for both tables"
    )
    print(
        f"   the old way, the whole match walked again for each step (its walk alone): "
        f"{ms3(old[0])} at step {points[0]:,}, {ms3(old[1])} at step {points[1]:,}: "
        f"{old[1] / old[0]:.2f}x"
    )


def ms3(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _long_match(count: int) -> tuple[dict, list]:
    """The set-up and steps of a simulated match of more than ``count`` steps (two players
    to a target far enough), never over within them."""
    from fives_engine import to_table_record
    from fives_engine.simulate import simulate_match
    from recorder.live import steps_of

    target = 100 + count * 3 // 2
    while True:
        ruleset = {"base": "all-fives", "target": target}
        doc = to_table_record(simulate_match(ruleset, 2, seed=5, max_hands=1000))
        doc.pop("final_scores", None)
        setup, steps = steps_of({**doc, "id": "rec-steps", "club": "Bench live club"})
        if len(steps) > count:
            return setup, steps
        target += target // 2


def _page_with_ratings(port: int, cookie: str, url: str) -> float:
    """Fetch the stored match's page until it shows the match's ratings; return when."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        connection.request("GET", url, headers={"Cookie": cookie})
        answer = connection.getresponse()
        body = answer.read()
        if answer.status == 200 and b'class="match-ratings"' in body:
            return time.perf_counter()
        time.sleep(0.02)
    raise RuntimeError(f"{url} never showed its ratings")


if __name__ == "__main__":
    main()
