"""What the phone benchmarks share: the archive served the README's production way, a line
as slow as a club's phone has, and chromium as a phone.

``Kit`` runs the archive in a directory of its own (SQLite, tasks in-process, demo data, DEBUG
off, ``collectstatic`` then gunicorn with the README's worker class and timeout) and counts,
from gunicorn's access log, the bytes the server sent: what leaves the server, the page's and
its service worker's requests alike. The slow line is a proxy in front of gunicorn (1.6 Mbit/s
down, 750 kbit/s up, 150 ms round trip, one line shared by every connection of the phone), so
it holds for the service worker's fetches too, which chromium's per-page network emulation does
not reach; the phone's CPU is slowed four times with DevTools' throttling.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

from bench.benchdb import migrated_sqlite
from bench.served import NO_THROTTLES

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("FIVES_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# The slow phone of issue 23: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, CPU x4.
SLOW_DOWN = 1_600_000 / 8
SLOW_UP = 750_000 / 8
SLOW_RTT = 0.150
SLOW_CPU = 4
PASSWORD = "bench-phone-fives"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SlowLine:
    """A TCP proxy that delivers like one slow mobile line: every connection shares the
    line's bandwidth each way, and every chunk arrives half a round trip after it was sent."""

    def __init__(self, target_port: int, down: float, up: float, rtt: float):
        self.target_port = target_port
        self.rates = {"down": down, "up": up}
        self.rtt = rtt
        self.port = free_port()
        self.free_at = {"down": 0.0, "up": 0.0}  # when each direction of the line is free
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    async def _serve(self) -> None:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", self.port)

    async def _connection(self, client_reader, client_writer) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(
                "127.0.0.1", self.target_port
            )
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            self._pipe(client_reader, server_writer, "up"),
            self._pipe(server_reader, client_writer, "down"),
            return_exceptions=True,
        )

    async def _pipe(self, reader, writer, direction: str) -> None:
        """Carry one direction: a chunk read leaves when the line is free and arrives half a
        round trip after its last byte left, while the next is read and sent behind it (the
        line is pipelined: waiting out each chunk's delay before reading the next made a
        lone download run at half the line's rate)."""
        rate = self.rates[direction]
        # Chunks on the line, with when each arrives: a bounded queue, as TCP's window holds
        # back a sender.
        on_line: asyncio.Queue = asyncio.Queue(maxsize=64)

        async def deliver() -> None:
            while (item := await on_line.get()) is not None:
                arrives, chunk = item
                await asyncio.sleep(max(0.0, arrives - self.loop.time()))
                writer.write(chunk)
                await writer.drain()

        delivering = asyncio.ensure_future(deliver())
        try:
            while chunk := await reader.read(16384):
                start = max(self.loop.time(), self.free_at[direction])
                self.free_at[direction] = start + len(chunk) / rate
                await on_line.put((self.free_at[direction] + self.rtt / 2, chunk))
            await on_line.put(None)
            await delivering
        finally:
            delivering.cancel()
            with contextlib.suppress(Exception):
                writer.close()


