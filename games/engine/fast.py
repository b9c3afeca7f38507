"""The fast lane of validation: accept a clean log in one tight loop, or step aside.

Workers validate every upload, and almost every upload is a legal log. ``fast_report``
walks the raw JSON of such a log with the hand state in local variables (no objects per
move), and returns the same report the careful validator (``validate.py``) would. At the
first thing that is not plainly legal and clean (an error, a claimed point that differs,
an unknown field, a final score that differs) it returns None, and the careful validator,
which builds every move with ``HandState`` and its legal-move generator, gives the report
with its exact error. So the generator stays the one definition of a legal move; this
loop is checked against it by property tests over simulated and mutated logs
(``tests/engine/test_differential.py`` and ``tests/engine/test_walk.py``).
"""

from __future__ import annotations

from typing import Any

from .game import PLAY, HandResult, LegalMove
from .log import MatchLog, SchemaError, parse_log
from .report import MoveFacts, Report
from .rules import Ruleset, RulesetError, resolve_ruleset
from .scoring import (
    becomes_spinner,
    cross_open,
    end_value,
    first_best,
    leader_at_target,
    next_leaders,
    points_by_count,
    settlement,
    team_of,
)
from .tiles import ALL_TILES, HIGH, LOW, NAME, PIPS
from .tiles import TILE_BY_TEXT as _TILE

_END_INDEX = {"W": 0, "E": 1, "N": 2, "S": 3}
# The fields of a play this loop reads. A hand or a move with any other field steps aside:
# the careful parser checks the strings of unknown fields (limits.py), this loop does not.
_PLAY_FIELDS = frozenset(("seat", "play", "end", "points"))
_END_NAME = ("W", "E", "N", "S")
_ALL = set(ALL_TILES)
_SET_SIZE = len(_ALL)
# Bit p is set when a tile shows pip p.
_PIP_MASK = [(1 << LOW[t]) | (1 << HIGH[t]) for t in ALL_TILES]
# _JOIN[t][p]: the pip tile t leaves open when it joins pip p, and what that end then adds
# to the count (scoring.end_value), looked up once per play.
_JOIN = [
    {
        joined: (outer, end_value(outer, LOW[t] == HIGH[t]))
        for joined, outer in ((LOW[t], HIGH[t]), (HIGH[t], LOW[t]))
    }
    for t in ALL_TILES
]
# _WITH_PIP[p]: the mask of the tiles that show pip p (bit t: tile t); _ADD[p][t]: what
# tile t adds to the count when it joins pip p (0 when it cannot); _PLAY_TEXT[t][index]:
# the play, as the generator's LegalMove writes it.
_WITH_PIP = [sum(1 << t for t in ALL_TILES if p in (LOW[t], HIGH[t])) for p in range(7)]
_ADD = [[_JOIN[t][p][1] if p in _JOIN[t] else 0 for t in ALL_TILES] for p in range(7)]
_PLAY_TEXT = [[str(LegalMove(PLAY, t, end)) for end in _END_NAME] for t in ALL_TILES]

Trace = list[list[MoveFacts]]
_NO_PLAY = MoveFacts(None, 0)


