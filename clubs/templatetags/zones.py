"""Template filters of times: in a club's zone or the reader's (``{% load zones %}``)."""

from django import template
from django.utils import timezone

from clubs.dates import shown_day
from clubs.zones import day_in, shown_in, shown_to_reader

register = template.Library()


@register.filter
def club_time(moment, club) -> str:
    """Return a moment in the club's time zone, named: "2026-12-01 14:40 (Asia/Tbilisi)"."""
    return shown_in(moment, getattr(club, "time_zone", None))


@register.filter
def reader_time(moment) -> str:
    """Return a moment in the reader's time zone (their browser's), named."""
    return shown_to_reader(moment)


@register.filter
def reader_day(moment) -> str:
    """Return the day of a moment in the reader's time zone, "2026-12-01" (as the reader's
    language writes a day), or '' for none: ``|date`` failed on a match time whose day that
    zone's clock has left the calendar."""
    if moment is None:
        return ""
    return shown_day(day_in(moment, timezone.get_current_timezone()))


@register.filter
def day_shown(day) -> str:
    """Return a day (a date, or one kept as ISO text) as the reader's language writes it."""
    return shown_day(day) if day else ""
