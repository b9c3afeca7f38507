"""The recorder's one call into the engine: what the table looks like after a record so far.

Pure Python over ``fives_engine`` (no Django), so the same code runs in the phone (Pyodide,
``recorder.js``) and on the server (tests). ``analyse`` takes a ``fives/1`` table record as it
stands after a tap and returns the engine's report, worded in the page's language, and the
last replay state (open ends, count, points, scores, turn, hidden counts) with what the
recorder needs next: the tiles laid in the hand, each seat's tile count, whether the tiles
each seat shows must be entered (phase ``left``: only where the engine finds the hand's
``left`` missing, a hand ended by a domino or a block, never one stopped at the target), and
who may lead the next hand; the tile set (``tiles``, for the picker); whether the ruleset
draws at all and the seat to play may draw or knock now (``draws``, ``may_draw``,
``may_knock``: no draw buttons where nobody draws, none before the lead); what the last play scored
as the engine scored it, with the bonus and the bust apart (``bonus``, ``bust``: the engine's
figures of the play, ``PlayFigures``; nothing is worked out here); and the pegs of a cribbage board
(``pegs``: each team's score and its score before its last scoring).

``foresee`` answers, before a tap, each tap the seat to play may make next: the phone draws a
tap from the engine's answer it already has, and the engine checks it after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from fives_engine import codes, validate
from fives_engine.codes import describe
from fives_engine.game import TableHandState
from fives_engine.log import SchemaError, parse_log
from fives_engine.replay import state_json
from fives_engine.scoring import may_draw
from fives_engine.tiles import NAME, parse_tile
from fives_engine.validate import HandStart


def templates() -> list[str]:
    """Return every message template of the engine (the ``N_`` strings of ``codes.py``): the
    page passes their translations, so the phone says the upload page's words."""
    found: list[str] = []
    for cases in codes.MESSAGES.values():
        found.extend(cases.values())
    for table in (codes.SCHEMA_PROBLEMS, codes.KINDS, codes.RULESET_PROBLEMS):
        found.extend(table.values())
    found.extend(
        (
            codes.PREFIX_HAND,
            codes.PREFIX_MOVE,
            codes.WHO,
            codes.OPEN_END,
            codes.NO_OPEN_END,
            codes.LIST_SEPARATOR,
            codes.AND_SEPARATOR,
            codes.OR_SEPARATOR,
        )
    )
    return list(dict.fromkeys(found))


def _translator(catalogue: Mapping[str, str] | None) -> Callable[[str], str]:
    table = dict(catalogue or {})
    return lambda text: table.get(text, text)


def _issue(issue: Any, translate: Callable[[str], str]) -> dict[str, Any]:
    def end_name(end: str) -> str:
        # The catalogue holds the ends' letters as the replay's keys ("end_W": "З").
        said = translate(f"end_{end}")
        return end if said == f"end_{end}" else said

    return {
        "code": str(issue.code),
        "hand": issue.hand,
        "move": issue.move,
        "seat": issue.seat,
        "params": issue.params,
        # Without "hand 1, move 5:": at the table it is always the move just tapped.
        "message": describe(issue.code, issue.params, translate=translate, end_name=end_name),
    }


def _left_missing(report: Any, hands: int) -> bool:
    """Return whether the one error is the last hand's ``left`` left out: the hand has just
    ended and the tiles each seat shows are still to be entered."""
    if len(report.errors) != 1:
        return False
    error = report.errors[0]
    return (
        error.code == codes.Code.SCHEMA
        and error.params.get("problem") == "missing"
        and error.params.get("path") == f"$.hands[{hands - 1}].left"
    )


