"""The engine's presets as people read them: by their names, in the reader's language, and
as choices (a club's default ruleset, the archive's filters), read from the engine's table
each time, so a new preset needs no migration."""

from __future__ import annotations

from typing import Any

from django.utils.choices import CallableChoiceIterator
from django.utils.translation import gettext, gettext_lazy

from fives_engine import PRESETS


def preset_name(preset: str) -> str:
    """Return a preset by the name people know it by, in the reader's language (a log
    writes the identifier, the key of the engine's ``PRESETS``; an unknown one as it is)."""
    known = PRESETS.get(preset)
    return gettext(known.title) if known is not None else preset


def ruleset_choices() -> list[tuple[str, Any]]:
    """Return the presets as choices, ``(identifier, name)``, read from the engine's table
    each time: a club's default ruleset takes a new preset with no migration."""
    return [(name, gettext_lazy(preset.title)) for name, preset in PRESETS.items()]


# The presets as choices, read from the table whenever iterated.
RULESETS = CallableChoiceIterator(ruleset_choices)
