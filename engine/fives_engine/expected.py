"""The expected-value review: what every play was worth over the tiles its player could not see.

For a play by seat S the figure is the points S's side gains over the rest of the hand
(settlement included, and the match's end where the ruleset stops at the target) minus what
the other side gains (with three or four teams: minus the mean of the others), averaged over
every layout of the tiles S could not see that agrees with all S could know: its own tiles,
every tile laid, every shown draw, how many tiles each seat holds, the boneyard's size, and
that a seat that drew or passed held no tile fitting the open ends just then. After the play
every seat plays on by the rollout policy (``rollout_play``). Where the layouts are few they
are all averaged (exact); otherwise a sample of them, the same sample for every legal
alternative (common random numbers), with the seed taken from what S saw. Where the match
has two sides, each rollout's end is also read as the chance to win the match (the equity
tables, ``equity``): the marks and the accuracy read the chances, and each side's luck and
skill add up to its result. docs/analysis.md says all of it for players; the rules
themselves are the engine's: every rollout is played by ``HandState`` and ``MatchState``.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .equity import EquityTable, table_for
from .game import DRAW, PASS, PLAY, HandResult, HandState, LegalMove, MatchState
from .log import HIDDEN, HandLog, MatchLog, Move, parse_log
from .report import MoveFacts
from .rules import Ruleset, resolve_ruleset
from .scoring import leader_at_target, reserve_of, team_of
from .table import known_holdings
from .tiles import ALL_TILES, HIGH, LOW, PIPS, SET_SIZE, TILE_BY_TEXT
from .validate import Step, validate_match

__all__ = [
    "ANALYSIS_VERSION",
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "MatchReview",
    "PlayReview",
    "PlayValue",
    "Situation",
    "SkippedPlay",
    "evaluate",
    "review_document",
    "review_match",
]

# Bumped whenever a figure could change (the sampling, the rollout, the thresholds, the
# equity tables: ``equity.EQUITY_VERSION``). 2: winning chances, luck and skill (issue 37).
ANALYSIS_VERSION = 2

# Marks by expected loss, in points of the match's score: a missed 5 is an inaccuracy, a
# missed 10 a mistake, 15 or more a blunder (docs/analysis.md).
INACCURACY = 3.0
MISTAKE = 7.0
BLUNDER = 15.0

# Marks by the winning chance a play gave up, in percentage points, where the match has an
# equity table (two sides). In two-player All Fives 10 points are worth 3.7 points of chance
# at 0-0 and 9.2 at 200-200 (docs/analysis.md, "Winning chances"): an inaccuracy is about a
# missed 5 at the start and a missed 2 near the end, a blunder a missed 20 or 9.
CHANCE_INACCURACY = 2.0
CHANCE_MISTAKE = 4.0
CHANCE_BLUNDER = 8.0

# Accuracy of a play: 100 * exp(-loss / ACCURACY_SCALE) for a loss in points; for a loss of
# winning chances lichess's curve (LICHESS_*). A seat's accuracy is the mean over its plays
# that had a choice.
ACCURACY_SCALE = 10.0
LICHESS_A, LICHESS_B, LICHESS_C = 103.1668, 0.04354, 3.1669

# A mark needs the loss to clear its threshold and twice its own standard error; a play close
# to a threshold is looked at again over more layouts (``RESAMPLE``: twice as many, which
# made a review 1.4 times as long; four times as many made it 2.4 times, past the 2 s
# for a match), rather than marked on noise.
SIGNIFICANCE = 2.0
RESAMPLE = (2,)

# Layouts sampled per play when they are too many to enumerate; up to EXACT_LIMIT layouts
# are all averaged instead (the figure is then exact).
DEFAULT_SAMPLES = 24
EXACT_LIMIT = 48
# The bots: the expected bot's layouts per decision (48 won 93% of 400 All Fives matches
# against greedy and 81% of Muggins, 24 86% and 77%: bench.analysis), the plain method's
# (the issue's), and the hands the equity tables are sampled with (``equity_make``).
BOT_SAMPLES = 48
TABLE_SAMPLES = 24
PLAIN_SAMPLES = 16

# Rejection sampling of a layout that breaks a capacity (see ``_Seat.fits``) gives up after
# this many tries and takes a layout that ignores capacities (never seen in practice).
MAX_TRIES = 2000

# TILE_MASK[t]: the pips of tile t as a bit set; a tile fits open ends whose pip set shares
# a bit with it.
TILE_MASK = [(1 << LOW[t]) | (1 << HIGH[t]) for t in ALL_TILES]


# --- the figures ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayValue:
    """One legal play and its expected value (``stderr`` 0.0 when exact), and the chance its
    side wins after it, in percent (None without an equity table)."""

    play: str
    value: float
    stderr: float
    chance: float | None = None


@dataclass(frozen=True, slots=True)
class PlayReview:
    """A play looked at again: its value, the best play's, the loss and its mark."""

    hand: int
    move: int
    seat: int
    played: str
    value: float
    stderr: float
    best: str
    best_value: float
    loss: float
    mark: str | None
    exact: bool
    layouts: int
    alternatives: tuple[PlayValue, ...]
    # The standard error of ``loss``: of the differences best - played over the same layouts.
    loss_stderr: float = 0.0
    # Where the match has an equity table (two sides), in percent: the chance the seat's side
    # wins after the play made, after the play of the highest chance (``chance_best``), the
    # difference (never below 0) and its standard error. None without a table.
    chance: float | None = None
    chance_best: str | None = None
    best_chance: float | None = None
    chance_loss: float | None = None
    chance_loss_stderr: float | None = None
    # The chance before the play, for luck and skill: the best play's, chosen on one half of
    # the layouts and valued on the other (``_fair_best``).
    chance_before: float | None = None
    # The unit the mark read: "chance" or "points".
    unit: str = "points"


@dataclass(frozen=True, slots=True)
class SkippedPlay:
    """A play not reviewed, and why (``hand-unknown``: a table record hides S's tiles)."""

    hand: int
    move: int
    seat: int
    reason: str


