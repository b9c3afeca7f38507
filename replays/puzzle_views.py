"""The puzzle pages (issue 60): ``/puzzles/`` a puzzle near the reader's rating (``?mode=
streak``: the streak mode), ``/puzzles/{id}/`` one puzzle; a play picked by a form's button,
then the verdict with every play's values, the match's replay at that move and "Analyse from
here". A signed-in person's first answer to a puzzle rates them and it (``replays.puzzles``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.presentation import end_names

from .models import Puzzle
from .practice import play_label, table_rows
from .puzzles import (
    SeenMove,
    Verdict,
    public_puzzles,
    puzzle_attempt,
    puzzle_daily,
    puzzle_next,
    question,
    solver_of,
)

THEME_NAMES = {
    "going-out": gettext_lazy("going out"),
    "block": gettext_lazy("blocking"),
    "count": gettext_lazy("a count of five or three"),
    "bust": gettext_lazy("avoiding the bust"),
    "last-of-suit": gettext_lazy("the last tile of a suit"),
    "signal": gettext_lazy("a partnership's signal"),
}


def puzzles_page(request):
    streak = request.GET.get("mode") == "streak"
    puzzle = puzzle_next(user=request.user, streak=streak)
    return _render(request, puzzle, streak=streak)


def puzzle_page(request, pk: int):
    puzzle = get_object_or_404(public_puzzles(), pk=pk)
    streak = (request.POST.get("mode") or request.GET.get("mode")) == "streak"
    verdict = None
    if request.method == "POST":
        verdict = puzzle_attempt(
            puzzle=puzzle, user=request.user, choice=request.POST.get("choice", ""), streak=streak
        )
        if verdict is None:
            return HttpResponseBadRequest()
        puzzle.refresh_from_db()
    return _render(request, puzzle, streak=streak, verdict=verdict)


def _render(request, puzzle: Puzzle | None, *, streak: bool, verdict=None):
    context: dict[str, object] = {
        "streak": streak,
        "solver": solver_of(request.user),
        "puzzle": None,
    }
    if puzzle is not None:
        context.update(puzzle_context(puzzle))
    if verdict is not None:
        context["verdict"] = verdict_context(verdict)
    return render(request, "replays/puzzle.html", context)


def puzzle_context(puzzle: Puzzle) -> dict[str, object]:
    """Return what the page shows of a puzzle before the answer: its question only."""
    asked = question(puzzle)
    players = asked["players"]
    seat = asked["seat"]
    teams = puzzle.view["teams"]
    names = [
        " & ".join(name for name, team in zip(players, teams, strict=True) if team == index)
        for index in range(max(teams) + 1)
    ]
    ends = end_names()
    return {
        "puzzle": asked,
        "player": players[seat],
        "rows": table_rows(dict(asked["table"])),
        "ends": ends,
        "hand_pips": [tile.split("-") for tile in asked["hand_tiles"]],
        "open_ends": [
            {"end": ends[f"end_{end['end']}"], "pip": end["pip"]}
            for end in asked["table"]["open_ends"]  # type: ignore[attr-defined]
        ],
        "team_scores": [
            {"name": name, "score": score}
            for name, score in zip(names, asked["scores"], strict=True)
        ],
        "seats": [
            {"name": name, "held": held}
            for name, held in zip(players, asked["counts"], strict=True)
        ],
        "moves": [_move_words(move, players) for move in asked["seen"]],
        "choices": [{"play": play, "label": play_label(play)} for play in asked["choices"]],
    }


def _move_words(move: SeenMove, players: list[str]) -> str:
    name = players[move["seat"]]
    if move["kind"] == "play":
        tile = move["tile"] if move["end"] is None else f"{move['tile']} on {move['end']}"
        return _("%(name)s plays %(play)s") % {"name": name, "play": play_label(tile)}
    if move["kind"] == "draw":
        return _("%(name)s draws") % {"name": name}
    return _("%(name)s passes") % {"name": name}


def verdict_context(verdict: Verdict) -> Mapping[str, object]:
    """Return the verdict as the page writes it: labels, themes' names, every play's row."""
    return {
        **verdict,
        "best_label": play_label(verdict["best"]),
        "choice_label": play_label(verdict["choice"]),
        "played_label": play_label(verdict["played"]),
        "theme_names": [str(THEME_NAMES[theme]) for theme in verdict["themes"]],
        "rows": [
            {**row, "label": play_label(row["play"]), "best": row["play"] == verdict["best"]}
            for row in verdict["plays"]
        ],
    }


def daily_puzzle_note(request) -> str:
    """The day's puzzle on the home page (``clubs.hooks.HOME_NOTES``; ``puzzle_daily``): a
    link to it, or nothing while the archive has no puzzle."""
    puzzle = puzzle_daily()
    if puzzle is None:
        return ""
    return format_html(
        '<p class="daily-puzzle"><a href="{}" data-daily-puzzle="{}">{}</a> · '
        '<a href="{}">{}</a></p>',
        reverse("replays:puzzle", args=[puzzle.pk]),
        puzzle.pk,
        _("The puzzle of the day (rated %(rating)d): find the best play")
        % {"rating": round(puzzle.rating)},
        reverse("replays:puzzles"),
        _("More puzzles"),
    )
