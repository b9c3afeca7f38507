"""The error and warning codes of FORMAT.md, and the one function that words them.

An ``Issue`` of a report is a ``Code`` and plain-data parameters (numbers, tiles like
``"6-4"``, end letters, player names, JSON paths); ``describe`` turns them into the message
for people from the templates of ``MESSAGES``. Templates are wrapped in ``N_`` so that
``xgettext --keyword=N_`` finds them; the engine says them in English, and a caller that
passes ``translate`` (the archive passes Django's ``gettext``) says them in its language.
Where an English message varies by a word, the variants are separate templates, chosen by
the ``case`` parameter; lists are joined with translatable separators.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any


def N_(message: str) -> str:
    """Return ``message`` unchanged: marks a template for translation (``--keyword=N_``)."""
    return message


class Code(StrEnum):
    """Every error and warning code of FORMAT.md (table records' codes included)."""

    SCHEMA = "schema"
    RULESET = "ruleset"
    PLAYERS = "players"
    TEAMS = "teams"
    DEAL = "deal"
    WRONG_LEADER = "wrong-leader"
    WRONG_TURN = "wrong-turn"
    NOT_IN_HAND = "not-in-hand"
    NO_MATCH = "no-match"
    BAD_END = "bad-end"
    AMBIGUOUS_END = "ambiguous-end"
    DRAW_WHEN_PLAYABLE = "draw-when-playable"
    BONEYARD_EMPTY = "boneyard-empty"
    NOT_IN_BONEYARD = "not-in-boneyard"
    PASS_WHEN_PLAYABLE = "pass-when-playable"
    PASS_MUST_DRAW = "pass-must-draw"
    AFTER_HAND_END = "after-hand-end"
    UNFINISHED_HAND = "unfinished-hand"
    AFTER_MATCH_END = "after-match-end"
    # Table records (FORMAT.md, "Table records").
    REPEATED_TILE = "repeated-tile"
    TILE_COUNT = "tile-count"
    # Warnings.
    POINTS_MISMATCH = "points-mismatch"
    SCORE_MISMATCH = "score-mismatch"


WARNINGS = frozenset((Code.POINTS_MISMATCH, Code.SCORE_MISMATCH))

# The message of each code, by its ``case`` parameter ("" for a code with one message).
# ``%(open)s``, ``%(ends)s``, ``%(allowed)s``, ``%(written)s`` and ``%(computed)s`` are
# lists that ``describe`` joins; ``%(problem)s`` is a schema or ruleset problem below.
MESSAGES: dict[Code, dict[str, str]] = {
    Code.SCHEMA: {"": N_("not a fives/1 log: %(path)s %(problem)s")},
    Code.RULESET: {"": N_("ruleset: %(problem)s")},
    Code.PLAYERS: {
        "count": N_("a match has 2 to 4 players, not %(count)s"),
        "empty": N_("the name of seat %(seat)s is empty"),
        "repeated": N_("the name '%(name)s' is given twice"),
    },
    Code.TEAMS: {
        "players": N_("partnerships need 4 players, not %(players)s"),
        "pairs": N_("partnerships are two pairs of seats covering seats 0 to 3 once"),
    },
    Code.DEAL: {
        "hands": N_("the deal has %(hands)s hands for %(players)s players"),
        "size": N_("%(player)s (seat %(seat)s) is dealt %(count)s tiles, not %(size)s"),
        "not-tile": N_("'%(text)s' is not a tile (0-0 to 6-6)"),
        "twice": N_("%(tile)s is dealt twice"),
    },
    Code.WRONG_LEADER: {
        "no-seat": N_("there is no seat %(seat)s to lead"),
        "not-allowed": N_(
            "%(player)s (seat %(seat)s) leads, but the rules give the lead to %(allowed)s"
        ),
    },
    Code.WRONG_TURN: {
        "player": N_(
            "%(player)s (seat %(seat)s) moves, but it is %(turn_player)s (seat %(turn)s)'s turn"
        ),
        "no-seat": N_("seat %(seat)s moves, but it is %(turn_player)s (seat %(turn)s)'s turn"),
    },
    Code.NOT_IN_HAND: {"": N_("%(player)s (seat %(seat)s) does not hold %(tile)s")},
    Code.NO_MATCH: {"": N_("%(tile)s matches no open end (open: %(open)s)")},
    Code.BAD_END: {"": N_("%(tile)s cannot go on %(end)s (open: %(open)s)")},
    Code.AMBIGUOUS_END: {
        "": N_("%(tile)s fits %(ends)s; the move must name its end (open: %(open)s)")
    },
    Code.DRAW_WHEN_PLAYABLE: {
        "": N_("%(player)s (seat %(seat)s) draws while holding a tile that fits (open: %(open)s)")
    },
    Code.BONEYARD_EMPTY: {
        "": N_(
            "%(player)s (seat %(seat)s) draws, but the boneyard has %(boneyard)s tiles "
            "and %(reserve)s may not be drawn"
        )
    },
    Code.NOT_IN_BONEYARD: {"": N_("%(tile)s is not in the boneyard")},
    Code.PASS_WHEN_PLAYABLE: {
        "": N_("%(player)s (seat %(seat)s) passes while holding a tile that fits (open: %(open)s)")
    },
    Code.PASS_MUST_DRAW: {
        "": N_(
            "%(player)s (seat %(seat)s) passes, but must draw: the boneyard has %(boneyard)s tiles"
        )
    },
    Code.AFTER_HAND_END: {
        "domino": N_("a move after the hand went out"),
        "block": N_("a move after the hand was blocked"),
    },
    Code.UNFINISHED_HAND: {
        "": N_(
            "the hand stops before anyone went out or the game was blocked, "
            "yet another hand follows"
        )
    },
    Code.AFTER_MATCH_END: {
        "player": N_("the match was already won by %(player)s"),
        "partners": N_("the match was already won by %(player)s and %(partner)s"),
    },
    # ``at``: the 1-based move that laid the tile; ``holder``, ``holder_seat``: the seat
    # already known to hold it (by a shown draw, or by the seat's tiles left at the end).
    Code.REPEATED_TILE: {
        "play-laid": N_("%(tile)s was laid already, at move %(at)s"),
        "draw-laid": N_("%(player)s (seat %(seat)s) draws %(tile)s, laid already at move %(at)s"),
        "left-laid": N_(
            "%(player)s (seat %(seat)s) shows %(tile)s at the end, laid already at move %(at)s"
        ),
        "held": N_(
            "%(player)s (seat %(seat)s) cannot have %(tile)s: "
            "%(holder)s (seat %(holder_seat)s) holds it"
        ),
        "held-own": N_("%(player)s (seat %(seat)s) draws %(tile)s, which they hold already"),
        "left-twice": N_("%(player)s (seat %(seat)s) shows %(tile)s twice at the end"),
    },
    # ``count``: the tiles the seat shows at the end; ``expected``: hand_size + its draws -
    # its plays.
    Code.TILE_COUNT: {
        "": N_("%(player)s (seat %(seat)s) holds %(count)s tiles, not %(expected)s"),
        # No longer given (FORMAT.md's tile-count is a count); kept so that reports stored
        # with it can still be worded.
        "kept": N_(
            "%(player)s (seat %(seat)s) drew %(tile)s and did not play it, "
            "but does not show it at the end"
        ),
    },
    Code.POINTS_MISMATCH: {
        "draw": N_("claimed %(claimed)s points, the rules give 0 for a draw"),
        "pass": N_("claimed %(claimed)s points, the rules give 0 for a pass"),
        "scores": N_("claimed %(claimed)s points, the count is %(count)s"),
        "nothing": N_("claimed %(claimed)s points, the count is %(count)s, which scores nothing"),
    },
    Code.SCORE_MISMATCH: {
        "": N_("the final scores written are %(written)s; the rules give %(computed)s")
    },
}

# What is wrong at a JSON path (``Code.SCHEMA``), by the ``problem`` parameter.
SCHEMA_PROBLEMS: dict[str, str] = {
    "not-utf8": N_("not UTF-8 text (byte %(byte)s)"),
    # ``reason`` is the JSON decoder's own words ("Expecting value"), quoted as they are.
    "not-json": N_("not JSON: %(reason)s at line %(line)s column %(column)s"),
    "not-json-number": N_("not JSON: %(name)s is not a JSON number"),
    "too-deep": N_("not JSON: nested too deeply"),
    # ``reason``: Python's own words, for a JSON text it cannot read otherwise.
    "not-json-other": N_("not JSON: %(reason)s"),
    "log-type": N_("a match log must be a JSON object, not %(kind)s"),
    "format-missing": N_('is missing (it must be "%(format)s")'),
    "format": N_('must be "%(format)s"'),
    "missing": N_("is missing"),
    "ruleset-type": N_("must be a preset name or an object, not %(kind)s"),
    "array": N_("must be an array, not %(kind)s"),
    "seat": N_("must be a seat number (0, 1, ...), not %(kind)s"),
    "string": N_("must be a string, not %(kind)s"),
    # No longer given (``too-many-characters`` says the length too); kept so that reports
    # stored with it can still be worded.
    "too-long": N_("is longer than %(limit)s characters"),
    # The limits of ``limits.py``: what the archive's database holds.
    "too-many-characters": N_("is %(length)s characters long; the most is %(limit)s"),
    # ``position``: 1-based, in characters; ``char``: the code point, as "U+D800".
    "nul": N_("holds the character U+0000 (NUL) at position %(position)s; no string may hold it"),
    "lone-surrogate": N_(
        "holds %(char)s at position %(position)s, half of a surrogate pair without "
        "its other half, which is not text"
    ),
    "name-nul": N_(
        "is a field whose name holds the character U+0000 (NUL) at position "
        "%(position)s; no name may hold it"
    ),
    "name-lone-surrogate": N_(
        "is a field whose name holds %(char)s at position %(position)s, half of a "
        "surrogate pair without its other half, which is not text"
    ),
    "not-finite": N_(
        "is not a finite number (it reads as infinity); it must lie between %(least)s and %(most)s"
    ),
    "out-of-range": N_("must lie between %(least)s and %(most)s"),
    # No longer given (a played_at out of range is kept as text); kept for the reports
    # stored before, which name it.
    "played-at-range": N_(
        "is a moment outside the years %(first)s to %(last)s, as written or in UTC"
    ),
    "too-many-hands": N_("holds %(count)s hands; the most is %(limit)s"),
    "no-hands": N_("must hold at least one hand"),
    "number": N_("must be a number"),
    "hand-type": N_("a hand must be an object, not %(kind)s"),
    "tile-type": N_('a tile must be a string like "5-3", not %(kind)s'),
    "tile-too-long": N_("is too long to be a tile"),
    "move-type": N_("a move must be an object, not %(kind)s"),
    "move-kind": N_('a move must have exactly one of "play", "draw" or "pass"'),
    "true": N_("must be true"),
    "end": N_('must be one of "W", "E", "N", "S"'),
    # Table records (FORMAT.md, "Table records").
    "record": N_('must be "table" or "full"'),
    "not-tile": N_("'%(text)s' is not a tile (0-0 to 6-6)"),
    "left-seats": N_("must list the tiles of each of the %(players)s seats, not %(count)s lists"),
    "left-unfinished": N_("must be left out: the hand is unfinished"),
    # No longer given (FORMAT.md: a hand stopped at the target may give ``left``, which is
    # checked); kept so that reports stored with it can still be worded.
    "left-target": N_("must be left out: the hand stopped at the target"),
}

# The kinds of JSON value a schema problem names (``kind``).
KINDS: dict[str, str] = {
    "null": N_("null"),
    "boolean": N_("a boolean"),
    "number": N_("a number"),
    "string": N_("a string"),
    "array": N_("an array"),
    "object": N_("an object"),
}

# What is wrong with a ruleset (``Code.RULESET``), by the ``problem`` parameter. Values
# (``value``, ``choices``, ``known``) are written as JSON: ``true``, ``"muggins"``, ``5``.
RULESET_PROBLEMS: dict[str, str] = {
    "at-least-1": N_("option %(option)s must be at least 1, not %(value)s"),
    "at-most": N_("option %(option)s must be at most %(limit)s"),
    "count-key": N_('option %(option)s is keyed by player count "2", "3" or "4", not \'%(key)s\''),
    "count-value": N_('option %(option)s["%(key)s"] must be a number of at least 1'),
    "per-count": N_(
        'option %(option)s must be a number or an object like {"2": n, "3": n, "4": n}'
    ),
    "choice": N_("option %(option)s must be one of %(choices)s, not %(value)s"),
    "type": N_("the ruleset must be a preset name or an object with a base"),
    "no-base": N_('the ruleset needs a "base" preset name'),
    "preset": N_("unknown preset %(value)s (known: %(known)s)"),
    "option": N_("unknown option %(value)s"),
    "no-count": N_("option %(option)s gives no value for %(players)s players"),
    "too-many-tiles": N_("%(players)s hands of %(size)s tiles do not fit in %(tiles)s tiles"),
}

PREFIX_HAND = N_("hand %(hand)s: %(message)s")
PREFIX_MOVE = N_("hand %(hand)s, move %(move)s: %(message)s")
WHO = N_("%(player)s (seat %(seat)s)")
OPEN_END = N_("%(end)s %(pip)s")
NO_OPEN_END = N_("none")
LIST_SEPARATOR = N_(", ")
AND_SEPARATOR = N_(" and ")
OR_SEPARATOR = N_(" or ")


def _same(text: str) -> str:
    return text


def number_text(value: Any) -> str:
    """Return a number as a log's reader would write it (``10.0`` as ``10``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def problem_text(
    table: Mapping[str, str], params: Mapping[str, Any], translate: Callable[[str], str] = _same
) -> str:
    """Return the words of a schema or ruleset problem (``params["problem"]``)."""
    values = dict(params)
    kind = values.get("kind")
    if kind is not None:
        # A Python value that JSON has no kind for (a caller's tuple) is named as it is.
        values["kind"] = translate(KINDS[kind]) if kind in KINDS else kind
    for name in ("choices", "known"):
        if name in values:
            values[name] = translate(LIST_SEPARATOR).join(values[name])
    return translate(table[values["problem"]]) % values


def describe(
    issue_or_code: Any,
    params: Mapping[str, Any] | None = None,
    hand: int | None = None,
    move: int | None = None,
    translate: Callable[[str], str] = _same,
    end_name: Callable[[str], str] = _same,
) -> str:
    """Return the message of an issue, or of a code with its params, hand and move (0-based).

    ``issue_or_code`` is an ``Issue`` (its code, params, hand and move are used) or a
    ``Code``. The message says the hand and move 1-based, except for a schema error, whose
    JSON path says where. ``translate`` says the templates in the reader's language and
    ``end_name`` an end (W, E, N, S) in the reader's letters.
    """
    if isinstance(issue_or_code, str):
        code = Code(issue_or_code)
    else:
        issue = issue_or_code
        code, params, hand, move = Code(issue.code), issue.params, issue.hand, issue.move
    values: dict[str, Any] = dict(params or {})
    if code is Code.SCHEMA:
        values["problem"] = problem_text(SCHEMA_PROBLEMS, values, translate)
    elif code is Code.RULESET:
        values["problem"] = problem_text(RULESET_PROBLEMS, values, translate)
    separator = translate(LIST_SEPARATOR)
    if "open" in values:
        ends = [
            translate(OPEN_END) % {"end": end_name(end), "pip": pip} for end, pip in values["open"]
        ]
        values["open"] = separator.join(ends) if ends else translate(NO_OPEN_END)
    if "ends" in values:
        values["ends"] = translate(AND_SEPARATOR).join(map(end_name, values["ends"]))
    if type(values.get("end")) is str:
        values["end"] = end_name(values["end"])
    if "allowed" in values:
        values["allowed"] = translate(OR_SEPARATOR).join(
            translate(WHO) % {"player": player, "seat": seat} for player, seat in values["allowed"]
        )
    for name in ("written", "computed"):
        if name in values:
            values[name] = separator.join(number_text(value) for value in values[name])
    if "claimed" in values:
        values["claimed"] = number_text(values["claimed"])
    text = translate(MESSAGES[code][values.get("case", "")]) % values
    if hand is None or code is Code.SCHEMA:
        return text
    if move is None:
        return translate(PREFIX_HAND) % {"hand": hand + 1, "message": text}
    return translate(PREFIX_MOVE) % {"hand": hand + 1, "move": move + 1, "message": text}
