"""Learn from your mistakes: a player's mistakes and blunders across their analysed matches,
as a drill (issue 37; docs/analysis.md, "Practice").

Each position is one of the player's plays the expected-value review marked a mistake or a
blunder, shown from their seat just before it (``fives_engine.practice``: their tiles, the
table, each seat's count of tiles, the boneyard's size and the moves they saw, never a tile
they could not see), with its legal plays, and once a play is picked, its value, the best
play, and what the match went on to show. The player's own account remembers each try
(``PracticeAttempt``): a position missed comes back soon (``MISSED_AGAIN``), one solved
later, each solve in a row twice as late as the one before (``SOLVED_AGAIN``). Hands and
moves are kept from 0 as the review counts them; what is shown and served counts them from
1, as the replay's addresses do (``#h3m17``), through ``games.numbering``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta
from typing import Any, TypedDict

import msgspec
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from fives_engine.expected import CHANCE_INACCURACY, INACCURACY
from fives_engine.practice import hand_positions
from games.models import Match, Player, Seat
from games.numbering import address, address_before, index_of, shown
from games.presentation import END_NAMES, end_names

from .models import MatchAnalysis, PracticeAttempt

# The marks a drill takes: plays that lost 7 points or more (docs/analysis.md's thresholds).
DRILLED = ("mistake", "blunder")
# A drill reads the player's latest analysed matches, up to this many.
PRACTICE_MATCHES = 100
# A pick is right when it loses less than an inaccuracy's threshold against the best play:
# a play the review would not have marked (the best play itself, or one as good but for
# the sampling's noise).
SOLVED_BELOW = INACCURACY
# A missed position comes back after this; a solved one after SOLVED_AGAIN, doubled for each
# solve in a row before it (1 day, 2, 4, 8...), up to SOLVED_AT_MOST.
MISSED_AGAIN = timedelta(minutes=10)
SOLVED_AGAIN = timedelta(days=1)
SOLVED_AT_MOST = timedelta(days=120)

Number = int | float  # a figure of the review as it wrote it (kept so, as it is served)
Key = tuple[int, int, int]  # a position's match, hand and move (hand and move from 0)


class Alternative(msgspec.Struct, frozen=True):
    """One legal play of a mistake's position and its value, as the review wrote it."""

    play: str
    value: Number
    stderr: Number = 0.0
    chance: Number | None = None


class Mistake(msgspec.Struct, frozen=True):
    """A play of the player that the review marked a mistake or a blunder, as it wrote it
    (``fives_engine.expected.PlayReview``: hand and move from 0), with its match. Read from
    the stored review's JSON once (``player_mistakes``); the other fields are left there."""

    match: int
    hand: int
    move: int
    seat: int
    mark: str
    played: str
    value: Number
    best: str
    best_value: Number
    loss: Number
    alternatives: tuple[Alternative, ...] = ()
    unit: str | None = None
    chance: Number | None = None
    chance_best: str | None = None
    best_chance: Number | None = None
    chance_loss: Number | None = None

    @property
    def key(self) -> Key:
        return (self.match, self.hand, self.move)


def practice_is_own(*, player: Player, user: Any) -> bool:
    """Return whether ``user`` is the player themselves (the account linked to the handle):
    only they have their tries remembered."""
    return bool(user is not None and user.is_authenticated and player.user_id == user.pk)


def practice_ready(*, player: Player, user: Any) -> bool:
    """Return whether the player has a match analysed that ``user`` may see: before one is,
    the drill has nothing to show, and their page says what opens it."""
    return Seat.objects.filter(
        player=player,
        match__in=Match.objects.visible_to(user).values("pk"),
        match__analysis__status=MatchAnalysis.Status.DONE,
    ).exists()


