"""Time zones: a club's things are shown in the club's zone, everything else in the reader's
(the ``tz`` cookie the site's script sets from the browser), always with the zone named."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from urllib.parse import unquote

from django.utils import timezone
from django.utils.formats import date_format

COOKIE = "tz"


@cache
def zone_names() -> frozenset[str]:
    """Return the IANA names this machine knows (``zoneinfo.available_timezones``)."""
    return frozenset(zoneinfo.available_timezones())


@cache
def _zones_by_words() -> dict[str, list[str]]:
    """The IANA names by how a person types them: the whole name and its city alone, in
    lower case with spaces for underscores ("asia/tbilisi", "tbilisi", "new york")."""
    found: dict[str, list[str]] = {}
    for name in sorted(zone_names()):
        words = name.lower().replace("_", " ")
        for key in {words, words.rpartition("/")[2]}:
            found.setdefault(key, []).append(name)
    return found


def _same_clock(names: list[str]) -> bool:
    """Whether the zones keep one clock (the IANA list names many zones twice, such as
    UTC and Etc/UTC): the same offset at each season of every year from 1970 to 2039."""
    zones = [zoneinfo.ZoneInfo(name) for name in names]
    for year in range(1970, 2040):
        for month in (1, 4, 7, 10):
            moment = datetime(year, month, 15, tzinfo=UTC)
            if len({moment.astimezone(zone).utcoffset() for zone in zones}) > 1:
                return False
    return True


def zone_named(text: str) -> str | None:
    """Return the IANA name a person meant by ``text``: the name itself, or it or its city in
    any case; of names that keep one clock, the longest (the list's own, such as
    America/Argentina/Buenos_Aires); a city of zones that keep different clocks, None."""
    text = " ".join(text.split())
    if text in zone_names():
        return text
    named = _zones_by_words().get(text.lower().replace("_", " "), [])
    if len(named) > 1 and not _same_clock(named):
        return None
    return max(named, key=lambda name: (len(name), name)) if named else None


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    """Return the zone of an IANA name, or None for anything else (never trusted as given)."""
    if not name or len(name) > 64 or name not in zone_names():
        return None
    return zoneinfo.ZoneInfo(name)


def reader_zone_name(request) -> str:
    """Return the reader's zone as their browser said it (the ``tz`` cookie, written with
    ``encodeURIComponent``), else ''."""
    name = unquote(request.COOKIES.get(COOKIE, "")[:200])
    return name if zone_of(name) is not None else ""


class ReaderTimeZoneMiddleware:
    """Show a page's times in the reader's zone: activate the zone of the ``tz`` cookie, if
    it names one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # The API speaks UTC to everyone: its answers are cached and shared between readers.
        if request.path_info.startswith("/api/"):
            return self.get_response(request)
        zone = zone_of(reader_zone_name(request))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def shown_in(moment: datetime | None, zone_name: str | None) -> str:
    """Return ``moment`` as "2026-12-01 14:40 (Asia/Tbilisi)" in the named zone (UTC when the
    name is not a zone), written as the reader's language writes a moment ("01.12.2026 14:40"
    in Russian and Georgian), or '' for no moment."""
    if moment is None:
        return ""
    zone = zone_of(zone_name)
    if zone is None:
        zone_name, zone = "UTC", zoneinfo.ZoneInfo("UTC")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, zoneinfo.ZoneInfo("UTC"))
    try:
        local = moment.astimezone(zone)
    except OverflowError:  # a match time at the calendar's ends (issue 55): shown in UTC
        zone_name, local = "UTC", moment.astimezone(UTC)
    return f"{date_format(local, 'SHORT_DATETIME_FORMAT')} ({zone_name})"


def day_in(moment: datetime, zone: zoneinfo.ZoneInfo) -> date:
    """Return the day ``moment`` falls on in ``zone``; where the zone's clock has left the
    calendar (a match played at 9999-12-31T23:30Z, in Tbilisi: an upload's time is what it
    is, issue 55), its day in UTC."""
    try:
        return moment.astimezone(zone).date()
    except OverflowError:
        return moment.astimezone(UTC).date()


def shown_to_reader(moment: datetime | None) -> str:
    """Return ``moment`` in the reader's zone (the active one), the zone named."""
    return shown_in(moment, timezone.get_current_timezone_name())


def club_days(first: date, last: date, zone_name: str) -> tuple[datetime, datetime]:
    """Return the first moment of ``first`` and the moment after ``last`` ends, in a club's
    time zone (an unknown zone: UTC): the bounds of a season, a tournament or a fixture's
    day, which count the matches played between them."""
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (ValueError, KeyError, OSError):
        zone = zoneinfo.ZoneInfo("UTC")
    return _day_start(first, zone), _day_start(last, zone, next_day=True)


def _day_start(day: date, zone: zoneinfo.ZoneInfo, *, next_day: bool = False) -> datetime:
    """The moment ``day`` (or the next) begins in ``zone``; at the ends of the calendar, where
    that moment is no datetime in UTC (the day after 9999-12-31, year 1 east of Greenwich),
    the first or last moment a datetime holds: a day stored there (issue 55: a fixture put
    off to 9999-12-31) then counts every match to that end, and no page fails on it."""
    try:
        start = datetime.combine(day + timedelta(days=1) if next_day else day, time.min, zone)
        start.astimezone(UTC)  # the database keeps UTC: the bound must exist there
    except OverflowError:
        edge = datetime.max if next_day or day.year > 1 else datetime.min
        return edge.replace(tzinfo=UTC)
    return start