def analyse(doc: Any, catalogue: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return what the engine says of a table record so far (see the module's words)."""
    return analyse_resumed(doc, None, catalogue)[0]


def analyse_resumed(
    doc: Any, resume: HandStart | None, catalogue: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], HandStart | None]:
    """Return ``analyse``'s answer of a record whose hands are a match's from hand
    ``resume.hand`` on, walked from where the match stood then (``validate.HandStart``;
    None: the whole match), and where the match stood at the start of the record's last
    hand (None where the walk stopped before it). The live tables walk a match's last hand
    alone so: a step costs the same at the 2,000th as at the 20th."""
    translate = _translator(catalogue)
    try:
        log = parse_log(doc)
    except SchemaError as exc:
        report = validate.mark_record(validate.schema_report(exc), doc)
        return {"report": _report(report, translate), "state": None, "phase": "error"}, None
    steps: list[Any] = []
    # What each step leaves, taken as the walk goes (its hand and match are changed by
    # the moves after it): the scores and the boneyard's size.
    seen: list[dict[str, Any]] = []
    starts: list[HandStart] = []

    def step(taken: Any) -> None:
        steps.append(taken)
        seen.append(
            {
                "move": taken.move_index,
                "scores": list(taken.match.scores),
                "boneyard": taken.hand.boneyard_size(),
            }
        )
        if taken.move_index is None:
            starts.append(HandStart.at(taken))

    report = validate.walk_match(log=log, on_step=step, resume=resume).report
    # The match's hands so far (a resumed walk's record holds only the last ones).
    hands = len(log.hands) + (resume.hand if resume is not None else 0)
    awaiting_left = _left_missing(report, hands)
    # The table as the walk left it (every step's state is the last one's: they share it).
    state = state_json(steps[-1]) if steps else None
    if awaiting_left and steps:
        # The last move ended the hand; the walk stopped at the missing ``left``, after the
        # move was made: the table as it ends, its settlement still to come.
        last = steps[-1]
        hand_log = log.hands[-1]
        move = hand_log.moves[-1]
        count = last.hand.count()
        # What the engine scored the play (the go-out bonus in, 0 for a bust), not the
        # count's points alone.
        points = last.match.last_play.points if move.kind == "play" else 0
        state = state_json(
            replace(last, move_index=len(hand_log.moves) - 1, move=move, count=count, points=points)
        )
        state.update(settlement=None, winner=None, turn=None, legal=[])
    if state is not None and state["hand_end"] == "target":
        # Stopped at the target (RULES.md: the hand stops there, without settlement): nothing
        # settled to show, and no ``left`` to ask (FORMAT.md: it may be left out).
        state["settlement"] = None
    phase = _phase(report, state, awaiting_left)
    result: dict[str, Any] = {
        "report": _report(report, translate, ignore_left=awaiting_left),
        "state": state,
        "awaiting_left": awaiting_left,
        "phase": phase,
        "laid": _laid(log.hands[-1]) if log.hands else [],
        # The tile set, as the picker offers it: the engine's, not the page's.
        "tiles": list(NAME),
        "held": _held(state),
        "next_leaders": None,
        **_drawing(steps, seen, phase),
        **_scored(steps, seen, state, awaiting_left),
        "pegs": _pegs(seen, state, steps[-1].match.rules.target if steps else None),
    }
    match = steps[-1].match if steps else None
    if result["phase"] == "next-hand" and match is not None and match.leaders is not None:
        result["next_leaders"] = sorted(match.leaders)
    last_start = starts[-1] if starts and starts[-1].hand == hands - 1 else None
    return result, last_start


def analyse_ahead(doc: Any, catalogue: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return what the phone's engine answers of a record (engine-worker.js): ``analyse``'s
    answer, with ``ahead``, ``foresee``'s answers to the taps that may come next (None
    where nothing may be foreseen)."""
    answer = analyse(doc, catalogue)
    answer["ahead"] = foresee(doc, answer, catalogue)
    return answer


def foresee(
    doc: Any, answer: Mapping[str, Any], catalogue: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """Return the engine's answer to each tap the table may make next, before it is made:
    the recorder draws a tap from it at once instead of waiting for the engine's round trip
    (recorder.js), and the engine stays the one judge of every move.

    ``answer`` is ``analyse(doc, catalogue)``. While a hand is played (phase ``play``) the
    keys are the taps of the seat to play: ``"play <tile>"`` for every tile not laid yet
    (the picker's spelling), ``"play <tile> <end>"`` for each end of a tile that fits two,
    ``"draw ?"`` and ``"pass"`` where the seat may draw or knock. Each value is what
    ``analyse`` says of the record with that move, refusals included (an ambiguous end's
    refusal names the ends to ask); an accepted move's answer carries the move as the
    recorder keeps it (``move``: with the end the engine laid it on and the points it
    scored), and the record with that move is answered the same. None in any other phase
    (a draw of a shown tile, the tiles shown, the next hand: those wait for the engine)."""
    state = answer.get("state")
    if answer.get("phase") != "play" or state is None or state.get("turn") is None:
        return None
    seat = state["turn"]
    hands = doc["hands"]

    def after(move: dict[str, Any]) -> dict[str, Any]:
        last = hands[-1]
        with_move = {**last, "moves": [*last["moves"], move]}
        said = analyse({**doc, "hands": [*hands[:-1], with_move]}, catalogue)
        if said["report"]["errors"]:
            return said
        kept = _as_recorded(move, said)
        if kept != move:
            # The record as the recorder keeps it, answered again: its confirmation is then
            # the same answer, not one that differs by the move's written end.
            said = after(kept)
        said["move"] = kept
        return said

    ahead: dict[str, Any] = {}
    laid = set(answer.get("laid") or ())
    for tile in NAME:
        if tile in laid:
            continue
        said = after({"seat": seat, "play": tile})
        ahead[f"play {tile}"] = said
        errors = said["report"]["errors"]
        if errors and errors[0]["code"] == codes.Code.AMBIGUOUS_END:
            for end in errors[0]["params"]["ends"]:
                ahead[f"play {tile} {end}"] = after({"seat": seat, "play": tile, "end": end})
    if answer.get("may_draw"):
        ahead["draw ?"] = after({"seat": seat, "draw": "?"})
    if answer.get("may_knock"):
        ahead["pass"] = after({"seat": seat, "pass": True})
    return ahead


def _as_recorded(move: dict[str, Any], said: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``move`` as the recorder keeps it once the engine accepted it (recorder.js,
    ``move``): a play with the end the engine laid it on (the lead lies on none) and the
    points it scored, so that the record says what the table saw."""
    if "play" not in move:
        return move
    kept = dict(move)
    placed = said["state"]["placed"]
    if "end" not in kept and placed != "lead":
        kept["end"] = placed
    if said["state"]["points"]:
        kept["points"] = said["state"]["points"]
    return kept


def _report(report: Any, translate: Callable[[str], str], ignore_left: bool = False):
    out = report.as_dict()
    errors = [] if ignore_left else report.errors
    out["errors"] = [_issue(issue, translate) for issue in errors]
    out["warnings"] = [_issue(issue, translate) for issue in report.warnings]
    if ignore_left:
        out["valid"] = True
    return out


def _phase(report: Any, state: dict[str, Any] | None, awaiting_left: bool) -> str:
    if awaiting_left:
        return "left"
    if report.errors:
        return "error"
    if report.winner is not None:
        return "over"
    if state is not None and state["hand_end"] is not None:
        return "next-hand"
    return "play"


def _laid(hand_log: Any) -> list[str]:
    """Return the tiles laid so far in a hand, as the picker writes them ("a-b", a <= b)."""
    laid = []
    for move in hand_log.moves:
        if move.kind == "play":
            parsed = parse_tile(move.tile)
            if parsed is not None:
                laid.append(NAME[parsed[0]])
    return laid


def _held(state: dict[str, Any] | None) -> list[int] | None:
    """Return how many tiles each seat holds (face down and shown)."""
    if state is None:
        return None
    hidden = state.get("hidden") or [0] * len(state["hands"])
    return [count + len(tiles) for count, tiles in zip(hidden, state["hands"], strict=True)]


def _drawing(steps: list[Any], seen: list[dict[str, Any]], phase: str) -> dict[str, bool]:
    """Return whether the ruleset draws at all in this hand (a seat may draw from the
    boneyard the hand started with) and whether the seat to play may draw now."""
    if not steps:
        return {"draws": False, "may_draw": False, "may_knock": False}
    hand = steps[-1].hand
    rules = hand.rules
    start = next(s for s in reversed(seen) if s["move"] is None)
    draws = may_draw(rules, start["boneyard"])
    playing = phase == "play" and isinstance(hand, TableHandState) and not hand.must_play()
    return {
        "draws": draws,
        "may_draw": draws and playing and hand.can_draw(),
        "may_knock": playing,
    }


def _scored(
    steps: list[Any], seen: list[dict[str, Any]], state: dict[str, Any] | None, awaiting: bool
) -> dict[str, Any]:
    """Return what the last move, a play, scored apart from its count, as the engine's
    figures of it say (``PlayFigures``): the go-out bonus (``bonus``) and, under
    ``target_exact``, the bust (``bust``: the score it would have made and the target)."""
    out: dict[str, Any] = {"bonus": 0, "bust": None}
    if state is None or not steps or not (state["action"] or {}).get("play"):
        return out
    match = steps[-1].match
    figures = match.last_play  # the last play's (a walk stopped at ``left`` made it too)
    if figures.bust:
        # The scores before the play: those of the step before the last (waiting for
        # ``left``, the last step the walk gave is the one before the play).
        before = seen[-1 if awaiting else -2]["scores"]
        would = before[match.team_of[state["seat"]]] + figures.bust
        out["bust"] = {"would": would, "target": match.rules.target}
    else:
        out["bonus"] = figures.bonus
    return out


def _pegs(
    seen: list[dict[str, Any]], state: dict[str, Any] | None, target: int | None
) -> dict[str, Any] | None:
    """Return the pegs of a cribbage board: each team's score (its front peg) and its score
    before its last scoring (its back peg), as pub players peg them, and the target."""
    if state is None:
        return None
    scores = list(state["scores"])
    back = list(scores)
    found = [False] * len(scores)
    for earlier in reversed(seen):
        for team, score in enumerate(earlier["scores"]):
            if not found[team] and score != scores[team]:
                back[team] = score
                found[team] = True
        if all(found):
            break
    for team, done in enumerate(found):
        if not done:
            back[team] = 0
    return {"target": target, "scores": scores, "back": back}