def player_mistakes(*, player: Player, user: Any) -> list[Mistake]:
    """Return the player's mistakes and blunders in their latest analysed matches that
    ``user`` may see, newest match first, each as the review wrote it (hand and move from 0)
    with its match and seat. Reads the reviews only, no log."""
    seats = (
        Seat.objects.filter(
            player=player,
            match__in=Match.objects.visible_to(user).values("pk"),
            match__analysis__status=MatchAnalysis.Status.DONE,
        )
        .order_by("-match__played_at", "-match_id")
        .values_list("match_id", "seat")[:PRACTICE_MATCHES]
    )
    seat_of = dict(seats)
    results = MatchAnalysis.objects.filter(match_id__in=list(seat_of)).values_list(
        "match_id", "result"
    )
    by_match = dict(results)
    mistakes: list[Mistake] = []
    for match_id, seat in seat_of.items():
        result = by_match.get(match_id) or {}
        for play in result.get("plays", []):
            if play.get("seat") == seat and play.get("mark") in DRILLED:
                mistakes.append(msgspec.convert({"match": match_id, **play}, Mistake))
    return mistakes


def mistakes_served(*, player: Player, user: Any, now) -> dict[str, Any]:
    """Return the drill as the API serves it: the player's mistakes that ``user`` may see,
    each as the position they saw (``position_served``) with the reader's own tries at it
    (the player's own account only, else None), and how many are solved and due."""
    mistakes = player_mistakes(player=player, user=user)
    own = practice_is_own(player=player, user=user)
    attempts = attempts_of(user=user) if own else {}
    summary = practice_summary(mistakes=mistakes, attempts=attempts, now=now)
    positions = []
    for key, position in _positions_by_key(mistakes):
        attempt = attempts.get(key)
        tries = None
        if attempt is not None:
            tries = {"tries": attempt.tries, "solved": attempt.solved, "due_at": attempt.due_at}
        positions.append(position | {"tries": tries})
    return {
        "player": player.pk,
        "own": own,
        "positions_count": len(positions),
        "solved": summary["solved"],
        "due": summary["due"],
        "positions": positions,
    }


def mistake_positions(*, mistakes: Iterable[Mistake]) -> list[dict[str, Any]]:
    """Return each mistake with the position its player saw (``position_served``), in the
    order given; one whose position cannot be shown (a log no longer as reviewed) is left
    out. Each match's log is read once."""
    return [position for _key, position in _positions_by_key(mistakes)]


def _positions_by_key(
    mistakes: Iterable[Mistake],
) -> list[tuple[Key, dict[str, Any]]]:
    """Return ``mistake_positions`` each with its key (match, hand, move: from 0)."""
    wanted: dict[int, list[Mistake]] = defaultdict(list)
    order = list(mistakes)
    for mistake in order:
        wanted[mistake.match].append(mistake)
    matches = Match.objects.with_log().in_bulk(list(wanted))
    served: dict[Key, dict[str, Any]] = {}
    for match_id, items in wanted.items():
        match = matches.get(match_id)
        if match is None:
            continue
        served.update(_match_positions(match, items))
    keys = [mistake.key for mistake in order]
    return [(key, served[key]) for key in keys if key in served]


def _match_positions(match: Match, items: list[Mistake]) -> dict[Key, dict[str, Any]]:
    log = match.log()
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    by_hand: dict[int, dict[int, Mistake]] = defaultdict(dict)
    for item in items:
        by_hand[item.hand][item.move] = item
    out: dict[Key, dict[str, Any]] = {}
    stored = match.hands
    for h, moves in by_hand.items():
        if h >= len(log.hands):
            continue
        for m, position in enumerate(hand_positions(log, h)):
            item = moves.get(m)
            if item is None or position is None or position.seat != item.seat:
                continue
            out[(match.pk, h, m)] = position_served(
                match=match, seats=seats, stored=stored, position=position.as_dict(), play=item
            )
    return out


# What a position served before the answer never holds: the hand's result (issue 60).
OUTCOME_FIELDS = ("hand_end", "hand_points")


class Outcome(TypedDict):
    """How a hand ended (``domino``, ``block``, ``target``) and what it gave each team."""

    hand_end: str
    hand_points: list[int]


