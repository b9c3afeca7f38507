"""Where a request's reads go, when the archive has a streaming replica (``DATABASE_REPLICA_URL``,
``fivesite.db_router``): the replica, or the primary every write goes to.

Kept here, in the lowest app, so that any view may say "this request reads the primary"
(``primary_reads``) or "this person reads the primary for a while" (``pin_to_primary``) without
knowing the site's router; the router and its middleware, on top, read what is said here.
Without a replica both are harmless: every read is the primary's anyway.
"""

from __future__ import annotations

from contextvars import ContextVar

PRIMARY = "default"
REPLICA = "replica"

# Where this request's reads may go. By default (no request: Celery workers, management
# commands, the shell) the primary: only the middleware lets a reading request use the replica.
reads_from: ContextVar[str] = ContextVar("fives_reads_from", default=PRIMARY)

# The attribute a view sets on its request to have the middleware set the pinning cookie.
PIN_ATTRIBUTE = "fives_pin_to_primary"


def reading_replica() -> bool:
    """Whether this request's reads may go to the replica."""
    return reads_from.get() == REPLICA


def primary_reads() -> None:
    """Send the rest of this request's reads to the primary (what a person follows their own
    write with: an upload's status)."""
    reads_from.set(PRIMARY)


def pin_to_primary(request) -> None:
    """Send this request's reads, and those of the person's next requests for
    ``FIVES_REPLICA_PIN_SECONDS``, to the primary (the middleware sets the cookie)."""
    primary_reads()
    setattr(request, PIN_ATTRIBUTE, True)
