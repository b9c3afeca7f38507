"""The replay page's states made from what ingest stored with a valid match, with no walk of
the engine: each move as logged and its figures (count, points, best play), each hand's
result (``Match.hands``). The states come out in the page's one compact form, the flat
states ``replays.wire.states_packed`` packs and ``replay.js`` unpacks, the same as the
engine's states written short (``wire.state_flat``; a test holds them to it over simulated
matches of every preset).

What the stored figures do not say is worked out as the table is laid, by bookkeeping alone:
where a play went (the end the log names, else the one open end the tile fits: a valid log
names an end whenever several fit) and which pips it leaves open, each seat's tiles, the
boneyard, whose turn it is. The rules asked are the engine's own functions (``scoring``):
whether a double becomes the spinner, when its cross opens, who leads at the target.
"""

from __future__ import annotations

from typing import Any

from fives_engine import Move, MoveFacts, Ruleset, resolve_ruleset
from fives_engine.report import missed_points
from fives_engine.scoring import becomes_spinner, cross_open, leader_at_target, team_of
from fives_engine.tiles import HIGH, IS_DOUBLE, LOW, NAME, PIPS, SET_SIZE, TILE_BY_TEXT
from games.models import Match, StoredHand

ARMS = ("W", "E", "N", "S")


class _Table:
    """The tiles laid in one hand, as the page writes them: the lead (west pip first), each
    arm's tiles outwards (inner pip first), the open pip of each end, the spinner."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.lead: str | None = None
        self.arms: dict[str, list[str]] = {arm: [] for arm in ARMS}
        self.pip = [-1, -1, -1, -1]
        # Where the spinner lies: "L" the lead, else (arm, index); None: no spinner yet.
        self.spinner: str | tuple[str, int] | None = None
        self.cross = False

    def open_ends(self) -> str:
        """Return the open ends, W E N S, as the page writes them ("W3 E5")."""
        if self.lead is None:
            return ""
        ends = 4 if self.cross else 2
        return " ".join(f"{ARMS[e]}{self.pip[e]}" for e in range(ends))

    def counts(self) -> str:
        """Return how many tiles each arm holds ("2 1 0 0"), "" before the lead."""
        if self.lead is None:
            return ""
        return " ".join(str(len(self.arms[arm])) for arm in ARMS)

    def spinner_short(self) -> str | None:
        """Return where the spinner lies, written short ("L" the lead, "E3"), or None."""
        if self.spinner is None or self.spinner == "L":
            return self.spinner
        arm, index = self.spinner
        return f"{arm}{index}"

    def short(self) -> dict[str, str]:
        """Return the layout written short, as layout.js's ``expand`` reads it."""
        if self.lead is None:
            return {}
        out = {"l": self.lead}
        for arm in ARMS:
            if self.arms[arm]:
                out[arm] = " ".join(self.arms[arm])
        spinner = self.spinner_short()
        if spinner is not None:
            out["s"] = spinner
        return out

    def lay(self, text: str, end: str | None) -> str:
        """Lay the tile written ``text`` on ``end`` (as logged: None for the lead, or for
        the one end it fits) and return where it went ("lead" or its end)."""
        tile, first, second = TILE_BY_TEXT[text]
        rules = self.rules
        if self.lead is None:
            self.lead = f"{first}-{second}"
            self.pip = [first, second, first, first]
            if becomes_spinner(rules, IS_DOUBLE[tile], False):
                self.spinner = "L"
                self.cross = cross_open(rules, False)
            return "lead"
        ends = 4 if self.cross else 2
        e = ARMS.index(end) if end is not None else self._fitting(tile, ends)
        joined = self.pip[e]
        outer = HIGH[tile] if LOW[tile] == joined else LOW[tile]
        arm = self.arms[ARMS[e]]
        arm.append(f"{joined}-{outer}")
        self.pip[e] = outer
        if IS_DOUBLE[tile] and becomes_spinner(rules, True, self.spinner is not None):
            self.spinner = (ARMS[e], len(arm) - 1)
            self.pip[2] = self.pip[3] = joined
            self.cross = cross_open(rules, False)
        elif not self.cross and self.spinner is not None:
            self.cross = cross_open(rules, self._spinner_sides_covered())
        return ARMS[e]

    def _fitting(self, tile: int, ends: int) -> int:
        """Return the one open end ``tile`` fits (a play whose log names no end)."""
        return next(e for e in range(ends) if self.pip[e] in (LOW[tile], HIGH[tile]))

    def _spinner_sides_covered(self) -> bool:
        if self.spinner == "L":
            return bool(self.arms["W"]) and bool(self.arms["E"])
        assert isinstance(self.spinner, tuple)
        arm, index = self.spinner
        return len(self.arms[arm]) > index + 1


