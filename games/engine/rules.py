"""Rulesets: the presets and options of RULES.md, checked and resolved for a player count."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .codes import RULESET_PROBLEMS, problem_text
from .limits import MAX_NUMBER
from .tiles import SET_SIZE

PRESETS: dict[str, dict[str, Any]] = {
    "all-fives": {
        "multiple": 5,
        "hand_size": {"2": 9, "3": 7, "4": 5},
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "subtract-own",
        "settlement_divisor": 1,
        "block_bonus": "difference",
        "target": {"2": 250, "3": 200, "4": 200},
        "end_at_target": "end-of-hand",
        "next_leader": "domino-winner",
        "boneyard_reserve": 0,
        "scoring": "count",
        "go_out_bonus": 0,
        "partnership_end": "first-out",
        "target_exact": False,
    },
    "muggins": {
        "multiple": 5,
        "hand_size": {"2": 7, "3": 5, "4": 5},
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "winner-takes",
        "settlement_divisor": 5,
        "block_bonus": "difference",
        "target": 250,
        "end_at_target": "end-of-hand",
        "next_leader": "hand-winner",
        "boneyard_reserve": 0,
        "scoring": "count",
        "go_out_bonus": 0,
        "partnership_end": "first-out",
        "target_exact": False,
    },
}
PRESETS["all-threes"] = {**PRESETS["muggins"], "multiple": 3, "settlement_divisor": 3}
# RULES.md, "Fives and Threes": the British pub leagues' game.
PRESETS["fives-and-threes"] = {
    "multiple": 5,
    "hand_size": {"2": 7, "3": 5, "4": 5},
    "spinner": False,
    "spinner_sides_first": True,
    "settlement": "none",
    "settlement_divisor": 1,
    "block_bonus": "difference",
    "target": 61,
    "end_at_target": "immediately",
    "next_leader": "rotate",
    "boneyard_reserve": "all",
    "scoring": "fives-and-threes",
    "go_out_bonus": 1,
    "partnership_end": "both-out",
    "target_exact": True,
}

OPTION_NAMES: tuple[str, ...] = tuple(PRESETS["all-fives"])

_CHOICES: dict[str, tuple[Any, ...]] = {
    "multiple": (3, 5),
    "spinner": (True, False),
    "spinner_sides_first": (True, False),
    "settlement": ("subtract-own", "winner-takes", "none"),
    "settlement_divisor": (1, 3, 5),
    "block_bonus": ("difference", "losers-total"),
    "end_at_target": ("end-of-hand", "immediately"),
    "next_leader": ("domino-winner", "hand-winner", "rotate", "any"),
    # "all": nobody draws (the undealt tiles are out of play).
    "boneyard_reserve": (0, 1, 2, "all"),
    "scoring": ("count", "fives-and-threes"),
    "go_out_bonus": (0, 1),
    "partnership_end": ("first-out", "both-out"),
    "target_exact": (False, True),
}
# Options that take a positive number, or one number per player count.
_PER_PLAYER_COUNT = ("hand_size", "target")
_COUNT_KEYS = ("2", "3", "4")


class RulesetError(ValueError):
    """A ruleset that names an unknown preset or option, or a value out of range.

    ``problem`` names what is wrong (a key of ``codes.RULESET_PROBLEMS``) and ``params``
    hold its details; the exception's text says it in English.
    """

    def __init__(self, problem: str, **params: Any) -> None:
        self.problem = problem
        self.params = params
        super().__init__(problem_text(RULESET_PROBLEMS, {"problem": problem, **params}))


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset resolved for one number of players: every option has one value."""

    base: str
    multiple: int
    hand_size: int
    spinner: bool
    spinner_sides_first: bool
    settlement: str
    settlement_divisor: int
    block_bonus: str
    target: int
    end_at_target: str
    next_leader: str
    boneyard_reserve: int | str  # 0, 1, 2, or "all"
    scoring: str
    go_out_bonus: int
    partnership_end: str
    target_exact: bool

    def as_dict(self) -> dict[str, Any]:
        """Return the resolved ruleset as the report writes it."""
        return asdict(self)