def fast_report(
    doc: Any,
    trace: Trace | None = None,
    *,
    log: MatchLog | None = None,
    review: bool = False,
) -> Report | None:
    """Return the report of a legal log with no warning, or None to ask the careful path.

    With ``trace``, each hand appends the list of its moves' ``MoveFacts`` (count None
    for a draw or a pass); with ``review`` too, each play's facts hold the best any legal
    play could have scored there. ``log``, when the caller has parsed ``doc`` already,
    spares the parse of its header.
    """
    if type(doc) is not dict:
        return None
    if log is None:
        try:
            log = parse_log(doc, moves=False)
        except SchemaError:
            return None
    if log.table:
        return None  # a table record: the careful validator reads it (no deal to walk)
    players = len(log.players)
    names = log.players
    if not 2 <= players <= 4 or len(set(names)) != players or not all(n.strip() for n in names):
        return None
    try:
        rules = resolve_ruleset(log.ruleset, players)
    except RulesetError:
        return None
    teams = log.teams
    if teams is not None and (
        players != 4
        or len(teams) != 2
        or any(len(team) != 2 for team in teams)
        or sorted(seat for team in teams for seat in team) != [0, 1, 2, 3]
    ):
        return None
    seats_team, team_count = team_of(teams, players)

    hand_size = rules.hand_size
    target = rules.target
    points_of = points_by_count(rules)

    scores = [0] * team_count
    results: list[HandResult] = []
    leaders: frozenset[int] | None = None
    winner: int | None = None
    moves_checked = 0
    raw_hands = doc["hands"]
    last_hand = len(raw_hands) - 1

    for h, raw_hand in enumerate(raw_hands):
        if winner is not None or type(raw_hand) is not dict or len(raw_hand) != 3:
            return None  # won already, or a hand with unknown fields (or missing ones)
        try:
            leader = raw_hand["leader"]
            deal = raw_hand["deal"]
            raw_moves = raw_hand["moves"]
            # The deal: every seat's tiles, all distinct.
            hands = [{_TILE[text][0] for text in tiles} for tiles in deal]
        except (TypeError, KeyError):
            return None
        if (
            type(leader) is not int
            or type(deal) is not list
            or type(raw_moves) is not list
            or len(hands) != players
            or any(type(tiles) is not list or len(tiles) != hand_size for tiles in deal)
            or any(len(held) != hand_size for held in hands)
        ):
            return None
        boneyard = _ALL.difference(*hands)
        if len(boneyard) != _SET_SIZE - players * hand_size:
            return None  # a tile dealt to two seats
        if not 0 <= leader < players or (h > 0 and leaders is not None and leader not in leaders):
            return None

        moves_trace: list[MoveFacts] | None = None
        if trace is not None:
            moves_trace = []
            trace.append(moves_trace)
        outcome = _fast_hand(
            raw_moves,
            hands,
            boneyard,
            leader,
            rules,
            (seats_team, scores, points_of),
            moves_trace,
            review,
        )
        if outcome is None:
            return None
        hand_end, out_seat, hand_points = outcome
        moves_checked += len(raw_moves)
        settled = [0] * team_count
        if hand_end is None:
            if h < last_hand:
                return None
            results.append(HandResult("unfinished", hand_points, settled, list(scores)))
            break
        if hand_end != "target":
            left = [sum(map(PIPS.__getitem__, held)) for held in hands]
            settled = settlement(rules, hand_end, left, out_seat, seats_team, team_count)
            for team, amount in enumerate(settled):
                scores[team] += amount
            leaders = next_leaders(rules, hand_end, left, out_seat, seats_team, team_count)
        winner = leader_at_target(scores, target)
        results.append(HandResult(hand_end, hand_points, settled, list(scores)))

    if log.final_scores is not None and list(log.final_scores) != scores:
        return None
    return Report(
        ruleset=rules,
        scores=list(scores),
        winner=winner,
        hands=results,
        moves_checked=moves_checked,
    )


def _fast_hand(
    raw_moves: Any,
    hands: list[set[int]],
    boneyard: set[int],
    leader: int,
    rules: Ruleset,
    match: tuple[list[int], list[int], tuple[int, ...]],
    trace: list[MoveFacts] | None,
    review: bool,
) -> tuple[str | None, int | None, list[int]] | None:
    """Play one hand's raw moves; return (end, seat that went out, points per team).

    ``match`` is (each seat's team, the scores, the points of every count); the scores
    are updated in place. None: something is not plainly legal and clean.
    """
    try:
        return _fast_moves(raw_moves, hands, boneyard, leader, rules, match, trace, review)
    except (TypeError, KeyError, AttributeError):
        # Not the shape of a clean log (an unhashable tile, a move that is no object...).
        return None