def hand_outcome(*, stored: list[Any], hand: int) -> Outcome:
    """Return how hand ``hand`` (from 0) ended and what it gave each team, its settlement
    included: what the verdict tells once a play is picked, never before."""
    result = stored[hand].result
    return {
        "hand_end": result.end,
        "hand_points": [
            points + settlement
            for points, settlement in zip(result.points, result.settlement, strict=True)
        ],
    }


def match_outcome(*, match_id: int, hand: int) -> Outcome:
    """Return ``hand_outcome`` of a match's hand (from 0), read from what ingest stored."""
    match = Match.objects.get(pk=match_id)
    return hand_outcome(stored=match.hands, hand=hand)


def practice_attempt(
    *, player: Player, user: Any, key: tuple[int, int, int], choice: str, now
) -> dict[str, Any] | None:
    """Answer a pick at one of the player's positions (``key``: match, hand, move from 0) as
    the API does: the verdict, then the hand's outcome; the try is remembered for the
    player's own account. None for a position that is not one of theirs ``user`` may see;
    the verdict's ``choice`` is None for a play that is not among the choices."""
    mistakes = player_mistakes(player=player, user=user)
    mistake = find_mistake(mistakes, match=key[0], hand=key[1], move=key[2])
    if mistake is None:
        return None
    verdict = choice_verdict(mistake=mistake, choice=choice)
    if verdict is None:
        return {"choice": None}
    attempt = None
    if practice_is_own(player=player, user=user):
        attempt = practice_record(user=user, mistake=mistake, solved=verdict["solved"], now=now)
    tries = None
    if attempt is not None:
        tries = {"tries": attempt.tries, "solved": attempt.solved, "due_at": attempt.due_at}
    return {
        "match": key[0],
        "hand": shown(key[1]),
        "move": shown(key[2]),
        **verdict,
        **match_outcome(match_id=key[0], hand=key[1]),
        "tries": tries,
    }


def scores_before(*, stored: list[Any], seats: list[Seat], hand: int, move: int) -> list[int]:
    """Return the match's scores by team just before move ``move`` of hand ``hand`` (from 0),
    from what ingest stored: the scores after the hand before, and each play's points since."""
    teams = max(seat.team for seat in seats) + 1
    scores = list(stored[hand - 1].scores) if hand > 0 else [0] * teams
    log_moves = stored[hand].log.moves
    for index in range(move):
        scores[seats[log_moves[index].seat].team] += stored[hand].facts[index].points
    return scores


def position_served(
    *,
    match: Match,
    seats: list[Seat],
    stored: list[Any],
    position: dict[str, Any],
    play: Mistake,
) -> dict[str, Any]:
    """Return one drill position as the API serves it and the page shows it."""
    h, m = play.hand, play.move
    hand = stored[h]
    move = hand.log.moves[m]
    fact = hand.facts[m]
    replay = reverse("replays:match-detail", args=[match.pk])
    return {
        "match": match.pk,
        "played_at": match.played_at,
        "players": [seat.player.handle for seat in seats],
        "teams": [seat.team for seat in seats],
        # As the replay counts them: hand and move from 1; #h{hand}m{move} is the table
        # just after the play, #h{hand}m{move - 1} the position served.
        "hand": shown(h),
        "move": shown(m),
        "seat": play.seat,
        "mark": play.mark,
        "scores": scores_before(stored=stored, seats=seats, hand=h, move=m),
        "hand_tiles": position["hand_tiles"],
        "table": position["table"],
        "counts": position["counts"],
        "boneyard": position["boneyard"],
        "seen": position["seen"],
        "choices": position["choices"],
        "values": [
            {"play": alt.play, "value": alt.value, "stderr": alt.stderr, "chance": alt.chance}
            for alt in play.alternatives
        ],
        # The best play and the loss are the mark's: in winning chances where the review has
        # them (two sides), else in points; the points' figures stay beside them.
        **_best_and_loss(play),
        "played": play.played,
        "played_value": play.value,
        # What the match went on to show: the play's own points. The hand's result is the
        # verdict's, never the question's (``hand_outcome``): it would tell the end first.
        "played_points": fact.points,
        "played_end": move.end,
        "replay": f"{replay}#{address(h, m)}",
        "replay_before": f"{replay}#{address_before(h, m)}",
    }


