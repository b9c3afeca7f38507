"""Puzzles from the archive's own mistakes (issue 60, item 2; docs/analysis.md, "Puzzles").

``puzzles_make`` reads the analyses of public clubs' matches (``MatchAnalysis``: each play's
values, standard errors and mark), takes each mistake and blunder that may make a puzzle
(``fives_engine.puzzles.candidate``), and checks its position again over ten times the
layouts the review used (``fives_engine.puzzles.check``: kept when one play is best by more
than four standard errors of its gap). A puzzle keeps the position as its seat saw it
(``fives_engine.practice.position_at``: never a hidden tile, never the hand's outcome) and
the themes the engine found.

Puzzles and solvers are rated against each other (Glicko-2, ``fives_engine.glicko2``, as
lichess rates puzzles): a person's first answer to a puzzle rates both, a solve the solver's
win. ``puzzle_next`` serves a person a puzzle near their rating they have not tried (within
``SERVE_WINDOW``, at random); the
streak mode serves them ever harder ones until a miss; ``puzzle_daily`` is the day's puzzle
of the home page.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from datetime import date
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Abs
from django.urls import reverse
from django.utils import timezone

from fives_engine import glicko2
from fives_engine.practice import PositionUnknown, position_at
from fives_engine.puzzles import CHECK_TIMES, SERVE_WINDOW, candidate, check
from games.models import Match
from games.numbering import address_before, shown

from .models import MatchAnalysis, Puzzle, PuzzleAttempt, PuzzleScan, PuzzleSolver

# A person is served an untried puzzle within SERVE_WINDOW of their rating, at random (of
# the first 500 there), else one of the NEAREST untried puzzles nearest it.
NEAREST = 12
# The streak mode starts here and asks this much more after each solve.
STREAK_START = 1000.0
STREAK_STEP = 60.0
# The fields a puzzle's question holds: the position as its seat saw it, and nothing else.
QUESTION_FIELDS = (
    "id", "rating", "themes_count", "players", "seat", "scores", "hand_tiles", "table",
    "counts", "boneyard", "seen", "choices",
)  # fmt: skip


def public_puzzles():
    """Return the puzzles anyone may be served: those of approved matches of public clubs."""
    return Puzzle.objects.filter(
        match__club__is_private=False, match__approval=Match.Approval.APPROVED
    )


def _scores_before(match: Match, hand: int, move: int) -> list[int]:
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    stored = match.hands
    teams = max(seat.team for seat in seats) + 1
    scores = list(stored[hand - 1].scores) if hand > 0 else [0] * teams
    for index in range(move):
        scores[seats[stored[hand].log.moves[index].seat].team] += stored[hand].facts[index].points
    return scores


class SeenMove(TypedDict):
    """A move of the hand as the seat saw it (``fives_engine.practice.SeenMove``)."""

    seat: int
    kind: str
    tile: str | None
    end: str | None


class Question(TypedDict):
    """A puzzle as it is asked (``question``): its seat's sight, nothing after."""

    id: int
    rating: int
    themes_count: int
    players: list[str]
    seat: int
    scores: list[int]
    hand_tiles: list[str]
    table: Mapping[str, object]
    counts: list[int]
    boneyard: int
    seen: list[SeenMove]
    choices: list[str]


class Verdict(TypedDict):
    """An answer to a puzzle (``puzzle_attempt``)."""

    id: int
    choice: str
    solved: bool
    best: str
    played: str
    unit: str
    gap: float
    gap_se: float
    layouts: int
    plays: list[Mapping[str, object]]
    themes: list[str]
    rated: bool
    rating: int | None
    puzzle_rating: int
    streak: int | None
    match: int
    hand: int
    move: int
    replay: str
    analyse: str


