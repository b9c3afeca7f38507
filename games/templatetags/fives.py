"""Template filters of the archive's pages."""

from django import template

from games.capitals import capfirst
from games.models import preset_name as name_of_preset
from games.presentation import ERROR_TITLES, issue_in_language, played_as_written

register = template.Library()


@register.filter
def error_title(code: str) -> str:
    """Return the title in words of an error or warning code."""
    return ERROR_TITLES.get(code, code)


@register.filter
def issue_message(issue: dict) -> str:
    """Return the message of a stored error or warning in the language of the request."""
    return issue_in_language(issue)["message"]


@register.filter
def preset_name(preset: str) -> str:
    """Return a preset by the name people know it by (its identifier when unknown)."""
    return name_of_preset(preset)


@register.filter
def played(match) -> str:
    """Return when a match was played, in the time zone its log was written in."""
    return played_as_written(match)


@register.filter
def first_capital(text: str) -> str:
    """Return ``text`` with a capital first letter, unless it is Georgian (Django's
    ``capfirst`` would make it Mtavruli, which Georgian does not write and fonts draw as a box)."""
    return capfirst(text)