class Kit:
    """The archive under gunicorn with demo data, and the ways to reach it as a phone."""

    def __init__(self, directory: pathlib.Path, *, demo_matches: int = 60):
        self.directory = directory
        self.log = directory / "access.log"
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.marker = secrets.token_hex(6)  # on the command line of the chromium it launches
        self.demo_matches = demo_matches
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("REDIS_URL", "DATABASE_URL", "DEBUG", "CACHE_URL")
        } | {
            "DATABASE_URL": f"sqlite:///{directory / 'archive.sqlite3'}",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "FIVES_HTTPS": "0",
            "DJANGO_SETTINGS_MODULE": "fivesite.settings",
            # A benchmark drives many pages from one address: throttles would measure limits.
            **NO_THROTTLES,
        }
        self.server: subprocess.Popen | None = None
        self.slow_line: SlowLine | None = None

    # --- the archive ----------------------------------------------------------------------
    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout.strip()

    def shell(self, code: str) -> str:
        """Run Python in the archive's Django (``manage.py shell -c``); return what it printed."""
        return self.manage("shell", "-c", code)

    def start(self) -> None:
        database = self.directory / "archive.sqlite3"
        migrated = migrated_sqlite()  # a fresh migrate's file, made once per schema
        if migrated is not None and not database.exists():
            shutil.copyfile(migrated, database)
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.manage("demo", "--matches", str(self.demo_matches))
        self.server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "fivesite.wsgi",
                *gunicorn_args(),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--access-logfile",
                str(self.log),
                "--access-logformat",
                "%(B)s %(s)s %(m)s %(U)s",
                # gunicorn counts no bytes a file sent with sendfile(): writing them counts.
                "--no-sendfile",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.base_url}/api/v1/ping/", timeout=5).read()
                break
            except OSError:
                if self.server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not answer") from None
                time.sleep(0.3)
        self.slow_line = SlowLine(self.port, SLOW_DOWN, SLOW_UP, SLOW_RTT)
        self.slow_line.start()

    def stop(self) -> None:
        if self.slow_line:
            self.slow_line.stop()
        if self.server and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(30)

    @property
    def slow_url(self) -> str:
        """The archive reached through the slow line."""
        assert self.slow_line is not None
        return f"http://127.0.0.1:{self.slow_line.port}"

    def user(self, username: str = "bench-phone") -> str:
        """Make (once) ``username`` with the kit's password, owner or member of every club,
        and return the value of a signed-in ``sessionid`` cookie for it."""
        return self.shell(
            "from django.contrib.auth import get_user_model\n"
            "from django.contrib.sessions.backends.db import SessionStore\n"
            "from clubs.models import Club, Membership\n"
            f"user, made = get_user_model().objects.get_or_create(username={username!r})\n"
            f"user.set_password({PASSWORD!r}); user.save()\n"
            "for club in Club.objects.all():\n"
            "    Membership.objects.get_or_create(club=club, user=user,"
            " defaults={'role': 'admin'})\n"
            "session = SessionStore()\n"
            "session['_auth_user_id'] = str(user.pk)\n"
            "session['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'\n"
            "session['_auth_user_hash'] = user.get_session_auth_hash()\n"
            "session.create()\n"
            "print(session.session_key)"
        ).splitlines()[-1]

    # --- what left the server -------------------------------------------------------------
    def mark(self) -> int:
        """A point in the access log; ``sent_since`` counts what was served after it."""
        time.sleep(0.3)  # let gunicorn write the lines of what was just answered
        return self.log.stat().st_size if self.log.exists() else 0

    def requests_since(self, mark: int) -> list[tuple[int, int, str, str]]:
        """(bytes, status, method, path) of each answer after ``mark``."""
        time.sleep(0.3)
        with self.log.open("rb") as log:
            log.seek(mark)
            lines = log.read().decode().splitlines()
        answers = []
        for line in lines:
            size, status, method, path = line.split(" ", 3)
            answers.append((0 if size == "-" else int(size), int(status), method, path))
        return answers

    def sent_since(self, mark: int) -> int:
        """Bytes of the answers' bodies the server sent after ``mark``."""
        return sum(size for size, *_ in self.requests_since(mark))

    # --- the browser ------------------------------------------------------------------------
    @contextlib.contextmanager
    def chromium(self) -> Iterator[Any]:
        from playwright.sync_api import sync_playwright

        if not shutil.which(CHROMIUM):
            raise SystemExit(f"needs Debian's chromium at {CHROMIUM} (make browser)")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    # Names this chromium's processes for ``slow_threads`` (a switch
                    # chromium does not know, and ignores).
                    f"--fives-bench={self.marker}",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                ],
            )
            try:
                yield browser
            finally:
                browser.close()

    @contextlib.contextmanager
    def slow_threads(self) -> Iterator[str]:
        """The slow phone's other threads (its workers: the engine's, the service worker,
        WebAssembly's compilers) slowed as ``page`` slows its main thread
        (``bench.slowthreads``). Yields what the figures should say of it."""
        from bench.slowthreads import SlowThreads

        slowing = SlowThreads(self.marker, SLOW_CPU)
        reason = slowing.start()
        try:
            yield (
                f"workers at CPU x{SLOW_CPU} too"
                if reason is None
                else f"workers at full speed: {reason}"
            )
        finally:
            slowing.stop()

    def context(
        self,
        browser,
        *,
        phone: bool = True,
        slow: bool = False,
        user: str | None = None,
        language: str = "en",
        timezone: str = "Asia/Tbilisi",
    ):
        """A new browser context (a phone of 390x844 with touch, or a laptop), through the
        slow line when ``slow``, signed in as ``user`` when given."""
        base = self.slow_url if slow else self.base_url
        options: dict[str, Any] = {
            "viewport": PHONE if phone else LAPTOP,
            "base_url": base,
            "locale": {"en": "en-GB", "ru": "ru-RU", "ka": "ka-GE"}[language],
            "timezone_id": timezone,
        }
        if phone:
            options |= {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
        context = browser.new_context(**options)
        cookies = [{"name": "django_language", "value": language, "url": base}]
        if user:
            cookies.append({"name": "sessionid", "value": self.user(user), "url": base})
        context.add_cookies(cookies)
        context.slow = slow
        return context

    def page(self, context):
        """A new page of ``context``, its CPU slowed four times where the context is slow."""
        page = context.new_page()
        if getattr(context, "slow", False):
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
        return page


def gunicorn_args() -> list[str]:
    """The README's production gunicorn, as far as the benchmark's machine allows."""
    return ["--worker-class", "gthread", "--workers", "2", "--threads", "4", "--timeout", "120"]


@contextlib.contextmanager
def kit(**options: Any) -> Iterator[Kit]:
    directory = pathlib.Path(tempfile.mkdtemp(prefix="fives-phone-"))
    running = Kit(directory, **options)
    try:
        running.start()
        yield running
    finally:
        running.stop()
        shutil.rmtree(directory, ignore_errors=True)


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.2f} MB"


def kilobytes(count: int) -> str:
    return f"{count / 1000:.1f} KB"
