"""What the pages show of a match: names of teams, hand rows, labels of error codes."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from fives_engine.codes import Code, describe
from fives_engine.rules import ruleset_in_words

from .models import Match
from .services.ingest import ARCHIVE_MESSAGES, CLUB_MISSING, CLUB_NOT_MEMBER, CLUB_UNKNOWN

# A title in words for every error and warning code of FORMAT.md (the engine's codes, by
# their names in engine/fives_engine/codes.py), and the archive's own codes.
ERROR_TITLES: dict[str, Any] = {
    Code.SCHEMA: _("Not a fives/1 match log"),
    Code.RULESET: _("Unknown or impossible ruleset"),
    Code.PLAYERS: _("Wrong players"),
    Code.TEAMS: _("Wrong partnerships"),
    Code.DEAL: _("Wrong deal"),
    Code.WRONG_LEADER: _("The wrong player leads"),
    Code.WRONG_TURN: _("A move out of turn"),
    Code.NOT_IN_HAND: _("A tile the player does not hold"),
    Code.NO_MATCH: _("An impossible play"),
    Code.BAD_END: _("The tile cannot go on that end"),
    Code.AMBIGUOUS_END: _("The move must say which end"),
    Code.DRAW_WHEN_PLAYABLE: _("A draw while holding a tile that fits"),
    Code.BONEYARD_EMPTY: _("A draw from an empty boneyard"),
    Code.NOT_IN_BONEYARD: _("A draw of a tile not in the boneyard"),
    Code.PASS_WHEN_PLAYABLE: _("A pass while holding a tile that fits"),
    Code.PASS_MUST_DRAW: _("A pass while the boneyard still has tiles"),
    Code.AFTER_HAND_END: _("A move after the hand ended"),
    Code.UNFINISHED_HAND: _("A hand stops before its end"),
    Code.AFTER_MATCH_END: _("A hand after the match was won"),
    Code.REPEATED_TILE: _("A tile met twice"),
    Code.TILE_COUNT: _("Wrong number of tiles"),
    Code.POINTS_MISMATCH: _("Claimed points differ"),
    Code.SCORE_MISMATCH: _("Final scores differ"),
    CLUB_MISSING: _("No club"),
    CLUB_UNKNOWN: _("No such club"),
    CLUB_NOT_MEMBER: _("Not a member of the club"),
}


def end_names() -> dict[str, str]:
    """Return the name of each end of the line of play (W, E, N, S, as logs write them) in
    the language of the request, by the key a script looks it up by (``end_W``...)."""
    return {
        "end_W": pgettext("the west end of the line of play, one letter", "W"),
        "end_E": pgettext("the east end of the line of play, one letter", "E"),
        "end_N": pgettext("the north end of the line of play, one letter", "N"),
        "end_S": pgettext("the south end of the line of play, one letter", "S"),
    }


# Python's JSON parser says what it expected in English (a schema error's ``reason``): the
# ones a person pasting a log meets, in the reader's language (English as the parser words
# it, so the English message stays the engine's); any other stays as it is.
JSON_REASONS: dict[str, Any] = {
    "Expecting value": _("Expecting value"),
    "Expecting property name enclosed in double quotes": _(
        "Expecting property name enclosed in double quotes"
    ),
    "Expecting ',' delimiter": _("Expecting ',' delimiter"),
    "Expecting ':' delimiter": _("Expecting ':' delimiter"),
    "Unterminated string starting at": _("Unterminated string starting at"),
    "Invalid control character at": _("Invalid control character at"),
    "Extra data": _("Extra data"),
    "Illegal trailing comma before end of object": _("Illegal trailing comma before end of object"),
    "Illegal trailing comma before end of array": _("Illegal trailing comma before end of array"),
}


def _params_in_language(params: dict[str, Any]) -> dict[str, Any]:
    """Return the params with a JSON parser's reason in the reader's language."""
    reason = params.get("reason")
    if isinstance(reason, str) and reason in JSON_REASONS:
        return params | {"reason": str(JSON_REASONS[reason])}
    return params


def issue_in_language(issue: dict[str, Any]) -> dict[str, Any]:
    """Return a stored error or warning as FORMAT.md writes it, its message said in the
    language of the request (built from its code and parameters; English is the engine's)."""
    message = issue.get("message", "")
    if issue.get("code") in ARCHIVE_MESSAGES:
        message = gettext(ARCHIVE_MESSAGES[issue["code"]]) % issue.get("params", {})
    elif "params" in issue:
        # Stored by an older engine with other parameters: its English message stands.
        with contextlib.suppress(KeyError, ValueError, TypeError):
            names = end_names()
            message = describe(
                issue["code"],
                _params_in_language(issue["params"]),
                issue.get("hand"),
                issue.get("move"),
                gettext,
                lambda end: names.get(f"end_{end}", end),
            )
    return {
        "code": issue.get("code"),
        "hand": issue.get("hand"),
        "move": issue.get("move"),
        "seat": issue.get("seat"),
        "message": message,
    }


def issues_in_language(issues: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return ``issue_in_language`` of each issue."""
    return [issue_in_language(issue) for issue in issues]


def report_in_language(report: dict[str, Any]) -> dict[str, Any]:
    """Return a stored report as FORMAT.md writes it, in the language of the request."""
    return report | {
        "errors": issues_in_language(report.get("errors", [])),
        "warnings": issues_in_language(report.get("warnings", [])),
    }


END_NAMES = {
    "domino": _("domino"),
    "block": _("blocked"),
    "target": _("target reached"),
    "unfinished": _("unfinished"),
}


def ruleset_words(rules: dict[str, Any]) -> list[str]:
    """Return the resolved ruleset of a match in words, one phrase per rule, in the
    language of the request (the words are the engine's table's: ``OPTIONS``)."""
    return ruleset_in_words(rules, gettext)


def played_as_written(match: Match) -> str:
    """Return when the match was played, in the time zone its log was written in; a
    ``played_at`` with no moment (not ISO 8601, or past the years of a date) as written."""
    if match.played_at is None:
        return match.played_at_text
    try:
        moment = datetime.fromisoformat(match.played_at_text)
    except ValueError:
        return match.played_at_text
    # Written as the reader's language writes a moment (2026-11-20 19:05; 20.11.2026 19:05).
    written = date_format(moment, "SHORT_DATETIME_FORMAT")
    if moment.tzinfo is None:
        return written + " UTC"
    offset = moment.strftime("%z")
    zone = "UTC" if offset in ("+0000", "-0000") else f"UTC{offset[:3]}:{offset[3:]}"
    return written + f" {zone}"


def team_names(match: Match) -> list[str]:
    """Return the name of each team: its players' handles."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    teams: dict[int, list[str]] = {}
    for seat in seats:
        teams.setdefault(seat.team, []).append(seat.player.handle)
    return [" & ".join(teams[team]) for team in sorted(teams)]


def match_summary(match: Match) -> dict[str, Any]:
    """Return the context of a match page: teams, hands with running scores, differences."""
    names = team_names(match)
    hands = match.hands
    rows = [
        {
            "number": hand.index + 1,
            "end": END_NAMES.get(hand.end, hand.end),
            "cells": [
                {
                    "points": hand.points[team],
                    "settlement": hand.settlement[team],
                    "score": hand.scores[team],
                }
                for team in range(len(names))
            ],
        }
        for hand in hands
    ]
    written = match.final_scores
    final = [
        {
            "name": name,
            "score": match.scores[team],
            "written": written[team] if written and team < len(written) else None,
            "winner": match.winner == team,
        }
        for team, name in enumerate(names)
    ]
    return {
        "match": match,
        "teams": names,
        "seats": sorted(match.seats.all(), key=lambda seat: seat.seat),
        "rows": rows,
        "final": final,
        "scores_differ": written is not None and list(written) != list(match.scores),
        "warnings": issues_in_language(match.warnings),
        "ruleset_words": ruleset_words(match.rules),
        "played_as_written": played_as_written(match),
    }
