"""The fast lane of validation: accept a clean log in one tight loop, or step aside.

Workers validate every upload, and almost every upload is a legal log. ``fast_report``
walks the raw JSON of such a log with the hand state in local variables (no objects per
move), and returns the same report the careful validator (``validate.py``) would. At the
first thing that is not plainly legal and clean (an error, a claimed point that differs,
an unknown field, a final score that differs) it returns None, and the careful validator,
which builds every move with ``HandState`` and its legal-move generator, gives the report
with its exact error. So the generator stays the one definition of a legal move; this
loop is checked against it by property tests over simulated and mutated logs
(``tests/engine/test_fast_lane.py``).
"""

from __future__ import annotations

from typing import Any

from .game import HandResult, next_leaders, settlement
from .log import SchemaError, parse_log
from .report import Report
from .rules import Ruleset, RulesetError, resolve_ruleset
from .tiles import ALL_TILES, HIGH, LOW, PIPS
from .tiles import TILE_BY_TEXT as _TILE

_END_INDEX = {"W": 0, "E": 1, "N": 2, "S": 3}
_PLAY_KEYS = frozenset(("seat", "play", "end", "points"))
_DRAW_KEYS = frozenset(("seat", "draw", "points"))
_PASS_KEYS = frozenset(("seat", "pass", "points"))
_ALL = set(ALL_TILES)
_SET_SIZE = len(_ALL)
# Bit p is set when a tile shows pip p.
_PIP_MASK = [(1 << LOW[t]) | (1 << HIGH[t]) for t in ALL_TILES]


def fast_report(doc: Any, trace: list[list[tuple[int | None, int]]] | None = None) -> Report | None:
    """Return the report of a legal log with no warning, or None to ask the careful path.

    With ``trace``, each hand appends the list of its moves' ``(count, points)``
    (count None for a draw or a pass).
    """
    if type(doc) is not dict:
        return None
    try:
        log = parse_log(doc, moves=False)
    except SchemaError:
        return None
    players = len(log.players)
    names = log.players
    if not 2 <= players <= 4 or len(set(names)) != players or not all(n.strip() for n in names):
        return None
    try:
        rules = resolve_ruleset(log.ruleset, players)
    except RulesetError:
        return None
    teams = log.teams
    if teams is None:
        team_of = list(range(players))
        team_count = players
    else:
        if (
            players != 4
            or len(teams) != 2
            or any(len(team) != 2 for team in teams)
            or sorted(seat for team in teams for seat in team) != [0, 1, 2, 3]
        ):
            return None
        team_of = [0] * 4
        for index, team in enumerate(teams):
            for seat in team:
                team_of[seat] = index
        team_count = 2

    hand_size = rules.hand_size
    target = rules.target

    scores = [0] * team_count
    results: list[HandResult] = []
    leaders: frozenset[int] | None = None
    winner: int | None = None
    moves_checked = 0
    raw_hands = doc["hands"]
    last_hand = len(raw_hands) - 1

    for h, raw_hand in enumerate(raw_hands):
        if winner is not None:
            return None
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

        moves_trace: list[tuple[int | None, int]] | None = None
        if trace is not None:
            moves_trace = []
            trace.append(moves_trace)
        outcome = _fast_hand(
            raw_moves, hands, boneyard, leader, rules, team_of, scores, moves_trace
        )
        if outcome is None:
            return None
        hand_end, out_seat, hand_points = outcome
        if hand_end == "target":
            best = max(scores)
            winner = scores.index(best)
        moves_checked += len(raw_moves)
        settled = [0] * team_count
        if hand_end is None:
            if h < last_hand:
                return None
            results.append(HandResult("unfinished", hand_points, settled, list(scores)))
            break
        if hand_end != "target":
            left = [sum(map(PIPS.__getitem__, held)) for held in hands]
            settled = settlement(rules, hand_end, left, out_seat, team_of, team_count)
            for team, amount in enumerate(settled):
                scores[team] += amount
            leaders = next_leaders(rules, hand_end, left, out_seat, team_of, team_count)
            best = max(scores)
            if best >= target and scores.count(best) == 1:
                winner = scores.index(best)
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
    team_of: list[int],
    scores: list[int],
    trace: list[tuple[int | None, int]] | None,
) -> tuple[str | None, int | None, list[int]] | None:
    """Play one hand's raw moves; return (end, seat that went out, points per team).

    ``scores`` is updated in place. None: something is not plainly legal and clean.
    """
    try:
        return _fast_moves(raw_moves, hands, boneyard, leader, rules, team_of, scores, trace)
    except (TypeError, KeyError, AttributeError):
        # Not the shape of a clean log (an unhashable tile, a move that is no object...).
        return None


