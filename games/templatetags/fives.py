"""Template filters of the archive's pages."""

import re

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe

from clubs.capitals import capfirst
from clubs.presets import preset_name as name_of_preset
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
def played_lines(match) -> str:
    """Return when a match was played as ``played`` does, its day and its time each kept
    whole: in a narrow column "2026-11-27" over "19:54 UTC+04:00", never three lines."""
    text = played_as_written(match)
    day, _, time = text.partition(" ")
    if not time:
        return text
    return format_html('<span class="nowrap">{}</span> <span class="nowrap">{}</span>', day, time)


RANGE_DASH = re.compile(r"(?<=\d)–(?=\d)")


@register.filter
def sign_kept(text: str) -> str:
    """Return ``text`` with a no-break space after each "±", and word joiners around the
    dash of a range of numbers: a sign stays with its number ("± 162" never ends one line
    and begins the next), and a range stays whole ("1760–2150" never breaks after its dash),
    in every language's words."""
    kept = conditional_escape(text).replace("± ", "±\u00a0")
    return mark_safe(RANGE_DASH.sub("\u2060–\u2060", kept))


# A file name may wrap after these (as a path does): "club-night-2026-11-27.fives.json"
# breaks at a dot, a dash or an underscore, never inside "json".
FILE_NAME_BREAKS = re.compile(r"(?<=[._\-/\\])")


@register.filter
def file_name(name: str) -> str:
    """Return a file's name with a place to wrap after each dot, dash, underscore or slash."""
    parts = FILE_NAME_BREAKS.split(name)
    return format_html(
        '<bdi class="file-name-text">{}</bdi>',
        format_html_join(mark_safe("<wbr>"), "{}", ((part,) for part in parts)),
    )


@register.filter
def first_capital(text: str) -> str:
    """Return ``text`` with a capital first letter, unless it is Georgian (Django's
    ``capfirst`` would make it Mtavruli, which Georgian does not write and fonts draw as a box)."""
    return capfirst(text)
