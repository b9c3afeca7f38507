"""An independent reference implementation of the `fives/1` validator.

Written from /work/shared/RULES.md and /work/shared/FORMAT.md alone, for differential
testing against the real engine. Standard library only; nothing from the project is
imported. Clarity over speed: the layout is kept as explicit lists of placed tiles and the
open ends and the count are recomputed from scratch after every play.

Entry point: ``reference_report(doc) -> dict`` (never raises).
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------

FORMAT_NAME = "fives/1"

# Every tile of a double-six set, each written (low, high).
ALL_TILES = frozenset((a, b) for a in range(7) for b in range(a, 7))

END_NAMES = ("W", "E", "N", "S")

OPTION_NAMES = (
    "multiple",
    "hand_size",
    "spinner",
    "spinner_sides_first",
    "settlement",
    "settlement_divisor",
    "block_bonus",
    "target",
    "end_at_target",
    "next_leader",
    "boneyard_reserve",
    "scoring",
    "go_out_bonus",
    "partnership_end",
    "target_exact",
)

# The options every preset but Fives and Threes leaves as RULES.md's table says.
_FAMILY_DEFAULTS = {
    "scoring": "count",
    "go_out_bonus": 0,
    "partnership_end": "first-out",
    "target_exact": False,
}

PRESETS = {
    "all-fives": {
        "multiple": 5,
        "hand_size": {"2": 9, "3": 7, "4": 5},
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "subtract-own",
        "settlement_divisor": 1,
        "block_bonus": "difference",
        "target": {"2": 250, "3": 200, "4": 200},
        "end_at_target": "end-of-hand",
        "next_leader": "domino-winner",
        "boneyard_reserve": 0,
        **_FAMILY_DEFAULTS,
    },
    "muggins": {
        "multiple": 5,
        "hand_size": {"2": 7, "3": 5, "4": 5},
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "winner-takes",
        "settlement_divisor": 5,
        "block_bonus": "difference",
        "target": 250,
        "end_at_target": "end-of-hand",
        "next_leader": "hand-winner",
        "boneyard_reserve": 0,
        **_FAMILY_DEFAULTS,
    },
    "all-threes": {
        "multiple": 3,
        "hand_size": {"2": 7, "3": 5, "4": 5},
        "spinner": True,
        "spinner_sides_first": True,
        "settlement": "winner-takes",
        "settlement_divisor": 3,
        "block_bonus": "difference",
        "target": 250,
        "end_at_target": "end-of-hand",
        "next_leader": "hand-winner",
        "boneyard_reserve": 0,
        **_FAMILY_DEFAULTS,
    },
    # RULES.md, "Fives and Threes (preset `fives-and-threes`)".
    "fives-and-threes": {
        "multiple": 5,
        "hand_size": {"2": 7, "3": 5, "4": 5},
        "spinner": False,
        "spinner_sides_first": True,
        "settlement": "none",
        "settlement_divisor": 1,
        "block_bonus": "difference",
        "target": 61,
        "end_at_target": "immediately",
        "next_leader": "rotate",
        "boneyard_reserve": "all",
        "scoring": "fives-and-threes",
        "go_out_bonus": 1,
        "partnership_end": "both-out",
        "target_exact": True,
    },
}

METADATA_FIELDS = ("id", "club", "event", "played_at", "source")


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


def is_int(value) -> bool:
    """A JSON integer (bool is not a number here)."""
    return type(value) is int


def is_number(value) -> bool:
    """A JSON number (bool is not a number here)."""
    return type(value) in (int, float)


def parse_tile_as_written(text):
    """'a-b' -> (a, b) in the written order, or None if not a tile."""
    if not isinstance(text, str) or len(text) != 3 or text[1] != "-":
        return None
    if text[0] not in "0123456" or text[2] not in "0123456":
        return None
    return (int(text[0]), int(text[2]))


def parse_tile(text):
    """'a-b' -> (low, high), or None if not a tile."""
    written = parse_tile_as_written(text)
    if written is None:
        return None
    return (min(written), max(written))


def tile_text(tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def pips_of(tiles) -> int:
    return sum(a + b for a, b in tiles)


def round_to_multiple(value: int, multiple: int) -> int:
    """Nearest multiple of `multiple`, halves up (7 -> 5, 8 -> 10 with 5)."""
    # floor(value / multiple + 1/2) * multiple, in integers.
    return ((2 * value + multiple) // (2 * multiple)) * multiple


def divide_rounded(value: int, divisor: int) -> int:
    """value / divisor rounded to the nearest integer, halves up."""
    return (2 * value + divisor) // (2 * divisor)


# --------------------------------------------------------------------------------------
# The layout
# --------------------------------------------------------------------------------------


class Layout:
    """The tiles on the table.

    ``line`` is the west-east line, west first; each entry is a dict
    {"left": pip facing W, "right": pip facing E, "spinner": bool}.
    ``arms["N"]`` / ``arms["S"]`` are the tiles played on the spinner's up and down ends,
    innermost first; each entry is (inner pip, outer pip).
    """

    def __init__(self, spinner_on: bool, sides_first: bool):
        self.spinner_on = spinner_on
        self.sides_first = sides_first
        self.line = []
        self.arms = {"N": [], "S": []}

    def is_empty(self) -> bool:
        return not self.line

    def has_spinner(self) -> bool:
        return any(placed["spinner"] for placed in self.line)

    def spinner_index(self):
        for index, placed in enumerate(self.line):
            if placed["spinner"]:
                return index
        return None

    def open_ends(self) -> dict:
        """{end name: open pip}, in the order W, E, N, S."""
        ends = {}
        if not self.line:
            return ends
        ends["W"] = self.line[0]["left"]
        ends["E"] = self.line[-1]["right"]
        k = self.spinner_index()
        if k is not None:
            west_side_covered = k > 0
            east_side_covered = k < len(self.line) - 1
            both_sides_covered = west_side_covered and east_side_covered
            if both_sides_covered or not self.sides_first:
                spinner_pip = self.line[k]["left"]
                for name in ("N", "S"):
                    arm = self.arms[name]
                    ends[name] = arm[-1][1] if arm else spinner_pip
        return ends

    def count(self) -> int:
        """The count, straight from the RULES.md bullet list."""
        if not self.line:
            return 0
        total = 0
        if len(self.line) == 1:
            # A lone lead tile counts both its halves (5-5 counts 10; 3-2 counts 5).
            only = self.line[0]
            total += only["left"] + only["right"]
        else:
            # Outer end of the line: open pip of its outermost tile, or both halves
            # when that tile is a double (a double at a line end has one side
            # covered, the spinner included). A spinner with both sides covered is
            # never outermost, so it counts nothing.
            west = self.line[0]
            if west["left"] == west["right"]:
                total += west["left"] + west["right"]
            else:
                total += west["left"]
            east = self.line[-1]
            if east["left"] == east["right"]:
                total += east["left"] + east["right"]
            else:
                total += east["right"]
        for name in ("N", "S"):
            arm = self.arms[name]
            if arm:  # N and S count nothing until a tile is played on them
                inner, outer = arm[-1]
                total += inner + outer if inner == outer else outer
        return total

    def place_lead(self, written):
        """Lead 'a-b': a faces W, b faces E."""
        a, b = written
        self.line.append({"left": a, "right": b, "spinner": self._becomes_spinner(written)})

    def place(self, tile, end: str):
        """Join `tile` to open end `end` (the caller has checked that it fits)."""
        pip = self.open_ends()[end]
        a, b = tile
        outer = b if a == pip else a
        becomes_spinner = self._becomes_spinner(tile)
        if end == "W":
            self.line.insert(0, {"left": outer, "right": pip, "spinner": becomes_spinner})
        elif end == "E":
            self.line.append({"left": pip, "right": outer, "spinner": becomes_spinner})
        else:
            # N/S exist only once there is a spinner, so this is never the spinner.
            self.arms[end].append((pip, outer))

    def _becomes_spinner(self, tile) -> bool:
        return self.spinner_on and tile[0] == tile[1] and not self.has_spinner()

    def describe(self) -> str:
        ends = self.open_ends()
        return ", ".join(f"{name} {pip}" for name, pip in ends.items()) or "none"


def score_count(count, scoring, multiple):
    """What a play leaving `count` on the table scores (before any go-out bonus or bust)."""
    if count <= 0:
        return 0
    if scoring == "count":
        return count if count % multiple == 0 else 0
    # "fives-and-threes": one point per five when 5 divides the count, plus one per three
    # when 3 divides it.
    fives = count // 5 if count % 5 == 0 else 0
    threes = count // 3 if count % 3 == 0 else 0
    return fives + threes


def simulate_plays(plays, *, spinner=True, sides_first=True, multiple=5):
    """Lay a sequence of plays [("a-b", end or None), ...] (the first is the lead) and
    return, after each, (open ends dict, count, points scored). For tests."""
    layout = Layout(spinner, sides_first)
    out = []
    for text, end in plays:
        if layout.is_empty():
            layout.place_lead(parse_tile_as_written(text))
        else:
            layout.place(parse_tile(text), end)
        count = layout.count()
        points = count if count > 0 and count % multiple == 0 else 0
        out.append((layout.open_ends(), count, points))
    return out


# --------------------------------------------------------------------------------------
# Settlement
# --------------------------------------------------------------------------------------


def settle(rules, seat_pips, team_of, num_teams, end, out_seat):
    """Settlement of a hand that ended by 'domino' or 'block'.

    Returns (settlement per team, winning team or None). The winning team is the one
    defined by RULES.md "winner-takes" (used by next_leader "hand-winner" too).
    """
    multiple = rules["multiple"]
    settlement = [0] * num_teams
    team_pips = [0] * num_teams
    for seat, pips in enumerate(seat_pips):
        team_pips[team_of[seat]] += pips

    if end == "domino":
        winner = team_of[out_seat]
    else:
        fewest = min(team_pips)
        holders = [t for t in range(num_teams) if team_pips[t] == fewest]
        winner = holders[0] if len(holders) == 1 else None

    if rules["settlement"] == "none":
        pass  # nothing is settled; the winner above still names the next leader
    elif rules["settlement"] == "subtract-own":
        for seat, pips in enumerate(seat_pips):
            settlement[team_of[seat]] -= round_to_multiple(pips, multiple)
    elif winner is not None:
        total = sum(team_pips[t] for t in range(num_teams) if t != winner)
        if end == "block" and rules["block_bonus"] == "difference":
            total -= team_pips[winner]
        rounded = round_to_multiple(total, multiple)
        settlement[winner] += divide_rounded(rounded, rules["settlement_divisor"])
    return settlement, winner


# --------------------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------------------


class _Fail(Exception):
    def __init__(self, code, message, hand=None, move=None, seat=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hand = hand
        self.move = move
        self.seat = seat


def _schema(message, hand=None, move=None):
    return _Fail("schema", message, hand, move, None)


def check_schema(doc):
    """Raise _Fail('schema') for anything not shaped like a fives/1 log."""
    if not isinstance(doc, dict):
        raise _schema("$: the document is not an object")

    if "format" not in doc:
        raise _schema("$.format: missing")
    if doc["format"] != FORMAT_NAME or not isinstance(doc["format"], str):
        raise _schema(f"$.format: must be {FORMAT_NAME!r}")

    if "ruleset" not in doc:
        raise _schema("$.ruleset: missing")
    if not isinstance(doc["ruleset"], (str, dict)):
        raise _schema("$.ruleset: must be a preset name or an object")

    if "players" not in doc:
        raise _schema("$.players: missing")
    players = doc["players"]
    if not isinstance(players, list):
        raise _schema("$.players: must be a list")
    for i, name in enumerate(players):
        if not isinstance(name, str):
            raise _schema(f"$.players[{i}]: must be a string")

    teams = doc.get("teams")
    if teams is not None:
        if not isinstance(teams, list):
            raise _schema("$.teams: must be a list or null")
        for i, team in enumerate(teams):
            if not isinstance(team, list):
                raise _schema(f"$.teams[{i}]: must be a list of seats")
            for j, seat in enumerate(team):
                if not is_int(seat):
                    raise _schema(f"$.teams[{i}][{j}]: must be an integer")

    for field in METADATA_FIELDS:
        value = doc.get(field)
        if value is not None and not isinstance(value, str):
            raise _schema(f"$.{field}: must be a string")

    if "hands" not in doc:
        raise _schema("$.hands: missing")
    hands = doc["hands"]
    if not isinstance(hands, list):
        raise _schema("$.hands: must be a list")
    if not hands:
        raise _schema("$.hands: at least one hand is required")
    for h, hand in enumerate(hands):
        check_hand_schema(hand, h)

    final_scores = doc.get("final_scores")
    if final_scores is not None:
        if not isinstance(final_scores, list):
            raise _schema("$.final_scores: must be a list of numbers")
        for i, value in enumerate(final_scores):
            if not is_number(value):
                raise _schema(f"$.final_scores[{i}]: must be a number")


def check_hand_schema(hand, h):
    where = f"$.hands[{h}]"
    if not isinstance(hand, dict):
        raise _schema(f"{where}: must be an object", h)

    if "leader" not in hand:
        raise _schema(f"{where}.leader: missing", h)
    if not is_int(hand["leader"]) or hand["leader"] < 0:
        raise _schema(f"{where}.leader: must be a non-negative integer", h)

    if "deal" not in hand:
        raise _schema(f"{where}.deal: missing", h)
    deal = hand["deal"]
    if not isinstance(deal, list):
        raise _schema(f"{where}.deal: must be a list of lists of tiles", h)
    for s, seat_tiles in enumerate(deal):
        if not isinstance(seat_tiles, list):
            raise _schema(f"{where}.deal[{s}]: must be a list of tiles", h)
        for t, text in enumerate(seat_tiles):
            if not isinstance(text, str):
                raise _schema(f"{where}.deal[{s}][{t}]: must be a string", h)

    if "moves" not in hand:
        raise _schema(f"{where}.moves: missing", h)
    moves = hand["moves"]
    if not isinstance(moves, list):
        raise _schema(f"{where}.moves: must be a list", h)
    for m, move in enumerate(moves):
        check_move_schema(move, h, m)


def check_move_schema(move, h, m):
    where = f"$.hands[{h}].moves[{m}]"
    if not isinstance(move, dict):
        raise _schema(f"{where}: must be an object", h, m)
    if "seat" not in move:
        raise _schema(f"{where}.seat: missing", h, m)
    if not is_int(move["seat"]) or move["seat"] < 0:
        raise _schema(f"{where}.seat: must be a non-negative integer", h, m)
    # An optional field set to null is treated as absent.
    kinds = [k for k in ("play", "draw", "pass") if move.get(k) is not None]
    if len(kinds) != 1:
        raise _schema(f"{where}: needs exactly one of play, draw, pass", h, m)
    kind = kinds[0]
    if kind in ("play", "draw") and not isinstance(move[kind], str):
        raise _schema(f"{where}.{kind}: must be a tile string", h, m)
    if kind == "pass" and move["pass"] is not True:
        raise _schema(f"{where}.pass: must be true", h, m)
    end = move.get("end")
    if end is not None and end not in END_NAMES:
        raise _schema(f"{where}.end: must be one of W, E, N, S", h, m)
    points = move.get("points")
    if points is not None and not is_number(points):
        raise _schema(f"{where}.points: must be a number", h, m)


# --------------------------------------------------------------------------------------
# Ruleset
# --------------------------------------------------------------------------------------


def _per_count_or_positive_int(value) -> bool:
    if is_int(value):
        return 1 <= value <= 10**9
    if isinstance(value, dict):
        # Some of the counts "2", "3", "4" (the one in use must be named: resolve_ruleset).
        if not value or not set(value.keys()) <= {"2", "3", "4"}:
            return False
        return all(is_int(v) and 1 <= v <= 10**9 for v in value.values())
    return False


OPTION_CHECKS = {
    "multiple": lambda v: is_int(v) and v in (3, 5),
    "hand_size": _per_count_or_positive_int,
    "spinner": lambda v: isinstance(v, bool),
    "spinner_sides_first": lambda v: isinstance(v, bool),
    "settlement": lambda v: isinstance(v, str) and v in ("subtract-own", "winner-takes", "none"),
    "settlement_divisor": lambda v: is_int(v) and v in (1, 3, 5),
    "block_bonus": lambda v: isinstance(v, str) and v in ("difference", "losers-total"),
    "target": _per_count_or_positive_int,
    "end_at_target": lambda v: isinstance(v, str) and v in ("end-of-hand", "immediately"),
    "next_leader": lambda v: (
        isinstance(v, str) and v in ("domino-winner", "hand-winner", "rotate", "any")
    ),
    "boneyard_reserve": lambda v: (is_int(v) and v in (0, 1, 2)) or v == "all",
    "scoring": lambda v: isinstance(v, str) and v in ("count", "fives-and-threes"),
    "go_out_bonus": lambda v: is_int(v) and v in (0, 1),
    "partnership_end": lambda v: isinstance(v, str) and v in ("first-out", "both-out"),
    "target_exact": lambda v: isinstance(v, bool),
}


def check_ruleset(ruleset):
    """Preset plus overrides -> (base name, options dict). Raises _Fail('ruleset')."""
    if isinstance(ruleset, str):
        base, overrides = ruleset, {}
    else:
        if "base" not in ruleset:
            raise _Fail("ruleset", "ruleset: no base preset")
        base = ruleset["base"]
        overrides = {k: v for k, v in ruleset.items() if k != "base"}
    if not isinstance(base, str) or base not in PRESETS:
        raise _Fail("ruleset", f"ruleset: unknown preset {base!r}")
    options = dict(PRESETS[base])
    for name, value in overrides.items():
        if name not in OPTION_CHECKS:
            raise _Fail("ruleset", f"ruleset: unknown option {name!r}")
        if not OPTION_CHECKS[name](value):
            raise _Fail("ruleset", f"ruleset: bad value for {name}: {value!r}")
        options[name] = value
    return base, options


def resolve_ruleset(base, options, num_players):
    resolved = {"base": base}
    for name in OPTION_NAMES:
        value = options[name]
        if isinstance(value, dict):
            if str(num_players) not in value:
                raise _Fail("ruleset", f"ruleset: {name} names no value for {num_players}")
            value = value[str(num_players)]
        resolved[name] = value
    if resolved["hand_size"] * num_players > 28:
        raise _Fail(
            "ruleset",
            f"ruleset: {num_players} hands of {resolved['hand_size']} do not fit in 28 tiles",
        )
    return resolved


# --------------------------------------------------------------------------------------
# The validator
# --------------------------------------------------------------------------------------


def _empty_report():
    return {
        "valid": False,
        "outcome": "unfinished",
        "ruleset": None,
        "errors": [],
        "warnings": [],
        "scores": [],
        "winner": None,
        "hands": [],
    }


class _Validator:
    def __init__(self, doc):
        self.doc = doc
        self.report = _empty_report()
        self.rules = None
        self.num_players = 0
        self.team_of = []
        self.num_teams = 0
        self.scores = []  # scores after the completed hands
        self.match_winner = None

    # ---- entry ----------------------------------------------------------------------

    def run(self):
        try:
            self._validate()
        except _Fail as fail:
            self.report["errors"].append(
                {
                    "code": fail.code,
                    "hand": fail.hand,
                    "move": fail.move,
                    "seat": fail.seat,
                    "message": fail.message,
                }
            )
        report = self.report
        report["valid"] = not report["errors"]
        report["winner"] = self.match_winner
        report["outcome"] = "complete" if self.match_winner is not None else "unfinished"
        report["scores"] = list(self.scores)
        if report["valid"]:
            final_scores = self.doc.get("final_scores")
            if final_scores is not None and not _same_numbers(final_scores, self.scores):
                report["warnings"].append(
                    {
                        "code": "score-mismatch",
                        "hand": None,
                        "move": None,
                        "seat": None,
                        "message": f"final_scores {final_scores} but the rules give {self.scores}",
                    }
                )
        return report

    def _validate(self):
        doc = self.doc
        check_schema(doc)
        base, options = check_ruleset(doc["ruleset"])
        self._check_players(doc["players"])
        self.rules = resolve_ruleset(base, options, self.num_players)
        self.report["ruleset"] = dict(self.rules)
        self._check_teams(doc.get("teams"))
        self.scores = [0] * self.num_teams
        self._play_hands(doc["hands"])

    # ---- players and teams ----------------------------------------------------------

    def _check_players(self, players):
        if len(players) < 2 or len(players) > 4:
            raise _Fail("players", f"players: {len(players)} players (2 to 4 allowed)")
        for i, name in enumerate(players):
            if name == "":
                raise _Fail("players", f"players: name {i + 1} is empty")
            if name in players[:i]:
                raise _Fail("players", f"players: {name!r} is repeated")
        self.num_players = len(players)

    def _check_teams(self, teams):
        n = self.num_players
        if teams is None:
            self.team_of = list(range(n))
            self.num_teams = n
            return
        if n != 4:
            raise _Fail("teams", f"teams: not allowed with {n} players")
        if len(teams) != 2 or any(len(team) != 2 for team in teams):
            raise _Fail("teams", "teams: must be two pairs of seats")
        seats = [seat for team in teams for seat in team]
        if sorted(seats) != [0, 1, 2, 3]:
            raise _Fail("teams", "teams: must cover each seat exactly once")
        self.team_of = [0] * n
        for t, team in enumerate(teams):
            for seat in team:
                self.team_of[seat] = t
        self.num_teams = 2

    # ---- hands ----------------------------------------------------------------------

    def _play_hands(self, hands):
        previous = None  # summary of the hand before: dict(end, out_seat, seat_pips)
        for h, hand in enumerate(hands):
            if self.match_winner is not None:
                raise _Fail("after-match-end", f"hand {h + 1}: the match was already won", h)
            if previous is not None and previous["end"] == "unfinished":
                raise _Fail(
                    "unfinished-hand",
                    f"hand {h}: stops before it ends, yet hand {h + 1} follows",
                    h - 1,
                )
            self._check_deal(hand["deal"], h)
            self._check_leader(hand["leader"], h, previous)
            previous = self._play_hand(hand, h, is_last=(h == len(hands) - 1))

    def _check_deal(self, deal, h):
        n = self.num_players
        size = self.rules["hand_size"]
        if len(deal) != n:
            raise _Fail("deal", f"hand {h + 1}: {len(deal)} hands dealt for {n} players", h)
        seen = set()
        for seat, seat_tiles in enumerate(deal):
            if len(seat_tiles) != size:
                raise _Fail(
                    "deal",
                    f"hand {h + 1}: seat {seat + 1} has {len(seat_tiles)} tiles, not {size}",
                    h,
                    None,
                    seat,
                )
            for text in seat_tiles:
                tile = parse_tile(text)
                if tile is None:
                    raise _Fail("deal", f"hand {h + 1}: {text!r} is not a tile", h, None, seat)
                if tile in seen:
                    raise _Fail("deal", f"hand {h + 1}: {text} dealt twice", h, None, seat)
                seen.add(tile)

    def _check_leader(self, leader, h, previous):
        n = self.num_players
        if leader >= n:
            raise _Fail("wrong-leader", f"hand {h + 1}: no seat {leader + 1}", h, None, leader)
        if previous is None:
            return  # the first hand: anyone
        allowed = self._allowed_leaders(previous)
        if allowed is not None and leader not in allowed:
            raise _Fail(
                "wrong-leader",
                f"hand {h + 1}: seat {leader + 1} leads, the ruleset names "
                f"{' or '.join(str(s + 1) for s in sorted(allowed))}",
                h,
                None,
                leader,
            )

    def _allowed_leaders(self, previous):
        """Seats allowed to lead after `previous`, or None for anyone."""
        rule = self.rules["next_leader"]
        if rule == "any":
            return None
        if rule == "rotate":
            # The seat after the one that led the hand before, whoever won it.
            return {(previous["leader"] + 1) % self.num_players}
        if previous["end"] == "domino":
            return {previous["out_seat"]}
        if rule == "domino-winner":
            return None  # after a blocked hand, anyone
        # hand-winner after a blocked hand
        winner = previous["winner"]
        if winner is None:
            return None
        seats = [s for s in range(self.num_players) if self.team_of[s] == winner]
        fewest = min(previous["seat_pips"][s] for s in seats)
        return {s for s in seats if previous["seat_pips"][s] == fewest}

    def _partner_of(self, seat):
        """The partner of `seat` when partners play on until both are out, else None."""
        if self.rules["partnership_end"] != "both-out" or self.num_teams == self.num_players:
            return None
        for other in range(self.num_players):
            if other != seat and self.team_of[other] == self.team_of[seat]:
                return other
        return None

    def _match_winner_now(self, scores):
        target = self.rules["target"]
        for t, score in enumerate(scores):
            if score >= target and all(score > other for u, other in enumerate(scores) if u != t):
                return t
        return None

    def _play_hand(self, hand, h, is_last):
        rules = self.rules
        n = self.num_players
        holdings = [{parse_tile(text) for text in seat_tiles} for seat_tiles in hand["deal"]]
        dealt = set().union(*holdings)
        boneyard = set(ALL_TILES) - dealt
        layout = Layout(rules["spinner"], rules["spinner_sides_first"])
        hand_points = [0] * self.num_teams
        turn = hand["leader"]
        # RULES.md: the target is checked at each play under "immediately", and always
        # under target_exact.
        at_once = rules["end_at_target"] == "immediately" or rules["target_exact"]
        no_drawing = rules["boneyard_reserve"] == "all"

        def still_in(seat):
            return bool(holdings[seat])

        def next_turn(seat):
            # A seat that is out (only possible while its partner plays on) has no turn.
            nxt = (seat + 1) % n
            while not still_in(nxt):
                nxt = (nxt + 1) % n
            return nxt

        passes_in_a_row = 0
        ended = None  # "domino", "block" or "target"
        out_seat = None
        summary = None  # set once the hand has ended and been recorded

        def playable(seat):
            if layout.is_empty():
                return bool(holdings[seat])
            ends = layout.open_ends()
            return any(pip in tile for tile in holdings[seat] for pip in ends.values())

        for m, move in enumerate(hand["moves"]):
            seat = move["seat"]

            def fail(code, message, m=m, seat=seat):
                return _Fail(code, f"hand {h + 1}, move {m + 1}: {message}", h, m, seat)

            if self.match_winner is not None:
                raise fail("after-match-end", "the match was already won")
            if ended is not None:
                raise fail("after-hand-end", f"the hand already ended ({ended})")
            if seat != turn:
                raise fail("wrong-turn", f"seat {seat + 1} moves, it is seat {turn + 1}'s turn")

            expected_points = 0
            if move.get("play") is not None:
                text = move["play"]
                tile = parse_tile(text)
                if tile is None or tile not in holdings[seat]:
                    raise fail("not-in-hand", f"seat {seat + 1} does not hold {text!r}")
                if layout.is_empty():
                    layout.place_lead(parse_tile_as_written(text))  # any `end` is ignored
                else:
                    ends = layout.open_ends()
                    fitting = [name for name, pip in ends.items() if pip in tile]
                    if not fitting:
                        raise fail(
                            "no-match",
                            f"{text} matches no open end (open: {layout.describe()})",
                        )
                    end = move.get("end")
                    if end is not None:
                        if end not in ends or ends[end] not in tile:
                            raise fail(
                                "bad-end",
                                f"{text} cannot go on {end} (open: {layout.describe()})",
                            )
                    else:
                        if len(fitting) > 1:
                            raise fail(
                                "ambiguous-end",
                                f"{text} fits {', '.join(fitting)}: name the end",
                            )
                        end = fitting[0]
                    layout.place(tile, end)
                holdings[seat].remove(tile)
                passes_in_a_row = 0
                count = layout.count()
                expected_points = score_count(count, rules["scoring"], rules["multiple"])
                if not holdings[seat]:
                    partner = self._partner_of(seat)
                    if partner is None or not holdings[partner]:
                        ended = "domino"
                        out_seat = seat
                        expected_points += rules["go_out_bonus"]
                team = self.team_of[seat]
                if rules["target_exact"]:
                    before = self.scores[team] + hand_points[team]
                    if before + expected_points > rules["target"]:
                        expected_points = 0  # a bust: the move scores nothing at all
                hand_points[team] += expected_points
                if ended is None:
                    turn = next_turn(seat)
                if at_once and expected_points > 0:
                    running = [s + p for s, p in zip(self.scores, hand_points, strict=True)]
                    winner = self._match_winner_now(running)
                    if winner is not None:
                        ended = "target"
                        self.match_winner = winner
            elif move.get("draw") is not None:
                text = move["draw"]
                if playable(seat):
                    raise fail("draw-when-playable", f"seat {seat + 1} holds a playable tile")
                if no_drawing or len(boneyard) <= rules["boneyard_reserve"]:
                    raise fail("boneyard-empty", "no more draws are allowed")
                tile = parse_tile(text)
                if tile is None or tile not in boneyard:
                    raise fail("not-in-boneyard", f"{text!r} is not in the boneyard")
                boneyard.remove(tile)
                holdings[seat].add(tile)
                # the seat keeps its turn
            else:  # pass
                if playable(seat):
                    raise fail("pass-when-playable", f"seat {seat + 1} holds a playable tile")
                if not no_drawing and len(boneyard) > rules["boneyard_reserve"]:
                    raise fail("pass-must-draw", f"seat {seat + 1} could still draw")
                passes_in_a_row += 1
                if passes_in_a_row == sum(1 for s in range(n) if still_in(s)):
                    ended = "block"
                else:
                    turn = next_turn(seat)

            claimed = move.get("points")
            if claimed is not None and claimed != expected_points:
                self.report["warnings"].append(
                    {
                        "code": "points-mismatch",
                        "hand": h,
                        "move": m,
                        "seat": seat,
                        "message": f"claimed {claimed} points, the rules give {expected_points}",
                    }
                )

            if ended is not None and summary is None:
                summary = self._finish_hand(ended, holdings, hand_points, out_seat)
                summary["leader"] = hand["leader"]

        if ended is None:
            if is_last:
                self._commit_hand("unfinished", hand_points, [0] * self.num_teams)
            return {"end": "unfinished"}
        return summary

    def _finish_hand(self, end, holdings, hand_points, out_seat):
        """Settle (unless the target stopped the hand), record the hand, check the target."""
        if end == "target":
            self._commit_hand("target", hand_points, [0] * self.num_teams)
            return {"end": "target"}
        seat_pips = [pips_of(tiles) for tiles in holdings]
        settlement, hand_winner = settle(
            self.rules, seat_pips, self.team_of, self.num_teams, end, out_seat
        )
        if self.rules["target_exact"]:
            # A gain that would take the team past the target is not scored.
            for t in range(self.num_teams):
                reached = self.scores[t] + hand_points[t]
                if settlement[t] > 0 and reached + settlement[t] > self.rules["target"]:
                    settlement[t] = 0
        self._commit_hand(end, hand_points, settlement)
        # The project's documented reading (docs/engine.md): a settlement that
        # brings a team to the target wins the match under either end_at_target; with
        # "immediately" a scoring play also wins it at once.
        self.match_winner = self._match_winner_now(self.scores)
        return {"end": end, "out_seat": out_seat, "seat_pips": seat_pips, "winner": hand_winner}

    def _commit_hand(self, end, points, settlement):
        self.scores = [s + p + x for s, p, x in zip(self.scores, points, settlement, strict=True)]
        self.report["hands"].append(
            {
                "end": end,
                "points": list(points),
                "settlement": list(settlement),
                "scores": list(self.scores),
            }
        )


def _same_numbers(claimed, computed) -> bool:
    if len(claimed) != len(computed):
        return False
    return all(a == b for a, b in zip(claimed, computed, strict=True))


def reference_report(doc) -> dict:
    """Validate a parsed fives/1 log; return the validation report. Never raises."""
    try:
        return _Validator(doc).run()
    except Exception as exc:  # a bug in this reference, made visible, never raised
        report = _empty_report()
        report["errors"].append(
            {
                "code": "reference-internal-error",
                "hand": None,
                "move": None,
                "seat": None,
                "message": f"{type(exc).__name__}: {exc}",
            }
        )
        return report