def _same_value(value: Any, choice: Any) -> bool:
    # True == 1 in Python; a JSON boolean must not pass for a number, nor a number for one.
    return type(value) is type(choice) and value == choice


def _check_option(name: str, value: Any) -> None:
    if name in _PER_PLAYER_COUNT:
        if type(value) is int:
            if value < 1:
                raise RulesetError("at-least-1", option=name, value=value)
            if value > MAX_NUMBER:
                raise RulesetError("at-most", option=name, limit=MAX_NUMBER)
            return
        if type(value) is dict and value:
            for key, item in value.items():
                if key not in _COUNT_KEYS:
                    raise RulesetError("count-key", option=name, key=_shorten(key))
                if type(item) is not int or item < 1:
                    raise RulesetError("count-value", option=name, key=key)
                if item > MAX_NUMBER:
                    raise RulesetError("at-most", option=f'{name}["{key}"]', limit=MAX_NUMBER)
            return
        raise RulesetError("per-count", option=name)
    choices = _CHOICES[name]
    if not any(_same_value(value, choice) for choice in choices):
        raise RulesetError(
            "choice",
            option=name,
            choices=[_show(choice) for choice in choices],
            value=_show(value),
        )


def _show(value: Any) -> str:
    """Return a value of a log as a message quotes it: as JSON, cut short when long."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return f'"{_shorten(value)}"'
    return _shorten(repr(value))


# A message quotes at most this many characters of a value from a log.
_QUOTE = 40


def _shorten(text: str) -> str:
    return text if len(text) <= _QUOTE else f"{text[:_QUOTE]}..."


def ruleset_options(spec: Any) -> tuple[str, dict[str, Any]]:
    """Return ``(base, options)`` for a ruleset spec of a log, every option checked.

    Raises ``RulesetError`` for an unknown preset or option or a value out of range.
    Values keyed by player count are kept as they are: ``resolve_ruleset`` picks one.
    """
    if isinstance(spec, str):
        spec = {"base": spec}
    if not isinstance(spec, dict):
        raise RulesetError("type")
    base = spec.get("base")
    if not isinstance(base, str):
        raise RulesetError("no-base")
    if base not in PRESETS:
        raise RulesetError("preset", value=_show(base), known=[f'"{name}"' for name in PRESETS])
    options = dict(PRESETS[base])
    for name, value in spec.items():
        if name == "base":
            continue
        if name not in options:
            raise RulesetError("option", value=_show(name))
        _check_option(name, value)
        options[name] = value
    return base, options


def resolve_ruleset(spec: Any, players: int) -> Ruleset:
    """Return the ruleset of ``spec`` for ``players`` players, or raise ``RulesetError``."""
    base, options = ruleset_options(spec)
    for name in _PER_PLAYER_COUNT:
        value = options[name]
        if isinstance(value, dict):
            if str(players) not in value:
                raise RulesetError("no-count", option=name, players=players)
            options[name] = value[str(players)]
    if options["hand_size"] * players > SET_SIZE:
        raise RulesetError(
            "too-many-tiles", players=players, size=options["hand_size"], tiles=SET_SIZE
        )
    return Ruleset(base=base, **options)


def round_to_multiple(pips: int, multiple: int) -> int:
    """Return ``pips`` rounded to the nearest multiple, halves up (7 -> 5, 8 -> 10 for 5)."""
    return (2 * pips + multiple) // (2 * multiple) * multiple


def divide_rounded(value: int, divisor: int) -> int:
    """Return ``value / divisor`` to the nearest whole number, halves up.

    Exact whenever the divisor divides the value, as it does in every preset; other
    combinations (a multiple of 5 divided by 3) round the same way as the settlement.
    """
    return (2 * value + divisor) // (2 * divisor)
