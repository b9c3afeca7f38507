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
from .rules import RulesetError, resolve_ruleset
from .tiles import ALL_TILES, HIGH, LOW, PIPS
from .tiles import TILE_BY_TEXT as _TILE

_END_INDEX = {"W": 0, "E": 1, "N": 2, "S": 3}
_PLAY_KEYS = frozenset(("seat", "play", "end", "points"))
_DRAW_KEYS = frozenset(("seat", "draw", "points"))
_PASS_KEYS = frozenset(("seat", "pass", "points"))
_ALL = set(ALL_TILES)


def fast_report(doc: Any) -> Report | None:
    """Return the report of a legal log with no warning, or None to ask the careful path."""
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

    multiple = rules.multiple
    hand_size = rules.hand_size
    reserve = rules.boneyard_reserve
    target = rules.target
    spinner_on = rules.spinner
    sides_first = rules.spinner_sides_first
    immediately = rules.end_at_target == "immediately"

    scores = [0] * team_count
    results: list[HandResult] = []
    leaders: frozenset[int] | None = None
    winner: int | None = None
    moves_checked = 0
    raw_hands = doc["hands"]
    last_hand = len(raw_hands) - 1

    for h, hand_log in enumerate(log.hands):
        if winner is not None:
            return None
        # The deal: every seat's tiles, all distinct.
        deal = raw_hands[h]["deal"]
        if len(deal) != players:
            return None
        hands: list[set[int]] = []
        dealt = 0
        for tiles in deal:
            if type(tiles) is not list or len(tiles) != hand_size:
                return None
            held = set()
            for text in tiles:
                parsed = _TILE.get(text) if type(text) is str else None
                if parsed is None:
                    return None
                held.add(parsed[0])
            if len(held) != hand_size:
                return None
            hands.append(held)
            dealt += hand_size
        boneyard = _ALL.difference(*hands)
        if len(boneyard) != len(_ALL) - dealt:
            return None  # a tile dealt to two seats
        leader = hand_log.leader
        if leader >= players or (h > 0 and leaders is not None and leader not in leaders):
            return None

        # The table, in locals: per end W, E, N, S its open pip, its length, and what
        # its outermost tile adds to the count.
        pip = [0, 0, 0, 0]
        length = [0, 0, 0, 0]
        value = [0, 0, 0, 0]
        lead_done = False
        lead_west = lead_east = 0
        lead_double = False
        spinner_end = -1  # -1: no spinner yet; 4: the lead; 0 or 1: in arm W or E
        spinner_index = 0
        cross_open = False
        passes = 0
        turn = leader
        hand_end: str | None = None
        out_seat: int | None = None
        hand_points = [0] * team_count

        raw_moves = raw_hands[h]["moves"]
        for move in raw_moves:
            if hand_end is not None or type(move) is not dict:
                return None
            seat = move.get("seat")
            if seat != turn or type(seat) is not int:
                return None
            held = hands[turn]
            keys = move.keys()
            claimed = move.get("points")
            if claimed is not None and type(claimed) is not int and type(claimed) is not float:
                return None
            if "play" in move:
                if not keys <= _PLAY_KEYS:
                    return None
                text = move["play"]
                if type(text) is not str:
                    return None
                parsed = _TILE.get(text)
                if parsed is None:
                    return None
                tile, a, b = parsed
                if tile not in held:
                    return None
                end = move.get("end")
                if not lead_done:
                    if end is not None and (type(end) is not str or end not in _END_INDEX):
                        return None
                    lead_done = True
                    lead_west, lead_east = a, b
                    pip[0], pip[1] = a, b
                    if a == b:
                        lead_double = True
                        if spinner_on:
                            spinner_end = 4
                            pip[2] = pip[3] = a
                            cross_open = not sides_first
                else:
                    low = LOW[tile]
                    high = HIGH[tile]
                    reach = 4 if cross_open else 2
                    if end is None:
                        index = -1
                        for e in range(reach):
                            if pip[e] == low or pip[e] == high:
                                if index >= 0:
                                    return None  # ambiguous
                                index = e
                        if index < 0:
                            return None
                    else:
                        index = _END_INDEX.get(end, -1) if type(end) is str else -1
                        if index < 0 or index >= reach:
                            return None
                        if pip[index] != low and pip[index] != high:
                            return None
                    joined = pip[index]
                    outer = high if low == joined else low
                    length[index] += 1
                    pip[index] = outer
                    if low == high:
                        value[index] = 2 * outer
                        if spinner_end < 0 and spinner_on:
                            spinner_end = index
                            spinner_index = length[index] - 1
                            pip[2] = pip[3] = joined
                            cross_open = not sides_first
                    else:
                        value[index] = outer
                    if not cross_open and spinner_end >= 0:
                        if spinner_end == 4:
                            cross_open = length[0] > 0 and length[1] > 0
                        else:
                            cross_open = length[spinner_end] > spinner_index + 1
                held.discard(tile)
                # The count (RULES.md): outer ends, the lead where its sides are open.
                count = value[0] if length[0] else 0
                if length[1]:
                    count += value[1]
                if length[2]:
                    count += value[2]
                if length[3]:
                    count += value[3]
                if lead_double:
                    if not length[0] or not length[1]:
                        count += 2 * lead_west
                else:
                    if not length[0]:
                        count += lead_west
                    if not length[1]:
                        count += lead_east
                points = count if count > 0 and count % multiple == 0 else 0
                if claimed is not None and claimed != points:
                    return None
                passes = 0
                if points:
                    team = team_of[turn]
                    scores[team] += points
                    hand_points[team] += points
                    if immediately:
                        best = max(scores)
                        if best >= target and scores.count(best) == 1:
                            hand_end = "target"
                            winner = scores.index(best)
                            continue
                if not held:
                    hand_end = "domino"
                    out_seat = turn
                else:
                    turn = (turn + 1) % players
                continue

            # A draw or a pass: only for a seat that holds no tile that fits.
            if not lead_done:
                return None
            reach = 4 if cross_open else 2
            open_pips = set(pip[:reach])
            for tile in held:
                if LOW[tile] in open_pips or HIGH[tile] in open_pips:
                    return None
            if "draw" in move:
                if not keys <= _DRAW_KEYS or len(boneyard) <= reserve:
                    return None
                text = move["draw"]
                parsed = _TILE.get(text) if type(text) is str else None
                if parsed is None or parsed[0] not in boneyard:
                    return None
                if claimed:
                    return None
                boneyard.discard(parsed[0])
                held.add(parsed[0])
                continue
            if not keys <= _PASS_KEYS or move.get("pass") is not True:
                return None
            if len(boneyard) > reserve or claimed:
                return None
            passes += 1
            if passes >= players:
                hand_end = "block"
            else:
                turn = (turn + 1) % players

        moves_checked += len(raw_moves)
        settled = [0] * team_count
        if hand_end is None:
            if h < last_hand:
                return None
            results.append(HandResult("unfinished", hand_points, settled, list(scores)))
            break
        if hand_end != "target":
            left = [sum(PIPS[t] for t in held) for held in hands]
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