def _best_and_loss(play: Mistake) -> dict[str, Any]:
    """Return the best play the mark compared against, its points value, the loss in the
    mark's unit, the unit, and the winning chances where there are some."""
    if play.unit == "chance" and play.chance_best is not None:
        best = play.chance_best
        values = {alt.play: alt.value for alt in play.alternatives}
        return {
            "unit": "chance",
            "best": best,
            "best_value": values.get(best, play.best_value),
            "loss": play.chance_loss,
            "points_loss": play.loss,
            "chance": play.chance,
            "best_chance": play.best_chance,
        }
    return {
        "unit": "points",
        "best": play.best,
        "best_value": play.best_value,
        "loss": play.loss,
        "points_loss": play.loss,
        "chance": None,
        "best_chance": None,
    }


def attempts_of(*, user: Any) -> dict[Key, PracticeAttempt]:
    """Return the user's tries by (match, hand, move), hand and move from 0."""
    if user is None or not user.is_authenticated:
        return {}
    return {
        (attempt.match_id, attempt.hand, attempt.move): attempt
        for attempt in PracticeAttempt.objects.filter(user=user)
    }


def practice_summary(
    *, mistakes: list[Mistake], attempts: dict[Key, PracticeAttempt], now
) -> dict[str, Any]:
    """Return how many positions there are, how many were solved at the last try, how many
    are due now, and when the next one not due now is."""
    keys = [mistake.key for mistake in mistakes]
    tried = [attempts[key] for key in keys if key in attempts]
    later = [attempt.due_at for attempt in tried if attempt.due_at > now]
    return {
        "positions": len(keys),
        "solved": sum(attempt.solved for attempt in tried),
        "due": len(keys) - len(later),
        "next_due": min(later) if later else None,
    }


def practice_next(
    *,
    mistakes: list[Mistake],
    attempts: dict[Key, PracticeAttempt],
    now,
    skip: Key | None = None,
) -> Mistake | None:
    """Return the mistake to practise next: a missed or solved one that is due again (the
    longest due first), else one never tried (the newest match first, then by the biggest
    loss); None when nothing is due. ``skip`` is the one just answered."""
    due: list[tuple[Any, Mistake]] = []
    fresh: list[Mistake] = []
    for mistake in mistakes:
        key = mistake.key
        if key == skip:
            continue
        attempt = attempts.get(key)
        if attempt is None:
            fresh.append(mistake)
        elif attempt.due_at <= now:
            due.append((attempt.due_at, mistake))
    if due:
        return min(due, key=lambda pair: pair[0])[1]
    if fresh:
        # Stable: the newest match first as given, then the biggest loss within it.
        newest = fresh[0].match
        return max(
            (mistake for mistake in fresh if mistake.match == newest),
            key=lambda mistake: mistake.loss,
        )
    return None


def choice_verdict(*, mistake: Mistake, choice: str) -> dict[str, Any] | None:
    """Return what a pick is worth: its value, its loss against the best play, and whether
    it solves the position; None for a play that is not among the choices."""
    alternatives = {alt.play: alt for alt in mistake.alternatives}
    if choice not in alternatives:
        return None
    value = alternatives[choice].value
    points_loss = max(0.0, mistake.best_value - value)
    chance = alternatives[choice].chance
    if mistake.unit == "chance" and chance is not None:
        loss = max(0.0, mistake.best_chance - chance)  # type: ignore[operator]
        return {
            "choice": choice,
            "value": value,
            "chance": chance,
            "loss": loss,
            "points_loss": points_loss,
            "unit": "chance",
            "solved": loss < CHANCE_INACCURACY,
        }
    return {
        "choice": choice,
        "value": value,
        "chance": None,
        "loss": points_loss,
        "points_loss": points_loss,
        "unit": "points",
        "solved": points_loss < SOLVED_BELOW,
    }


