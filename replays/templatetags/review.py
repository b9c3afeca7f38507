"""Template filters of the review's figures."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

# The performance bands' words (replays.analysis.PERFORMANCE_BANDS).
BAND_WORDS = {
    "expert": _("expert"),
    "strong": _("strong"),
    "club": _("club player"),
    "casual": _("casual"),
    "beginner": _("beginner"),
}


@register.filter
def band_words(band: str | None) -> str:
    """Return a performance band in words ("" for none)."""
    return str(BAND_WORDS.get(band or "", ""))