class _Seats:
    """Each seat's tiles through one hand: its hand (a full record), or what the table has
    seen it take and not lay and how many it holds face down (a table record)."""

    def __init__(self, hand: StoredHand, rules: Ruleset, players: int, table: bool) -> None:
        self.table = table
        self.players = players
        if table:
            self.tiles: list[set[int]] = [set() for _ in range(players)]
            self.hidden = [rules.hand_size] * players
            self.boneyard = SET_SIZE - players * rules.hand_size
        else:
            deal = hand.log.deal or ()
            self.tiles = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in deal]
            self.hidden = [0] * players
            self.boneyard = SET_SIZE - sum(len(tiles) for tiles in deal)
        # Each seat's tiles as the page writes them, written again when they change.
        self.text = {f"h{seat}": _written(tiles) for seat, tiles in enumerate(self.tiles)}

    def held(self, seat: int) -> int:
        return len(self.tiles[seat]) + self.hidden[seat]

    def play(self, seat: int, tile: int) -> None:
        if tile in self.tiles[seat]:
            self.tiles[seat].discard(tile)
            self.text[f"h{seat}"] = _written(self.tiles[seat])
        else:
            self.hidden[seat] -= 1

    def draw(self, seat: int, text: str | None) -> None:
        self.boneyard -= 1
        if text in TILE_BY_TEXT:
            self.tiles[seat].add(TILE_BY_TEXT[text][0])
            self.text[f"h{seat}"] = _written(self.tiles[seat])
        else:  # a table record's draw nobody saw
            self.hidden[seat] += 1

    def show(self, left: tuple[tuple[str, ...], ...] | None) -> None:
        """A table record's hand ended by a domino or a block: each seat shows its tiles."""
        if self.table and left is not None:
            self.tiles = [{TILE_BY_TEXT[text][0] for text in tiles} for tiles in left]
            self.hidden = [0] * self.players
            self.text = {f"h{seat}": _written(tiles) for seat, tiles in enumerate(self.tiles)}

    def pips(self) -> list[int | None]:
        """Return each seat's pips (None for a seat with tiles face down)."""
        return [
            sum(PIPS[tile] for tile in tiles) if hidden == 0 else None
            for tiles, hidden in zip(self.tiles, self.hidden, strict=True)
        ]


def _written(tiles: set[int]) -> str:
    """Return a seat's tiles as the page writes them ("0-1 2-5": by id)."""
    return " ".join([NAME[tile] for tile in sorted(tiles)])


