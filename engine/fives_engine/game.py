"""The state of a hand and of a match, the one judge of a move and the one legal-move generator.

``HandState`` holds the layout, every seat's tiles, the boneyard and whose turn it is, and
changes only through ``play``, ``draw`` and ``pass_turn`` (``make`` makes a judged move);
``judge(move)`` says whether a move may be made without changing the board (a ``Refusal``: a
code and its params, or the ``Chosen`` move to make), ``check(move)`` only why not; every
figure of a play (its count, points, go-out bonus, bust) is worked out once
(``PlayFigures``), and ``view()`` is the table as a person sees it. ``legal_plays`` and
``legal_moves`` are the one answer to "what may this seat do", asked by the validator, the
bots, the replays and the analysis alike. ``TableHandState`` (a table record, the deal
unknown) overrides only what a seat is known to hold and may hold. ``MatchState`` runs hands
one after another: scores, settlement, who leads next, and when the match is won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from . import scoring
from .codes import Code
from .log import HIDDEN, Move
from .rules import Ruleset
from .scoring import becomes_spinner, cross_open, end_value, may_draw, reserve_of
from .tiles import HIGH, IS_DOUBLE, LOW, NAME, PIPS, SET_SIZE, TILE_BY_TEXT

# _END_VALUE[t][p]: what an end adds to the count when tile t leaves pip p open there.
_END_VALUE: Final = [
    [end_value(pip, IS_DOUBLE[t]) for pip in range(7)] for t in range(len(IS_DOUBLE))
]

LINE_ENDS: Final = ("W", "E")
CROSS_ENDS: Final = ("N", "S")
ALL_ENDS: Final = ("W", "E", "N", "S")

# Kinds of legal moves. A draw's tile is the boneyard's to say, so it has none here.
PLAY, DRAW, PASS = "play", "draw", "pass"


@dataclass(frozen=True, slots=True)
class LegalMove:
    """A move a seat may make: a play of ``tile`` (an id) on ``end``, a draw or a pass.

    ``end`` is None for the lead, which lies on no end.
    """

    kind: str
    tile: int | None = None
    end: str | None = None

    def __str__(self) -> str:
        if self.kind != PLAY:
            return self.kind
        assert self.tile is not None
        return NAME[self.tile] if self.end is None else f"{NAME[self.tile]} on {self.end}"


@dataclass(frozen=True, slots=True)
class Chosen:
    """A move the judge found legal, as it is to be made (``HandState.judge``): its kind, its
    tile (None: a pass, or a draw face down), the end of a play (None: the lead) and the
    lead's pips as the log wrote them, west and east (-1: not a lead). (A class, not a
    NamedTuple: compiled, one is made for every move, and a native class costs far less.)"""

    kind: str
    tile: int | None
    end: str | None = None
    west: int = -1
    east: int = -1


@dataclass(frozen=True, slots=True)
class PlayFigures:
    """Every figure of one play, worked out in one place (``HandState._figures``): the count
    it leaves, the points it scores (the count's, the go-out bonus, 0 for a bust), the bonus
    among them, whether it went out, and what a bust kept it from scoring (0: no bust)."""

    count: int
    points: int
    bonus: int = 0
    out: bool = False
    bust: int = 0


NO_PLAY: Final = PlayFigures(0, 0)


class TableView(NamedTuple):
    """The table as a person at it sees it after a move (``HandState.view``): what the
    replay's page and the recorder draw, read off the one board.

    ``lead`` is the lead, west pip first (None before it); ``arm_tiles`` how many tiles lie
    on each arm W, E, N, S; the spinner is on ``spinner_arm`` ("" the lead itself, None: no
    spinner yet) at ``spinner_index``; ``open_ends`` each open end and its pip; ``turn`` the
    seat to move (None once the hand ended); ``boneyard`` its size and ``reserve`` how many
    of its tiles may not be drawn; ``hidden`` per seat, tiles face down (a table record)."""

    lead: str | None
    arm_tiles: tuple[int, int, int, int]
    spinner_arm: str | None
    spinner_index: int
    open_ends: tuple[tuple[str, int], ...]
    count: int  # type: ignore[assignment]
    turn: int | None
    boneyard: int
    reserve: int
    hidden: tuple[int, ...] | None


# Every move the judge may choose, made once: the judge answers one of these, so judging a move
# makes nothing. A play on end W, E, N, S (index 0..3) by tile; a lead by tile, written low
# pip west or high pip west; a draw by tile; a draw face down; a pass.
_PLAY_CHOSEN: Final = [
    [Chosen(PLAY, t, end) for end in ("W", "E", "N", "S")] for t in range(len(IS_DOUBLE))
]
_LEAD_CHOSEN: Final = [
    (Chosen(PLAY, t, None, LOW[t], HIGH[t]), Chosen(PLAY, t, None, HIGH[t], LOW[t]))
    for t in range(len(IS_DOUBLE))
]
_DRAW_CHOSEN: Final = [Chosen(DRAW, t) for t in range(len(IS_DOUBLE))]
_PASS_CHOSEN: Final = Chosen(PASS, None)
_FACE_DOWN_CHOSEN: Final = Chosen(DRAW, None)
DRAW_MOVE: Final = LegalMove(DRAW)
PASS_MOVE: Final = LegalMove(PASS)


class Refusal(NamedTuple):
    """Why a move is not legal (``HandState.check``): its code and the params that word it
    (``codes.describe``). Params named ``player``, ``turn_player`` and ``holder`` hold a
    seat here; the validator, which knows the players, writes their names there. ``seat``
    is the seat refused when no move names it (a table record's ``left``)."""

    code: Code
    params: dict[str, Any]
    seat: int | None = None


# The params of a refusal that name a seat's player (``Refusal``).
NAMED_PARAMS: Final = ("player", "turn_player", "holder")


# Per end W, E, N, S its index, and per tile and pip what the tile does when it joins that
# pip: the pip it leaves open (-1: it does not fit) and what that end then adds to the count.
END_INDEX: Final = {end: index for index, end in enumerate(ALL_ENDS)}
_OUTER: Final = [
    [HIGH[t] if LOW[t] == pip else LOW[t] if HIGH[t] == pip else -1 for pip in range(7)]
    for t in range(len(IS_DOUBLE))
]
_ADD: Final = [
    [_END_VALUE[t][outer] if outer >= 0 else 0 for outer in _OUTER[t]]
    for t in range(len(IS_DOUBLE))
]
# The most points a play may score when no bust can stop it (``HandState._most_points``).
_NO_BUST: Final = 1 << 30


def _capped(earned: int, most: int) -> int:
    """Return what a play that earns ``earned`` scores when ``most`` is the most it may
    (``HandState._most_points``): all of it, or 0 for a bust. The one definition of a bust's
    effect."""
    return 0 if earned > most else earned


# _WITH_PIP[p]: the tiles that show pip p, as a mask (bit t: tile t).
_WITH_PIP: Final = [
    sum(1 << t for t in range(len(IS_DOUBLE)) if pip in (LOW[t], HIGH[t])) for pip in range(7)
]
# Per end W, E, N, S its bit in a mask of ends (``HandState.check``).
END_BIT: Final = {end: 1 << index for index, end in enumerate(ALL_ENDS)}
# A play's text as ``LegalMove`` writes it: on end W, E, N, S (index 0..3), or as the lead (4).
_PLAY_TEXT: Final = [
    [f"{NAME[t]} on {end}" for end in ALL_ENDS] + [NAME[t]] for t in range(len(NAME))
]
_HAND_SLOTS = (
    "adds",
    "bonus",
    "bust_above",
    "arms",
    "bare",
    "boneyard",
    "count_now",
    "cross",
    "end",
    "hands",
    "last_count",
    "last_placed",
    "last_points",
    "last_bonus",
    "last_out",
    "last_bust",
    "lead",
    "lead_add",
    "leader",
    "out_seat",
    "partner",
    "passes_in_row",
    "pip",
    "players",
    "points_of",
    "rules",
    "scores",
    "seats_team",
    "spinner_arm",
    "spinner_index",
    "spinner_pip",
    "turn",
)


class HandState:
    """One hand in progress. Mutable; ``copy()`` is cheap.

    The table is kept as the walk needs it, in small integers: per end W, E, N, S (index
    0..3) its open pip (``pip``) and what it adds to the count (``adds``), and the count
    itself (``count_now``), each changed by a play in a few steps; ``arms`` keeps the tiles
    for the pictures. This is the one place a play's count, the ends it fits, the spinner's
    cross and a play's points are worked out: the validator, the review, the bots, the
    replays and the analysis all ask it.
    """

    __slots__ = _HAND_SLOTS

    def __init__(
        self,
        rules: Ruleset,
        leader: int,
        hands: list[set[int]],
        boneyard: set[int],
        seats_team: list[int] | None = None,
        scores: list[int] | None = None,
    ) -> None:
        self.rules = rules
        # The points of each count, looked up once per play.
        self.points_of = scoring.points_by_count(rules)
        # The options a play's points ask for, read once: the go-out bonus, and the target a
        # team may not pass under ``target_exact`` (-1: none).
        self.bonus = rules.go_out_bonus
        self.bust_above = rules.target if rules.target_exact else -1
        self.players = len(hands)
        self.hands = hands
        self.boneyard = boneyard
        self.leader = leader
        self.turn = leader
        # Each seat's team, and the match's scores by team as they stand (the very list
        # ``MatchState`` adds to): a play that would take its team past the target scores
        # nothing under ``target_exact``. None: a hand alone, scored from 0.
        self.seats_team = seats_team if seats_team is not None else list(range(self.players))
        self.scores = scores
        # Each seat's partner when partners play on until both are out ("both-out"), else
        # None: the hand ends when any seat goes out.
        self.partner: list[int] | None = None
        if rules.partnership_end == "both-out" and len(set(self.seats_team)) < self.players:
            team = self.seats_team
            self.partner = [
                next(
                    other
                    for other in range(self.players)
                    if other != seat and team[other] == team[seat]
                )
                for seat in range(self.players)
            ]
        # The lead as (tile id, west pip, east pip); None before the lead.
        self.lead: tuple[int, int, int] | None = None
        # Each arm lists (tile id, inner pip, outer pip) outwards from the centre.
        self.arms: dict[str, list[tuple[int, int, int]]] = {end: [] for end in ALL_ENDS}
        # Where the spinner lies: arm "" is the lead itself, else the arm and its index.
        self.spinner_arm: str | None = None
        self.spinner_index = -1
        self.spinner_pip = -1
        # Per end W, E, N, S: its open pip and what it adds to the count; N and S are open
        # only once the spinner's cross is (``cross``). A double lead's both halves count
        # once (``lead_add``), on whichever side is bare while the other is covered;
        # ``bare`` says that neither side of the double lead has been covered on both.
        self.pip = [-1, -1, -1, -1]
        self.adds = [0, 0, 0, 0]
        self.lead_add = -1
        self.bare = False
        self.cross = False
        self.count_now = 0
        self.passes_in_row = 0
        # How the hand ended: None while it goes on, else "domino", "block" or "target".
        self.end: str | None = None
        self.out_seat: int | None = None
        self.last_count = 0
        # Every figure of the last play (its count, points, bonus, bust).
        # Every figure of the last play but its count (``last_play`` gathers them).
        self.last_points = 0
        self.last_bonus = 0
        self.last_out = False
        self.last_bust = 0
        # Where the last play went: "" for the lead, else its end; None before any play.
        self.last_placed: str | None = None

    def copy(self) -> HandState:
        """Return an independent copy of this hand."""
        other = HandState(
            self.rules, self.leader, self.hands, self.boneyard, self.seats_team, self.scores
        )
        self._copy_into(other)
        return other

    def _copy_into(self, other: HandState) -> None:
        # Field by field (mypyc compiles this class: no __new__ without __init__, no
        # setattr by name); the containers a play changes are copied.
        other.hands = [set(tiles) for tiles in self.hands]
        other.boneyard = set(self.boneyard)
        other.turn = self.turn
        other.partner = self.partner
        other.lead = self.lead
        other.arms = {end: list(arm) for end, arm in self.arms.items()}
        other.spinner_arm = self.spinner_arm
        other.spinner_index = self.spinner_index
        other.spinner_pip = self.spinner_pip
        other.pip = list(self.pip)
        other.adds = list(self.adds)
        other.lead_add = self.lead_add
        other.bare = self.bare
        other.cross = self.cross
        other.count_now = self.count_now
        other.passes_in_row = self.passes_in_row
        other.end = self.end
        other.out_seat = self.out_seat
        other.last_count = self.last_count
        other.last_points = self.last_points
        other.last_bonus = self.last_bonus
        other.last_out = self.last_out
        other.last_bust = self.last_bust
        other.last_placed = self.last_placed

    # --- questions -------------------------------------------------------------------

    @property
    def open_ends(self) -> list[tuple[str, int]]:
        """Return the open ends, in the order W, E, N, S, as (end, pip)."""
        if self.lead is None:
            return []
        pip = self.pip
        return [(ALL_ENDS[e], pip[e]) for e in range(4 if self.cross else 2)]

    def legal_plays(self, seat: int | None = None) -> list[LegalMove]:
        """Return every play ``seat`` (by default, whose turn it is) could make now."""
        return self.plays_of(self.hands[self.turn if seat is None else seat])

    def plays_of(self, tiles: set[int] | frozenset[int]) -> list[LegalMove]:
        """Return every play of one of ``tiles`` the table takes now, by tile then end."""
        if self.lead is None:
            return [LegalMove(PLAY, tile) for tile in sorted(tiles)]
        ends_for = self.ends_for
        return [LegalMove(PLAY, tile, end) for tile in sorted(tiles) for end in ends_for(tile)]

    def can_play(self, seat: int) -> bool:
        """Return whether ``seat`` has a legal play (``legal_plays`` is not empty)."""
        return self.holds_fitting(self.hands[seat])

    def holds_fitting(self, tiles: set[int] | frozenset[int]) -> bool:
        """Return whether any of ``tiles`` could be played now (any tile leads)."""
        if self.lead is None:
            return bool(tiles)
        pip = self.pip
        fit = _WITH_PIP[pip[0]] | _WITH_PIP[pip[1]]
        if self.cross:
            fit |= _WITH_PIP[pip[2]] | _WITH_PIP[pip[3]]
        for tile in tiles:  # noqa: SIM110 (a loop: no generator made for each draw or pass)
            if fit >> tile & 1:
                return True
        return False

    def can_draw(self) -> bool:
        """Return whether the boneyard still has a tile that may be drawn."""
        return may_draw(self.rules, len(self.boneyard))

    def must_play(self) -> bool:
        """Return whether the seat to play may neither draw nor pass whatever it holds:
        before the lead (RULES.md: the leader plays any tile, and every seat holds tiles)."""
        return self.lead is None

    def ended(self) -> bool:
        """Return whether the hand is over (``end`` says how)."""
        return self.end is not None

    def held(self, seat: int) -> int:
        """Return how many tiles ``seat`` holds (0: it is out)."""
        return len(self.hands[seat])

    def boneyard_size(self) -> int:
        """Return how many tiles the boneyard holds."""
        return len(self.boneyard)

    def fits(self, tile: int) -> bool:
        """Return whether ``tile`` could be played now (any tile leads)."""
        if self.lead is None:
            return True
        outer = _OUTER[tile]
        pip = self.pip
        return any(outer[pip[e]] >= 0 for e in range(4 if self.cross else 2))

    def legal_moves(self) -> list[LegalMove]:
        """Return what the seat whose turn it is may do: its plays, else a draw, else a pass."""
        if self.end is not None:
            return []
        plays = self.legal_plays()
        if plays:
            return plays
        return [DRAW_MOVE] if self.can_draw() else [PASS_MOVE]

    def ends_for(self, tile: int) -> list[str]:
        """Return the open ends ``tile`` fits: the primitive every legal play comes from.

        Before the lead there are no ends, and any tile may lead.
        """
        if self.lead is None:
            return []
        outer = _OUTER[tile]
        pip = self.pip
        return [ALL_ENDS[e] for e in range(4 if self.cross else 2) if outer[pip[e]] >= 0]

    def count(self) -> int:
        """Return the count of the layout: the sum of its open ends as RULES.md counts them."""
        return self.count_now

    def count_after(self, tile: int, end: str | None, west: int = -1, east: int = -1) -> int:
        """Return the count a play would leave, without making it."""
        if end is None:
            return PIPS[tile]  # the lead: both its sides are open (a double's halves once)
        return self._count_on(tile, END_INDEX[end])

    def _count_on(self, tile: int, e: int) -> int:
        """Return the count after ``tile`` joins end ``e`` (it fits), without playing it: the
        one definition of the count after a play on an end (``play`` and ``best_play`` ask)."""
        return self._count_covering(e) + _ADD[tile][self.pip[e]]

    def _count_covering(self, e: int) -> int:
        """Return what the table counts once end ``e`` is covered, but the covering tile's own
        part (``_count_on`` adds it)."""
        adds = self.adds
        count = self.count_now - adds[e]
        if self.bare and e < 2 and not self.arms[ALL_ENDS[1 - e]]:
            # The double lead's halves move to the other side, still bare.
            count += self.lead_add - adds[1 - e]
        return count

    def score_after(
        self, tile: int, end: str | None, west: int = -1, east: int = -1
    ) -> tuple[int, int]:
        """Return the count a play would leave and the points it would score (``move_points``),
        without making it."""
        count = self.count_after(tile, end)
        seat = self.turn
        return count, self._points(seat, count, self._goes_out(seat, self.held(seat) - 1))

    def _goes_out(self, seat: int, holding: int) -> bool:
        """Return whether a play by ``seat`` that leaves it ``holding`` tiles ends the hand by a
        domino: none left, and with "both-out" its partner out already. The one definition
        of going out (asked before a play and by the play itself)."""
        partner = self.partner
        return not holding and (partner is None or not self.held(partner[seat]))

    def _most_points(self, seat: int) -> int:
        """Return the most points a play by ``seat`` may score: under ``target_exact`` more
        would take its team past the target (a bust, scored 0); else no limit. The one
        definition of the bust."""
        scores = self.scores
        if self.bust_above < 0 or scores is None:
            return _NO_BUST
        return self.bust_above - scores[self.seats_team[seat]]

    def _earned(self, count: int, out: bool) -> int:
        """Return what a play leaving ``count`` earns before a bust is asked: the count's
        points, and the go-out bonus when it ends the hand by a domino (``out``)."""
        return self.points_of[count] + self.bonus if out else self.points_of[count]

    def _points(self, seat: int, count: int, out: bool) -> int:
        """Return the points of a play by ``seat`` leaving ``count``, ``out`` if it ends the
        hand by a domino: what it earns, 0 for a bust. The one definition of a play's points
        (the walk, the review and the bots ask; ``_figures`` says the same, figure by
        figure)."""
        return _capped(self._earned(count, out), self._most_points(seat))

    def _figures(self, seat: int, count: int, out: bool) -> tuple[int, int, int]:
        """Return the figures of a play by ``seat`` leaving ``count`` but the count and
        ``out`` (``PlayFigures``): its points, the bonus among them and what a bust kept it
        from scoring. (A tuple of ints, which compiled code makes without an object.)"""
        earned = self._earned(count, out)
        if earned > self._most_points(seat):
            return 0, 0, earned
        return earned, self.bonus if out else 0, 0

    @property
    def last_play(self) -> PlayFigures:
        """Return every figure of the last play made (``NO_PLAY`` before any)."""
        if self.last_placed is None:
            return NO_PLAY
        return PlayFigures(
            self.last_count, self.last_points, self.last_bonus, self.last_out, self.last_bust
        )

    def best_play(self, tiles: set[int] | frozenset[int] | None = None) -> tuple[int, str] | None:
        """Return the most points a legal play of the turn's seat scores now, and the first
        legal play (in ``legal_plays``' order) that does; None when it has no play.

        ``tiles`` replaces the tiles the seat is known to hold (``known_to_hold``).
        """
        seat = self.turn
        held = self.known_to_hold(seat) if tiles is None else tiles
        if not held:
            return None
        out = self._goes_out(seat, self.held(seat) - 1)
        best = -1
        best_text = ""
        if self.lead is None:
            for tile in sorted(held):
                points = self._points(seat, PIPS[tile], out)
                if points > best:
                    best, best_text = points, _PLAY_TEXT[tile][4]
            return best, best_text
        pip = self.pip
        ends = 4 if self.cross else 2
        # Per end, the count less what a tile joining it adds (``_count_on``'s parts, said
        # once per end here): a play's count is that and the tile's part.
        base = [self._count_covering(e) for e in range(ends)]
        # The most a play may score before it busts, asked once (``_points`` asks the same).
        limit = self._most_points(seat)
        # The tiles held as a mask, and per end the tiles of it that fit there: only the
        # plays there are get looked at. The first best in the generator's order: the most
        # points, then the lower tile, then the earlier end.
        held_mask = 0
        for tile in held:
            held_mask |= 1 << tile
        best_tile = best_end = -1
        for e in range(ends):
            joined = pip[e]
            fits = held_mask & _WITH_PIP[joined]
            while fits:
                low = fits & -fits
                fits ^= low
                tile = low.bit_length() - 1
                points = _capped(self._earned(base[e] + _ADD[tile][joined], out), limit)
                if points > best or (points == best and tile < best_tile):
                    best, best_tile, best_end = points, tile, e
        return None if best < 0 else (best, _PLAY_TEXT[best_tile][best_end])

    def spinner_sides_covered(self) -> bool:
        """Return whether both sides of the spinner (along its line) hold a tile."""
        if self.spinner_arm is None:
            return False
        if self.spinner_arm == "":
            return bool(self.arms["W"]) and bool(self.arms["E"])
        return len(self.arms[self.spinner_arm]) > self.spinner_index + 1

    def pips_left(self) -> list[int]:
        """Return the pips each seat still holds."""
        return [sum(PIPS[tile] for tile in tiles) for tiles in self.hands]

    # --- legality --------------------------------------------------------------------

    def known_to_hold(self, seat: int) -> set[int] | frozenset[int]:
        """Return the tiles ``seat`` is known to hold now: its hand (a table record knows
        less, ``TableHandState``)."""
        return self.hands[seat]

    def open_list(self) -> list[list[Any]]:
        """Return the open ends as a refusal's params write them: ``[end, pip]`` each."""
        return [[end, pip] for end, pip in self.open_ends]

    def check(self, move: Move) -> Refusal | None:
        """Return why ``move`` may not be made now, or None when it may (``judge``)."""
        verdict = self.judge(move)
        return verdict if isinstance(verdict, Refusal) else None

    def judge(self, move: Move) -> Refusal | Chosen:
        """Return why ``move`` may not be made now, or the move as it is to be made (its tile,
        the end a play goes on, the lead's pips): the one judge of a move's legality (the
        hand, the turn, the tile, the end, the boneyard). It changes nothing: ``make`` does.
        """
        seat = move.seat
        if self.end is not None or seat != self.turn:
            return self._turn_refusal(seat)
        if move.kind != PLAY:
            return self._check_draw_or_pass(seat, move.kind, move.tile)
        # A play, the common case first (a held tile on the one end it fits, or the end named).
        text = move.tile
        parsed = TILE_BY_TEXT.get(text) if type(text) is str else None
        if parsed is None:
            return Refusal(Code.NOT_IN_HAND, {"tile": text, "player": seat, "seat": seat})
        tile = parsed[0]
        if tile not in self.hands[seat]:  # (a tile shown in a seat's hand is its own)
            refusal = self._check_held(seat, tile, text)
            if refusal is not None:
                return refusal
        if self.lead is None:
            # The lead lies on no end, its pips as the log wrote them.
            return _LEAD_CHOSEN[tile][0 if parsed[1] == LOW[tile] else 1]
        # The open ends the tile fits, as a mask: bit e for end e (W, E, N, S).
        outer = _OUTER[tile]
        pip = self.pip
        fits = 0
        if outer[pip[0]] >= 0:
            fits = 1
        if outer[pip[1]] >= 0:
            fits |= 2
        if self.cross:
            if outer[pip[2]] >= 0:
                fits |= 4
            if outer[pip[3]] >= 0:
                fits |= 8
        named = move.end
        if named is None and fits and not fits & (fits - 1):  # one end, and none named
            return _PLAY_CHOSEN[tile][fits.bit_length() - 1]
        if named is not None and fits & END_BIT.get(named, 0):
            return _PLAY_CHOSEN[tile][END_INDEX[named]]
        return self._end_refusal(tile, text, named, fits)

    def _check_draw_or_pass(self, seat: int, kind: str, text: str | None) -> Refusal | Chosen:
        """Return why ``seat``, whose turn it is, may not draw ``text`` or pass, or the move."""
        if self.holds_fitting(self.known_to_hold(seat)):
            code = Code.DRAW_WHEN_PLAYABLE if kind == DRAW else Code.PASS_WHEN_PLAYABLE
            return Refusal(code, {"open": self.open_list(), "player": seat, "seat": seat})
        if kind == DRAW:
            if not self.can_draw():
                boneyard = self.boneyard_size()
                reserve = reserve_of(self.rules, boneyard)
                params = {"boneyard": boneyard, "reserve": reserve, "player": seat, "seat": seat}
                return Refusal(Code.BONEYARD_EMPTY, params)
            return self._check_drawn(seat, text)
        if self.can_draw():
            params = {"boneyard": self.boneyard_size(), "player": seat, "seat": seat}
            return Refusal(Code.PASS_MUST_DRAW, params)
        return _PASS_CHOSEN

    def _turn_refusal(self, seat: int) -> Refusal:
        """Return the refusal of a move by ``seat`` after the hand ended, or out of turn."""
        if self.end is not None:
            return Refusal(Code.AFTER_HAND_END, {"case": self.end})
        turn = self.turn
        if seat < self.players:
            params = {"case": "player", "player": seat, "seat": seat}
        else:
            params = {"case": "no-seat", "seat": seat}
        return Refusal(Code.WRONG_TURN, {**params, "turn_player": turn, "turn": turn})

    def _end_refusal(self, tile: int, text: str | None, named: str | None, fits: int) -> Refusal:
        """Return the refusal of a play of ``tile`` (written ``text``) on ``named``, which is
        not an end it fits (``fits``: the mask of those), or on no end when it fits several."""
        if not fits:
            return Refusal(Code.NO_MATCH, {"tile": text, "open": self.open_list()})
        if named is None:
            params = {"tile": text, "ends": self.ends_for(tile), "open": self.open_list()}
            return Refusal(Code.AMBIGUOUS_END, params)
        return Refusal(Code.BAD_END, {"tile": text, "end": named, "open": self.open_list()})

    def _check_held(self, seat: int, tile: int, text: str | None) -> Refusal | None:
        """Return why ``seat`` cannot play ``tile``, which is not in its hand, or None."""
        return Refusal(Code.NOT_IN_HAND, {"tile": text, "player": seat, "seat": seat})

    def _check_drawn(self, seat: int, text: str | None) -> Refusal | Chosen:
        """Return why ``seat`` cannot draw ``text`` from the boneyard, or the draw."""
        parsed = TILE_BY_TEXT.get(text) if type(text) is str else None
        if parsed is None or parsed[0] not in self.boneyard:
            return Refusal(Code.NOT_IN_BONEYARD, {"tile": text})
        return _DRAW_CHOSEN[parsed[0]]

    # --- changes ---------------------------------------------------------------------

    def play(self, tile: int, end: str | None, west: int = -1, east: int = -1) -> int:
        """Play ``tile`` from the turn's hand on ``end`` (the lead: ``end`` None, lying
        ``west``-``east``) and return the count after it. The caller has checked legality."""
        seat = self.turn
        self.hands[seat].discard(tile)
        rules = self.rules
        if self.lead is None:
            if west < 0:
                west, east = LOW[tile], HIGH[tile]
            self.lead = (tile, west, east)
            self.last_placed = ""
            self.pip = [west, east, west, west]
            if west == east:
                self.lead_add = _END_VALUE[tile][west]
                self.adds = [self.lead_add, 0, 0, 0]
                self.bare = True
            else:
                self.adds = [west, east, 0, 0]
            count = self.count_after(tile, None)
            if becomes_spinner(rules, IS_DOUBLE[tile], False):
                self.spinner_arm = ""
                self.spinner_pip = west
                self.cross = cross_open(rules, False)
        else:
            assert end is not None
            e = END_INDEX[end]
            pip = self.pip
            adds = self.adds
            joined = pip[e]
            outer = _OUTER[tile][joined]
            add = _ADD[tile][joined]
            # As ``_count_on`` says (its parts: the tile's ``add`` known here), and the ends
            # change too.
            count = self._count_covering(e) + add
            if self.bare and e < 2:
                if not self.arms[ALL_ENDS[1 - e]]:
                    adds[1 - e] = self.lead_add
                else:
                    self.bare = False
            adds[e] = add
            pip[e] = outer
            arm = self.arms[end]
            arm.append((tile, joined, outer))
            self.last_placed = end
            if IS_DOUBLE[tile] and becomes_spinner(rules, True, self.spinner_arm is not None):
                self.spinner_arm = end
                self.spinner_index = len(arm) - 1
                self.spinner_pip = joined
                pip[2] = pip[3] = joined
                self.cross = cross_open(rules, False)
            elif not self.cross and self.spinner_arm is not None:
                self.cross = cross_open(rules, self.spinner_sides_covered())
        self.count_now = count
        self.passes_in_row = 0
        self.last_count = count
        partner = self.partner
        out = self._goes_out(seat, self.held(seat))
        if out:
            # Out, and with "both-out" its partner is out too: the hand ends.
            self.end = "domino"
            self.out_seat = seat
        elif partner is None:
            self.turn = seat + 1 if seat + 1 < self.players else 0
        else:
            self.turn = self._next_seat(seat)
        self.last_points, self.last_bonus, self.last_bust = self._figures(seat, count, out)
        self.last_out = out
        return count

    def _next_seat(self, seat: int) -> int:
        """Return the seat after ``seat`` that still has a turn (a seat out has none)."""
        following = (seat + 1) % self.players
        if self.partner is not None:
            while not self.held(following):
                following = (following + 1) % self.players
        return following

    def move_points(self, seat: int, count: int) -> int:
        # (``play`` keeps every figure of the play it made: ``last_play``.)
        """Return the points of the play ``seat`` just made, leaving ``count``.

        What the count scores, plus ``go_out_bonus`` when the play ended the hand by going
        out (with "both-out", the second partner's last tile); under ``target_exact``, 0 when
        that would take the seat's team past the target (a bust).
        """
        return self._points(seat, count, self.end == "domino")

    def draw(self, tile: int | None) -> None:
        """Move ``tile`` from the boneyard to the turn's hand; the turn stays.

        (None is a table record's face-down draw, ``TableHandState``'s alone.)"""
        assert tile is not None
        self.boneyard.discard(tile)
        self.hands[self.turn].add(tile)

    def pass_turn(self) -> None:
        """Pass; once every seat still holding tiles has passed in a row the hand is blocked."""
        self.passes_in_row += 1
        seats = self.players
        if self.partner is not None:
            seats = sum(1 for seat in range(self.players) if self.held(seat))
        if self.passes_in_row >= seats:
            self.end = "block"
        else:
            self.turn = self._next_seat(self.turn)

    def points_for(self, count: int) -> int:
        """Return the points a play earns when it leaves ``count`` on the table."""
        return self.points_of[count]  # scoring.points_for, looked up

    # --- pictures --------------------------------------------------------------------

    def view(self) -> TableView:
        """Return the table as a person at it sees it now (``TableView``)."""
        lead = self.lead
        arms = self.arms
        boneyard = self.boneyard_size()
        return TableView(
            None if lead is None else f"{lead[1]}-{lead[2]}",
            (len(arms["W"]), len(arms["E"]), len(arms["N"]), len(arms["S"])),
            self.spinner_arm,
            self.spinner_index,
            tuple(self.open_ends),
            self.count_now,
            None if self.end is not None else self.turn,
            boneyard,
            reserve_of(self.rules, boneyard),
            self.hidden_tiles(),
        )

    def hidden_tiles(self) -> tuple[int, ...] | None:
        """Return how many tiles each seat holds face down (None: every tile is known)."""
        return None

    def seat_tiles(self, seat: int) -> list[int]:
        """Return the tiles ``seat`` is seen to hold, in order (of a table record: those it
        drew face up and has not laid, and all of them once it showed them)."""
        return sorted(self.hands[seat])

    def layout(self) -> dict[str, Any]:
        """Return the layout: the lead, each arm's tiles outwards, and where the spinner is.

        Each tile is written inner pip first (the lead: west pip first), so ``"5-3"`` in
        arm ``E`` joins a 5 and leaves 3 open.
        """
        if self.lead is None:
            return {"lead": None, "arms": {end: [] for end in ALL_ENDS}, "spinner": None}
        spinner: dict[str, Any] | None = None
        if self.spinner_arm == "":
            spinner = {"arm": None, "index": None}
        elif self.spinner_arm is not None:
            spinner = {"arm": self.spinner_arm, "index": self.spinner_index}
        return {
            "lead": f"{self.lead[1]}-{self.lead[2]}",
            "arms": {
                end: [
                    {"tile": f"{inner}-{outer}", "double": IS_DOUBLE[tile]}
                    for tile, inner, outer in self.arms[end]
                ]
                for end in ALL_ENDS
            },
            "spinner": spinner,
        }


class TableHandState(HandState):
    """One hand of a table record (FORMAT.md, "Table records"): the deal is unknown.

    ``hands[seat]`` holds the tiles the table has seen the seat take and not yet lay (shown
    draws; once the hand ends by a domino or a block, the tiles it shows, ``left``);
    ``hidden[seat]`` counts the seat's other tiles, face down. ``stock`` is the size of the
    boneyard: 28 - players x hand_size - draws so far. ``reveal`` (set by the validator)
    returns each seat's tiles when the hand ends by a domino or a block, for the settlement.

    Its legality is ``HandState``'s, but for what a seat is known to hold: ``known`` lists
    it for every move of the hand (``table.known_holdings``), ``laid`` the move that laid
    each tile, ``holder`` the seat that took each tile by a shown draw (until it lays it),
    and ``at`` counts the moves made.
    """

    __slots__ = ("at", "hidden", "holder", "known", "laid", "reveal", "stock")

    def __init__(
        self,
        rules: Ruleset,
        leader: int,
        players: int,
        seats_team: list[int] | None = None,
        scores: list[int] | None = None,
    ) -> None:
        super().__init__(rules, leader, [set() for _ in range(players)], set(), seats_team, scores)
        self.hidden = [rules.hand_size] * players
        self.stock = SET_SIZE - players * rules.hand_size
        self.reveal: Any = None
        self.known: list[frozenset[int]] = []
        self.laid: dict[int, int] = {}
        self.holder: dict[int, int] = {}
        self.at = 0

    def copy(self) -> TableHandState:
        """Return an independent copy of this hand."""
        other = TableHandState(self.rules, self.leader, self.players, self.seats_team, self.scores)
        self._copy_into(other)
        other.hidden = list(self.hidden)
        other.stock = self.stock
        other.reveal = self.reveal
        other.known = self.known
        other.laid = dict(self.laid)
        other.holder = dict(self.holder)
        other.at = self.at
        return other

    def known_to_hold(self, seat: int) -> set[int] | frozenset[int]:
        """Return the tiles the seat of the move at hand is known to hold (FORMAT.md)."""
        known = self.known
        return known[self.at] if self.at < len(known) else frozenset()

    def _check_held(self, seat: int, tile: int, text: str | None) -> Refusal | None:
        """Return why ``seat`` cannot play ``tile``, not among the tiles it is seen to hold:
        laid already, taken by another seat, or none of its tiles when all of them are
        shown; else None (one of its hidden tiles)."""
        at = self.laid.get(tile)
        if at is not None:
            return Refusal(Code.REPEATED_TILE, {"case": "play-laid", "tile": text, "at": at + 1})
        holder = self.holder.get(tile)
        if holder is not None and holder != seat:
            return Refusal(Code.REPEATED_TILE, held_params(seat, holder, text))
        if holder is None and not self.hidden[seat]:
            # Every tile of the seat is shown, and this is none of them.
            return Refusal(Code.NOT_IN_HAND, {"tile": text, "player": seat, "seat": seat})
        return None

    def _check_drawn(self, seat: int, text: str | None) -> Refusal | Chosen:
        """Return why ``seat`` cannot draw ``text`` (``"?"``: face down), or the draw."""
        if text == HIDDEN:
            return _FACE_DOWN_CHOSEN
        parsed = TILE_BY_TEXT.get(text) if type(text) is str else None
        if parsed is None:
            return Refusal(Code.NOT_IN_BONEYARD, {"tile": text})
        tile = parsed[0]
        at = self.laid.get(tile)
        if at is not None:
            params = {"case": "draw-laid", "tile": text, "at": at + 1, "player": seat}
            return Refusal(Code.REPEATED_TILE, {**params, "seat": seat})
        holder = self.holder.get(tile)
        if holder == seat:
            params = {"case": "held-own", "tile": text, "player": seat, "seat": seat}
            return Refusal(Code.REPEATED_TILE, params)
        if holder is not None:
            return Refusal(Code.REPEATED_TILE, held_params(seat, holder, text))
        return _DRAW_CHOSEN[tile]

    def hidden_tiles(self) -> tuple[int, ...] | None:
        """Return how many tiles each seat holds face down."""
        return tuple(self.hidden)

    def held(self, seat: int) -> int:
        """Return how many tiles ``seat`` holds: hand_size + its draws - its plays."""
        return len(self.hands[seat]) + self.hidden[seat]

    def can_draw(self) -> bool:
        """Return whether the boneyard still has a tile that may be drawn."""
        return may_draw(self.rules, self.stock)

    def boneyard_size(self) -> int:
        """Return how many tiles the boneyard holds."""
        return self.stock

    def play(self, tile: int, end: str | None, west: int = -1, east: int = -1) -> int:
        """Play ``tile``: a shown one, else one of the seat's hidden tiles."""
        seat = self.turn
        if tile not in self.hands[seat]:
            self.hidden[seat] -= 1
        self.laid[tile] = self.at
        self.holder.pop(tile, None)
        self.at += 1
        return super().play(tile, end, west, east)

    def draw(self, tile: int | None) -> None:
        """Take a tile from the boneyard: ``tile`` when shown, else None (face down)."""
        self.stock -= 1
        self.at += 1
        if tile is None:
            self.hidden[self.turn] += 1
        else:
            self.holder[tile] = self.turn
            self.hands[self.turn].add(tile)

    def pass_turn(self) -> None:
        """Pass (``HandState.pass_turn``), one more move made."""
        self.at += 1
        super().pass_turn()

    def check_left(self, left: Sequence[Sequence[str]]) -> Refusal | list[set[int]]:
        """Return the tiles each seat shows when the hand ends (``left``, one list per seat),
        or why they cannot be its tiles: a count other than it holds, or a tile laid, shown
        twice or held by another seat (a ``repeated-tile``, refused at that seat)."""
        for seat, texts in enumerate(left):
            expected = self.held(seat)
            if len(texts) != expected:
                params = {"count": len(texts), "expected": expected, "player": seat}
                return Refusal(Code.TILE_COUNT, {**params, "seat": seat}, seat)
        shown: dict[int, int] = {}
        tiles: list[set[int]] = []
        for seat, texts in enumerate(left):
            held: set[int] = set()
            for text in texts:
                tile = TILE_BY_TEXT[text][0]
                refusal = self._check_shown(seat, tile, text, shown.get(tile), held)
                if refusal is not None:
                    return refusal
                shown[tile] = seat
                held.add(tile)
            tiles.append(held)
        # A tile a seat drew face up, never laid and not among those it shows is not checked:
        # FORMAT.md's tile-count is a count, and no listed check names that tile.
        return tiles

    def _check_shown(
        self, seat: int, tile: int, text: str, shown: int | None, held: set[int]
    ) -> Refusal | None:
        """Return why ``seat`` cannot show ``tile`` at the end (``shown``: the seat that
        showed it before, if any; ``held``: what it has shown so far), or None."""
        at = self.laid.get(tile)
        if at is not None:
            params = {"case": "left-laid", "tile": text, "at": at + 1, "player": seat}
            return Refusal(Code.REPEATED_TILE, {**params, "seat": seat}, seat)
        other = shown if shown is not None else self.holder.get(tile)
        if other == seat and tile in held:
            params = {"case": "left-twice", "tile": text, "player": seat, "seat": seat}
            return Refusal(Code.REPEATED_TILE, params, seat)
        if other is not None and other != seat:
            return Refusal(Code.REPEATED_TILE, held_params(seat, other, text), seat)
        return None

    def pips_left(self) -> list[int]:
        """Return the pips each seat shows at the end (``reveal``), and show its tiles."""
        left = self.reveal()
        self.hands = [set(tiles) for tiles in left]
        self.hidden = [0] * self.players
        return super().pips_left()


def held_params(seat: int, holder: int, tile: str | None) -> dict[str, Any]:
    """Return the params of a tile ``seat`` cannot have, as ``holder`` holds it (a
    ``repeated-tile``)."""
    return {
        "case": "held",
        "tile": tile,
        "holder": holder,
        "holder_seat": holder,
        "player": seat,
        "seat": seat,
    }


def best_play(
    hand: HandState, tiles: set[int] | frozenset[int] | None = None
) -> tuple[int, str] | None:
    """Return the most points a legal play scores now, and the first legal play that does
    (``HandState.best_play``): the one definition of the missed-points review."""
    return hand.best_play(tiles)


@dataclass(slots=True)
class HandResult:
    """How one hand went, per team: the points of its plays, its settlement, the scores."""

    end: str
    points: list[int]
    settlement: list[int]
    scores: list[int]

    def as_dict(self) -> dict[str, Any]:
        """Return the hand as the report writes it."""
        return {
            "end": self.end,
            "points": list(self.points),
            "settlement": list(self.settlement),
            "scores": list(self.scores),
        }


@dataclass(slots=True)
class MatchState:
    """A match in progress: the hands so far, the scores, and whether a team has won."""

    rules: Ruleset
    players: int
    team_of: list[int]
    teams: int
    scores: list[int] = field(init=False)
    results: list[HandResult] = field(default_factory=list)
    hand: HandState | None = None
    hand_points: list[int] = field(init=False)
    winner: int | None = None
    # Seats that may lead the next hand (None: anyone).
    leaders: frozenset[int] | None = None
    # Whether a play that brings a team to the target ends the match at once.
    at_once: bool = field(init=False)

    def __post_init__(self) -> None:
        self.at_once = scoring.target_at_once(self.rules)
        self.scores = [0] * self.teams
        self.hand_points = [0] * self.teams

    @classmethod
    def create(cls, rules: Ruleset, players: int, teams: list[list[int]] | None) -> MatchState:
        """Return a match about to start; ``teams`` as in the log (None: everyone alone)."""
        return cls(rules, players, *scoring.team_of(teams, players))

    @property
    def over(self) -> bool:
        """Return whether a team has won."""
        return self.winner is not None

    @property
    def last_play(self) -> PlayFigures:
        """Return every figure of the last play made in the hand at hand (``NO_PLAY`` before
        any), for a caller that stops mid-move (the recorder, waiting for a hand's ``left``)."""
        return NO_PLAY if self.hand is None else self.hand.last_play

    # --- the board's rules of a hand's start: the match's end, the deal, the leader ------

    def judge_start(self) -> Refusal | None:
        """Return why no hand may start now (the match is won), or None."""
        return Refusal(Code.AFTER_MATCH_END, {}) if self.winner is not None else None

    def judge_deal(self, deal: Sequence[Sequence[Any]]) -> Refusal | list[set[int]]:
        """Return the hands ``deal`` gives each seat (tiles written ``"a-b"``), or why it is
        no deal: not a hand per seat, a hand not of ``hand_size`` tiles, a tile that is no
        tile, a tile dealt twice (the first fault found, seat by seat)."""
        players = self.players
        size = self.rules.hand_size
        # The common case first: every seat's tiles, each a tile, none twice.
        if len(deal) == players and all(len(tiles) == size for tiles in deal):
            try:
                quick = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in deal]
            except (KeyError, TypeError):
                quick = []
            if quick and len(set().union(*quick)) == players * size:
                return quick
        if len(deal) != players:
            return Refusal(Code.DEAL, {"case": "hands", "hands": len(deal), "players": players})
        hands: list[set[int]] = []
        seen: set[int] = set()
        for seat, tiles in enumerate(deal):
            if len(tiles) != size:
                params = {"case": "size", "count": len(tiles), "size": size}
                return Refusal(Code.DEAL, {**params, "player": seat, "seat": seat}, seat)
            hand: set[int] = set()
            for text in tiles:
                parsed = TILE_BY_TEXT.get(text) if type(text) is str else None
                if parsed is None:
                    return Refusal(Code.DEAL, {"case": "not-tile", "text": text}, seat)
                tile = parsed[0]
                if tile in seen:
                    return Refusal(Code.DEAL, {"case": "twice", "tile": NAME[tile]}, seat)
                seen.add(tile)
                hand.add(tile)
            hands.append(hand)
        return hands

    def judge_leader(self, first: bool, leader: int) -> Refusal | None:
        """Return why ``leader`` may not lead the next hand (no such seat; after the match's
        ``first`` hand, a seat the last hand's end does not let lead: ``leaders``), or None.
        ``allowed`` lists the seats that may."""
        if leader >= self.players:
            return Refusal(Code.WRONG_LEADER, {"case": "no-seat", "seat": leader}, leader)
        if not first and self.leaders is not None and leader not in self.leaders:
            params = {"case": "not-allowed", "allowed": sorted(self.leaders)}
            return Refusal(Code.WRONG_LEADER, {**params, "player": leader, "seat": leader}, leader)
        return None

    def start_hand(self, leader: int, hands: list[set[int]], boneyard: set[int]) -> HandState:
        """Begin the next hand and return it."""
        self.hand = HandState(self.rules, leader, hands, boneyard, self.team_of, self.scores)
        self.hand_points = [0] * self.teams
        return self.hand

    def start_table_hand(self, leader: int, known: list[frozenset[int]]) -> TableHandState:
        """Begin the next hand of a table record (the deal unknown) and return it; ``known``
        is what each move's seat is known to hold (``table.known_holdings``)."""
        hand = TableHandState(self.rules, leader, self.players, self.team_of, self.scores)
        hand.known = known
        self.hand = hand
        self.hand_points = [0] * self.teams
        return hand

    def check(self, move: Move) -> Refusal | None:
        """Return why ``move`` may not be made now, or None (``judge``)."""
        verdict = self.judge(move)
        return verdict if isinstance(verdict, Refusal) else None

    def judge(self, move: Move) -> Refusal | Chosen:
        """Return why ``move`` may not be made now, or the move to make (``HandState.judge``):
        after the match is won no move may be."""
        if self.winner is not None:
            return Refusal(Code.AFTER_MATCH_END, {})
        hand = self.hand
        assert hand is not None
        return hand.judge(move)

    def make(self, chosen: Chosen) -> PlayFigures:
        """Make a move the judge chose (``judge``); return its figures (``NO_PLAY`` for a draw
        or a pass)."""
        if chosen.kind == PLAY:
            assert chosen.tile is not None
            self.play(chosen.tile, chosen.end, chosen.west, chosen.east)
            return self.last_play
        if chosen.kind == DRAW:
            self.draw(chosen.tile)
        else:
            self.pass_turn()
        return NO_PLAY

    def play(self, tile: int, end: str | None, west: int = -1, east: int = -1) -> tuple[int, int]:
        """Play a tile for the seat whose turn it is; return ``(count, points)``.

        Ends the hand (and settles it) when the seat goes out, or stops the match at once
        when the ruleset ends it at the target.
        """
        hand = self.hand
        assert hand is not None and hand.end is None
        seat = hand.turn
        count = hand.play(tile, end, west, east)
        points = hand.last_points
        if points:
            team = self.team_of[seat]
            self.scores[team] += points
            self.hand_points[team] += points
            if self.at_once and self._leader_at_target() is not None:
                hand.end = "target"
                self._finish_hand()
                return count, points
        # ``ended()``, not ``hand.end``: a type checker would take the assert's narrowing of
        # ``end`` past the play, which changes it (and mypyc would compile it so).
        if hand.ended():
            self._finish_hand()
        return count, points

    def draw(self, tile: Any) -> None:
        """Draw ``tile`` for the seat whose turn it is (None: face down, a table record)."""
        assert self.hand is not None
        self.hand.draw(tile)

    def pass_turn(self) -> None:
        """Pass for the seat whose turn it is; settles the hand when it is blocked."""
        assert self.hand is not None
        self.hand.pass_turn()
        if self.hand.end is not None:
            self._finish_hand()

    def close_unfinished(self) -> HandResult:
        """Record the current hand as stopped mid-way (the log ends there)."""
        result = HandResult(
            "unfinished", list(self.hand_points), [0] * self.teams, list(self.scores)
        )
        self.results.append(result)
        return result

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.end is not None
        settled = [0] * self.teams
        if hand.end != "target":
            pips = hand.pips_left()
            settled = scoring.exact_settlement(
                self.rules,
                scoring.settlement(
                    self.rules, hand.end, pips, hand.out_seat, self.team_of, self.teams
                ),
                self.scores,
            )
            for team, value in enumerate(settled):
                self.scores[team] += value
            self.leaders = scoring.next_leaders(
                self.rules, hand.end, pips, hand.out_seat, self.team_of, self.teams, hand.leader
            )
        self.results.append(
            HandResult(hand.end, list(self.hand_points), settled, list(self.scores))
        )
        self.winner = self._leader_at_target()

    def _leader_at_target(self) -> int | None:
        return scoring.leader_at_target(self.scores, self.rules.target)