def practice_record(*, user: Any, mistake: Mistake, solved: bool, now) -> PracticeAttempt:
    """Remember a try at a position: a miss is due again after ``MISSED_AGAIN``, a solve
    after ``SOLVED_AGAIN`` doubled for each solve in a row before it."""
    with transaction.atomic():
        attempt, _created = PracticeAttempt.objects.select_for_update().get_or_create(
            user=user,
            match_id=mistake.match,
            hand=mistake.hand,
            move=mistake.move,
            defaults={"tried_at": now, "due_at": now},
        )
        attempt.tries += 1
        attempt.solved = solved
        attempt.tried_at = now
        if solved:
            attempt.streak += 1
            attempt.due_at = now + min(SOLVED_AGAIN * 2 ** (attempt.streak - 1), SOLVED_AT_MOST)
        else:
            attempt.streak = 0
            attempt.due_at = now + MISSED_AGAIN
        attempt.save()
    return attempt


def find_mistake(mistakes: list[Mistake], *, match: int, hand: int, move: int) -> Mistake | None:
    """Return the mistake of a match at a hand and move (from 0), if it is one of them."""
    for mistake in mistakes:
        if mistake.key == (match, hand, move):
            return mistake
    return None


def position_key(text: str) -> Key | None:
    """Return (match, hand, move), hand and move from 0, of a page's ``match-hand-move``
    written from 1 (as the replay counts), or None for anything else."""
    parts = text.split("-")
    # ASCII digits, and few: int() refuses past 4,300 digits, and the database past 2**63.
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 12 for p in parts):
        return None
    match, hand, move = (int(part) for part in parts)
    hand_index, move_index = index_of(hand), index_of(move)
    if hand_index is None or move_index is None:
        return None
    return match, hand_index, move_index


def key_text(mistake: Mistake) -> str:
    """Return a mistake's ``match-hand-move`` (from 1) for the page's addresses."""
    return f"{mistake.match}-{shown(mistake.hand)}-{shown(mistake.move)}"


def play_label(play: str) -> str:
    """Return a play as a person reads it: "5-3 on E" with the end in their language."""
    tile, _sep, end = play.partition(" on ")
    if not end:
        return tile
    return f"{tile} " + _("on %(end)s") % {"end": end_names().get(f"end_{end}", end)}


def table_rows(table: dict[str, Any]) -> dict[str, Any]:
    """Return the table as the page writes it: the line of play west to east (each tile
    written as it lies, west pip first), and the spinner's arms north and south outwards."""
    layout = table["layout"]
    if layout["lead"] is None:
        return {"line": [], "north": [], "south": []}
    arms = layout["arms"]
    spinner = layout["spinner"]

    def tiles(arm: str, *, westward: bool = False) -> list[dict[str, Any]]:
        out = []
        for index, placed in enumerate(arms[arm]):
            inner, outer = placed["tile"].split("-")
            out.append(
                {
                    "pips": (outer, inner) if westward else (inner, outer),
                    "double": placed["double"],
                    "spinner": bool(
                        spinner and spinner["arm"] == arm and spinner["index"] == index
                    ),
                }
            )
        return out

    west, east = layout["lead"].split("-")
    lead = {
        "pips": (west, east),
        "double": west == east,
        "spinner": bool(spinner and spinner["arm"] is None),
    }
    return {
        "line": [*reversed(tiles("W", westward=True)), lead, *tiles("E")],
        "north": tiles("N"),
        "south": tiles("S"),
    }


