"""The rules engine of Fives: parse, validate, rescore, replay and simulate ``fives/1`` logs.

Pure Python with no dependency on Django, so the workers, the web pages, the command line
and a tool author's script all ask the same code. See the README's "Rules engine" section.
Where ``make venv`` compiled the walk with mypyc (``compiled.py``), the compiled modules of
this same source are found first.
"""

# ruff: noqa: E402 (the compiled modules' folder goes on the path before they are imported)
import sys as _sys

from .compiled import compiled_folder as _compiled_folder

_build = _compiled_folder()
if _build is not None:
    __path__.insert(0, str(_build / "fives_engine"))
    _sys.path.append(str(_build))  # mypyc's runtime for the group, a top-level module
COMPILED_FROM = None if _build is None else str(_build)

from . import validate
from .check import check_document
from .codes import Code, describe
from .convert import to_table_record
from .game import (
    DRAW,
    PASS,
    PLAY,
    HandResult,
    HandState,
    LegalMove,
    MatchState,
    TableHandState,
)
from .log import (
    FORMAT_NAME,
    HandLog,
    MatchLog,
    Move,
    SchemaError,
    load_json,
    parse_log,
    played_at_moment,
)
from .report import missed_points
from .rules import PRESETS, Ruleset, RulesetError, resolve_ruleset, round_to_multiple
from .validate import (
    Checked,
    Issue,
    MoveFacts,
    Report,
    iter_reports,
    validate_json,
    validate_log,
    validate_match,
    validate_traced,
    walk_match,
)

__all__ = [
    "DRAW",
    "FORMAT_NAME",
    "PASS",
    "PLAY",
    "PRESETS",
    "Checked",
    "Code",
    "HandLog",
    "HandResult",
    "HandState",
    "Issue",
    "LegalMove",
    "MatchLog",
    "MatchState",
    "Move",
    "MoveFacts",
    "Report",
    "Ruleset",
    "RulesetError",
    "SchemaError",
    "TableHandState",
    "check_document",
    "describe",
    "iter_reports",
    "load_json",
    "missed_points",
    "parse_log",
    "played_at_moment",
    "resolve_ruleset",
    "round_to_multiple",
    "to_table_record",
    "validate",
    "validate_json",
    "validate_log",
    "validate_match",
    "validate_traced",
    "walk_match",
]
