"""Validation and rescoring: a ``fives/1`` log in, the report of FORMAT.md out.

``validate_log`` never raises on its input: anything that is not a legal match becomes an
error with a stable code, the 0-based hand and move, and a message for people that says the
hand and move 1-based, the tile and the open ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from .codes import Code
from .game import (
    DRAW,
    NAMED_PARAMS,
    PLAY,
    HandState,
    MatchState,
    Refusal,
    TableHandState,
)
from .log import TABLE, HandLog, MatchLog, Move, SchemaError, load_json, parse_log
from .report import Checked, Issue, MoveFacts, Report
from .rules import RulesetError, resolve_ruleset, ruleset_check
from .table import known_holdings
from .tiles import ALL_TILES

__all__ = [
    "Checked",
    "HandStart",
    "Issue",
    "MoveFacts",
    "MoveTrace",
    "Report",
    "Step",
    "iter_reports",
    "schema_report",
    "validate_json",
    "validate_log",
    "validate_match",
    "validate_traced",
    "walk_match",
]


class _Stop(Exception):
    """Validation stops at the first error."""


def validate_log(doc: Any) -> Report:
    """Return the report of a log given as a parsed JSON value (anything at all)."""
    return walk_match(doc).report


MoveTrace = list[list[tuple[int | None, int]]]


def validate_traced(doc: Any) -> tuple[Report, MoveTrace]:
    """Return the report of a log and, per hand, each legal move's ``(count, points)``.

    The count is None for a draw or a pass. Moves after the first error have no entry.
    """
    checked = walk_match(doc, trace=True)
    trace = [[(facts.count, facts.points) for facts in hand] for hand in checked.moves]
    return checked.report, trace


def validate_json(data: bytes | str) -> Report:
    """Return the report of a log given as JSON text or bytes."""
    try:
        doc = load_json(data)
    except SchemaError as exc:
        return schema_report(exc)
    return validate_log(doc)


def schema_report(exc: SchemaError) -> Report:
    """Return the report of a document that is not a ``fives/1`` log."""
    issue = Issue.make(
        Code.SCHEMA, exc.hand, exc.move, path=exc.path, problem=exc.problem, **exc.params
    )
    return Report(errors=[issue])


# Called at the start of each hand (move None) and after each legal move.
StepHook = Callable[["Step"], None]


@dataclass(frozen=True, slots=True)
class Step:
    """Where a replay stands: the hand and move just made, and the states after it.

    ``facts`` is what the move did as the archive stores it (None at the start of a hand);
    every figure of a play (its go-out bonus, its bust) is ``match.last_play`` at the step.
    """

    hand_index: int
    move_index: int | None
    move: Move | None
    count: int | None
    points: int
    hand: HandState
    match: MatchState
    facts: MoveFacts | None = None


@dataclass(frozen=True, slots=True)
class HandStart:
    """The match as it stands at the start of a hand, all a walk needs to go on from there
    (``walk_match``'s ``resume``): the hand's index, the teams' scores and the seats that
    may lead it (None: any). A hand started is one after a finished hand whose match is not
    won (else the walk stops before it), so nothing else of the match carries over: its
    points and each play's are the hand's own.

    A caller that follows a match as it grows (the archive's live tables) keeps it as JSON
    (``as_json``) and walks only the last hand again, not the whole match."""

    hand: int
    scores: tuple[int, ...]
    leaders: frozenset[int] | None

    @classmethod
    def at(cls, step: Step) -> HandStart:
        """Return where the match stands at ``step``, the start of a hand (its move None)."""
        assert step.move_index is None
        match = step.match
        return cls(step.hand_index, tuple(match.scores), match.leaders)

    def as_json(self) -> dict[str, Any]:
        leaders = None if self.leaders is None else sorted(self.leaders)
        return {"hand": self.hand, "scores": list(self.scores), "leaders": leaders}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandStart:
        leaders = data["leaders"]
        return cls(
            int(data["hand"]),
            tuple(int(score) for score in data["scores"]),
            None if leaders is None else frozenset(int(seat) for seat in leaders),
        )


def validate_match(log: MatchLog, on_step: StepHook | None = None) -> Report:
    """Return the report of a parsed log: every rule checked, every point counted.

    ``on_step`` (for replays) sees the states at the start of every hand and after
    every legal move, up to the first error.
    """
    return walk_match(None, log, on_step=on_step).report


def walk_match(
    doc: Any = None,
    log: MatchLog | None = None,
    *,
    trace: bool = False,
    review: bool = False,
    on_step: StepHook | None = None,
    resume: HandStart | None = None,
) -> Checked:
    """Walk a match once with ``HandState`` and return what it saw.

    Every full walk of a match goes through here (validation, traces, reviews, replays), so
    a test can count them. ``doc`` is the parsed JSON value and ``log`` its ``MatchLog``
    (either may be left out: a missing log is parsed from ``doc``, once). ``trace`` keeps
    each move's ``MoveFacts``; ``review`` adds each play's best; ``on_step`` sees the states
    at the start of every hand and after every legal move. With ``resume``, the log's hands
    are the match's from ``resume.hand`` on, walked from where it stood then: hand indexes
    (steps, errors, paths) are the match's, and the report's hands are those walked.
    """
    moves: list[list[MoveFacts]] = []
    if log is None:
        try:
            log = parse_log(doc)
        except SchemaError as exc:
            return Checked(mark_record(schema_report(exc), doc), None, [])
    report = Report()
    validator = _Validator(log, report, on_step, moves if trace else None, review, resume)
    with contextlib.suppress(_Stop):
        validator.run()
    match = validator.match
    if match is not None:
        # Only hands that completed count: those before an error, or all of a valid log.
        report.hands = match.results
        report.scores = list(match.results[-1].scores) if match.results else [0] * match.teams
        report.winner = match.winner
    return Checked(report, log, moves)


def mark_record(report: Report, doc: Any) -> Report:
    """Mark the report of a document that says it is a table record (its schema error
    included) with ``"record": "table"``; return the report."""
    if type(doc) is dict and doc.get("record") == TABLE:
        report.record = TABLE
    return report


# What a draw or a pass did: no count, no points.
_NO_PLAY: Final = MoveFacts(None, 0)
# The facts met so far, by their fields: a MoveFacts is immutable, and finding one costs less
# than making it (a few thousand are met; bounded all the same).
_FACTS_MET: Final[dict[tuple[Any, ...], MoveFacts]] = {}


def _facts_of(count: int, points: int, best: int | None, best_play: str | None) -> MoveFacts:
    """Return the ``MoveFacts`` of a play: its count, points, best and best play."""
    key = (count, points, best, best_play)
    facts = _FACTS_MET.get(key)
    if facts is None:
        facts = MoveFacts(count, points, best, best_play)
        if len(_FACTS_MET) < 50_000:
            _FACTS_MET[key] = facts
    return facts


class _Validator:
    def __init__(
        self,
        log: MatchLog,
        report: Report,
        on_step: StepHook | None,
        trace: list[list[MoveFacts]] | None,
        review: bool,
        resume: HandStart | None = None,
    ) -> None:
        self.log = log
        self.resume = resume
        self.report = report
        self.on_step = on_step
        self.trace = trace
        # Whether anyone reads what each move did (a trace, a step hook).
        self.keep = trace is not None or on_step is not None
        self.review = review
        self.match: MatchState | None = None

    # --- errors ----------------------------------------------------------------------

    def fail(
        self,
        code: Code,
        at_hand: int | None = None,
        at_move: int | None = None,
        at_seat: int | None = None,
        /,
        **params: Any,
    ) -> NoReturn:
        self.report.errors.append(Issue.make(code, at_hand, at_move, at_seat, **params))
        raise _Stop

    def who(self, seat: int) -> dict[str, Any]:
        return {"player": self.log.players[seat], "seat": seat}

    # --- the match -------------------------------------------------------------------

    def run(self) -> None:
        log = self.log
        report = self.report
        if log.table:
            report.record = TABLE
        try:
            ruleset_check(log.ruleset)
        except RulesetError as exc:
            self.fail(Code.RULESET, problem=exc.problem, **exc.params)
        self.check_players()
        players = len(log.players)
        try:
            rules = resolve_ruleset(log.ruleset, players)
        except RulesetError as exc:
            self.fail(Code.RULESET, problem=exc.problem, **exc.params)
        report.ruleset = rules
        self.check_teams()
        teams = [list(team) for team in log.teams] if log.teams is not None else None
        match = MatchState.create(rules, players, teams)
        self.match = match
        first = self.resume_match(match)

        last = first + len(log.hands) - 1
        for index, hand_log in enumerate(log.hands, first):
            self.play_hand(index, hand_log)
            hand = match.hand
            assert hand is not None
            if hand.end is None and index < last:
                self.fail(Code.UNFINISHED_HAND, index)
            if log.table and hand_log.left is not None:
                if hand.end is None:
                    path = f"$.hands[{index}].left"
                    self.fail(Code.SCHEMA, index, path=path, problem="left-unfinished")
                if hand.end == "target":
                    # FORMAT.md: a hand stopped at the target may leave ``left`` out, and
                    # it is checked when given (nothing is settled from it).
                    assert type(hand) is TableHandState
                    self.check_left(index, hand_log, hand)
            if hand.end is None:
                match.close_unfinished()

        if log.final_scores is not None and list(log.final_scores) != match.scores:
            report.warnings.append(
                Issue.make(
                    Code.SCORE_MISMATCH,
                    written=list(log.final_scores),
                    computed=list(match.scores),
                )
            )

    def resume_match(self, match: MatchState) -> int:
        """Set ``match`` where ``resume`` says it stood; return the index of its first hand."""
        resume = self.resume
        if resume is None:
            return 0
        if len(resume.scores) != match.teams:
            raise ValueError(f"a walk of {match.teams} teams resumed at {resume}")
        # In place: each hand shares the match's list of scores.
        match.scores[:] = resume.scores
        match.leaders = resume.leaders
        return resume.hand

    def check_players(self) -> None:
        names = self.log.players
        if not 2 <= len(names) <= 4:
            self.fail(Code.PLAYERS, case="count", count=len(names))
        seen: set[str] = set()
        for seat, name in enumerate(names):
            if not name.strip():
                self.fail(Code.PLAYERS, None, None, seat, case="empty", seat=seat)
            if name in seen:
                self.fail(Code.PLAYERS, None, None, seat, case="repeated", name=name)
            seen.add(name)

    def check_teams(self) -> None:
        teams = self.log.teams
        if teams is None:
            return
        players = len(self.log.players)
        if players != 4:
            self.fail(Code.TEAMS, case="players", players=players)
        seats = sorted(seat for team in teams for seat in team)
        if len(teams) != 2 or any(len(team) != 2 for team in teams) or seats != [0, 1, 2, 3]:
            self.fail(Code.TEAMS, case="pairs")

    # --- one hand --------------------------------------------------------------------

    def play_hand(self, index: int, hand_log: HandLog) -> None:
        match = self.match
        assert match is not None
        # The board judges the hand's start (the match's end, the deal, the leader), in that
        # order; the validator reports.
        refusal = match.judge_start()
        if refusal is not None:
            self.refuse(index, None, None, refusal)
        table = self.log.table
        # A table record's deal is unknown: any deal it writes all the same is not used.
        hands: list[set[int]] = []
        if not table:
            assert hand_log.deal is not None  # only a table record leaves its deal out
            dealt = match.judge_deal(hand_log.deal)
            if isinstance(dealt, Refusal):
                self.refuse(index, None, dealt.seat, dealt)
            hands = dealt
        leader = hand_log.leader
        refusal = match.judge_leader(index == 0, leader)
        if refusal is not None:
            self.refuse(index, None, refusal.seat, refusal)
        hand: HandState
        if table:
            known = known_holdings(hand_log.moves, hand_log.left, match.players)
            hand = match.start_table_hand(leader, known)
            self.start_table_hand(index, hand_log, hand)
        else:
            dealt_tiles = set().union(*hands)
            hand = match.start_hand(leader, hands, {t for t in ALL_TILES if t not in dealt_tiles})
        on_step = self.on_step
        if on_step is not None:
            on_step(Step(index, None, None, None, 0, hand, match))
        trace: list[MoveFacts] | None = None
        if self.trace is not None:
            trace = []
            self.trace.append(trace)
        for number, move in enumerate(hand_log.moves):
            facts = self.check_move(index, number, move, hand)
            if trace is not None:
                trace.append(facts)
            if on_step is not None:
                on_step(Step(index, number, move, facts.count, facts.points, hand, match, facts))
        self.report.moves_checked += len(hand_log.moves)

    # --- one move --------------------------------------------------------------------

    def check_move(self, h: int, m: int, move: Move, hand: HandState) -> MoveFacts:
        """Make one move, which the match judges (``MatchState.check``), or report why it
        may not be made; return what it did."""
        match = self.match
        assert match is not None
        # (The hand judges the move; the match only once it is won, which is rare.)
        verdict = hand.judge(move) if match.winner is None else match.judge(move)
        if isinstance(verdict, Refusal):
            self.refuse(h, m, move.seat, verdict)
        kind = verdict.kind
        if kind == PLAY:
            # (Unpacked only when there is one: compiled, a tuple-or-None is unpacked as any
            # iterable would be.)
            best: int | None = None
            best_text: str | None = None
            if self.review:
                found = hand.best_play()
                if found is not None:
                    best, best_text = found
            tile = verdict.tile
            assert tile is not None
            count, points = match.play(tile, verdict.end, verdict.west, verdict.east)
            if move.points is not None and move.points != points:
                self.claim(h, m, move, points, count)
            if not self.keep:
                return _NO_PLAY  # nobody reads it
            return _facts_of(count, points, best, best_text)
        if kind == DRAW:
            match.draw(verdict.tile)
        else:
            match.pass_turn()
        if move.points is not None:
            self.claim(h, m, move, 0, None)
        return _NO_PLAY

    def refuse(self, h: int, m: int | None, seat: int | None, refusal: Refusal) -> NoReturn:
        """Report the refusal of the move ``m`` of hand ``h`` by ``seat`` (None: no seat):
        its params with the players named (``Refusal``), or the winners of a match already
        won."""
        params = refusal.params
        if refusal.code == Code.AFTER_MATCH_END:
            params = self.winners()
        else:
            players = self.log.players
            for name in NAMED_PARAMS:
                named = params.get(name)
                if named is not None:
                    params[name] = players[named]
            allowed = params.get("allowed")
            if allowed is not None:  # the seats that may lead, each with its player
                params["allowed"] = [[players[seat], seat] for seat in allowed]
        self.fail(refusal.code, h, m, seat, **params)

    # --- table records ---------------------------------------------------------------

    def start_table_hand(self, h: int, hand_log: HandLog, hand: TableHandState) -> None:
        hand.reveal = lambda: self.check_left(h, hand_log, hand)

    def check_left(self, h: int, hand_log: HandLog, hand: TableHandState) -> list[set[int]]:
        """Check the tiles each seat shows when the hand ends by a domino or a block, and
        return them: the settlement counts their pips."""
        left = hand_log.left
        path = f"$.hands[{h}].left"
        players = hand.players
        if left is None:
            self.fail(Code.SCHEMA, h, path=path, problem="missing")
        assert left is not None
        if len(left) != players:
            self.fail(
                Code.SCHEMA, h, path=path, problem="left-seats", players=players, count=len(left)
            )
        found = hand.check_left(left)
        if isinstance(found, Refusal):
            assert found.seat is not None
            self.refuse(h, None, found.seat, found)
        return found

    def claim(self, h: int, m: int, move: Move, points: int, count: int | None) -> None:
        if move.points is None or move.points == points:
            return
        case = move.kind if count is None else "scores" if points else "nothing"
        self.report.warnings.append(
            Issue.make(
                Code.POINTS_MISMATCH,
                h,
                m,
                move.seat,
                case=case,
                claimed=move.points,
                points=points,
                count=count,
            )
        )

    def winners(self) -> dict[str, Any]:
        """Return the params that name the team that won the match."""
        match = self.match
        assert match is not None and match.winner is not None
        players = self.log.players
        if self.log.teams is None:
            return {"case": "player", "player": players[match.winner]}
        first, second = self.log.teams[match.winner]
        return {"case": "partners", "player": players[first], "partner": players[second]}


def iter_reports(lines: Iterable[bytes | str]) -> Iterator[Report]:
    """Yield the report of each non-blank line of an NDJSON stream."""
    for line in lines:
        if line.strip():
            yield validate_json(line)
