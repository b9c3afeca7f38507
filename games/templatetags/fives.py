"""Template filters of the archive's pages."""

import re

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.capitals import capfirst
from clubs.presets import preset_name as name_of_preset
from games.models import Match
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


# One row of the match table (games/_match_table.html): when, who, the scores, the winner,
# the outcome, the club and the ruleset.
MATCH_ROW = (
    '<tr><td><a href="{}">{}</a></td><td>{}</td><td class="num">{}</td><td>{}</td><td>{}</td>'
    '<td><a href="{}">{}</a></td><td>{}</td></tr>'
)


@register.simple_tag
def match_rows(matches) -> SafeString:
    """Return the match table's rows. They are written here, not in the template language:
    its lookups cost about half a millisecond a row, and a page's fifty rows were most of
    the match list's time and of a player's page (issue 39's ``bench.scale``). The words
    a row repeats are translated once a page."""
    words = RowWords()
    return mark_safe("\n".join(match_row(match, words) for match in matches))


class RowWords:
    """The words of the match table's rows in the request's language, each looked up once."""

    def __init__(self) -> None:
        self.partnerships = format_html(' <span class="muted">({})</span>', _("partnerships"))
        self.outcomes = {value: str(label) for value, label in Match.Outcome.choices}
        self.presets: dict[str, str] = {}

    def preset(self, preset: str) -> str:
        if preset not in self.presets:
            self.presets[preset] = name_of_preset(preset)
        return self.presets[preset]


def match_row(match, words: RowWords) -> SafeString:
    """Return one match's row (its club and its seats' players loaded with it)."""
    players = format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        ((seat.player.get_absolute_url(), seat.player.handle) for seat in match.seats.all()),
    )
    if match.teams:
        players += words.partnerships
    played = played_lines(match) if match.played_at else _("match %(id)s") % {"id": match.pk}
    return format_html(
        MATCH_ROW,
        match.get_absolute_url(),
        played,
        players,
        " – ".join(str(score) for score in match.scores),
        match.winner_names,
        words.outcomes.get(match.outcome, match.outcome),
        match.club.get_absolute_url(),
        match.club.name,
        words.preset(match.preset),
    )


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
