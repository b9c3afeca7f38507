"""Benchmark: slow-header connections and slow bodies against gunicorn alone and behind the
archive's nginx.

    python -m bench.slowheaders [--slow 200] [--requests 400] [--rate 10] [--timeout 10]
                                [--bodies 100] [--body-seconds 75] [--only headers|bodies]
    python -m bench.slowheaders --smoke      # 10 slow connections, 20 requests: a few seconds

Serves an empty archive the README's production way (collectstatic, gunicorn with 4 gthread
workers x 8 threads, DEBUG off; SQLite in a folder of its own, or the PostgreSQL database
``fives_bench_slowheaders`` on the server DATABASE_URL names) with the archive's nginx
(deploy/nginx-site.conf) in front of the same gunicorn, and measures each in turn: ``--slow``
connections send the start of a request, then a byte of a header every few seconds, never
ending it (a connection the server closes is opened again at once, so that as many stay
open), while ``--requests`` normal requests (the match list page and the API's, by turns)
arrive at ``--rate`` a second, each given ``--timeout`` seconds. It prints, side by side, how
many timed out, failed otherwise or were answered, and their median and 95th-percentile
times.

Then slow bodies (issue 55: a pub's address locked out by them): ``--bodies`` connections,
from the same address as the normal requests, each sending the headers of a ``POST
/record/live/`` with ``Content-Length: 100000`` and then a byte of its body every 3 s (a
body the server cuts is opened again), held ``--body-seconds``, while normal requests arrive
as above. It prints how many of that address's requests were served (answered, and not
``429``), in all and from 30 s after the bodies began, and what became of the bodies: cut by
the server within 60 s of their first byte, later, or still held at the end. All traffic
stays on 127.0.0.1; every loop ends by its count or its deadline.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import os
import pathlib
import selectors
import shutil
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field

from bench.benchdb import bench_database
from bench.served import (
    NO_THROTTLES,
    README_GUNICORN,
    Gunicorn,
    free_port,
    gunicorn_missing,
    manage,
    production_env,
)
from deploy import nginx

HOST = "127.0.0.1"
PATHS = ["/", "/api/v1/matches/"]
# What a slow-header connection sends first, then one byte of its header's value at a time.
OPENING = b"GET /?slow=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowheaders\r\nX-Slow: "
# What a slow body sends first: the headers of a live step of the recorder (the door of the
# issue) and the first byte of its body; then a byte of the body at a time.
BODY_LENGTH = 100_000
BODY_OPENING = (
    b"POST /record/live/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowbodies\r\n"
    b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n[" % BODY_LENGTH
)
# The goals: a slow body is cut within this many seconds of its first byte, and the
# address's other requests are served from this many seconds after the bodies began.
CUT_WITHIN, SERVED_AFTER = 60.0, 30.0


@dataclass
class Figures:
    """What one target did while the slow connections were held."""

    requests: int = 0
    answered: int = 0  # any HTTP answer within the timeout (statuses counted apart)
    timed_out: int = 0  # no whole answer within the timeout
    failed: int = 0  # refused, reset or closed without an answer
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)  # of the answered ones, seconds
    slow_opened: int = 0  # slow connections opened, the first ones and those opened again
    slow_open_at_start: int = 0  # open when the normal requests began
    slow_closed_by_server: int = 0

    def percentile(self, share: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    @property
    def median(self) -> float | None:
        return statistics.median(self.latencies) if self.latencies else None


class SlowHeaders:
    """``count`` connections to ``port`` that never finish their headers (or, with another
    ``opening``, their body), each sending a byte every ``every`` seconds, held from ``start``
    to ``stop`` (a thread of its own). ``lifetimes`` are the seconds from each one's opening
    sent to the server letting it go; ``held`` those of the ones still open at the end."""

    def __init__(self, port: int, count: int, every: float = 3.0, opening: bytes = OPENING):
        self.port = port
        self.count = count
        self.every = every
        self.opening = opening
        self.selector = selectors.DefaultSelector()
        self.due: dict[socket.socket, float] = {}
        self.sent_at: dict[socket.socket, float] = {}
        self.lifetimes: list[float] = []
        self.held: list[float] = []
        self.opened = 0
        self.most = count * 100  # connections opened in all, at the most
        self.closed_by_server = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    @property
    def open(self) -> int:
        return len(self.due)

    def _open(self, now: float, index: int) -> None:
        if self.opened >= self.most:
            return
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.connect((HOST, self.port))
        except BlockingIOError:
            pass
        except OSError:
            sock.close()
            return
        self.opened += 1
        self.selector.register(sock, selectors.EVENT_WRITE)
        # Spread the bytes of the connections over the interval.
        self.due[sock] = now + self.every * (index % 50) / 50

    def _close(self, sock: socket.socket, *, by_server: bool = True) -> None:
        self.selector.unregister(sock)
        self.due.pop(sock, None)
        sent_at = self.sent_at.pop(sock, None)
        if sent_at is not None:
            lived = time.monotonic() - sent_at
            (self.lifetimes if by_server else self.held).append(lived)
        sock.close()

    def _run(self) -> None:
        sent_opening: set[socket.socket] = set()
        for index in range(self.count):
            self._open(time.monotonic(), index)
        while not self.stopping.is_set():
            now = time.monotonic()
            for key, events in self.selector.select(timeout=0.1):
                sock = key.fileobj
                if events & selectors.EVENT_READ:
                    # An answer (408, 400) or the end of the connection: the server let go.
                    self.closed_by_server += 1
                    sent_opening.discard(sock)
                    self._close(sock)
                    self._open(now, self.opened)
                    continue
                if events & selectors.EVENT_WRITE and sock not in sent_opening:
                    try:
                        sock.send(self.opening)
                    except OSError:
                        self._close(sock)
                        self._open(now, self.opened)
                        continue
                    sent_opening.add(sock)
                    self.sent_at[sock] = now
                    self.selector.modify(sock, selectors.EVENT_READ)
            for sock, due in list(self.due.items()):
                if sock in sent_opening and due <= now:
                    try:
                        sock.send(b"a")
                    except OSError:
                        self.closed_by_server += 1
                        sent_opening.discard(sock)
                        self._close(sock)
                        self._open(now, self.opened)
                        continue
                    self.due[sock] = now + self.every
        for sock in list(self.due):
            self._close(sock, by_server=False)

    def start(self, settle: float = 5.0) -> None:
        """Open the connections; return once each has sent its start (or after ``settle``)."""
        self.thread.start()
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and self.opened < self.count:
            time.sleep(0.05)
        time.sleep(min(1.0, settle))

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)


def _request(port: int, path: str, timeout: float) -> tuple[str, int, float]:
    """Ask for ``path``: ("answered", status, seconds), ("timed out", 0, s) or ("failed", 0, s)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Accept-Language": "en"})
        answer = connection.getresponse()
        answer.read()
    except TimeoutError:
        return "timed out", 0, time.monotonic() - started
    except (OSError, http.client.HTTPException):
        return "failed", 0, time.monotonic() - started
    finally:
        connection.close()
    seconds = time.monotonic() - started
    if seconds > timeout:
        return "timed out", 0, seconds
    return "answered", answer.status, seconds