class _HandWalk:
    """One stored hand read move by move into the page's flat states (not the engine's
    walk: nothing is judged, the stored figures are read)."""

    def __init__(self, match: _MatchFacts, hand: StoredHand, scores: list[int]) -> None:
        self.match = match
        self.hand = hand
        self.scores = scores
        self.table = _Table(match.rules)
        self.seats = _Seats(hand, match.rules, match.players, match.table)
        self.count = 0
        self.turn: int | None = hand.log.leader

    def states(self) -> list[dict[str, Any]]:
        hand = self.hand
        states = [self.flat(None, None, 0, None)]
        last = len(hand.log.moves) - 1
        for index, (move, fact) in enumerate(zip(hand.log.moves, hand.facts, strict=True)):
            placed = self.make(move, fact)
            ended = index == last and hand.result.end != "unfinished"
            if ended:
                self.end_hand()
            states.append(self.flat(move, placed, fact.points, fact, ended=ended))
        return states

    def make(self, move: Move, fact: MoveFacts) -> str | None:
        """Make one move on the table and the seats; return where a play went."""
        seat, seats = move.seat, self.seats
        placed = None
        if move.kind == "play":
            placed = self.table.lay(move.tile, move.end)
            seats.play(seat, TILE_BY_TEXT[move.tile][0])
            self.count = fact.count
            self.scores[self.match.team_of[seat]] += fact.points
            self.turn = self.match.next_seat(seat, seats)
        elif move.kind == "draw":
            seats.draw(seat, move.tile)
        else:
            self.turn = self.match.next_seat(seat, seats)
        return placed

    def end_hand(self) -> None:
        result = self.hand.result
        if result.end != "target":
            self.seats.show(self.hand.log.left)
        self.scores[:] = result.scores
        self.turn = None

    def flat(
        self,
        move: Move | None,
        placed: str | None,
        points: int,
        fact: MoveFacts | None,
        *,
        ended: bool = False,
    ) -> dict[str, Any]:
        """Return the state after ``move`` (None: the hand's start) as the page writes it
        (``wire.state_flat``'s fields, in its order)."""
        result, seats, table = self.hand.result, self.seats, self.table
        flat: dict[str, Any] = {"action": move.as_json() if move is not None else None}
        if move is None:
            flat["seat"] = None
        flat |= {
            "placed": placed,
            "count": self.count,
            "points": points,
            "scores": list(self.scores),
            "open_ends": table.open_ends(),
        }
        if ended:
            flat["pips"] = seats.pips()
        flat |= {
            "boneyard": seats.boneyard,
            "turn": self.turn,
            "hand_end": result.end if ended else None,
            "settlement": list(result.settlement) if ended else None,
            "winner": leader_at_target(result.scores, self.match.rules.target) if ended else None,
        }
        if seats.table:
            flat["hidden"] = list(seats.hidden)
        if fact is not None and missed_points(points, fact.best) > 0:
            flat["best"], flat["best_play"] = fact.best, fact.best_play
        flat |= seats.text
        flat["tiles"] = table.counts()
        flat["spinner"] = table.spinner_short()
        return flat


class _MatchFacts:
    """What every hand of a match reads: its rules, seats and teams."""

    def __init__(self, match: Match) -> None:
        self.players = match.player_count
        self.rules = resolve_ruleset(match.ruleset, self.players)
        self.team_of, self.teams = team_of(match.teams, self.players)
        self.table = match.record == "table"
        # Partners play on until both are out ("both-out"): a seat out has no turn.
        self.partners = self.rules.partnership_end == "both-out" and match.teams is not None

    def next_seat(self, seat: int, seats: _Seats) -> int:
        """Return the seat whose turn follows a play or a pass by ``seat``."""
        following = (seat + 1) % self.players
        if self.partners:
            while not seats.held(following):
                following = (following + 1) % self.players
        return following


def stored_page_states(
    match: Match,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[list[int]]]:
    """Return a valid stored match's flat states (the start of each hand and after each
    move), each hand's moves and last layout (``{"moves", "layout"}``) and each hand's
    points missed by seat, read from ``Match.hands`` alone."""
    facts = _MatchFacts(match)
    scores = [0] * facts.teams
    states: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    missed: list[list[int]] = []
    for hand in match.hands:
        walk = _HandWalk(facts, hand, scores)
        states += walk.states()
        hands.append({"moves": len(hand.log.moves), "layout": walk.table.short()})
        row = [0] * facts.players
        for move, fact in zip(hand.log.moves, hand.facts, strict=True):
            row[move.seat] += missed_points(fact.points, fact.best)
        missed.append(row)
    return states, hands, missed
