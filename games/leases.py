"""One lease for the rows a run works on: an upload being stored, an analysis being run.

A run claims a row under its name (the holder field) with a sign of life (a time field); only
the holder may write the row's progress or result (an UPDATE conditioned on the holder, which
renews the sign of life); a run whose worker died shows no more life, its lease runs out after
the length its setting names, and another run may take the row. Each use says which fields
and which setting are its own (``games.services.ingest.UPLOAD_LEASE``,
``replays.analysis.ANALYSIS_LEASE``); the SQL is written once, here.

The time field is either when the lease runs out (``until``: a sign of life writes now + the
length) or the last sign of life itself (the lease runs out the length after it); a row never
claimed may name the field read in its place (``since``: when the row was asked for).
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Model, Q, QuerySet
from django.utils import timezone


class LeaseLost(Exception):
    """The run's lease was taken over (it ran out and another run took it): stop."""


def new_holder() -> str:
    """Return a name for one run, unique among all runs (host, process, a random part)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(6)}"


@dataclass(frozen=True)
class Lease:
    """The lease kept in two fields of a model's rows; the length read from a setting."""

    holder: str  # the field naming the run that holds the row ("" when none)
    life: str  # the field of its sign of life
    setting: str  # the setting of the lease's length, in seconds
    until: bool = False  # ``life`` holds when the lease runs out, not the last sign of life
    since: str | None = None  # the field read as the sign of life of a row never claimed

    def length(self) -> timedelta:
        """Return how long a run holds a row without a sign of life."""
        return timedelta(seconds=getattr(settings, self.setting))

    def stamp(self, now: datetime) -> datetime:
        """Return the value of the sign of life written at ``now``."""
        return now + self.length() if self.until else now

    def cutoff(self, now: datetime) -> datetime:
        """Return the time a sign of life must be older than for the lease to have run out."""
        return now if self.until else now - self.length()

    def ran_out(self, now: datetime) -> Q:
        """Return the condition of a row whose lease ran out at ``now`` (or was never taken)."""
        cutoff = self.cutoff(now)
        never = Q(**{f"{self.life}__isnull": True})
        if self.since is not None:
            never &= Q(**{f"{self.since}__lt": cutoff})
        return Q(**{f"{self.life}__lt": cutoff}) | never

    def has_run_out(self, row: Model, now: datetime | None = None) -> bool:
        """Return whether ``row``'s lease ran out (as ``ran_out`` reads it in SQL)."""
        last = getattr(row, self.life)
        if last is None and self.since is not None:
            last = getattr(row, self.since)
        return last is None or last < self.cutoff(now or timezone.now())

    def seconds_left(self, row: Model, now: datetime | None = None) -> float:
        """Return how long ``row``'s lease has to run, 0 when it ran out."""
        last = getattr(row, self.life)
        if last is None:
            return 0.0
        left = (last - self.cutoff(now or timezone.now())).total_seconds()
        return max(left, 0.0)

    def take(self, rows: QuerySet[Any], holder: str, **fields: Any) -> int:
        """Take the lease of ``rows`` for ``holder`` (with ``fields`` written too) where it is
        free, ran out, or already the holder's; return how many rows were taken.

        One UPDATE whose condition is the lease: of two runs taking it at once, the database
        lets one through (the second's UPDATE waits for the first's row lock, then finds the
        lease live and changes nothing)."""
        now = timezone.now()
        return rows.filter(self.ran_out(now) | Q(**{self.holder: holder})).update(
            **{self.holder: holder, self.life: self.stamp(now)}, **fields
        )

    def grant(self, rows: QuerySet[Any], holder: str, *, now: datetime, **fields: Any) -> int:
        """Give ``rows`` to ``holder`` (with ``fields``) whoever held them: the caller's
        condition on ``rows`` decides (a row still queued, locked by the caller)."""
        return rows.update(**{self.holder: holder, self.life: self.stamp(now)}, **fields)

    def hold(self, row: Model, holder: str, now: datetime) -> None:
        """Set ``row`` held by ``holder`` from ``now`` (the caller saves it, holding its lock)."""
        setattr(row, self.holder, holder)
        setattr(row, self.life, self.stamp(now))

    def held_elsewhere(self, row: Model, holder: str, now: datetime | None = None) -> bool:
        """Return whether another run than ``holder`` holds ``row`` with a live lease."""
        return getattr(row, self.holder) != holder and not self.has_run_out(row, now)

    def write(self, rows: QuerySet[Any], holder: str, **fields: Any) -> int:
        """Write ``fields`` to those of ``rows`` ``holder`` still holds, with a sign of life;
        return how many (0: another run took the lease over)."""
        now = timezone.now()
        return rows.filter(**{self.holder: holder}).update(**{self.life: self.stamp(now)}, **fields)

    def give_back(self, row: Model) -> None:
        """Clear ``row``'s lease (its run finished; the caller holds the row's lock)."""
        setattr(row, self.holder, "")
        setattr(row, self.life, None)
        row.save(update_fields=[self.life, self.holder])
