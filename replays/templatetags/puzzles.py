"""The day's puzzle on the home page (``{% daily_puzzle %}``; replays.puzzles.puzzle_daily):
a link to it, or nothing while the archive has no puzzle."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from replays.puzzles import puzzle_daily

register = template.Library()


@register.simple_tag
def daily_puzzle() -> str:
    puzzle = puzzle_daily()
    if puzzle is None:
        return ""
    return format_html(
        '<p class="daily-puzzle"><a href="{}" data-daily-puzzle="{}">{}</a> · '
        '<a href="{}">{}</a></p>',
        reverse("replays:puzzle", args=[puzzle.pk]),
        puzzle.pk,
        _("The puzzle of the day (rated %(rating)d): find the best play")
        % {"rating": round(puzzle.rating)},
        reverse("replays:puzzles"),
        _("More puzzles"),
    )