def practice_page(
    *, player: Player, user: Any, at: str = "", after: str = "", picked: str = "", now
) -> dict[str, Any]:
    """Return what the practice page shows: the summary, and one position (``at``, else
    the next one due after ``after``: for the player's own account by their tries, for
    anyone else in order), with the verdict on ``picked`` once a play is picked."""
    own = practice_is_own(player=player, user=user)
    mistakes = player_mistakes(player=player, user=user)
    attempts = attempts_of(user=user) if own else {}
    summary = practice_summary(mistakes=mistakes, attempts=attempts, now=now)
    page: dict[str, Any] = {"own": own, "summary": summary, "position": None, "verdict": None}
    chosen = None
    key = position_key(at)
    if key is not None:
        chosen = find_mistake(mistakes, match=key[0], hand=key[1], move=key[2])
    elif own:
        chosen = practice_next(
            mistakes=mistakes, attempts=attempts, now=now, skip=position_key(after)
        )
    elif mistakes:
        chosen = _after(mistakes, position_key(after))
    if chosen is None:
        return page
    served = mistake_positions(mistakes=[chosen])
    if not served:
        return page
    position = served[0]
    page["position"] = _page_position(position, chosen)
    page["key"] = key_text(chosen)
    attempt = attempts.get(chosen.key)
    page["attempt"] = attempt
    if picked:
        verdict = choice_verdict(mistake=chosen, choice=picked)
        if verdict is not None:
            verdict["label"] = play_label(picked)
            # The hand's outcome comes with the verdict only (the question never holds it).
            outcome = match_outcome(match_id=position["match"], hand=index_of(position["hand"]))
            verdict |= outcome | outcome_words(outcome, sides_named(position))
            page["verdict"] = verdict
    return page


def _after(mistakes: list[Mistake], key: Key | None) -> Mistake:
    """Return the mistake after ``key`` in the list (the first after the last, or none)."""
    keys = [mistake.key for mistake in mistakes]
    if key in keys:
        return mistakes[(keys.index(key) + 1) % len(mistakes)]
    return mistakes[0]


def sides_named(position: dict[str, Any]) -> list[str]:
    """Return each team's name: its players' handles joined."""
    players, teams = position["players"], position["teams"]
    return [
        " & ".join(name for name, team in zip(players, teams, strict=True) if team == index)
        for index in range(max(teams) + 1)
    ]


def outcome_words(outcome: Outcome, names: list[str]) -> dict[str, Any]:
    """Return the hand's outcome as the verdict writes it: how it ended, each team's points."""
    return {
        "hand_end_words": END_NAMES.get(outcome["hand_end"], outcome["hand_end"]),
        "hand_results": [
            {"name": name, "points": points}
            for name, points in zip(names, outcome["hand_points"], strict=True)
        ],
    }


def _page_position(position: dict[str, Any], mistake: Mistake) -> dict[str, Any]:
    players = position["players"]
    teams = position["teams"]
    seat = position["seat"]
    team_names = [
        " & ".join(name for name, team in zip(players, teams, strict=True) if team == index)
        for index in range(max(teams) + 1)
    ]
    return {
        **position,
        "player": players[seat],
        "rows": table_rows(position["table"]),
        "open_ends": [
            {"end": end_names()[f"end_{end['end']}"], "pip": end["pip"]}
            for end in position["table"]["open_ends"]
        ],
        "tiles": [tile.split("-") for tile in position["hand_tiles"]],
        "seats": [
            {"name": name, "held": held, "you": index == seat}
            for index, (name, held) in enumerate(zip(players, position["counts"], strict=True))
        ],
        "team_scores": [
            {"name": name, "score": score}
            for name, score in zip(team_names, position["scores"], strict=True)
        ],
        "moves": [
            {**move, "player": players[move["seat"]], "label": play_label(_play_text(move))}
            for move in position["seen"]
        ],
        "choice_buttons": [
            {"play": play, "label": play_label(play)} for play in position["choices"]
        ],
        "ends": end_names(),
        "best_label": play_label(mistake.best),
        "played_label": play_label(mistake.played),
    }


def _play_text(move: dict[str, Any]) -> str:
    if move["kind"] != "play" or move["tile"] is None:
        return move["tile"] or ""
    return move["tile"] if move["end"] is None else f"{move['tile']} on {move['end']}"
