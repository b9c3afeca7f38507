"""Is the archive able to work: the database, the broker and the cache, each checked for real.
``/healthz`` answers with it (for a load balancer), and an outage of the database is told
apart from a fault of the code (``api.errors.server_error``).

The answer is bounded, whatever is down: the three parts are asked at once, each in a thread
of its own, and a part that has not answered within ``HEALTH_BUDGET`` seconds is down ("no
answer"). With the checks one after the other and their own timeouts, Redis away took 2.5 s
(the broker's retry) and a Redis that accepts connections but never answers held the check
for good (issue 34). A part whose check is still running from an earlier request is not
asked again meanwhile: the new request waits on that same check, so a hung server never
holds more than one thread per part and process, and each check still ends on its own
timeouts (``PART_TIMEOUT``; the database's ``connect_timeout``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import wait as wait_for

from celery import current_app
from django.core.cache import cache
from django.db import connections
from django.db.utils import InterfaceError, OperationalError

# What a database that is away raises (a connection refused, closed, or timed out), as
# opposed to a query the code got wrong (ProgrammingError, IntegrityError): a 503, not a 500.
DATABASE_AWAY = (OperationalError, InterfaceError)


def database_away(error: BaseException | None) -> bool:
    """Whether ``error`` says the database cannot be reached (or its chain says so)."""
    while error is not None:
        if isinstance(error, DATABASE_AWAY):
            return True
        error = error.__cause__ or error.__context__
    return False


# Seconds /healthz waits for the parts, all together: a load balancer's probe (often a 2 s
# timeout) always gets an answer within a second, with what did not answer in time named as
# down. 0.6, not 0.8: on a loaded machine (CI, two test processes and a browser) the first
# check of a process, which imports the database's driver in its thread, overran 0.8 s by
# 0.26 s; the rest of the second is that margin.
HEALTH_BUDGET = 0.6
# Seconds a broker's check may take to connect and to read, ending a check that hangs.
PART_TIMEOUT = 2.0


def check_database() -> str | None:
    """None when a query answers, else why not. Run in a thread of its own: the thread's
    own connection, closed after (a connection kept would be a stale one after a restart)."""
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure to answer is the database being away
        return f"{type(error).__name__}: {error}"[:200]
    finally:
        connection.close()
    return None


def check_broker() -> str | None:
    """None when the broker answers (or tasks run in-process, with no broker), else why."""
    app = current_app  # the project's app (fivesite.celery), which games may not import
    if app.conf.task_always_eager:
        return None
    # Timeouts of its own: the workers' connections wait on the broker as they must.
    timeouts = {"socket_connect_timeout": PART_TIMEOUT, "socket_timeout": PART_TIMEOUT}
    try:
        with app.connection_for_write(transport_options=timeouts) as conn:
            conn.ensure_connection(max_retries=0, timeout=PART_TIMEOUT)
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:200]
    return None


def check_cache() -> str | None:
    """None when the cache answers, else why (the archive works on without it, slower)."""
    try:
        cache.get("fives:health")
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:200]
    return None


CHECKS: dict[str, Callable[[], str | None]] = {
    "database": check_database,
    "broker": check_broker,
    "cache": check_cache,
}
# One thread per part at most: a part's check is never started while its last one runs.
_running: dict[str, Future] = {}
_lock = threading.Lock()


def _in_thread(check: Callable[[], str | None], name: str) -> Future:
    """Run ``check`` in a thread of its own, a daemon: one that hangs never holds up the
    process's exit (a worker restarting)."""
    future: Future = Future()

    def run() -> None:
        try:
            future.set_result(check())
        except BaseException as error:  # handed to whoever waits
            future.set_exception(error)

    threading.Thread(target=run, name=f"health-{name}", daemon=True).start()
    return future


def _asked(part: str) -> Future:
    """The check of ``part``: the one still running from an earlier request, else a new one."""
    with _lock:
        future = _running.get(part)
        if future is None or future.done():
            future = _in_thread(CHECKS[part], part)
            _running[part] = future
        return future


def health(budget: float = HEALTH_BUDGET) -> dict[str, object]:
    """Each part's state, and ``ok``: whether the archive can take and serve work (the cache
    being away slows it but is not counted against it). Answers within ``budget`` seconds:
    a part that has not answered by then is down."""
    began = time.monotonic()
    asked = {part: _asked(part) for part in CHECKS}
    wait_for(asked.values(), timeout=budget)
    late = f"no answer within {budget:g} s"
    problems = {part: future.result() if future.done() else late for part, future in asked.items()}
    elapsed = time.monotonic() - began
    return {
        "ok": problems["database"] is None and problems["broker"] is None,
        **{part: "down: " + why if why else "ok" for part, why in problems.items()},
        "seconds": round(elapsed, 3),
    }