@dataclass(slots=True)
class MatchReview:
    """The review of a whole match: every play, per seat accuracy and loss, loss by hand."""

    version: int
    players: tuple[str, ...]
    plays: list[PlayReview] = field(default_factory=list)
    skipped: list[SkippedPlay] = field(default_factory=list)
    accuracy: list[float] = field(default_factory=list)
    mean_loss: list[float] = field(default_factory=list)
    loss_by_hand: list[list[float]] = field(default_factory=list)
    # "chance" where the match has an equity table (two sides), else "points": what the marks
    # and the accuracy read.
    unit: str = "points"
    # Per seat, the mean chance lost per play with a choice (None without a table).
    mean_chance_loss: list[float | None] = field(default_factory=list)
    # Per side (with a table): result, expected_start, luck, skill, luck_adjusted, the plays
    # not reviewed, and the luck's events (``luck_of``); empty without a table.
    sides: list[dict[str, Any]] = field(default_factory=list)
    # The chart: side 0's chance after each reviewed play, as [hand, move, chance].
    chances: list[list[float]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return the review as JSON-ready data, keys the field names."""
        return {
            "version": self.version,
            "players": list(self.players),
            "plays": [_play_dict(play) for play in self.plays],
            "skipped": [asdict(skipped) for skipped in self.skipped],
            "accuracy": list(self.accuracy),
            "mean_loss": list(self.mean_loss),
            "loss_by_hand": [list(row) for row in self.loss_by_hand],
            "unit": self.unit,
            "mean_chance_loss": list(self.mean_chance_loss),
            "sides": [dict(side) for side in self.sides],
            "chances": [list(point) for point in self.chances],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchReview:
        """Return the review ``as_dict`` wrote."""
        return cls(
            version=int(data["version"]),
            players=tuple(data["players"]),
            plays=[
                PlayReview(
                    **{
                        **play,
                        "alternatives": tuple(
                            PlayValue(**{"chance": None, **alt}) for alt in play["alternatives"]
                        ),
                    }
                )
                for play in data["plays"]
            ],
            skipped=[SkippedPlay(**skipped) for skipped in data["skipped"]],
            accuracy=[float(value) for value in data["accuracy"]],
            mean_loss=[float(value) for value in data["mean_loss"]],
            loss_by_hand=[[float(value) for value in row] for row in data["loss_by_hand"]],
            unit=data.get("unit", "points"),
            mean_chance_loss=list(data.get("mean_chance_loss", [])),
            sides=[dict(side) for side in data.get("sides", [])],
            chances=[list(point) for point in data.get("chances", [])],
        )


def _play_dict(play: PlayReview) -> dict[str, Any]:
    out = asdict(play)
    out["alternatives"] = [asdict(alt) for alt in play.alternatives]
    return out


def mark_of(
    loss: float, stderr: float = 0.0, *, exact: bool = True, unit: str = "points"
) -> str | None:
    """Return the mark of an expected loss (in points, or in percent of winning chances):
    None, inaccuracy, mistake or blunder; none for a sampled loss within twice its own
    standard error."""
    if not exact and loss <= SIGNIFICANCE * stderr:
        return None
    marks = (
        (CHANCE_BLUNDER, CHANCE_MISTAKE, CHANCE_INACCURACY)
        if unit == "chance"
        else (BLUNDER, MISTAKE, INACCURACY)
    )
    for threshold, mark in zip(marks, ("blunder", "mistake", "inaccuracy"), strict=True):
        if loss >= threshold:
            return mark
    return None


def play_accuracy(loss: float, unit: str = "points") -> float:
    """Return the accuracy, 0..100, of one play losing ``loss`` (points, or percent of
    winning chances, by lichess's curve)."""
    if unit == "chance":
        return min(100.0, max(0.0, LICHESS_A * math.exp(-LICHESS_B * loss) - LICHESS_C))
    return 100.0 * math.exp(-loss / ACCURACY_SCALE)


def accuracy_of(losses: Sequence[float], unit: str = "points") -> float:
    """Return the accuracy, 0..100, of plays with these expected losses (100 for none)."""
    if not losses:
        return 100.0
    return sum(play_accuracy(loss, unit) for loss in losses) / len(losses)


# --- what a seat saw ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """One move of the hand as a seat saw it: ``tile`` None for a draw it did not see."""

    seat: int
    kind: str
    tile: int | None
    mask: int  # the open ends' pips (a bit set) just before the move


@dataclass(slots=True)
class Situation:
    """All a seat could know when it is about to play, and the table then.

    ``table`` is the layout just before the play, replayed from the hand's public moves; its
    hands are placeholders: only the layout, the turn and who is out are read from it.
    """

    rules: Ruleset
    seat: int
    seats_team: list[int]
    teams: int
    scores: tuple[int, ...]
    hand_index: int
    holding: frozenset[int]
    held: tuple[int, ...]
    boneyard: int
    seen: tuple[Seen, ...]
    table: HandState

    def key(self) -> bytes:
        """Return the bytes the sampling's seed is made from: only what the seat saw."""
        text = repr(
            (
                ANALYSIS_VERSION,
                self.rules,
                self.seat,
                self.seats_team,
                self.scores,
                self.hand_index,
                sorted(self.holding),
                self.held,
                self.boneyard,
                [(move.seat, move.kind, move.tile, move.mask) for move in self.seen],
                self.table.leader,
            )
        )
        return text.encode()

    def seed(self) -> int:
        """Return the sampling's seed: a hash of what the seat saw."""
        return int.from_bytes(hashlib.blake2b(self.key(), digest_size=8).digest(), "big")


def _mask(table: HandState) -> int:
    mask = 0
    for _, pip in table.open_ends:
        mask |= 1 << pip
    return mask


class PublicWalk:
    """The public moves of one hand, walked on a ``HandState`` whose hands are placeholders.

    Each seat's placeholder hand holds the tiles it lays in the hand and, unless it goes
    out, one tile it never lays, so the engine's own ``play`` and ``pass_turn`` say when the
    hand ends and whose turn it is; draws change nothing on the table. ``seen`` lists every
    move so far with the open ends' pips before it; ``draws`` counts each seat's draws.
    """

    def __init__(
        self,
        rules: Ruleset,
        leader: int,
        seats_team: list[int],
        laid_by: Sequence[set[int]],
        out: Sequence[bool],
    ) -> None:
        players = len(seats_team)
        hands: list[set[int]] = []
        for seat in range(players):
            tiles = set(laid_by[seat])
            if not out[seat]:
                tiles.add(next(t for t in ALL_TILES if t not in laid_by[seat]))
            hands.append(tiles)
        self.table = HandState(rules, leader, hands, set(), list(seats_team), None)
        self.moves: list[tuple[int, str, int | None, int]] = []
        self.draws = [0] * players
        self.plays = [0] * players

    def step(self, seat: int, kind: str, tile: int | None) -> None:
        """Make a draw (``tile`` None when nobody saw it) or a pass."""
        self.moves.append((seat, kind, tile, _mask(self.table)))
        if kind == DRAW:
            self.draws[seat] += 1
        else:
            self.table.pass_turn()

    def play_on(self, seat: int, tile: int, end: str | None, a: int, b: int) -> None:
        """Make a play on a given end (a log names it when several fit)."""
        table = self.table
        self.moves.append((seat, PLAY, tile, _mask(table)))
        self.plays[seat] += 1
        if table.lead is None:
            table.play(tile, None, a, b)
        else:
            table.play(tile, end if end is not None else table.ends_for(tile)[0])

    def held(self, hand_size: int) -> tuple[int, ...]:
        """Return how many tiles each seat holds now."""
        return tuple(
            hand_size + draws - plays for draws, plays in zip(self.draws, self.plays, strict=True)
        )

    def seen_by(self, seat: int, shown: Callable[[int, int], bool]) -> tuple[Seen, ...]:
        """Return the moves as ``seat`` saw them: a draw names its tile only when
        ``shown(index, drawer)`` says the table saw it. The seat's own draws are blanked
        too: its tiles now are all it needs of them (nothing is inferred from its own
        moves), and the same situation then looks the same in a full record and in the
        table record made of it."""
        return tuple(
            Seen(
                who,
                kind,
                tile if kind != DRAW or shown(index, who) else None,
                mask,
            )
            for index, (who, kind, tile, mask) in enumerate(self.moves)
        )


# --- inference: where the unseen tiles may lie ---------------------------------------------


class _Seat:
    """What a seat's moves say about the tiles it holds, seen by another seat.

    A seat's tiles came in *groups*: group 0 is its deal, then each run of draws (a turn on
    which it drew) adds a group of the tiles it drew and kept. Every draw or pass is an
    *event* that says: no tile held just then fitted the open ends, so every tile of a group
    up to that run's is barred from fitting them. A tile the seat laid, unless it was the
    tile that ended a run of draws (that one was the last drawn), came from a group before
    its play, and fitted no event's ends between that group and its play. The unseen tiles
    it holds now fill the groups' places left; ``fits`` checks a choice of them by matching
    tiles to groups (earliest deadline first over intervals of groups).
    """

    __slots__ = ("caps", "constrained", "known", "last", "lo", "played")

    def __init__(self, hand_size: int, moves: Sequence[Seen], seat: int) -> None:
        caps = [hand_size]
        events: list[tuple[int, int]] = []  # (group, mask)
        played: list[tuple[int, int, int]] = []  # (tile, events before its play, last group)
        known: set[int] = set()
        in_run = False
        last_hidden = False
        run_mask = 0
        for move in moves:
            if move.seat != seat:
                continue
            if move.kind == DRAW:
                if not in_run:
                    caps.append(0)
                    in_run = True
                    run_mask = move.mask
                if move.tile is None:
                    caps[-1] += 1
                    last_hidden = True
                else:
                    known.add(move.tile)
                    last_hidden = False
                continue
            if in_run:
                events.append((len(caps) - 1, run_mask))
            if move.kind == PASS:
                if not in_run:
                    events.append((len(caps) - 1, move.mask))
                in_run = False
                continue
            tile = move.tile
            assert tile is not None
            if in_run:
                # The tile that ended a run of draws is the last one drawn.
                if last_hidden:
                    caps[-1] -= 1
                else:
                    known.discard(tile)
                in_run = False
            elif tile in known:
                known.discard(tile)
            else:
                played.append((tile, len(events), len(caps) - 1))
        self.caps = caps
        self.known = frozenset(known)
        self.last = len(caps) - 1
        # lo[t]: the first group a tile held now may have come from (> last: none).
        self.lo = [_first_group(events, len(events), t) for t in ALL_TILES]
        self.played = [(_first_group(events, before, t), last) for t, before, last in played]
        self.constrained = bool(events)

    def allowed(self, tile: int) -> bool:
        """Return whether the seat may hold ``tile`` now."""
        return self.lo[tile] <= self.last

    def fits(self, tiles: Sequence[int]) -> bool:
        """Return whether the seat may hold exactly these unseen tiles now."""
        if not self.constrained:
            return True
        items = [(self.lo[t], self.last) for t in tiles] + self.played
        items.sort()
        heap: list[int] = []
        index = 0
        for group, cap in enumerate(self.caps):
            while index < len(items) and items[index][0] <= group:
                heapq.heappush(heap, items[index][1])
                index += 1
            for _ in range(cap):
                if not heap:
                    break
                if heapq.heappop(heap) < group:
                    return False
            if heap and heap[0] < group:
                return False
        return index == len(items) and not heap


def _first_group(events: Sequence[tuple[int, int]], before: int, tile: int) -> int:
    """Return the first group a tile may have come from given the first ``before`` events."""
    bits = TILE_MASK[tile]
    first = 0
    for group, mask in events[:before]:
        if bits & mask and group + 1 > first:
            first = group + 1
    return first


@dataclass(slots=True)
class _Layouts:
    """The layouts a figure averages: each a hand per seat, the boneyard in drawing order,
    and a weight (1, but for importance weights when three or more seats hide tiles)."""

    hands: list[list[frozenset[int]]]
    orders: list[tuple[int, ...]]
    weights: list[float]
    exact: bool


def _infer(situation: Situation, plain: bool) -> tuple[list[int], list[_Seat | None], list[int]]:
    """Return the unseen tiles, each seat's inference (None for S), and the count of unseen
    tiles each seat holds (0 for S)."""
    rules = situation.rules
    seat = situation.seat
    players = len(situation.held)
    seats: list[_Seat | None] = []
    counts: list[int] = []
    taken = set(situation.holding)
    for move in situation.seen:
        if move.kind == PLAY and move.tile is not None:
            taken.add(move.tile)
    for other in range(players):
        if other == seat:
            seats.append(None)
            counts.append(0)
            continue
        info = _Seat(rules.hand_size, situation.seen, other)
        if plain:
            info.constrained = False
            info.lo = [0] * SET_SIZE
        taken |= info.known
        seats.append(info)
        counts.append(situation.held[other] - len(info.known))
    unseen = [t for t in ALL_TILES if t not in taken]
    return unseen, seats, counts


def _drawable(rules: Ruleset, boneyard: int) -> int:
    return max(0, boneyard - reserve_of(rules, boneyard))


def layouts_of(situation: Situation, samples: int, *, plain: bool = False) -> _Layouts:
    """Return the layouts to average: all of them when few, else ``samples`` drawn with the
    situation's seed."""
    unseen, seats, counts = _infer(situation, plain)
    players = len(counts)
    known = [info.known if info is not None else situation.holding for info in seats]
    drawable = _drawable(situation.rules, situation.boneyard)
    # An upper bound on the layouts: each seat's choice of its allowed tiles, times the
    # orders of the tiles that may be drawn.
    bound = 1
    pool = len(unseen)
    for other in range(players):
        info = seats[other]
        if info is None:
            continue
        allowed = sum(1 for t in unseen if info.allowed(t))
        bound *= math.comb(allowed, counts[other])
        pool -= counts[other]
        if bound > EXACT_LIMIT:
            break
    if bound <= EXACT_LIMIT:
        bound *= math.perm(max(pool, 0), drawable)
    if bound <= EXACT_LIMIT:
        return _enumerate(unseen, seats, counts, known, drawable)
    return _sample(unseen, seats, counts, known, samples, random.Random(situation.seed()))


def _enumerate(
    unseen: list[int],
    seats: list[_Seat | None],
    counts: list[int],
    known: list[frozenset[int]],
    drawable: int,
) -> _Layouts:
    hands: list[list[frozenset[int]]] = []
    orders: list[tuple[int, ...]] = []

    def deal(seat: int, pool: list[int], chosen: list[frozenset[int]]) -> Iterator[None]:
        if seat == len(seats):
            for order in itertools.permutations(pool, drawable):
                left = tuple(t for t in pool if t not in order)
                hands.append(list(chosen))
                orders.append(order + left)
            yield None
            return
        info = seats[seat]
        if info is None:
            chosen.append(known[seat])
            yield from deal(seat + 1, pool, chosen)
            chosen.pop()
            return
        allowed = [t for t in pool if info.allowed(t)]
        for picked in itertools.combinations(allowed, counts[seat]):
            if not info.fits(picked):
                continue
            chosen.append(known[seat] | frozenset(picked))
            rest = [t for t in pool if t not in picked]
            yield from deal(seat + 1, rest, chosen)
            chosen.pop()

    for _ in deal(0, unseen, []):
        pass
    return _Layouts(hands, orders, [1.0] * len(hands), True)


def _sample(
    unseen: list[int],
    seats: list[_Seat | None],
    counts: list[int],
    known: list[frozenset[int]],
    samples: int,
    rng: random.Random,
) -> _Layouts:
    hands: list[list[frozenset[int]]] = []
    orders: list[tuple[int, ...]] = []
    weights: list[float] = []
    tries = 0
    while len(hands) < samples:
        tries += 1
        careful = tries <= MAX_TRIES * samples
        pool = list(unseen)
        chosen: list[frozenset[int]] = []
        weight = 1.0
        ok = True
        for seat, info in enumerate(seats):
            if info is None:
                chosen.append(known[seat])
                continue
            allowed = [t for t in pool if info.allowed(t)] if careful else list(pool)
            if len(allowed) < counts[seat]:
                ok = False
                break
            picked = rng.sample(allowed, counts[seat])
            if careful and not info.fits(picked):
                ok = False
                break
            # Seats are dealt one after another from what is left, so a layout's chance
            # depends on the choices before; weighting by the number of choices makes every
            # layout count alike (the same for all layouts with a single other seat).
            weight *= math.comb(len(allowed), counts[seat])
            chosen.append(known[seat] | frozenset(picked))
            taken = set(picked)
            pool = [t for t in pool if t not in taken]
        if not ok:
            continue
        rng.shuffle(pool)
        hands.append(chosen)
        orders.append(tuple(pool))
        weights.append(weight)
    return _Layouts(hands, orders, weights, False)


# --- rollouts -----------------------------------------------------------------------------


def rollout_play(hand: HandState, legal: list[LegalMove]) -> LegalMove:
    """Return the rollout policy's play: the most points now, then the heaviest tile (it
    sheds the most pips), then the first in the generator's order. Deterministic, so an
    exact figure is exact."""
    best = legal[0]
    best_key = (-1, -1)
    for move in legal:
        tile = move.tile
        assert tile is not None
        key = (hand.score_after(tile, move.end)[1], PIPS[tile])
        if key > best_key:
            best, best_key = move, key
    return best


def _play_out(
    match: MatchState, hand: HandState, order: tuple[int, ...], plain: bool
) -> tuple[list[int], list[int]]:
    """Play the hand to its end by the rollout policy, drawing in ``order``; return the
    points of each team's plays and each seat's pips left (for the plain method)."""
    drawn = 0
    team = match.team_of
    points = [0] * match.teams
    while hand.end is None:
        legal = hand.legal_moves()
        kind = legal[0].kind
        if kind == DRAW:
            match.draw(order[drawn])
            drawn += 1
        elif kind == PASS:
            match.pass_turn()
        else:
            seat = hand.turn
            move = rollout_play(hand, legal)
            assert move.tile is not None
            gained = match.play(move.tile, move.end)[1]
            points[team[seat]] += gained
    return points, hand.pips_left() if plain else []


def _outcome(situation: Situation, gains: Sequence[float]) -> float:
    """Return S's side's gain minus the other side's (the mean of the others)."""
    own = situation.seats_team[situation.seat]
    others = [gain for team, gain in enumerate(gains) if team != own]
    return gains[own] - sum(others) / len(others)


def match_chance(match: MatchState, table: EquityTable, side: int) -> float:
    """Return the chance, in percent, that ``side`` wins ``match`` as it stands between
    hands (or won): the table's, at its scores, with the side that leads next."""
    if match.winner is not None:
        return 100.0 if match.winner == side else 0.0
    leading: int | None = None
    if match.leaders is not None:
        sides = {match.team_of[seat] for seat in match.leaders}
        if len(sides) == 1:
            leading = sides.pop()
    return 100.0 * table.chance(match.scores, leading, side)


@dataclass(slots=True)
class Rollouts:
    """Every legal play played out on every layout: the points figure of each (``points``,
    per play, per layout), the chance its side wins after the hand (``chances``, None
    without a table), and each layout's weight."""

    points: list[list[float]]
    chances: list[list[float]] | None
    weights: list[float]
    exact: bool

    def mean(self, values: Sequence[float]) -> tuple[float, float]:
        """Return the weighted mean of per-layout ``values`` and its standard error (0
        when exact): the standard error of a weighted mean. A play looked at again has more
        layouts than the others: each reads the weights of its own (the first ones)."""
        weights = self.weights[: len(values)]
        total = sum(weights)
        mean = sum(w * x for w, x in zip(weights, values, strict=True)) / total
        count = len(values)
        if self.exact or count < 2:
            return mean, 0.0
        spread = sum(w * w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True))
        return mean, math.sqrt(spread * count / (count - 1)) / total

    def difference(self, rows: list[list[float]], better: int, worse: int) -> tuple[float, float]:
        """Return the mean of ``better - worse`` over the same layouts and its standard
        error (paired: the luck of the sample cancels), over the layouts both read."""
        return self.mean([b - w for b, w in zip(rows[better], rows[worse], strict=False)])

    def extend(self, indices: Sequence[int], more: Rollouts) -> None:
        """Add the rollouts ``more`` of the plays ``indices`` (in that order) on the layouts
        after this one's."""
        for row, index in enumerate(indices):
            self.points[index].extend(more.points[row])
            if self.chances is not None and more.chances is not None:
                self.chances[index].extend(more.chances[row])
        self.weights = self.weights + more.weights


def roll_out(
    situation: Situation,
    moves: Sequence[LegalMove],
    samples: int = DEFAULT_SAMPLES,
    *,
    plain: bool = False,
    table: EquityTable | None = None,
    skip: int = 0,
) -> Rollouts:
    """Play every move out on the same layouts; see ``Rollouts``. ``skip``: leave out the
    first layouts (already played out: a look again at more layouts).

    ``plain``: the plain method the issue measured against: no inference from draws and
    passes, and the figure is the points of the rest of the hand minus the pips left.
    """
    layouts = layouts_of(situation, samples, plain=plain)
    rules = situation.rules
    seats_team = situation.seats_team
    own = seats_team[situation.seat]
    players = len(seats_team)
    points: list[list[float]] = [[] for _ in moves]
    chances: list[list[float]] | None = [[] for _ in moves] if table is not None else None
    for hands, order in zip(layouts.hands[skip:], layouts.orders[skip:], strict=True):
        for index, move in enumerate(moves):
            hand = situation.table.copy()
            hand.hands = [set(tiles) for tiles in hands]
            # The rollout draws ``order[0]`` first, then ``order[1]``... (``_play_out``).
            hand.boneyard = set(order)
            match = MatchState(rules, players, list(seats_team), situation.teams)
            match.scores = list(situation.scores)
            hand.scores = match.scores
            match.hand = hand
            tile = move.tile
            assert tile is not None
            seat = hand.turn
            if hand.lead is None:
                first = match.play(tile, None, LOW[tile], HIGH[tile])[1]
            else:
                first = match.play(tile, move.end)[1]
            gained, pips = _play_out(match, hand, order, plain)
            if plain:
                gained[seats_team[seat]] += first
                gains = [float(p) for p in gained]
                for other, left in enumerate(pips):
                    gains[seats_team[other]] -= left
            else:
                gains = [
                    float(after - before)
                    for after, before in zip(match.scores, situation.scores, strict=True)
                ]
            points[index].append(_outcome(situation, gains))
            if chances is not None and table is not None:
                chances[index].append(match_chance(match, table, own))
    return Rollouts(points, chances, layouts.weights[skip:], layouts.exact)


def evaluate(
    situation: Situation,
    moves: Sequence[LegalMove],
    samples: int = DEFAULT_SAMPLES,
    *,
    plain: bool = False,
    table: EquityTable | None = None,
) -> tuple[list[PlayValue], bool, int]:
    """Return each play's expected value (and chance, with a ``table``), whether the
    figures are exact, and how many layouts they average (``roll_out``)."""
    rolled = roll_out(situation, moves, samples, plain=plain, table=table)
    values: list[PlayValue] = []
    for index, move in enumerate(moves):
        mean, stderr = rolled.mean(rolled.points[index])
        chance = None
        if rolled.chances is not None:
            chance = rolled.mean(rolled.chances[index])[0]
        values.append(PlayValue(str(move), mean, stderr, chance))
    return values, rolled.exact, len(rolled.weights)


# --- the review of a match ----------------------------------------------------------------


def review_document(doc: Any, **kw: Any) -> MatchReview:
    """Return the review of a log given as parsed JSON (a valid log)."""
    return review_match(parse_log(doc), **kw)


def review_match(
    log: MatchLog,
    *,
    samples: int = DEFAULT_SAMPLES,
    progress: Callable[[int, int], None] | None = None,
    facts: Sequence[Sequence[MoveFacts]] | None = None,
    results: Sequence[HandResult] | None = None,
) -> MatchReview:
    """Return the expected-value review of every play of a valid log.

    ``facts`` and ``results``, each move's figures and each hand's result as the walk that
    found the log valid stored them (the archive keeps them with the match), give the
    match's scores before each play without walking the log again; else the validator's
    walk works them out, and refuses a log that is not valid.
    """
    reviewer = _MatchReviewer(log, samples, progress)
    if facts is not None and results is not None:
        reviewer.scores_stored(facts, results)
    return reviewer.run()


class _MatchReviewer:
    """One expected-value review of a valid log, hand by hand (``review_match``)."""

    def __init__(
        self, log: MatchLog, samples: int, progress: Callable[[int, int], None] | None
    ) -> None:
        self.log = log
        self.samples = samples
        self.progress = progress
        self.players = players = len(log.players)
        self.rules = resolve_ruleset(log.ruleset, players)
        teams = [list(team) for team in log.teams] if log.teams is not None else None
        self.seats_team, self.team_count = team_of(teams, players)
        self.review = MatchReview(ANALYSIS_VERSION, tuple(log.players))
        # The equity table of a match of two sides (None: three or four, or no samples).
        self.equity = (
            table_for(self.rules, players, log.teams is not None) if self.team_count == 2 else None
        )
        self.review.unit = "chance" if self.equity is not None else "points"
        self.chance_losses: list[list[float]] = [[] for _ in range(players)]
        # The match's last scores and its winner (None: it stopped before its end).
        self.final: tuple[tuple[int, ...], int | None] = ((0,) * self.team_count, None)
        self.total = sum(1 for hand in log.hands for move in hand.moves if move.kind == PLAY)
        self.done = 0
        self.losses: list[list[float]] = [[] for _ in range(players)]
        # The match's scores before each move, by (hand, move): stored, or from the walk.
        self.scores: dict[tuple[int, int], tuple[int, ...]] = {}
        self.stored = False

    def scores_stored(
        self, facts: Sequence[Sequence[MoveFacts]], results: Sequence[HandResult]
    ) -> None:
        """Read the match's scores before each move from the figures a walk stored: the
        scores after the hand before, and each play's points since."""
        scores = [0] * self.team_count
        seats_team = self.seats_team
        for h, (hand_log, hand_facts) in enumerate(zip(self.log.hands, facts, strict=True)):
            for m, (move, fact) in enumerate(zip(hand_log.moves, hand_facts, strict=True)):
                self.scores[(h, m)] = tuple(scores)
                scores[seats_team[move.seat]] += fact.points
            scores = list(results[h].scores)
        self.final = (tuple(scores), leader_at_target(scores, self.rules.target))
        self.stored = True

    def run(self) -> MatchReview:
        log = self.log
        scores = self.scores

        def record(step: Step) -> None:
            after = 0 if step.move_index is None else step.move_index + 1
            scores[(step.hand_index, after)] = tuple(step.match.scores)
            self.final = (tuple(step.match.scores), step.match.winner)

        if not self.stored:
            report = validate_match(log, on_step=record)
            if not report.valid:
                raise ValueError(f"only a valid log is reviewed: {report.errors[0].message}")
        for h, hand_log in enumerate(log.hands):
            self.review_hand(h, hand_log)
        losses = self.losses
        review = self.review
        review.mean_loss = [
            sum(seat_losses) / len(seat_losses) if seat_losses else 0.0 for seat_losses in losses
        ]
        if self.equity is None:
            review.accuracy = [accuracy_of(seat_losses) for seat_losses in losses]
            return review
        chance_losses = self.chance_losses
        review.accuracy = [accuracy_of(seat_losses, "chance") for seat_losses in chance_losses]
        review.mean_chance_loss = [
            sum(seat_losses) / len(seat_losses) if seat_losses else 0.0
            for seat_losses in chance_losses
        ]
        review.chances = [
            [
                play.hand,
                play.move,
                _side_chance(play.chance, self.seats_team[play.seat]),
            ]
            for play in review.plays
        ]
        review.sides = [self.luck_of(side) for side in range(2)]
        return review

    def luck_of(self, side: int) -> dict[str, Any]:
        """Return a side's result, its chance at the start, its luck and its skill (in
        percent of winning chances), which add up by construction: the chance moves from
        the start to the result by the side's own plays (skill: each play's chance less the
        best play's, from its seat's view) and by everything else (luck: from the chance
        after one of its plays, or a hand's start, to the best chance at its next play, or
        the next hand's start, or the result)."""
        equity = self.equity
        assert equity is not None
        log, seats_team = self.log, self.seats_team

        def at_start(h: int) -> float:
            leader_side = seats_team[log.hands[h].leader]
            return 100.0 * equity.chance(self.scores[(h, 0)], leader_side, side)

        events: list[list[Any]] = []
        start = at_start(0) if log.hands else 50.0
        now = start
        skill = 0.0
        plays = iter(self.review.plays)
        play = next(plays, None)
        for h, hand_log in enumerate(log.hands):
            if h > 0:
                events.append([h - 1, None, "hand-end", at_start(h) - now])
                now = at_start(h)
            last = -1
            while play is not None and play.hand == h:
                if seats_team[play.seat] == side and play.chance is not None:
                    assert play.chance_before is not None
                    between = hand_log.moves[last + 1 : play.move]
                    kind = (
                        "deal"
                        if last < 0
                        else "draw"
                        if any(move.kind == DRAW for move in between)
                        else "play"
                    )
                    events.append([h, play.move, kind, play.chance_before - now])
                    skill += play.chance - play.chance_before
                    now = play.chance
                    last = play.move
                play = next(plays, None)
        scores, winner = self.final
        if winner is not None:
            result = 100.0 if winner == side else 0.0
        else:
            result = 100.0 * equity.chance(scores, None, side)
        events.append([len(log.hands) - 1, None, "end", result - now])
        luck = sum(event[3] for event in events)
        unreviewed = sum(1 for skipped in self.review.skipped if seats_team[skipped.seat] == side)
        return {
            "side": side,
            "seats": [seat for seat in range(self.players) if seats_team[seat] == side],
            "result": result,
            "expected_start": start,
            "luck": luck,
            "skill": skill,
            "luck_adjusted": result - luck,
            # Plays a table record could not review (a hidden draw hid the hand): what they
            # kept or gave up is inside the luck.
            "unreviewed": unreviewed,
            "events": events,
        }

    def review_hand(self, h: int, hand_log: HandLog) -> None:
        row = [0.0] * self.players
        self.review.loss_by_hand.append(row)
        walk = public_walk(self.log, hand_log, self.rules, self.seats_team)
        for m, move, mine in walk_plays(self.log, hand_log, walk):
            self.review_play(h, m, move, walk, mine, row)
            self.done += 1
            if self.progress is not None:
                self.progress(self.done, self.total)

    def review_play(
        self, h: int, m: int, move: Move, walk: PublicWalk, mine: frozenset[int], row: list[float]
    ) -> None:
        """Review the play ``m`` of hand ``h``, whose seat is known to hold ``mine``: only
        when that is its whole hand (a table record may know less)."""
        log, rules, players = self.log, self.rules, self.players
        seat = move.seat
        assert move.tile is not None
        tile = TILE_BY_TEXT[move.tile][0]
        if log.table and len(mine) != walk.held(rules.hand_size)[seat]:
            self.review.skipped.append(SkippedPlay(h, m, seat, "hand-unknown"))
            return
        situation = Situation(
            rules=rules,
            seat=seat,
            seats_team=self.seats_team,
            teams=self.team_count,
            scores=self.scores[(h, m)],
            hand_index=h,
            holding=frozenset(mine),
            held=walk.held(rules.hand_size),
            boneyard=SET_SIZE - players * rules.hand_size - sum(walk.draws),
            seen=walk.seen_by(seat, _shown_in(log, log.hands[h].moves)),
            table=walk.table.copy(),
        )
        played = _review_play(situation, h, m, tile, move.end, self.samples, self.equity)
        self.review.plays.append(played)
        row[seat] += played.loss
        if len(played.alternatives) > 1:
            self.losses[seat].append(played.loss)
            if played.chance_loss is not None:
                self.chance_losses[seat].append(played.chance_loss)


def public_walk(
    log: MatchLog, hand_log: HandLog, rules: Ruleset, seats_team: list[int]
) -> PublicWalk:
    """Return the walk of what the table sees of a hand: the tiles each seat lays, and who
    goes out (a seat whose draws and deal it lays to the last)."""
    players = len(log.players)
    laid_by: list[set[int]] = [set() for _ in range(players)]
    count = [rules.hand_size] * players
    for move in hand_log.moves:
        if move.kind == PLAY and move.tile is not None:
            laid_by[move.seat].add(TILE_BY_TEXT[move.tile][0])
        count[move.seat] += 1 if move.kind == DRAW else -1 if move.kind == PLAY else 0
    out = [left == 0 for left in count]
    return PublicWalk(rules, hand_log.leader, seats_team, laid_by, out)


def walk_plays(
    log: MatchLog, hand_log: HandLog, walk: PublicWalk
) -> Iterator[tuple[int, Move, frozenset[int]]]:
    """Walk a hand's moves on ``walk``, yielding each play (its index and move) with what
    its seat is known to hold just before it: its whole hand in a full record, the tiles a
    table record shows (``table.known_holdings``); the play is made on the walk once the
    caller has looked at the position."""
    moves = hand_log.moves
    holding: list[set[int]] = []
    known: list[frozenset[int]] = []
    if log.table:
        known = known_holdings(moves, hand_log.left, len(log.players))
    else:
        assert hand_log.deal is not None
        holding = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in hand_log.deal]
    for m, move in enumerate(moves):
        seat = move.seat
        if move.kind != PLAY:
            tile = None
            if move.tile is not None and move.tile != HIDDEN:
                tile = TILE_BY_TEXT[move.tile][0]
            walk.step(seat, move.kind, tile)
            if tile is not None and holding:
                holding[seat].add(tile)
            continue
        assert move.tile is not None
        tile, a, b = TILE_BY_TEXT[move.tile]
        yield m, move, known[m] if log.table else frozenset(holding[seat])
        walk.play_on(seat, tile, move.end, a, b)
        if holding:
            holding[seat].discard(tile)