def match_puzzles(match: Match, result: Mapping[str, Any], *, now=None) -> list[Puzzle]:
    """Make the puzzles of one analysed match (its review's ``result``); return those made."""
    now = now or timezone.now()
    log = match.log()
    players = [seat.player.handle for seat in sorted(match.seats.all(), key=lambda s: s.seat)]
    made: list[Puzzle] = []
    for play in result.get("plays", []):
        if not candidate(play):
            continue
        hand, move = play["hand"], play["move"]
        if Puzzle.objects.filter(match=match, hand=hand, move=move).exists():
            continue
        layouts = max(1, int(play.get("layouts") or 24)) * CHECK_TIMES
        checked = check(log, hand, move, layouts)
        if checked is None:
            continue
        try:
            seen = position_at(log, hand, move).as_dict()
        except PositionUnknown:
            continue
        view = {
            "players": players,
            "teams": [seat.team for seat in sorted(match.seats.all(), key=lambda s: s.seat)],
            "scores": _scores_before(match, hand, move),
            **{key: seen[key] for key in QUESTION_VIEW},
        }
        made.append(
            Puzzle.objects.create(
                match=match,
                hand=hand,
                move=move,
                seat=play["seat"],
                view=view,
                document=checked.document,
                plays=list(checked.plays),
                best=checked.best,
                played=play["played"],
                unit=checked.unit,
                gap=checked.gap,
                gap_se=checked.gap_se,
                layouts=checked.layouts,
                themes=list(checked.themes),
                made_at=now,
            )
        )
    return made


# What a puzzle's view keeps of ``SeatPosition.as_dict``: the seat's own sight.
QUESTION_VIEW = ("seat", "hand_tiles", "table", "counts", "boneyard", "seen", "choices")


def puzzles_make(*, limit: int | None = None) -> dict[str, int]:
    """Look through the analyses of public clubs' approved matches not yet looked through
    (or analysed again since), up to ``limit`` matches; return how many matches and puzzles."""
    done = MatchAnalysis.objects.filter(
        status=MatchAnalysis.Status.DONE,
        match__club__is_private=False,
        match__approval=Match.Approval.APPROVED,
    )
    seen = dict(PuzzleScan.objects.values_list("match_id", "analysis_finished_at"))
    matches = puzzles = 0
    for analysis in done.order_by("-finished_at").iterator():
        if analysis.match_id in seen and seen[analysis.match_id] == analysis.finished_at:
            continue
        if limit is not None and matches >= limit:
            break
        match = Match.objects.with_log().get(pk=analysis.match_id)
        made = match_puzzles(match, analysis.result or {})
        PuzzleScan.objects.update_or_create(
            match=match,
            defaults={"analysis_finished_at": analysis.finished_at, "puzzles": len(made)},
        )
        matches += 1
        puzzles += len(made)
    return {"matches": matches, "puzzles": puzzles}


def solver_of(user: Any) -> PuzzleSolver | None:
    """Return the person's rating and streak (made at their first puzzle), None signed out."""
    if user is None or not user.is_authenticated:
        return None
    return PuzzleSolver.objects.get_or_create(user=user)[0]


def puzzle_next(*, user: Any, streak: bool = False, rng: random.Random | None = None):
    """Return a puzzle for the person: one they have not tried rated within ``SERVE_WINDOW``
    of their rating, at random, else one of the ``NEAREST`` nearest (the streak mode: of
    ``STREAK_START`` plus a step for each solve in a row); None when there is none."""
    rng = rng or random.Random()
    solver = solver_of(user)
    level = glicko2.START if solver is None else solver.rating
    if streak:
        level = STREAK_START + STREAK_STEP * (solver.streak if solver else 0)
    puzzles = public_puzzles()
    if solver is not None:
        puzzles = puzzles.exclude(attempts_made__user=solver.user)
    window = list(
        puzzles.filter(
            rating__gte=level - SERVE_WINDOW, rating__lte=level + SERVE_WINDOW
        ).values_list("pk", flat=True)[:500]
    )
    if window:
        return Puzzle.objects.get(pk=rng.choice(window))
    near = list(
        puzzles.annotate(distance=Abs(F("rating") - level)).order_by("distance", "pk")[:NEAREST]
    )
    return rng.choice(near) if near else None


def puzzle_daily(day: date | None = None) -> Puzzle | None:
    """Return the day's puzzle: one of the public puzzles, the same all day for everyone."""
    day = day or timezone.localdate()
    # (Asked on every view of the home page: a count and one row, not every puzzle's id.)
    public = public_puzzles().order_by("pk")
    count = public.count()
    if not count:
        return None
    digest = hashlib.blake2b(day.isoformat().encode(), digest_size=8).digest()
    return public[int.from_bytes(digest, "big") % count]


