"""Reads from a PostgreSQL streaming replica (``DATABASE_REPLICA_URL``; docs/deploy.md, "Past
one machine"). Listed in ``DATABASE_ROUTERS`` and ``MIDDLEWARE`` only when a replica is set.

Every write goes to the primary (``default``). A read goes to the ``replica`` only when all
of these hold:

- it is made in a web request that reads: GET or HEAD (``ReplicaReadsMiddleware`` says so
  in ``clubs.reads.reads_from``; with no request, in a Celery worker or a management
  command, reads stay on the primary, as do all of a POST's, PUT's, PATCH's or DELETE's);
- the browser carries no pinning cookie: a request that wrote (any other method answered
  below 500), or a view that called ``clubs.reads.pin_to_primary``, sets one for
  ``FIVES_REPLICA_PIN_SECONDS``, so whatever follows a person's own write reads the primary
  and nobody misses their own upload (django-multidb-router's "pinning cookie");
- no view said otherwise for the rest of its request (``clubs.reads.primary_reads``);
- it is not inside a ``transaction.atomic`` block on the primary (what a transaction reads
  must be what it writes against);
- the replica answers (``ReplicaHealth``): a replica that cannot be reached sends the reads
  to the primary, and is tried again after ``REPLICA_RETRY_SECONDS``.

Migrations run on the primary alone (the replica follows it by streaming), and relations
between objects read from either are allowed: they are one database.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.db.utils import InterfaceError, OperationalError

from clubs.reads import PIN_ATTRIBUTE, PRIMARY, REPLICA, reads_from

logger = logging.getLogger(__name__)

# Seconds a replica that could not be reached is left alone before it is tried again: a
# replica down costs one failed connection (at most its 2 s connect_timeout, to one request
# of a process) every this many seconds, not one a request.
REPLICA_RETRY_SECONDS = 5.0

PIN_COOKIE = "fives_primary"
PIN_SALT = "fivesite.db_router.pin"
READS = ("GET", "HEAD")
WRITES = ("POST", "PUT", "PATCH", "DELETE")


class ReplicaHealth:
    """Whether the replica may be read, kept per process: after a failure, no try again for
    ``retry_after`` seconds (the router then answers at once, without a connection)."""

    def __init__(self, alias: str = REPLICA, retry_after: float = REPLICA_RETRY_SECONDS):
        self.alias = alias
        self.retry_after = retry_after
        self.down_until = 0.0
        self._lock = threading.Lock()

    def usable(self) -> bool:
        """Whether the replica answers (its connection, this thread's, opened if need be)."""
        if time.monotonic() < self.down_until:
            return False
        connection = connections[self.alias]
        try:
            # Cheap when connected: Django's health check (conn_health_checks) runs once a
            # request, as it would at the first query anyway; connecting only when closed.
            connection.close_if_health_check_failed()
            connection.ensure_connection()
        except (OperationalError, InterfaceError) as error:
            with self._lock:
                self.down_until = time.monotonic() + self.retry_after
            connection.close()
            logger.warning(
                "the replica cannot be reached, reading the primary for %.0f s: %s",
                self.retry_after,
                error,
            )
            return False
        return True


replica_health = ReplicaHealth()


class ReplicaRouter:
    """Writes and migrations to the primary; reads to the replica where the rules allow."""

    def __init__(self, health: ReplicaHealth | None = None):
        self.health = health or replica_health

    def db_for_read(self, model, **hints) -> str:
        if reads_from.get() != REPLICA:
            return PRIMARY
        if connections[PRIMARY].in_atomic_block:
            return PRIMARY
        return REPLICA if self.health.usable() else PRIMARY

    def db_for_write(self, model, **hints) -> str:
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints) -> bool | None:
        aliases = {PRIMARY, REPLICA}
        if obj1._state.db in aliases and obj2._state.db in aliases:
            return True
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints) -> bool:
        return db == PRIMARY


def pinned(request) -> bool:
    """Whether the request carries a valid pinning cookie (signed, and younger than
    ``FIVES_REPLICA_PIN_SECONDS`` by its own signature's time, whatever its max-age said)."""
    return (
        request.get_signed_cookie(
            PIN_COOKIE,
            default=None,
            salt=PIN_SALT,
            max_age=settings.FIVES_REPLICA_PIN_SECONDS,
        )
        is not None
    )


class ReplicaReadsMiddleware:
    """Let a reading request without a pinning cookie read the replica; pin the browser to
    the primary after a write, or when the view asked (``clubs.reads.pin_to_primary``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reading = request.method in READS and not pinned(request)
        token = reads_from.set(REPLICA if reading else PRIMARY)
        try:
            response = self.get_response(request)
        finally:
            # A streamed answer (the NDJSON export) is read after this returns: it reads
            # the primary, which is never wrong, only busier.
            reads_from.reset(token)
        wrote = request.method in WRITES
        if (wrote and response.status_code < 500) or getattr(request, PIN_ATTRIBUTE, False):
            response.set_signed_cookie(
                PIN_COOKIE,
                "1",
                salt=PIN_SALT,
                max_age=settings.FIVES_REPLICA_PIN_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