def _shown_in(log: MatchLog, moves: Sequence[Move]) -> Callable[[int, int], bool]:
    """Return whether another seat's draw showed its tile: in a table record when it names
    it (the table saw it); in a full record never (tiles are drawn face down)."""
    if not log.table:
        return lambda index, seat: False
    return lambda index, seat: moves[index].tile not in (None, HIDDEN)


def _side_chance(chance: float | None, side: int) -> float:
    """Return side 0's chance from side ``side``'s."""
    assert chance is not None
    return chance if side == 0 else 100.0 - chance


def _review_play(
    situation: Situation,
    h: int,
    m: int,
    tile: int,
    end: str | None,
    samples: int,
    equity: EquityTable | None = None,
) -> PlayReview:
    table = situation.table
    legal = table.plays_of(situation.holding)
    if table.lead is not None and end is None:
        end = table.ends_for(tile)[0]
    played_move = LegalMove(PLAY, tile, end if table.lead is not None else None)
    text = str(played_move)
    played = next(index for index, move in enumerate(legal) if str(move) == text)
    rolled = roll_out(situation, legal, samples, table=equity)
    review = _judge(rolled, legal, played, h, m, situation.seat)
    # A sampled loss close to a mark's threshold, or to its own standard error, is looked at
    # again over more layouts (the first ones are the same): every play on the layouts after
    # those already read.
    for times in RESAMPLE:
        if review.exact or not _close(review):
            break
        every = list(range(len(legal)))
        more = roll_out(situation, legal, samples * times, table=equity, skip=len(rolled.weights))
        rolled.extend(every, more)
        review = _judge(rolled, legal, played, h, m, situation.seat)
    return review


