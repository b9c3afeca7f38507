"""Template filters of times: in a club's zone or the reader's (``{% load zones %}``)."""

from django import template

from clubs.zones import shown_in, shown_to_reader

register = template.Library()


@register.filter
def club_time(moment, club) -> str:
    """Return a moment in the club's time zone, named: "2026-12-01 14:40 (Asia/Tbilisi)"."""
    return shown_in(moment, getattr(club, "time_zone", None))


@register.filter
def reader_time(moment) -> str:
    """Return a moment in the reader's time zone (their browser's), named."""
    return shown_to_reader(moment)
