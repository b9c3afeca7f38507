"""Validation and rescoring: a ``fives/1`` log in, the report of FORMAT.md out.

``validate_log`` never raises on its input: anything that is not a legal match becomes an
error with a stable code, the 0-based hand and move, and a message for people that says the
hand and move 1-based, the tile and the open ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .fast import fast_report
from .game import DRAW, PASS, PLAY, HandState, MatchState
from .log import HandLog, MatchLog, Move, SchemaError, load_json, parse_log
from .report import Issue, Report
from .rules import Ruleset, RulesetError, resolve_ruleset, ruleset_options
from .tiles import ALL_TILES, NAME, parse_tile


class _Stop(Exception):
    """Validation stops at the first error."""


def validate_log(doc: Any) -> Report:
    """Return the report of a log given as a parsed JSON value (anything at all)."""
    report = fast_report(doc)
    if report is not None:
        return report
    try:
        log = parse_log(doc)
    except SchemaError as exc:
        return schema_report(exc)
    return validate_match(log)


MoveTrace = list[list[tuple[int | None, int]]]


def validate_traced(doc: Any) -> tuple[Report, MoveTrace]:
    """Return the report of a log and, per hand, each legal move's ``(count, points)``.

    The count is None for a draw or a pass. Moves after the first error have no entry.
    """
    trace: MoveTrace = []
    report = fast_report(doc, trace)
    if report is not None:
        return report, trace
    try:
        log = parse_log(doc)
    except SchemaError as exc:
        return schema_report(exc), []
    trace = []

    def record(step: Step) -> None:
        if step.move_index is None:
            trace.append([])
        else:
            trace[-1].append((step.count, step.points))

    return validate_match(log, record), trace


def validate_json(data: bytes | str) -> Report:
    """Return the report of a log given as JSON text or bytes."""
    try:
        doc = load_json(data)
    except SchemaError as exc:
        return schema_report(exc)
    return validate_log(doc)


def schema_report(exc: SchemaError) -> Report:
    """Return the report of a document that is not a ``fives/1`` log."""
    issue = Issue(
        "schema",
        f"not a fives/1 log: {exc.path} {exc.problem}",
        hand=exc.hand,
        move=exc.move,
        params={"path": exc.path, "problem": exc.problem},
    )
    return Report(errors=[issue])


# Called at the start of each hand (move None) and after each legal move.
StepHook = Callable[["Step"], None]


@dataclass(frozen=True, slots=True)
class Step:
    """Where a replay stands: the hand and move just made, and the states after it."""

    hand_index: int
    move_index: int | None
    move: Move | None
    count: int | None
    points: int
    hand: HandState
    match: MatchState


def validate_match(log: MatchLog, on_step: StepHook | None = None) -> Report:
    """Return the report of a parsed log: every rule checked, every point counted.

    ``on_step`` (for replays) sees the states at the start of every hand and after
    every legal move, up to the first error.
    """
    report = Report()
    validator = _Validator(log, report, on_step)
    with contextlib.suppress(_Stop):
        validator.run()
    match = validator.match
    if match is not None:
        # Only hands that completed count: those before an error, or all of a valid log.
        report.hands = match.results
        report.scores = list(match.results[-1].scores) if match.results else [0] * match.teams
        report.winner = match.winner
    return report


def _open_text(hand: HandState) -> str:
    return ", ".join(f"{end} {pip}" for end, pip in hand.open_ends) or "none"


def _where(hand: int, move: int | None) -> str:
    if move is None:
        return f"hand {hand + 1}"
    return f"hand {hand + 1}, move {move + 1}"


class _Validator:
    def __init__(self, log: MatchLog, report: Report, on_step: StepHook | None) -> None:
        self.log = log
        self.report = report
        self.on_step = on_step
        self.match: MatchState | None = None

    # --- errors ----------------------------------------------------------------------

    def fail(
        self,
        code: str,
        text: str,
        hand: int | None = None,
        move: int | None = None,
        seat: int | None = None,
        **params: Any,
    ) -> None:
        message = text if hand is None else f"{_where(hand, move)}: {text}"
        self.report.errors.append(Issue(code, message, hand, move, seat, params))
        raise _Stop

    def who(self, seat: int) -> str:
        return f"{self.log.players[seat]} (seat {seat})"

    # --- the match -------------------------------------------------------------------

    def run(self) -> None:
        log = self.log
        report = self.report
        try:
            ruleset_options(log.ruleset)
        except RulesetError as exc:
            self.fail("ruleset", f"ruleset: {exc}", detail=str(exc))
        self.check_players()
        players = len(log.players)
        try:
            rules = resolve_ruleset(log.ruleset, players)
        except RulesetError as exc:
            self.fail("ruleset", f"ruleset: {exc}", detail=str(exc))
        report.ruleset = rules
        self.check_teams()
        teams = [list(team) for team in log.teams] if log.teams is not None else None
        match = MatchState.create(rules, players, teams)
        self.match = match

        last = len(log.hands) - 1
        for index, hand_log in enumerate(log.hands):
            self.play_hand(index, hand_log)
            hand = match.hand
            assert hand is not None
            if hand.end is None:
                if index < last:
                    self.fail(
                        "unfinished-hand",
                        "the hand stops before anyone went out or the game was blocked, "
                        "yet another hand follows",
                        index,
                    )
                match.close_unfinished()

        if log.final_scores is not None and list(log.final_scores) != match.scores:
            written = ", ".join(_number(score) for score in log.final_scores)
            computed = ", ".join(str(score) for score in match.scores)
            report.warnings.append(
                Issue(
                    "score-mismatch",
                    f"the final scores written are {written}; the rules give {computed}",
                    params={"written": list(log.final_scores), "computed": list(match.scores)},
                )
            )

    def check_players(self) -> None:
        names = self.log.players
        if not 2 <= len(names) <= 4:
            self.fail("players", f"a match has 2 to 4 players, not {len(names)}", count=len(names))
        seen: set[str] = set()
        for seat, name in enumerate(names):
            if not name.strip():
                self.fail("players", f"the name of seat {seat} is empty", seat=seat)
            if name in seen:
                self.fail("players", f"the name {name!r} is given twice", seat=seat)
            seen.add(name)

    def check_teams(self) -> None:
        teams = self.log.teams
        if teams is None:
            return
        players = len(self.log.players)
        if players != 4:
            self.fail("teams", f"partnerships need 4 players, not {players}")
        seats = sorted(seat for team in teams for seat in team)
        if len(teams) != 2 or any(len(team) != 2 for team in teams) or seats != [0, 1, 2, 3]:
            self.fail("teams", "partnerships are two pairs of seats covering seats 0 to 3 once")

    # --- one hand --------------------------------------------------------------------

    def play_hand(self, index: int, hand_log: HandLog) -> None:
        match = self.match
        assert match is not None
        rules = match.rules
        if match.over:
            self.fail(
                "after-match-end",
                f"the match was already won by {self.team_name(match.winner)}",
                index,
            )
        hands = self.check_deal(index, hand_log, rules)
        leader = hand_log.leader
        if leader >= match.players:
            self.fail("wrong-leader", f"there is no seat {leader} to lead", index, seat=leader)
        if index > 0 and match.leaders is not None and leader not in match.leaders:
            allowed = " or ".join(self.who(seat) for seat in sorted(match.leaders))
            self.fail(
                "wrong-leader",
                f"{self.who(leader)} leads, but the rules give the lead to {allowed}",
                index,
                seat=leader,
            )
        dealt = set().union(*hands)
        hand = match.start_hand(leader, hands, {t for t in ALL_TILES if t not in dealt})
        on_step = self.on_step
        if on_step is not None:
            on_step(Step(index, None, None, None, 0, hand, match))
        for number, move in enumerate(hand_log.moves):
            count, points = self.check_move(index, number, move, hand)
            if on_step is not None:
                on_step(Step(index, number, move, count, points, hand, match))
        self.report.moves_checked += len(hand_log.moves)

    def check_deal(self, index: int, hand_log: HandLog, rules: Ruleset) -> list[set[int]]:
        players = len(self.log.players)
        deal = hand_log.deal
        if len(deal) != players:
            self.fail("deal", f"the deal has {len(deal)} hands for {players} players", index)
        hands: list[set[int]] = []
        seen: set[int] = set()
        for seat, tiles in enumerate(deal):
            if len(tiles) != rules.hand_size:
                self.fail(
                    "deal",
                    f"{self.who(seat)} is dealt {len(tiles)} tiles, not {rules.hand_size}",
                    index,
                    seat=seat,
                )
            hand: set[int] = set()
            for text in tiles:
                parsed = parse_tile(text)
                if parsed is None:
                    self.fail("deal", f"{text!r} is not a tile (0-0 to 6-6)", index, seat=seat)
                tile = parsed[0]
                if tile in seen:
                    self.fail("deal", f"{NAME[tile]} is dealt twice", index, seat=seat)
                seen.add(tile)
                hand.add(tile)
            hands.append(hand)
        return hands

    # --- one move --------------------------------------------------------------------

    def check_move(self, h: int, m: int, move: Move, hand: HandState) -> tuple[int | None, int]:
        """Check and make one move; return the count after it (None: no play) and its points."""
        match = self.match
        assert match is not None
        seat = move.seat
        if match.over:
            self.fail(
                "after-match-end",
                f"the match was already won by {self.team_name(match.winner)}",
                h,
                m,
                seat,
            )
        if hand.end is not None:
            how = "went out" if hand.end == "domino" else "was blocked"
            self.fail("after-hand-end", f"a move after the hand {how}", h, m, seat)
        if seat != hand.turn:
            mover = self.who(seat) if seat < match.players else f"seat {seat}"
            self.fail(
                "wrong-turn",
                f"{mover} moves, but it is {self.who(hand.turn)}'s turn",
                h,
                m,
                seat,
            )
        if move.kind == PLAY:
            count, points = self.check_play(h, m, move, hand)
            self.claim(h, m, move, points, count)
            return count, points
        if move.kind == DRAW:
            self.check_draw(h, m, move, hand)
        else:
            self.check_pass(h, m, move, hand)
        self.claim(h, m, move, 0, None)
        return None, 0

    def check_play(self, h: int, m: int, move: Move, hand: HandState) -> tuple[int, int]:
        seat = move.seat
        parsed = parse_tile(move.tile)
        if parsed is None or parsed[0] not in hand.hands[seat]:
            self.fail("not-in-hand", f"{self.who(seat)} does not hold {move.tile}", h, m, seat)
        assert parsed is not None
        tile, a, b = parsed
        if hand.lead is None:
            return self.match.play(tile, None, a, b)
        ends = hand.ends_for(tile)
        if not ends:
            self.fail(
                "no-match",
                f"{move.tile} matches no open end (open: {_open_text(hand)})",
                h,
                m,
                seat,
            )
        end = move.end
        if end is not None:
            if end not in ends:
                self.fail(
                    "bad-end",
                    f"{move.tile} cannot go on {end} (open: {_open_text(hand)})",
                    h,
                    m,
                    seat,
                )
        elif len(ends) > 1:
            self.fail(
                "ambiguous-end",
                f"{move.tile} fits {' and '.join(ends)}; the move must name its end "
                f"(open: {_open_text(hand)})",
                h,
                m,
                seat,
            )
        else:
            end = ends[0]
        return self.match.play(tile, end)

    def check_draw(self, h: int, m: int, move: Move, hand: HandState) -> None:
        seat = move.seat
        allowed = hand.legal_moves()[0].kind
        if allowed == PLAY:
            self.fail(
                "draw-when-playable",
                f"{self.who(seat)} draws while holding a tile that fits (open: {_open_text(hand)})",
                h,
                m,
                seat,
            )
        if allowed == PASS:
            self.fail(
                "boneyard-empty",
                f"{self.who(seat)} draws, but the boneyard has {len(hand.boneyard)} tiles and "
                f"{hand.rules.boneyard_reserve} may not be drawn",
                h,
                m,
                seat,
            )
        parsed = parse_tile(move.tile)
        if parsed is None or parsed[0] not in hand.boneyard:
            self.fail("not-in-boneyard", f"{move.tile} is not in the boneyard", h, m, seat)
        assert parsed is not None
        self.match.draw(parsed[0])

    def check_pass(self, h: int, m: int, move: Move, hand: HandState) -> None:
        seat = move.seat
        allowed = hand.legal_moves()[0].kind
        if allowed == PLAY:
            self.fail(
                "pass-when-playable",
                f"{self.who(seat)} passes while holding a tile that fits "
                f"(open: {_open_text(hand)})",
                h,
                m,
                seat,
            )
        if allowed == DRAW:
            self.fail(
                "pass-must-draw",
                f"{self.who(seat)} passes, but must draw: the boneyard has "
                f"{len(hand.boneyard)} tiles",
                h,
                m,
                seat,
            )
        self.match.pass_turn()

    def claim(self, h: int, m: int, move: Move, points: int, count: int | None) -> None:
        if move.points is None or move.points == points:
            return
        if count is None:
            text = f"claimed {_number(move.points)} points, the rules give 0 for a {move.kind}"
        elif points:
            text = f"claimed {_number(move.points)} points, the count is {count}"
        else:
            text = (
                f"claimed {_number(move.points)} points, the count is {count}, which scores nothing"
            )
        self.report.warnings.append(
            Issue(
                "points-mismatch",
                f"{_where(h, m)}: {text}",
                h,
                m,
                move.seat,
                {"claimed": move.points, "points": points, "count": count},
            )
        )

    def team_name(self, team: int | None) -> str:
        if team is None:
            return "nobody"
        if self.log.teams is None:
            return self.log.players[team]
        return " and ".join(self.log.players[seat] for seat in self.log.teams[team])


def _number(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def iter_reports(lines: Iterator[bytes | str]) -> Iterator[Report]:
    """Yield the report of each non-blank line of an NDJSON stream."""
    for line in lines:
        if line.strip():
            yield validate_json(line)
