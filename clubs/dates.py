"""The days a person enters, each kind by one rule (issue 55; docs/leagues.md, "Days"), and
the days stored read without failing, whatever they are.

- **A plan**, what is yet to happen (a postponement's new day, a league schedule's first
  day): from the club's today to ``FIVES_PLAN_YEARS`` (2) years after it (``plan_check``).
  A schedule from 9999-12-28 was a 500 (its rounds' days past the calendar), one from
  2000-01-01 made fixtures dated 2000, and a postponement to 9999-12-31 stopped the
  fixture's page.
- **A frame**, the days that count matches (a season's and an event's days, a fixture's
  day): from ``EARLIEST`` to ``FIVES_PLAN_YEARS`` years after the club's today
  (``frame_check``). Not "today or later": matches are uploaded after they are played, so a
  club opens the season it is in, makes last night's event the morning after and an
  organiser the fixture played last week, to count them. A day kept as it is stored passes
  (a season renamed keeps its days, whatever they are).
- **A filter** (the match list's ``date_from``/``date_to``): any day the calendar holds;
  a bound past what a moment holds leaves every match in (``games.selectors._start_of``).
- **A match time** in an upload: as written (``fives/1`` takes any ISO 8601,
  ``fives_engine.log.played_at_moment``).

A day out of its kind's bounds is refused with ``DateOutOfRange`` (``date-out-of-range``): a
400 in the API, the form's error in words on a page. A day stored out of them (before this
rule, or put in by hand) is shown and counted all the same: ``clubs.zones.club_days`` and
``day_after`` keep to the moments a datetime holds."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .refusals import ClubRefusal
from .zones import zone_of

# The earliest day a frame starts: before any club's records a person would enter, and far
# from the calendar's first day, where a zone east of Greenwich has no moment in UTC.
EARLIEST = date(1970, 1, 1)


class DateOutOfRange(ClubRefusal):
    """A day outside its kind's bounds: says them, with the code ``date-out-of-range`` (a
    400 in the API: a value out of bounds, not a conflict with what is stored)."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message, "date-out-of-range")


def club_today(zone_names: Iterable[str | None]) -> date:
    """Return today in the clubs' time zones: the earliest of their todays (so a day that is
    today for any of them is not yet past), UTC's for none."""
    zones = [zone_of(name) for name in zone_names] or [None]
    return min(timezone.localdate(timezone=zone or UTC) for zone in zones)


def years_after(day: date, years: int) -> date:
    """Return the day ``years`` years after ``day`` (29 February: the 28th), or the
    calendar's last day."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        if day.year + years > date.max.year:
            return date.max
        return day.replace(year=day.year + years, day=28)


def plan_bounds(
    zone_names: Iterable[str | None], *, as_of: date | None = None
) -> tuple[date, date]:
    """Return the first and last day a plan of the clubs may be on, made on the clubs' today
    (or ``as_of``: a past season's plan loaded as history, as the benches load theirs)."""
    today = as_of or club_today(zone_names)
    return today, years_after(today, settings.FIVES_PLAN_YEARS)


def plan_check(
    days: Iterable[date], *, zone_names: Iterable[str | None], as_of: date | None = None
) -> None:
    """Refuse (``DateOutOfRange``) any of ``days`` outside the plan's bounds of the clubs."""
    first, last = plan_bounds(zone_names, as_of=as_of)
    if any(not first <= day <= last for day in days):
        raise DateOutOfRange(
            _("Choose a day from %(first)s (the club's today) to %(last)s.")
            % {"first": _shown(first), "last": _shown(last)}
        )


def frame_bounds(zone_names: Iterable[str | None]) -> tuple[date, date]:
    """Return the first and last day a frame of the clubs may be on."""
    return EARLIEST, years_after(club_today(zone_names), settings.FIVES_PLAN_YEARS)


def frame_check(
    days: Iterable[date], *, zone_names: Iterable[str | None], kept: Iterable[date] = ()
) -> None:
    """Refuse (``DateOutOfRange``) any of ``days`` outside the frame's bounds of the clubs,
    but those ``kept`` (the days as stored: a change that keeps them is no new entry)."""
    first, last = frame_bounds(zone_names)
    kept = set(kept)
    if any(not first <= day <= last for day in days if day not in kept):
        raise DateOutOfRange(
            _("Choose days from %(first)s to %(last)s.")
            % {"first": _shown(first), "last": _shown(last)}
        )


def day_after(day: date) -> date:
    """Return the day after ``day``; the calendar's last day has none, and is its own end
    (an all-day event of a calendar feed ends the day after it starts)."""
    return day + timedelta(days=1) if day < date.max else day


def shown_day(day: date | str) -> str:
    """Return a day as the reader's language writes it (21.11.2026; 2026-11-21 in English),
    a day kept as ISO text (an audit entry's, a postponement's offer) read first; text that
    is no day is returned as it is."""
    if isinstance(day, str):
        try:
            day = date.fromisoformat(day)
        except ValueError:
            return day
    return date_format(day, "SHORT_DATE_FORMAT")


_shown = shown_day