def _fair_best(rolled: Rollouts, rows: list[list[float]], among: Sequence[int]) -> float:
    """Return the chance of the best play with no winner's curse: the best of a sample's
    averages is above the best play's chance on average (its noise is what made it best), and
    summed over a match's plays that bias is as large as the skill itself. So the best is
    chosen on the even layouts and valued on the odd ones, and the other way round, and the
    two are averaged. Exact figures have no noise: their best is the best."""
    count = min(len(rows[index]) for index in among)
    if rolled.exact or count < 4:
        return max(rolled.mean(rows[index])[0] for index in among)
    weights = rolled.weights

    def half(index: int, parity: int) -> float:
        pairs = [(weights[k], rows[index][k]) for k in range(parity, count, 2)]
        return sum(w * x for w, x in pairs) / sum(w for w, _ in pairs)

    even = max(among, key=lambda index: half(index, 0))
    odd = max(among, key=lambda index: half(index, 1))
    return (half(even, 1) + half(odd, 0)) / 2


def _close(review: PlayReview) -> bool:
    """Return whether a loss of at least half the lowest mark's threshold could, within twice
    its standard error either way, have another mark (or none): a smaller loss is left
    unmarked without a second look."""
    if review.unit == "chance":
        assert review.chance_loss is not None and review.chance_loss_stderr is not None
        loss, stderr, lowest = review.chance_loss, review.chance_loss_stderr, CHANCE_INACCURACY
    else:
        loss, stderr, lowest = review.loss, review.loss_stderr, INACCURACY
    if loss < lowest / 2:
        return False
    margin = SIGNIFICANCE * stderr
    unit = review.unit
    return mark_of(max(loss - margin, 0.0), unit=unit) != mark_of(loss + margin, unit=unit)


