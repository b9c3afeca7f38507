"""Rulesets: the presets and options of RULES.md in one table, checked and resolved for a
player count, and said in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .codes import N_, RULESET_PROBLEMS, problem_text
from .limits import MAX_NUMBER
from .tiles import SET_SIZE


class Preset(dict[str, Any]):
    """A preset of RULES.md: its options (option -> value, as a log's ruleset resolves
    them) and ``title``, the name people know it by (an ``N_`` message: the archive says
    it in the reader's language)."""

    __slots__ = ("title",)

    def __init__(self, title: str, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.title = title


# The presets: the one table that the engine, the archive's lists, filters and club
# settings, the API's choices and the words on the pages read. A new preset is an entry
# here (with its section of RULES.md, its tests and the translation of its title).
PRESETS: dict[str, Preset] = {
    "all-fives": Preset(
        N_("All Fives"),
        {
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
    ),
    "muggins": Preset(
        N_("Muggins"),
        {
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
    ),
}
PRESETS["all-threes"] = Preset(
    N_("All Threes"), {**PRESETS["muggins"], "multiple": 3, "settlement_divisor": 3}
)
# RULES.md, "Fives and Threes": the British pub leagues' game.
PRESETS["fives-and-threes"] = Preset(
    N_("Fives and Threes"),
    {
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
    },
)


def _always(rules: Mapping[str, Any]) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Option:
    """An option of RULES.md: the values a log may give it and what each says in words.

    ``values``: the choices, or ``()`` for a whole number of at least 1 (or one per player
    count). ``words``: the phrase of each value, or for a number one phrase for any; each
    an ``N_`` template filled from the resolved ruleset (``%(target)s``), ``""`` when the
    value goes without saying. ``said_when``: the option is said only when this holds of
    the resolved ruleset (an option that changes nothing there is left unsaid).
    """

    values: tuple[Any, ...]
    words: Mapping[Any, str] | str
    said_when: Callable[[Mapping[str, Any]], bool] = _always


# The options, in the order the pages say them.
OPTIONS: dict[str, Option] = {
    "target": Option((), N_("first to %(target)s points")),
    "target_exact": Option(
        (False, True),
        {
            False: "",
            True: N_(
                "a side must reach %(target)s exactly: a play that would pass it scores "
                "nothing, and the match stops the moment a side gets there"
            ),
        },
    ),
    "end_at_target": Option(
        ("end-of-hand", "immediately"),
        {
            "end-of-hand": N_("the match ends with the hand in which a side reaches the target"),
            "immediately": N_("the match stops the moment a side reaches the target"),
        },
        lambda rules: not rules["target_exact"],
    ),
    "hand_size": Option((), N_("%(hand_size)s tiles each")),
    "boneyard_reserve": Option(
        (0, 1, 2, "all"),
        {
            0: "",
            1: N_("one tile always stays in the boneyard"),
            2: N_("two tiles always stay in the boneyard"),
            # The undealt tiles are out of play.
            "all": N_("nobody draws: a player who cannot play knocks"),
        },
    ),
    "scoring": Option(
        ("count", "fives-and-threes"),
        {
            "count": "",  # ``multiple`` says it
            "fives-and-threes": N_(
                "a play scores how many fives make the count, when 5 divides it, plus how "
                "many threes, when 3 divides it (15 scores 3 + 5 = 8)"
            ),
        },
    ),
    "multiple": Option(
        (3, 5),
        N_("a play scores the count when it is a multiple of %(multiple)s"),
        lambda rules: rules["scoring"] == "count",
    ),
    "spinner": Option((True, False), {True: "", False: N_("no spinner")}),
    "spinner_sides_first": Option(
        (True, False),
        {
            True: N_("the first double is a spinner; its sides are covered before its ends open"),
            False: N_("the first double is a spinner, open on all four sides at once"),
        },
        lambda rules: rules["spinner"],
    ),
    "go_out_bonus": Option((0, 1), {0: "", 1: N_("going out scores 1 point more")}),
    "partnership_end": Option(
        ("first-out", "both-out"),
        {
            "first-out": "",
            "both-out": N_("partners play on until both of them are out"),
        },
    ),
    "settlement": Option(
        ("subtract-own", "winner-takes", "none"),
        {
            "subtract-own": N_("at the end of a hand each side loses the pips it holds"),
            "winner-takes": N_("the side that goes out scores the others' pips"),
            "none": N_("the pips left in hands count for nobody"),
        },
    ),
    "settlement_divisor": Option(
        (1, 3, 5),
        {
            1: "",
            3: N_("the others' pips are divided by 3"),
            5: N_("the others' pips are divided by 5"),
        },
        lambda rules: rules["settlement"] == "winner-takes",
    ),
    "block_bonus": Option(
        ("difference", "losers-total"),
        {
            "difference": N_("a blocked hand scores the difference of the pips"),
            "losers-total": N_("a blocked hand scores the losers' pips"),
        },
        lambda rules: rules["settlement"] == "winner-takes",
    ),
    "next_leader": Option(
        ("domino-winner", "hand-winner", "rotate", "any"),
        {
            "domino-winner": N_("whoever went out leads the next hand"),
            "hand-winner": N_("the winner of the hand leads the next one"),
            "rotate": N_("the lead passes to the next player each hand"),
            "any": N_("anyone may lead the next hand"),
        },
    ),
}
OPTION_NAMES: tuple[str, ...] = tuple(OPTIONS)

# Options that take a positive number, or one number per player count.
_PER_PLAYER_COUNT = tuple(name for name in PRESETS["all-fives"] if not OPTIONS[name].values)
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
    choices = OPTIONS[name].values
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
    """Return the ruleset of ``spec`` for ``players`` players, or raise ``RulesetError``.

    A spec met before gives the same ``Ruleset`` object (it is immutable) while its preset
    is the same object of ``PRESETS``: each log names its ruleset, and working it out again
    for every log was a tenth of a validation; what is kept per ruleset object
    (``scoring.points_by_count``) is then found too.
    """
    key = _spec_key(spec, players)
    if key is not None:
        found = _RESOLVED.get(key)
        if found is not None and PRESETS.get(key[1]) is found[0]:
            return found[1]
    rules = _resolve(spec, players)
    if key is not None and len(_RESOLVED) < _KEPT:
        _RESOLVED[key] = (PRESETS[rules.base], rules)
    return rules


def ruleset_check(spec: Any) -> None:
    """Raise ``RulesetError`` for a spec ``ruleset_options`` refuses (a spec of the common
    shapes that passed with its preset as it is is not read again)."""
    key = _spec_key(spec, 0)
    if key is not None:
        found = _CHECKED.get(key)
        if found is not None and PRESETS.get(key[1]) is found:
            return
    base, _options = ruleset_options(spec)
    if key is not None and len(_CHECKED) < _KEPT:
        _CHECKED[key] = PRESETS[base]


# Rulesets worked out and specs checked, by ``_spec_key``, each with the preset it was read
# with; a stream of odd specs cannot grow them past ``_KEPT``.
_RESOLVED: dict[tuple[Any, ...], tuple[Preset, Ruleset]] = {}
_CHECKED: dict[tuple[Any, ...], Preset] = {}
_KEPT = 1024
_SCALARS = (str, int, bool, type(None))


def _spec_key(spec: Any, players: int) -> tuple[Any, ...] | None:
    """Return a key for a spec of the common shapes (a preset's name, or a flat object of
    plain values naming its base): the player count, the base, then each value with its
    type (True and 1 are equal keys, not equal options); None for any other spec, worked
    out each time."""
    if type(spec) is str:
        return (players, spec)
    if (
        type(spec) is dict
        and type(spec.get("base")) is str
        and all(type(value) in _SCALARS for value in spec.values())
    ):
        return (
            players,
            spec["base"],
            *((name, type(value), value) for name, value in spec.items()),
        )
    return None


def _resolve(spec: Any, players: int) -> Ruleset:
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


def ruleset_in_words(rules: Mapping[str, Any], translate: Callable[[str], str] = str) -> list[str]:
    """Return a resolved ruleset (``Ruleset.as_dict()``) in words, one phrase per option
    that says something, in the order of ``OPTIONS``; ``translate`` says each template in
    the reader's language (the archive passes Django's ``gettext``)."""
    phrases = []
    for name, option in OPTIONS.items():
        if not option.said_when(rules):
            continue
        words = option.words
        if not isinstance(words, str):
            value = rules[name]
            words = next(text for choice, text in words.items() if _same_value(value, choice))
        if words:
            phrases.append(translate(words) % rules)
    return phrases


def round_to_multiple(pips: int, multiple: int) -> int:
    """Return ``pips`` rounded to the nearest multiple, halves up (7 -> 5, 8 -> 10 for 5)."""
    return (2 * pips + multiple) // (2 * multiple) * multiple


def divide_rounded(value: int, divisor: int) -> int:
    """Return ``value / divisor`` to the nearest whole number, halves up.

    Exact whenever the divisor divides the value, as it does in every preset; other
    combinations (a multiple of 5 divided by 3) round the same way as the settlement.
    """
    return (2 * value + divisor) // (2 * divisor)