def _best(
    held: int,
    pip: list[int],
    reach: int,
    adds: list[int],
    length: list[int],
    count: int,
    lead_add: int,
    known: dict[tuple[int, int, int], tuple[int, int]],
    points_of: tuple[int, ...],
) -> tuple[int, str]:
    """Return the most points a legal play scores now, and the first that does.

    ``held`` is the seat's tiles as a mask (bit t: tile t). "First" is in the order of the
    legal-move generator: by tile, then by end W, E, N, S. Each end's best (``_best_fit``,
    remembered in ``known``) is the lowest tile of its most points, so across the ends the
    most points win, then the lower tile, then the earlier end (seen first).
    """
    top = -1
    best_tile = best_index = 0
    for index in range(reach):
        joined = pip[index]
        fits = held & _WITH_PIP[joined]
        if not fits:
            continue
        # The count once a tile joins this end, less what the tile's own end adds: this
        # end's old part leaves; and while one side of a double lead is still bare, the
        # lead's both halves (``lead_add``) move to it when the other side is covered.
        base = count - adds[index]
        if lead_add >= 0 and index < 2 and not length[1 - index]:
            base += lead_add - adds[1 - index]
        key = (joined, fits, base)
        found = known.get(key)
        if found is None:
            found = known[key] = _best_fit(joined, fits, base, points_of)
        points, tile = found
        if points > top or (points == top and tile < best_tile):
            top = points
            best_tile = tile
            best_index = index
    assert top >= 0  # called only before a legal play
    return top, _PLAY_TEXT[best_tile][best_index]


def _best_fit(joined: int, fits: int, base: int, points_of: tuple[int, ...]) -> tuple[int, int]:
    """Return the most points a tile of mask ``fits`` scores joining pip ``joined`` when
    the rest of the table counts ``base``, and the lowest tile that does."""
    add = _ADD[joined]
    top = -1
    best_tile = 0
    for tile in ALL_TILES:
        if fits >> tile & 1:
            points = points_of[base + add[tile]]
            if points > top:
                top = points
                best_tile = tile
    return top, best_tile


# What _best has worked out, per table of points (a few rulesets share each): at most
# 7 pips x 128 sets of tiles x 49 counts each.
_KNOWN: dict[tuple[int, ...], dict[tuple[int, int, int], tuple[int, int]]] = {}