def _judge(
    rolled: Rollouts,
    legal: Sequence[LegalMove],
    played: int,
    h: int,
    m: int,
    seat: int,
    candidates: Sequence[int] | None = None,
) -> PlayReview:
    """Return the review of play ``played`` of ``legal`` from their rollouts; the best
    play is one of ``candidates`` (all by default: those looked at again, when some were)."""
    points = [rolled.mean(row) for row in rolled.points]
    chances = [rolled.mean(row)[0] for row in rolled.chances] if rolled.chances else None
    values = tuple(
        PlayValue(str(move), mean, stderr, chances[index] if chances is not None else None)
        for index, (move, (mean, stderr)) in enumerate(zip(legal, points, strict=True))
    )
    choice = len(legal) > 1
    among = list(candidates) if candidates is not None else list(range(len(legal)))
    best = max(among, key=lambda index: points[index][0])
    loss = max(0.0, points[best][0] - points[played][0]) if choice else 0.0
    if loss < 1e-9:
        loss, best = 0.0, played
    loss_stderr = rolled.difference(rolled.points, best, played)[1] if loss else 0.0
    unit = "points"
    mark_loss, mark_stderr = loss, loss_stderr
    chance = best_chance = chance_loss = chance_loss_stderr = chance_before = None
    chance_best: str | None = None
    if chances is not None and rolled.chances is not None:
        unit = "chance"
        top = max(among, key=lambda index: (chances[index], points[index][0]))
        chance_loss = max(0.0, chances[top] - chances[played]) if choice else 0.0
        if chance_loss < 1e-9:
            chance_loss, top = 0.0, played
        chance_loss_stderr = (
            rolled.difference(rolled.chances, top, played)[1] if chance_loss else 0.0
        )
        chance, best_chance, chance_best = chances[played], chances[top], str(legal[top])
        mark_loss, mark_stderr = chance_loss, chance_loss_stderr
        chance_before = _fair_best(rolled, rolled.chances, among) if choice else chance
    return PlayReview(
        hand=h,
        move=m,
        seat=seat,
        played=values[played].play,
        value=points[played][0],
        stderr=points[played][1],
        best=values[best].play,
        best_value=points[best][0],
        loss=loss,
        mark=mark_of(mark_loss, mark_stderr, exact=rolled.exact, unit=unit),
        exact=rolled.exact,
        layouts=len(rolled.points[played]),
        alternatives=values,
        loss_stderr=loss_stderr,
        chance=chance,
        chance_best=chance_best,
        best_chance=best_chance,
        chance_loss=chance_loss,
        chance_loss_stderr=chance_loss_stderr,
        chance_before=chance_before,
        unit=unit,
    )