def measure(port: int, *, slow: int, requests: int, rate: float, timeout: float = 10.0) -> Figures:
    """Hold ``slow`` slow-header connections to ``port`` while ``requests`` normal requests
    arrive at ``rate`` a second; return what became of them."""
    figures = Figures(requests=requests)
    holder = SlowHeaders(port, slow)
    holder.start()
    figures.slow_open_at_start = holder.open
    threads = max(1, min(requests, int(rate * timeout) + 10, 200))
    try:
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            started = time.monotonic()
            futures = []
            for number in range(requests):
                # Arrivals at a steady rate, whatever the server does (clients do not wait).
                delay = started + number / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                path = PATHS[number % len(PATHS)]
                futures.append(pool.submit(_request, port, path, timeout))
            for future in futures:
                outcome, status, seconds = future.result(timeout=timeout * 3 + 30)
                if outcome == "answered":
                    figures.answered += 1
                    figures.statuses[status] = figures.statuses.get(status, 0) + 1
                    figures.latencies.append(seconds)
                elif outcome == "timed out":
                    figures.timed_out += 1
                else:
                    figures.failed += 1
    finally:
        holder.stop()
    figures.slow_opened = holder.opened
    figures.slow_closed_by_server = holder.closed_by_server
    return figures


@dataclass
class BodyFigures:
    """What one target did while slow bodies came from the normal requests' own address."""

    requests: int = 0
    served: int = 0  # answered within the timeout, and not 429
    refused: int = 0  # answered 429
    lost: int = 0  # timed out, refused or reset without an answer
    late_requests: int = 0  # sent SERVED_AFTER seconds or more after the bodies began
    late_served: int = 0
    latencies: list[float] = field(default_factory=list)  # of the served, seconds
    bodies_open_at_start: int = 0
    bodies_opened: int = 0
    lifetimes: list[float] = field(default_factory=list)  # of the bodies the server cut
    held: list[float] = field(default_factory=list)  # of those still open at the end

    @property
    def cut_within(self) -> int:
        return sum(lived <= CUT_WITHIN for lived in self.lifetimes)

    @property
    def uncut_past(self) -> int:
        """Bodies that lived past CUT_WITHIN seconds without being cut: cut later or held."""
        return sum(lived > CUT_WITHIN for lived in self.lifetimes + self.held)