def _fast_moves(raw_moves, hands, boneyard, leader, rules, match, trace, review):
    seats_team, scores, points_of = match
    players = len(hands)
    reserve = rules.boneyard_reserve
    target = rules.target
    immediately = rules.end_at_target == "immediately"
    hand_points = [0] * len(scores)
    if not raw_moves:
        return None, None, hand_points
    moves = iter(raw_moves)
    record = trace.append if trace is not None else None
    best = best_play = None
    if review:
        masks = [sum(1 << t for t in held) for held in hands]
        known = _KNOWN.setdefault(points_of, {})

    # The lead: the leader's first move, any tile it holds.
    move = next(moves)
    if move.get("seat") != leader or type(move["seat"]) is not int:
        return None
    if "play" not in move or not _PLAY_FIELDS.issuperset(move):
        return None
    tile, west, east = _TILE[move["play"]]
    held = hands[leader]
    if tile not in held:
        return None
    end = move.get("end")
    if end is not None and _END_INDEX.get(end) is None:
        return None
    if review:
        best, lead = first_best((points_of[PIPS[t]], t) for t in sorted(held))
        best_play = NAME[lead]
        masks[leader] ^= 1 << tile
    held.discard(tile)
    # Per end W, E, N, S: its open pip, how many tiles its arm holds, and what it adds to
    # the count. W and E start on the lead: each side adds its pip, a double both halves
    # once (so the east side adds nothing while the west side is open too).
    pip = [west, east, west, west]
    length = [0, 0, 0, 0]
    lead_add = end_value(west, True) if west == east else -1
    adds = [lead_add, 0, 0, 0] if west == east else [west, east, 0, 0]
    spinner_end = -1  # -1: no spinner yet; 4: the lead; 0 or 1: in arm W or E
    spinner_index = 0
    cross = False
    if becomes_spinner(rules, west == east, False):
        spinner_end = 4
        cross = cross_open(rules, False)
    count = west + east
    turn = leader
    claimed = move.get("points")
    points = points_of[count]
    if claimed is not None and (claimed != points or type(claimed) is bool):
        return None
    if record:
        record(MoveFacts(count, points, best, best_play))
    if points:
        team = seats_team[turn]
        scores[team] += points
        hand_points[team] += points
        if immediately and leader_at_target(scores, target) is not None:
            return ("target", None, hand_points) if next(moves, None) is None else None
    if not held:
        return ("domino", turn, hand_points) if next(moves, None) is None else None
    following = [(seat + 1) % players for seat in range(players)]
    turn = following[turn]
    passes = 0

    for move in moves:
        seat = move["seat"]
        if seat != turn or type(seat) is not int:
            return None
        held = hands[seat]
        text = move.get("play")
        if text is not None:
            end = move.get("end")
            if len(move) == (3 if end is not None else 2):
                claimed = None  # exactly seat, play and end: nothing more to look at
            else:
                if not _PLAY_FIELDS.issuperset(move):
                    return None  # a draw or a pass too, or an unknown field
                claimed = move.get("points")
                if type(claimed) is bool or type(claimed) is str:
                    return None
            tile, low, high = _TILE[text]
            if tile not in held:
                return None
            reach = 4 if cross else 2
            if end is None:
                index = -1
                for e in range(reach):
                    if pip[e] == low or pip[e] == high:
                        if index >= 0:
                            return None  # fits two ends: the log must say which
                        index = e
                if index < 0:
                    return None
            else:
                index = _END_INDEX[end]
                if index >= reach:
                    return None
            joined = pip[index]
            if joined != low and joined != high:
                return None
            if review:
                best, best_play = _best(
                    masks[seat], pip, reach, adds, length, count, lead_add, known, points_of
                )
                masks[seat] ^= 1 << tile
            outer, add = _JOIN[tile][joined]
            # As in _best; here the ends change too.
            count += add - adds[index]
            adds[index] = add
            if lead_add >= 0 and index < 2 and not length[1 - index]:
                count += lead_add - adds[1 - index]
                adds[1 - index] = lead_add
            length[index] += 1
            pip[index] = outer
            if low == high and spinner_end < 0 and becomes_spinner(rules, True, False):
                spinner_end = index
                spinner_index = length[index] - 1
                pip[2] = pip[3] = joined
                cross = cross_open(rules, False)
            elif not cross and spinner_end >= 0:
                if spinner_end == 4:
                    covered = length[0] > 0 and length[1] > 0
                else:
                    covered = length[spinner_end] > spinner_index + 1
                if covered:
                    cross = cross_open(rules, covered)
            held.discard(tile)
            points = points_of[count]
            if claimed is not None and claimed != points:
                return None
            if record:
                record(MoveFacts(count, points, best, best_play))
            passes = 0
            if points:
                team = seats_team[seat]
                scores[team] += points
                hand_points[team] += points
                if immediately and leader_at_target(scores, target) is not None:
                    return ("target", None, hand_points) if next(moves, None) is None else None
            if not held:
                return ("domino", seat, hand_points) if next(moves, None) is None else None
            turn = following[seat]
            continue

        # A draw or a pass: only for a seat that holds no tile that fits.
        fields = len(move)
        if fields != 2 and (fields != 3 or "points" not in move):
            # Only seat, draw or pass, and points: a null play, an end, an unknown field
            # are unusual, and the careful path decides.
            return None
        claimed = move.get("points")
        if claimed is not None and (claimed != 0 or type(claimed) is bool):
            return None
        mask = (1 << pip[0]) | (1 << pip[1])
        if cross:
            mask |= (1 << pip[2]) | (1 << pip[3])
        for tile in held:
            if _PIP_MASK[tile] & mask:
                return None
        if record:
            record(_NO_PLAY)
        text = move.get("draw")
        if text is not None:
            if "pass" in move or len(boneyard) <= reserve:
                return None
            tile = _TILE[text][0]
            if tile not in boneyard:
                return None
            boneyard.discard(tile)
            held.add(tile)
            if review:
                masks[seat] |= 1 << tile
            continue
        if move.get("pass") is not True or len(boneyard) > reserve:
            return None
        passes += 1
        if passes == players:
            return ("block", None, hand_points) if next(moves, None) is None else None
        turn = (seat + 1) % players
    return None, None, hand_points