# --- the bot ------------------------------------------------------------------------------


def situation_now(hand: HandState, seen: Sequence[Move], hand_index: int = 0) -> Situation:
    """Return what the seat whose turn it is knows, from the hand's moves so far (``seen``,
    as the simulator logs them) and its own tiles; nothing else of ``hand`` is read but the
    public: the ruleset, the teams, the scores, the leader, how many tiles each seat holds
    and the boneyard's size."""
    rules = hand.rules
    seat = hand.turn
    players = hand.players
    seats_team = list(hand.seats_team)
    laid_by: list[set[int]] = [set() for _ in range(players)]
    parsed: list[tuple[int, str, int | None, int, int]] = []
    for move in seen:
        tile: int | None = None
        a = b = -1
        if move.tile is not None and move.tile != HIDDEN:
            tile, a, b = TILE_BY_TEXT[move.tile]
        if move.kind == PLAY:
            assert tile is not None
            laid_by[move.seat].add(tile)
        parsed.append((move.seat, move.kind, tile, a, b))
    out = [hand.held(other) == 0 for other in range(players)]
    walk = PublicWalk(rules, hand.leader, seats_team, laid_by, out)
    for (who, kind, tile, a, b), move in zip(parsed, seen, strict=True):
        if kind == PLAY:
            assert tile is not None
            walk.play_on(who, tile, move.end, a, b)
        else:
            walk.step(who, kind, tile)
    scores = hand.scores if hand.scores is not None else [0] * len(set(seats_team))
    return Situation(
        rules=rules,
        seat=seat,
        seats_team=seats_team,
        teams=len(set(seats_team)),
        scores=tuple(scores),
        hand_index=hand_index,
        holding=frozenset(hand.hands[seat]),
        held=tuple(hand.held(other) for other in range(players)),
        boneyard=hand.boneyard_size(),
        seen=walk.seen_by(seat, lambda index, drawer: False),
        table=walk.table.copy(),
    )


def choose(
    hand: HandState,
    legal: list[LegalMove],
    seen: Sequence[Move],
    samples: int,
    *,
    plain: bool,
    chances: bool = True,
) -> LegalMove:
    """Return the play of the highest expected value (the first of equals): by the chance to
    win the match where it has two sides and a table (then by points among equals), else by
    points (``chances`` False: always); the plain method by its own figure."""
    if len(legal) == 1 or legal[0].kind != PLAY:
        return legal[0]
    situation = situation_now(hand, seen)
    table = None
    if chances and not plain and situation.teams == 2:
        table = table_for(situation.rules, hand.players, hand.players == 4)
    values, _, _ = evaluate(situation, legal, samples, plain=plain, table=table)
    if table is not None:
        best = max(
            range(len(legal)),
            key=lambda index: (values[index].chance or 0.0, values[index].value),
        )
    else:
        best = max(range(len(legal)), key=lambda index: values[index].value)
    return legal[best]
