"""Puzzles from reviewed matches (issue 60): positions where the play made was a mistake or a
blunder and one play is best by more than four standard errors of its gap, checked again over
ten times the layouts; and the themes the engine finds in a position and its best play.

A puzzle is the position its seat saw (``position.position_document``, from
``practice.position_at``: never a hidden tile, never how the hand went on). ``check`` values
every legal play of it again (``position.Analysis``: the review's layouts, then more), and
keeps it when the best play's lead over the next best, in the review's unit (winning chances
where the match has two sides, else points), is more than ``GAP_ERRORS`` standard errors of
that gap (the difference read layout by layout: the same layouts for every play).

The themes (``themes``), each a pure function of the position and its best play, from what
the seat could know:

- ``going-out``: the best play is the seat's last tile;
- ``block``: after it, no tile the seat cannot see fits an open end (every fitting tile is laid
  or the seat's own): the others can only draw or pass;
- ``count``: it scores (the open ends count a multiple of five, or of three where the ruleset
  counts threes), and it scores the most of the legal plays;
- ``bust``: another legal play would bust (score past the target where the ruleset forbids it)
  and the best play does not;
- ``last-of-suit``: it opens a suit whose every other tile is laid or the seat's own, and the
  seat still holds one: only the seat can follow it;
- ``signal``: a partnership's signal: with a partner, the best play avoids every suit the
  partner knocked on (drew or passed with it open) while another legal play would have shown
  one, or it opens a suit the partner played this hand where another play would open none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .expected import CHANCE_INACCURACY, INACCURACY, layouts_of
from .game import DRAW, PASS, LegalMove, MatchState, PlayFigures
from .log import MatchLog
from .position import Analysis, Position, parse_position, position_document
from .practice import PositionUnknown
from .tiles import ALL_TILES, HIGH, LOW

__all__ = [
    "CHECK_TIMES",
    "GAP_ERRORS",
    "SERVE_WINDOW",
    "THEMES",
    "Checked",
    "candidate",
    "check",
    "play_figures",
    "themes",
]

# The marks a puzzle is taken from, and how sure its best play must be.
MARKS = ("mistake", "blunder")
GAP_ERRORS = 4.0
CHECK_TIMES = 10
# A solver is served a puzzle rated within this of their rating, at random (the nearest when
# there is none): near their level, and against solvers of every level near it, so that the
# ratings of both settle (bench.puzzles: a window of 150 correlated 0.74 to 0.84 with how
# often the bots fail, 300 0.84 to 0.89, the nearest of 30 drawn 0.71 to 0.82).
SERVE_WINDOW = 300.0
THEMES = ("going-out", "block", "count", "bust", "last-of-suit", "signal")


@dataclass(frozen=True, slots=True)
class Checked:
    """A position checked again: the document, each play's figures (``Analysis.answer``'s),
    the best, the gap to the next best and its standard error in ``unit``, the layouts, and
    the themes."""

    document: dict[str, Any]
    plays: tuple[dict[str, Any], ...]
    best: str
    unit: str
    gap: float
    gap_se: float
    layouts: int
    themes: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "plays": [dict(play) for play in self.plays],
            "best": self.best,
            "unit": self.unit,
            "gap": self.gap,
            "gap_se": self.gap_se,
            "layouts": self.layouts,
            "themes": list(self.themes),
        }


def candidate(play: dict[str, Any]) -> bool:
    """Return whether a reviewed play (``PlayReview`` as the review stores it) may make a
    puzzle: marked a mistake or a blunder, with a choice of at least two plays, and its best
    play ahead of the next one beyond ``GAP_ERRORS`` of their standard errors as stored
    (points; the stored review has no paired error, so this one is wider, and ``check``
    decides)."""
    if play.get("mark") not in MARKS:
        return False
    alternatives = play.get("alternatives") or []
    if len(alternatives) < 2:
        return False
    key = "chance" if play.get("unit") == "chance" else "value"
    ranked = sorted(alternatives, key=lambda alt: alt.get(key) or 0.0, reverse=True)
    first, second = ranked[0], ranked[1]
    gap = (first.get(key) or 0.0) - (second.get(key) or 0.0)
    floor = CHANCE_INACCURACY if key == "chance" else INACCURACY
    # A first look only: the gap must at least clear an inaccuracy's threshold.
    return gap >= floor / 2


def check(log: MatchLog, hand: int, move: int, layouts: int) -> Checked | None:
    """Return the position before play ``move`` of hand ``hand`` (from 0) checked over
    ``layouts`` layouts, when one play is best by more than ``GAP_ERRORS`` standard errors
    of its gap; else None (or when the seat's tiles are not known)."""
    try:
        document = position_document(log, hand, move)
    except PositionUnknown:
        return None
    position = parse_position(document)
    if len(position.legal) < 2:
        return None
    analysis = Analysis(position)
    answer = analysis.more(layouts)
    rolled = analysis.rolled
    assert rolled is not None
    unit = answer["unit"]
    rows = rolled.chances if unit == "chance" and rolled.chances is not None else rolled.points
    means = [rolled.mean(row)[0] for row in rows]
    order = sorted(range(len(means)), key=lambda index: means[index], reverse=True)
    best, second = order[0], order[1]
    differences = [a - b for a, b in zip(rows[best], rows[second], strict=True)]
    gap, gap_se = rolled.mean(differences)
    if gap <= 0 or gap <= GAP_ERRORS * gap_se:
        return None
    best_play = str(position.legal[best])
    return Checked(
        document=position.document,
        plays=tuple(answer["plays"]),
        best=best_play,
        unit=unit,
        gap=gap,
        gap_se=gap_se,
        layouts=answer["layouts"],
        themes=themes(position, best_play),
    )


# --- the themes ------------------------------------------------------------------------


def _move_of(position: Position, play: str) -> LegalMove:
    for move in position.legal:
        if str(move) == play:
            return move
    raise ValueError(f"not a legal play: {play}")


def play_figures(position: Position, play: str) -> PlayFigures:
    """Return every figure of a legal play of the position (its count, points, going out,
    bust), made on a copy of the table with the seat's own tiles: the others' tiles are one
    layout of what the seat cannot see, which no figure of its own play reads."""
    situation = position.situation
    move = _move_of(position, play)
    layout = layouts_of(situation, 1)
    hand = situation.table.copy()
    hand.hands = [set(tiles) for tiles in layout.hands[0]]
    hand.boneyard = set(layout.orders[0])
    players = len(situation.seats_team)
    match = MatchState(situation.rules, players, list(situation.seats_team), situation.teams)
    match.scores = list(situation.scores)
    hand.scores = match.scores
    match.hand = hand
    assert move.tile is not None
    if hand.lead is None:
        match.play(move.tile, None, LOW[move.tile], HIGH[move.tile])
    else:
        match.play(move.tile, move.end)
    return hand.last_play


def _after(position: Position, play: str) -> tuple[list[int], set[int]]:
    """Return the open ends' pips after a play, and the seat's tiles left."""
    situation = position.situation
    move = _move_of(position, play)
    hand = situation.table.copy()
    assert move.tile is not None
    seat = hand.turn
    hands = [set(tiles) for tiles in hand.hands]
    hands[seat] = set(situation.holding)
    hand.hands = hands
    if hand.lead is None:
        hand.play(move.tile, None, LOW[move.tile], HIGH[move.tile])
    else:
        hand.play(move.tile, move.end)
    return [pip for _end, pip in hand.open_ends], set(situation.holding) - {move.tile}


def _laid(position: Position) -> set[int]:
    return {seen.tile for seen in position.situation.seen if seen.kind not in (DRAW, PASS)} - {None}  # type: ignore[return-value]


def going_out(position: Position, best: str) -> bool:
    return len(position.situation.holding) == 1


def block(position: Position, best: str) -> bool:
    pips, mine = _after(position, best)
    if not pips:
        return False
    known = _laid(position) | mine | {_move_of(position, best).tile}
    unseen = [tile for tile in ALL_TILES if tile not in known]
    return not any(LOW[tile] in pips or HIGH[tile] in pips for tile in unseen)


def count(position: Position, best: str) -> bool:
    points = {str(move): play_figures(position, str(move)).points for move in position.legal}
    bonus = play_figures(position, best).bonus
    return points[best] - bonus > 0 and points[best] == max(points.values())


def bust(position: Position, best: str) -> bool:
    if play_figures(position, best).bust:
        return False
    return any(play_figures(position, str(move)).bust for move in position.legal)


def _opened(position: Position, play: str) -> set[int]:
    """Return the pips a play leaves open that were not open before it (its outer pip, or a
    lead's two; a double opens its own suit again)."""
    before = Counter(pip for _end, pip in position.situation.table.open_ends)
    opened = set(Counter(_after(position, play)[0]) - before)
    tile = _move_of(position, play).tile
    assert tile is not None
    if LOW[tile] == HIGH[tile]:
        opened.add(LOW[tile])
    return opened


def last_of_suit(position: Position, best: str) -> bool:
    _pips, mine = _after(position, best)
    known = _laid(position) | {_move_of(position, best).tile}
    for pip in _opened(position, best):
        suit = [tile for tile in ALL_TILES if pip in (LOW[tile], HIGH[tile])]
        held = [tile for tile in suit if tile in mine]
        if held and all(tile in known or tile in mine for tile in suit):
            return True
    return False


def _partner(position: Position) -> int | None:
    situation = position.situation
    seat = situation.seat
    team = situation.seats_team[seat]
    mates = [s for s, t in enumerate(situation.seats_team) if t == team and s != seat]
    return mates[0] if mates else None


def signal(position: Position, best: str) -> bool:
    partner = _partner(position)
    if partner is None:
        return False
    seen = position.situation.seen
    knocked = 0
    played_pips: set[int] = set()
    for move in seen:
        if move.seat != partner:
            continue
        if move.kind in (DRAW, PASS):
            knocked |= move.mask
        elif move.tile is not None:
            played_pips |= {LOW[move.tile], HIGH[move.tile]}

    def shows(play: str, pips: int) -> bool:
        return any(pips >> pip & 1 for pip in _after(position, play)[0])

    others = [str(move) for move in position.legal if str(move) != best]
    if knocked and not shows(best, knocked) and any(shows(play, knocked) for play in others):
        return True
    # Or it opens a suit the partner played, which some other play would not have opened.
    opens = _opened(position, best) & played_pips
    return bool(opens) and any(not _opened(position, play) & played_pips for play in others)


_FINDERS = {
    "going-out": going_out,
    "block": block,
    "count": count,
    "bust": bust,
    "last-of-suit": last_of_suit,
    "signal": signal,
}


def themes(position: Position, best: str) -> tuple[str, ...]:
    """Return the themes of a position and its best play (``THEMES``' order)."""
    return tuple(name for name in THEMES if _FINDERS[name](position, best))


def checked_documents(
    log: MatchLog, plays: Sequence[dict[str, Any]], layouts: int
) -> list[tuple[dict[str, Any], Checked]]:
    """Return each reviewed play of ``log`` that makes a puzzle (``candidate``, then
    ``check`` over ``layouts``), with its check."""
    out = []
    for play in plays:
        if candidate(play):
            checked = check(log, play["hand"], play["move"], layouts)
            if checked is not None:
                out.append((play, checked))
    return out