def _fast_moves(raw_moves, hands, boneyard, leader, rules, team_of, scores, trace):
    players = len(hands)
    multiple = rules.multiple
    reserve = rules.boneyard_reserve
    target = rules.target
    immediately = rules.end_at_target == "immediately"
    hand_points = [0] * len(scores)
    if not raw_moves:
        return None, None, hand_points
    moves = iter(raw_moves)

    # The lead: the leader's first move, any tile it holds.
    move = next(moves)
    if move.get("seat") != leader or type(move["seat"]) is not int:
        return None
    if "play" not in move or "draw" in move or "pass" in move:
        return None
    tile, west, east = _TILE[move["play"]]
    held = hands[leader]
    if tile not in held:
        return None
    end = move.get("end")
    if end is not None and _END_INDEX.get(end) is None:
        return None
    held.discard(tile)
    # Per end W, E, N, S: its open pip, how many tiles its arm holds, and what it adds to
    # the count. W and E start on the lead: each side adds its pip, a double both halves
    # once (so the east side adds nothing while the west side is open too).
    pip = [west, east, west, west]
    length = [0, 0, 0, 0]
    lead_double = west == east
    adds = [2 * west, 0, 0, 0] if lead_double else [west, east, 0, 0]
    spinner_end = -1  # -1: no spinner yet; 4: the lead; 0 or 1: in arm W or E
    spinner_index = 0
    cross_open = False
    if lead_double and rules.spinner:
        spinner_end = 4
        cross_open = not rules.spinner_sides_first
    count = west + east
    turn = leader
    claimed = move.get("points")
    points = count if count % multiple == 0 and count else 0
    if claimed is not None and (claimed != points or type(claimed) is bool):
        return None
    record = trace.append if trace is not None else None
    if record:
        record((count, points))
    if points:
        team = team_of[turn]
        scores[team] += points
        hand_points[team] += points
        if immediately and _leader_at(scores, target):
            return ("target", None, hand_points) if next(moves, None) is None else None
    if not held:
        return ("domino", turn, hand_points) if next(moves, None) is None else None
    following = [(seat + 1) % players for seat in range(players)]
    turn = following[turn]
    passes = 0
    spinner_on = rules.spinner
    sides_first = rules.spinner_sides_first

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
                if "draw" in move or "pass" in move:
                    return None
                claimed = move.get("points")
                if type(claimed) is bool or type(claimed) is str:
                    return None
            tile, low, high = _TILE[text]
            if tile not in held:
                return None
            reach = 4 if cross_open else 2
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
            outer = high if low == joined else low
            length[index] += 1
            pip[index] = outer
            # The count changes by what this end adds now instead of before.
            if low == high:
                count += 2 * outer - adds[index]
                adds[index] = 2 * outer
                if spinner_end < 0 and spinner_on:
                    spinner_end = index
                    spinner_index = length[index] - 1
                    pip[2] = pip[3] = joined
                    cross_open = not sides_first
            else:
                count += outer - adds[index]
                adds[index] = outer
            if lead_double and index < 2 and length[1 - index] == 0:
                # The lead double now lies at the end of the other side, counting both
                # halves there (and only there).
                count += 2 * west - adds[1 - index]
                adds[1 - index] = 2 * west
            if not cross_open and spinner_end >= 0:
                if spinner_end == 4:
                    cross_open = length[0] > 0 and length[1] > 0
                else:
                    cross_open = length[spinner_end] > spinner_index + 1
            held.discard(tile)
            points = count if count % multiple == 0 and count else 0
            if claimed is not None and claimed != points:
                return None
            if record:
                record((count, points))
            passes = 0
            if points:
                team = team_of[seat]
                scores[team] += points
                hand_points[team] += points
                if immediately and _leader_at(scores, target):
                    return ("target", None, hand_points) if next(moves, None) is None else None
            if not held:
                return ("domino", seat, hand_points) if next(moves, None) is None else None
            turn = following[seat]
            continue

        # A draw or a pass: only for a seat that holds no tile that fits.
        if "play" in move or "end" in move:
            return None  # unusual: the careful path decides
        claimed = move.get("points")
        if claimed is not None and (claimed != 0 or type(claimed) is bool):
            return None
        mask = (1 << pip[0]) | (1 << pip[1])
        if cross_open:
            mask |= (1 << pip[2]) | (1 << pip[3])
        for tile in held:
            if _PIP_MASK[tile] & mask:
                return None
        if record:
            record((None, 0))
        text = move.get("draw")
        if text is not None:
            if "pass" in move or len(boneyard) <= reserve:
                return None
            tile = _TILE[text][0]
            if tile not in boneyard:
                return None
            boneyard.discard(tile)
            held.add(tile)
            continue
        if move.get("pass") is not True or len(boneyard) > reserve:
            return None
        passes += 1
        if passes == players:
            return ("block", None, hand_points) if next(moves, None) is None else None
        turn = (seat + 1) % players
    return None, None, hand_points


def _leader_at(scores: list[int], target: int) -> bool:
    best = max(scores)
    return best >= target and scores.count(best) == 1
