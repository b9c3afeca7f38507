"""Is the archive able to work: the database, the broker and the cache, each checked for real
with a short timeout. ``/healthz`` answers with it (for a load balancer), and an outage of the
database is told apart from a fault of the code (``api.errors.server_error``)."""

from __future__ import annotations

from celery import current_app
from django.core.cache import cache
from django.db import connection
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


def check_database() -> str | None:
    """None when a query answers, else why not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure to answer is the database being away
        return f"{type(error).__name__}: {error}"[:200]
    return None


def check_broker() -> str | None:
    """None when the broker answers (or tasks run in-process, with no broker), else why."""
    app = current_app  # the project's app (fivesite.celery), which games may not import
    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
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


def health() -> dict[str, object]:
    """Each part's state, and ``ok``: whether the archive can take and serve work (the cache
    being away slows it but is not counted against it)."""
    problems = {
        "database": check_database(),
        "broker": check_broker(),
        "cache": check_cache(),
    }
    return {
        "ok": problems["database"] is None and problems["broker"] is None,
        **{part: "down: " + why if why else "ok" for part, why in problems.items()},
    }
