"""The expected-value review: what every play was worth over the tiles its player could not see.

For a play by seat S the figure is the points S's side gains over the rest of the hand
(settlement included, and the match's end where the ruleset stops at the target) minus what
the other side gains (with three or four teams: minus the mean of the others), averaged over
every layout of the tiles S could not see that agrees with all S could know: its own tiles,
every tile laid, every shown draw, how many tiles each seat holds, the boneyard's size, and
that a seat that drew or passed held no tile fitting the open ends just then. After the play
every seat plays on by the rollout policy (``rollout_play``). Where the layouts are few they
are all averaged (exact); otherwise a sample of them, the same sample for every legal
alternative (common random numbers), with the seed taken from what S saw. docs/analysis.md
says all of it for players; the rules themselves are the engine's: every rollout is played by
``HandState`` and ``MatchState``.
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

from .game import DRAW, PASS, PLAY, HandResult, HandState, LegalMove, MatchState
from .log import HIDDEN, HandLog, MatchLog, Move, parse_log
from .report import MoveFacts
from .rules import Ruleset, resolve_ruleset
from .scoring import reserve_of, team_of
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

# Bumped whenever a figure could change (the sampling, the rollout, the thresholds).
ANALYSIS_VERSION = 1

# Marks by expected loss, in points of the match's score: a missed 5 is an inaccuracy, a
# missed 10 a mistake, 15 or more a blunder (docs/analysis.md).
INACCURACY = 3.0
MISTAKE = 7.0
BLUNDER = 15.0

# Accuracy of a play: 100 * exp(-loss / ACCURACY_SCALE); a seat's accuracy is the mean over
# its plays that had a choice.
ACCURACY_SCALE = 10.0

# Layouts sampled per play when they are too many to enumerate; up to EXACT_LIMIT layouts
# are all averaged instead (the figure is then exact).
DEFAULT_SAMPLES = 24
EXACT_LIMIT = 48
# The bots: the expected bot's layouts per decision, and the plain method's (the issue's).
BOT_SAMPLES = 24
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
    """One legal play and its expected value (``stderr`` 0.0 when exact)."""

    play: str
    value: float
    stderr: float


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
                        "alternatives": tuple(PlayValue(**alt) for alt in play["alternatives"]),
                    }
                )
                for play in data["plays"]
            ],
            skipped=[SkippedPlay(**skipped) for skipped in data["skipped"]],
            accuracy=[float(value) for value in data["accuracy"]],
            mean_loss=[float(value) for value in data["mean_loss"]],
            loss_by_hand=[[float(value) for value in row] for row in data["loss_by_hand"]],
        )


def _play_dict(play: PlayReview) -> dict[str, Any]:
    out = asdict(play)
    out["alternatives"] = [asdict(alt) for alt in play.alternatives]
    return out


def mark_of(loss: float) -> str | None:
    """Return the mark of an expected loss in points: None, inaccuracy, mistake or blunder."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy_of(losses: Sequence[float]) -> float:
    """Return the accuracy, 0..100, of plays with these expected losses (100 for none)."""
    if not losses:
        return 100.0
    return 100.0 * sum(math.exp(-loss / ACCURACY_SCALE) for loss in losses) / len(losses)


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


