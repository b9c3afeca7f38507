"""Scoring: the one home of the rules that turn a table and a hand's end into points.

``HandState`` (``game.py``) keeps the table and asks these functions: what a count scores,
what an end adds to the count, when the spinner's cross opens, which team leads alone at the
target, who plays with whom, how a hand is settled and who leads next. RULES.md is the
reference for each.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .rules import Ruleset, divide_rounded, round_to_multiple

# The largest count a table can show: four ends, each a double six.
MAX_COUNT: Final = 4 * 12


def points_for(count: int, rules: Ruleset) -> int:
    """Return the points a play earns when it leaves ``count`` on the table (the go-out
    bonus and a bust apart: ``HandState.move_points``).

    ``"count"``: the count itself when ``multiple`` divides it; ``"fives-and-threes"``: its
    number of fives when 5 divides it plus its number of threes when 3 divides it (15: 8).
    """
    if count <= 0:
        return 0
    if rules.scoring == "fives-and-threes":
        return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
    return count if count % rules.multiple == 0 else 0


def may_draw(rules: Ruleset, boneyard: int) -> bool:
    """Return whether a seat may draw from a boneyard of ``boneyard`` tiles: it holds more
    than ``boneyard_reserve``, and the ruleset draws at all (not ``"all"``)."""
    return boneyard > reserve_of(rules, boneyard)


def reserve_of(rules: Ruleset, boneyard: int) -> int:
    """Return how many of ``boneyard`` tiles may never be drawn (all under ``"all"``): the
    one definition of the boneyard's reserve (``may_draw`` and the analysis ask)."""
    reserve = rules.boneyard_reserve
    return boneyard if reserve == "all" else int(reserve)


def target_at_once(rules: Ruleset) -> bool:
    """Return whether a play that brings a team to the target ends the match at once:
    ``end_at_target: "immediately"``, or ``target_exact`` whatever ``end_at_target`` says."""
    return rules.end_at_target == "immediately" or rules.target_exact


def exact_settlement(rules: Ruleset, settled: list[int], scores: Sequence[int]) -> list[int]:
    """Return a hand's settlement with, under ``target_exact``, every gain that would take
    its team past the target not scored (0); otherwise ``settled`` as it is."""
    if not rules.target_exact:
        return settled
    target = rules.target
    return [
        0 if value > 0 and scores[team] + value > target else value
        for team, value in enumerate(settled)
    ]


def points_by_count(rules: Ruleset) -> tuple[int, ...]:
    """Return ``points_for`` of every count from 0 to ``MAX_COUNT``, for a lookup per play.

    Kept per ruleset object, found by its id (every hand asks: hashing a ruleset's every
    option each time cost more than the hand's plays), the object held so its id stays its
    own; a few hundred at most.
    """
    kept = _POINTS_KEPT.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    points = tuple(points_for(count, rules) for count in range(MAX_COUNT + 1))
    if len(_POINTS_KEPT) >= 512:
        _POINTS_KEPT.clear()
    _POINTS_KEPT[id(rules)] = (rules, points)
    return points


_POINTS_KEPT: Final[dict[int, tuple[Ruleset, tuple[int, ...]]]] = {}


def end_value(outer: int, double: bool) -> int:
    """Return what an end adds to the count: its open pip, both halves of a double."""
    return 2 * outer if double else outer


def becomes_spinner(rules: Ruleset, double: bool, spinner_laid: bool) -> bool:
    """Return whether a tile just laid is the spinner: the first double, if the rules have one."""
    return double and not spinner_laid and rules.spinner


def cross_open(rules: Ruleset, sides_covered: bool) -> bool:
    """Return whether the spinner's cross (N and S) is open, once a spinner lies on the table.

    With ``spinner_sides_first`` it opens only when both sides of the spinner are covered.
    """
    return sides_covered or not rules.spinner_sides_first


def leader_at_target(scores: Sequence[int], target: int) -> int | None:
    """Return the team that leads alone at or above ``target``, else None."""
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)


def team_of(teams: Sequence[Sequence[int]] | None, players: int) -> tuple[list[int], int]:
    """Return each seat's team and the number of teams, for a log's ``teams`` (None: alone)."""
    if teams is None:
        return list(range(players)), players
    seats_team = [0] * players
    for index, seats in enumerate(teams):
        for seat in seats:
            seats_team[seat] = index
    return seats_team, len(teams)


def first_best[T](scored: Iterable[tuple[int, T]]) -> tuple[int, T] | None:
    """Return the first ``(points, play)`` that scores the most; None when there is none.

    The plays come in the order of the legal-move generator, so "first" is well defined.
    """
    best: tuple[int, T] | None = None
    for item in scored:
        if best is None or item[0] > best[0]:
            best = item
    return best


def team_pips(pips_by_seat: list[int], seats_team: list[int], teams: int) -> list[int]:
    """Return the pips each team holds, partners added together (not rounded)."""
    totals = [0] * teams
    for seat, pips in enumerate(pips_by_seat):
        totals[seats_team[seat]] += pips
    return totals


def blocked_winner(pips_by_seat: list[int], seats_team: list[int], teams: int) -> int | None:
    """Return the team with the fewest pips in a blocked hand, or None when two tie."""
    totals = team_pips(pips_by_seat, seats_team, teams)
    fewest = min(totals)
    if totals.count(fewest) > 1:
        return None
    return totals.index(fewest)


def settlement(
    rules: Ruleset,
    end: str,
    pips_by_seat: list[int],
    out_seat: int | None,
    seats_team: list[int],
    teams: int,
) -> list[int]:
    """Return each team's settlement at the end of a hand (``end`` domino or block)."""
    result = [0] * teams
    if rules.settlement == "none":
        return result
    multiple = rules.multiple
    if rules.settlement == "subtract-own":
        for seat, pips in enumerate(pips_by_seat):
            result[seats_team[seat]] -= round_to_multiple(pips, multiple)
        return result
    if end == "domino":
        assert out_seat is not None
        winner: int | None = seats_team[out_seat]
    else:
        winner = blocked_winner(pips_by_seat, seats_team, teams)
    if winner is None:
        return result
    totals = team_pips(pips_by_seat, seats_team, teams)
    owed = sum(pips for team, pips in enumerate(totals) if team != winner)
    if end == "block" and rules.block_bonus == "difference":
        owed -= totals[winner]
    result[winner] = divide_rounded(round_to_multiple(owed, multiple), rules.settlement_divisor)
    return result


def next_leaders(
    rules: Ruleset,
    end: str,
    pips_by_seat: list[int],
    out_seat: int | None,
    seats_team: list[int],
    teams: int,
    leader: int = 0,
) -> frozenset[int] | None:
    """Return the seats that may lead the next hand, or None when anyone may.

    ``leader`` is the seat that led the hand (for ``"rotate"``: the next seat leads).
    """
    if rules.next_leader == "any":
        return None
    if rules.next_leader == "rotate":
        return frozenset(((leader + 1) % len(pips_by_seat),))
    if end == "domino":
        assert out_seat is not None
        return frozenset((out_seat,))
    if rules.next_leader == "domino-winner":
        return None
    winner = blocked_winner(pips_by_seat, seats_team, teams)
    if winner is None:
        return None
    seats = [seat for seat in range(len(pips_by_seat)) if seats_team[seat] == winner]
    fewest = min(pips_by_seat[seat] for seat in seats)
    return frozenset(seat for seat in seats if pips_by_seat[seat] == fewest)