def measure_bodies(
    port: int, *, bodies: int, seconds: float, rate: float, timeout: float = 10.0
) -> BodyFigures:
    """Hold ``bodies`` slow bodies to ``port`` for ``seconds`` while normal requests from the
    same address arrive at ``rate`` a second; return what became of both."""
    figures = BodyFigures()
    holder = SlowHeaders(port, bodies, opening=BODY_OPENING)
    began = time.monotonic()
    holder.start()
    figures.bodies_open_at_start = holder.open
    end = began + seconds
    threads = max(1, min(int(rate * timeout) + 10, 200))
    try:
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            started = time.monotonic()
            futures = []
            while (due := started + len(futures) / rate) < end:
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                path = PATHS[len(futures) % len(PATHS)]
                sent = time.monotonic() - began
                futures.append((sent, pool.submit(_request, port, path, timeout)))
            for sent, future in futures:
                outcome, status, took = future.result(timeout=timeout * 3 + 30)
                figures.requests += 1
                late = sent >= SERVED_AFTER
                figures.late_requests += late
                if outcome == "answered" and status != 429:
                    figures.served += 1
                    figures.late_served += late
                    figures.latencies.append(took)
                elif outcome == "answered":
                    figures.refused += 1
                else:
                    figures.lost += 1
            time.sleep(max(0.0, end - time.monotonic()))
    finally:
        holder.stop()
    figures.bodies_opened = holder.opened
    figures.lifetimes, figures.held = holder.lifetimes, holder.held
    return figures


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole}" + (f" ({100 * part / whole:.0f}%)" if whole else "")