def evaluate(
    situation: Situation,
    moves: Sequence[LegalMove],
    samples: int = DEFAULT_SAMPLES,
    *,
    plain: bool = False,
) -> tuple[list[PlayValue], bool, int]:
    """Return each play's expected value, whether the figures are exact, and how many
    layouts they average.

    ``plain``: the plain method the issue measured against: no inference from draws and
    passes, and the figure is the points of the rest of the hand minus the pips left.
    """
    layouts = layouts_of(situation, samples, plain=plain)
    rules = situation.rules
    seats_team = situation.seats_team
    players = len(seats_team)
    sums: list[list[float]] = [[] for _ in moves]
    for hands, order in zip(layouts.hands, layouts.orders, strict=True):
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
            points, pips = _play_out(match, hand, order, plain)
            if plain:
                points[seats_team[seat]] += first
                gains = [float(p) for p in points]
                for other, left in enumerate(pips):
                    gains[seats_team[other]] -= left
            else:
                gains = [
                    float(after - before)
                    for after, before in zip(match.scores, situation.scores, strict=True)
                ]
            sums[index].append(_outcome(situation, gains))
    weights = layouts.weights
    total = sum(weights)
    values: list[PlayValue] = []
    for move, results in zip(moves, sums, strict=True):
        mean = sum(w * x for w, x in zip(weights, results, strict=True)) / total
        stderr = 0.0
        count = len(results)
        if not layouts.exact and count > 1:
            spread = sum(w * w * (x - mean) ** 2 for w, x in zip(weights, results, strict=True))
            stderr = math.sqrt(spread * count / (count - 1)) / total
        values.append(PlayValue(str(move), mean, stderr))
    return values, layouts.exact, len(weights)


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
        self.stored = True

    def run(self) -> MatchReview:
        log = self.log
        scores = self.scores

        def record(step: Step) -> None:
            after = 0 if step.move_index is None else step.move_index + 1
            scores[(step.hand_index, after)] = tuple(step.match.scores)

        if not self.stored:
            report = validate_match(log, on_step=record)
            if not report.valid:
                raise ValueError(f"only a valid log is reviewed: {report.errors[0].message}")
        for h, hand_log in enumerate(log.hands):
            self.review_hand(h, hand_log)
        losses = self.losses
        review = self.review
        review.accuracy = [accuracy_of(seat_losses) for seat_losses in losses]
        review.mean_loss = [
            sum(seat_losses) / len(seat_losses) if seat_losses else 0.0 for seat_losses in losses
        ]
        return review

    def review_hand(self, h: int, hand_log: HandLog) -> None:
        log = self.log
        row = [0.0] * self.players
        self.review.loss_by_hand.append(row)
        moves = hand_log.moves
        walk = self.public_walk(hand_log)
        # Each seat's tiles as the walk goes (a full record); a table record's known ones.
        holding: list[set[int]] = []
        known: list[frozenset[int]] = []
        if log.table:
            known = known_holdings(moves, hand_log.left, self.players)
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
            mine = known[m] if log.table else frozenset(holding[seat])
            self.review_play(h, m, move, walk, mine, row)
            walk.play_on(seat, tile, move.end, a, b)
            if holding:
                holding[seat].discard(tile)
            self.done += 1
            if self.progress is not None:
                self.progress(self.done, self.total)

    def public_walk(self, hand_log: HandLog) -> PublicWalk:
        """Return the walk of what the table sees of a hand: the tiles each seat lays, and
        who goes out (a seat whose draws and deal it lays to the last)."""
        rules, players = self.rules, self.players
        laid_by: list[set[int]] = [set() for _ in range(players)]
        count = [rules.hand_size] * players
        for move in hand_log.moves:
            if move.kind == PLAY and move.tile is not None:
                laid_by[move.seat].add(TILE_BY_TEXT[move.tile][0])
            count[move.seat] += 1 if move.kind == DRAW else -1 if move.kind == PLAY else 0
        out = [left == 0 for left in count]
        return PublicWalk(rules, hand_log.leader, self.seats_team, laid_by, out)

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
        played = _review_play(situation, h, m, tile, move.end, self.samples)
        self.review.plays.append(played)
        row[seat] += played.loss
        if len(played.alternatives) > 1:
            self.losses[seat].append(played.loss)


def _shown_in(log: MatchLog, moves: Sequence[Move]) -> Callable[[int, int], bool]:
    """Return whether another seat's draw showed its tile: in a table record when it names
    it (the table saw it); in a full record never (tiles are drawn face down)."""
    if not log.table:
        return lambda index, seat: False
    return lambda index, seat: moves[index].tile not in (None, HIDDEN)


def _review_play(
    situation: Situation, h: int, m: int, tile: int, end: str | None, samples: int
) -> PlayReview:
    table = situation.table
    legal = table.plays_of(situation.holding)
    if table.lead is not None and end is None:
        end = table.ends_for(tile)[0]
    played_move = LegalMove(PLAY, tile, end if table.lead is not None else None)
    values, exact, layouts = evaluate(situation, legal, samples)
    by_play = {value.play: value for value in values}
    mine = by_play[str(played_move)]
    best = max(values, key=lambda value: value.value)
    loss = max(0.0, best.value - mine.value) if len(values) > 1 else 0.0
    if loss < 1e-9:
        loss = 0.0
    return PlayReview(
        hand=h,
        move=m,
        seat=situation.seat,
        played=mine.play,
        value=mine.value,
        stderr=mine.stderr,
        best=best.play if loss > 0 else mine.play,
        best_value=best.value if loss > 0 else mine.value,
        loss=loss,
        mark=mark_of(loss),
        exact=exact,
        layouts=layouts,
        alternatives=tuple(values),
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
    hand: HandState, legal: list[LegalMove], seen: Sequence[Move], samples: int, *, plain: bool
) -> LegalMove:
    """Return the play of the highest expected value (the first of equals)."""
    if len(legal) == 1 or legal[0].kind != PLAY:
        return legal[0]
    values, _, _ = evaluate(situation_now(hand, seen), legal, samples, plain=plain)
    best = max(range(len(legal)), key=lambda index: values[index].value)
    return legal[best]