def question(puzzle: Puzzle) -> Question:
    """Return a puzzle as it is asked: the position as its seat saw it, nothing after."""
    view = puzzle.view
    return {
        "id": puzzle.pk,
        "rating": round(puzzle.rating),
        "themes_count": len(puzzle.themes),
        "players": view["players"],
        "seat": view["seat"],
        "scores": view["scores"],
        "hand_tiles": view["hand_tiles"],
        "table": view["table"],
        "counts": view["counts"],
        "boneyard": view["boneyard"],
        "seen": view["seen"],
        "choices": view["choices"],
    }


def links(puzzle: Puzzle) -> dict[str, str]:
    """Return the real match's replay at the puzzle's move and "Analyse from here"."""
    replay = reverse("replays:match-detail", args=[puzzle.match_id])
    return {
        "replay": f"{replay}#{address_before(puzzle.hand, puzzle.move)}",
        "analyse": (
            f"/analyse/?match={puzzle.match_id}&hand={shown(puzzle.hand)}&move={shown(puzzle.move)}"
        ),
    }


def puzzle_attempt(
    *, puzzle: Puzzle, user: Any, choice: str, streak: bool = False, now=None
) -> Verdict | None:
    """Answer a puzzle: the verdict (solved when ``choice`` is the best play), every play's
    values, the themes, the play made in the match, the links; the person's first answer
    rates them and the puzzle (Glicko-2); in the streak mode a miss ends the streak. None for
    a choice that is not a legal play."""
    if choice not in puzzle.view["choices"]:
        return None
    now = now or timezone.now()
    solved = choice == puzzle.best
    rated = False
    solver_rating = None
    streak_now = None
    if user is not None and user.is_authenticated:
        with transaction.atomic():
            solver = PuzzleSolver.objects.select_for_update().get_or_create(user=user)[0]
            locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
            first = not PuzzleAttempt.objects.filter(user=user, puzzle=locked).exists()
            before = solver.rating
            if first:
                mine = glicko2.Rating(solver.rating, solver.rd, solver.vol)
                theirs = glicko2.Rating(locked.rating, locked.rd, locked.vol)
                score = 1.0 if solved else 0.0
                me = glicko2.update(mine, [(theirs, score)], min_rd=glicko2.MIN_RD)
                it = glicko2.update(theirs, [(mine, 1.0 - score)], min_rd=glicko2.MIN_RD)
                solver.rating, solver.rd, solver.vol = me.rating, me.rd, me.vol
                locked.rating, locked.rd, locked.vol = it.rating, it.rd, it.vol
                locked.attempts += 1
                locked.solves += int(solved)
                locked.save(update_fields=["rating", "rd", "vol", "attempts", "solves"])
                solver.attempts += 1
                solver.solves += int(solved)
                rated = True
            if streak:
                solver.streak = solver.streak + 1 if solved else 0
                solver.best_streak = max(solver.best_streak, solver.streak)
            solver.save()
            PuzzleAttempt.objects.create(
                user=user,
                puzzle=locked,
                choice=choice,
                solved=solved,
                rated=rated,
                rating_before=before if rated else None,
                rating_after=solver.rating if rated else None,
                tried_at=now,
            )
            solver_rating = round(solver.rating)
            streak_now = solver.streak
            puzzle = locked
    answer: Verdict = {
        "id": puzzle.pk,
        "choice": choice,
        "solved": solved,
        "best": puzzle.best,
        "played": puzzle.played,
        "unit": puzzle.unit,
        "gap": puzzle.gap,
        "gap_se": puzzle.gap_se,
        "layouts": puzzle.layouts,
        "plays": puzzle.plays,
        "themes": puzzle.themes,
        "rated": rated,
        "rating": solver_rating,
        "puzzle_rating": round(puzzle.rating),
        "streak": streak_now,
        "match": puzzle.match_id,
        "hand": shown(puzzle.hand),
        "move": shown(puzzle.move),
        **links(puzzle),  # type: ignore[typeddict-item]
    }
    return answer