def report_bodies(
    columns: dict[str, BodyFigures], *, bodies: int, seconds: float, timeout: float, rate: float
) -> str:
    """The slow bodies' figures of each target, side by side."""
    lines = [
        f"{bodies} slow bodies (POST /record/live/, Content-Length {BODY_LENGTH}, a byte every "
        f"3 s) held {seconds:g} s from the address of the normal requests, which arrive at "
        f"{rate:g}/s, each given {timeout:g} s",
        f"{'':52}" + "".join(f"{name:>26}" for name in columns),
    ]
    rows = [
        ("the address's requests served (not 429)", lambda f: _share(f.served, f.requests)),
        (
            f"  of those sent {SERVED_AFTER:g} s on",
            lambda f: _share(f.late_served, f.late_requests),
        ),
        ("  answered 429", lambda f: str(f.refused)),
        (f"  timed out at {timeout:g} s or failed", lambda f: str(f.lost)),
        ("  median time of the served", lambda f: _seconds(_median(f.latencies))),
        ("slow bodies open at the start", lambda f: str(f.bodies_open_at_start)),
        ("slow bodies opened in all", lambda f: str(f.bodies_opened)),
        (
            f"cut by the server within {CUT_WITHIN:g} s of their first byte",
            lambda f: str(f.cut_within),
        ),
        ("cut by the server later", lambda f: str(len(f.lifetimes) - f.cut_within)),
        ("still held when the run ended", lambda f: str(len(f.held))),
        (f"lived past {CUT_WITHIN:g} s uncut", lambda f: str(f.uncut_past)),
        (
            "the longest a body lived",
            lambda f: f"{max(f.lifetimes + f.held, default=0):.0f} s",
        ),
    ]
    for label, value in rows:
        lines.append(f"{label:52}" + "".join(f"{value(f):>26}" for f in columns.values()))
    return "\n".join(lines)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def report(columns: dict[str, Figures], *, slow: int, timeout: float, rate: float) -> str:
    """The figures of each target, side by side."""
    first = next(iter(columns.values()))
    lines = [
        f"{slow} slow-header connections held open (a byte every 3 s, never finished); "
        f"{first.requests} normal requests at {rate:g}/s, each given {timeout:g} s",
        f"{'':40}" + "".join(f"{name:>20}" for name in columns),
    ]
    rows = [
        (f"timed out at {timeout:g} s", lambda f: f"{f.timed_out} of {f.requests}"),
        ("failed otherwise (refused, reset)", lambda f: str(f.failed)),
        ("answered", lambda f: str(f.answered)),
        ("  of which 200", lambda f: str(f.statuses.get(200, 0))),
        ("median time of the answered", lambda f: _seconds(f.median)),
        ("95th percentile", lambda f: _seconds(f.percentile(0.95))),
        ("slow connections open at the start", lambda f: str(f.slow_open_at_start)),
        ("slow connections the server closed", lambda f: str(f.slow_closed_by_server)),
    ]
    for label, value in rows:
        lines.append(f"{label:40}" + "".join(f"{value(f):>20}" for f in columns.values()))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=200, help="slow-header connections")
    parser.add_argument("--requests", type=int, default=400, help="normal requests")
    parser.add_argument("--rate", type=float, default=10, help="normal requests a second")
    parser.add_argument("--timeout", type=float, default=10, help="seconds a request is given")
    parser.add_argument("--bodies", type=int, default=100, help="slow bodies from one address")
    parser.add_argument(
        "--body-seconds", type=float, default=75, help="seconds the slow bodies are held"
    )
    parser.add_argument("--only", choices=["headers", "bodies"], help="measure one of the two")
    parser.add_argument(
        "--smoke", action="store_true", help="10 slow, 20 requests; 10 bodies for 8 s"
    )
    args = parser.parse_args()
    if args.smoke:
        args.slow, args.requests = 10, 20
        args.bodies, args.body_seconds = 10, 8
    for reason in (gunicorn_missing(), nginx.missing()):
        if reason:
            raise SystemExit(reason)

    directory = pathlib.Path(tempfile.mkdtemp(prefix="fives-slowheaders-"))
    env = production_env(directory, **NO_THROTTLES)
    kind = "SQLite"
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        env["DATABASE_URL"], kind = bench_database(
            os.environ["DATABASE_URL"], "fives_bench_slowheaders"
        )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    server = Gunicorn(env, free_port(), README_GUNICORN, log=directory / "gunicorn.log")
    proxy_port = free_port()
    site = nginx.site(
        upstream=f"{HOST}:{server.port}",
        static_root=directory / "static",
        server_name=HOST,
        http_listen=f"{HOST}:{proxy_port}",
    )
    proxy = nginx.Nginx(directory / "nginx", site, ports=[proxy_port])
    columns: dict[str, Figures] = {}
    body_columns: dict[str, BodyFigures] = {}
    try:
        server.start()
        proxy.start()
        for port in (server.port, proxy_port):
            for path in PATHS:  # every worker's first answer
                _request(port, path, 30)
        measured = {"gunicorn alone": server.port, "nginx in front": proxy_port}
        for name, port in measured.items():
            if args.only != "bodies":
                columns[name] = measure(
                    port,
                    slow=args.slow,
                    requests=args.requests,
                    rate=args.rate,
                    timeout=args.timeout,
                )
                # gunicorn's threads held by the slow connections come back once they close.
                time.sleep(2)
            if args.only != "headers":
                body_columns[name] = measure_bodies(
                    port,
                    bodies=args.bodies,
                    seconds=args.body_seconds,
                    rate=args.rate,
                    timeout=args.timeout,
                )
                time.sleep(2)
    finally:
        proxy.stop()
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
    print(f"gunicorn {' '.join(README_GUNICORN)}; {kind}; nginx {nginx.NGINX}")
    if columns:
        print(report(columns, slow=args.slow, timeout=args.timeout, rate=args.rate))
    if body_columns:
        print(
            report_bodies(
                body_columns,
                bodies=args.bodies,
                seconds=args.body_seconds,
                timeout=args.timeout,
                rate=args.rate,
            )
        )


if __name__ == "__main__":
    main()
