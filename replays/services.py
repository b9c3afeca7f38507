"""Replays of stored matches: the engine's states after every move, and the score chart."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any, NamedTuple

import msgspec
import zstandard
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, Min, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.cache import cached_for_match
from games.engine import missed_points
from games.engine.replay import Replay, replay_match
from games.models import Match
from games.presentation import end_names, team_names

from .models import RatingScope, SeatResult, StoredReplay
from .ratings import SHOWN_BASE, ratings_mark_dirty, ratings_recompute
from .stats import match_results_store


def matches_review(*, match_ids: list[int]) -> list[int]:
    """Store the figures of these matches and mark the ratings of their clubs (and of all
    clubs) dirty from the earliest of them; return the rating scopes to recompute."""
    previous = dict(
        SeatResult.objects.filter(match_id__in=match_ids)
        .values("club_id")
        .annotate(first=Min("played_at"))
        .values_list("club_id", "first")
    )
    match_results_store(match_ids=match_ids)
    changed = dict(
        SeatResult.objects.filter(match_id__in=match_ids)
        .values("club_id")
        .annotate(first=Min("played_at"))
        .values_list("club_id", "first")
    )
    scopes: set[int] = set()
    for club_id in set(previous) | set(changed):
        times = [t for t in (previous.get(club_id), changed.get(club_id)) if t is not None]
        scopes.update(ratings_mark_dirty(club_id=club_id, since=min(times)))
    return sorted(scopes)


def matches_forget(*, club_id: int, since: datetime) -> list[int]:
    """Mark a club's ratings dirty after its matches from ``since`` went away; return the
    rating scopes to recompute."""
    return ratings_mark_dirty(club_id=club_id, since=since)


def matches_unreviewed(*, limit: int = 2000) -> list[int]:
    """Return valid stored matches, older than the periodic job's interval, that have no
    figures yet: their review was lost."""
    cutoff = timezone.now() - timedelta(seconds=settings.FIVES_REQUEUE_AFTER)
    return list(
        Match.objects.counted()
        # An anti-join on the seat results' key (match, seat), not a join and a filter.
        .filter(~Exists(SeatResult.objects.filter(match=OuterRef("pk"))))
        .filter(errors=[], created_at__lt=cutoff)
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )


def scopes_dirty() -> list[int]:
    """Return the rating scopes marked dirty: a recomputation is owed to them."""
    return list(
        RatingScope.objects.filter(dirty_from__isnull=False)
        .order_by("id")
        .values_list("id", flat=True)
    )


def ratings_update(*, scope_id: int) -> int:
    """Bring a scope's ratings up to date; return how many matches were rated."""
    return ratings_recompute(scope_id=scope_id)


def match_seat_results(*, match_id: int) -> list[SeatResult]:
    """Return the per-seat figures of a match, seat by seat (empty before its review)."""
    return list(
        SeatResult.objects.filter(match_id=match_id).select_related("player").order_by("seat")
    )


# A match of at least this many moves keeps its replay (``StoredReplay``): walking a stored
# match and writing its states costs about 40 µs a move (a 200-hand match's 4,900 moves:
# about 200 ms), so a shorter one's first replay is made in about 20 ms, and its states (some
# 30 bytes a move, compressed) are not worth keeping beside its packed hands.
REPLAY_KEPT_FROM = 500


class ReplayParts(NamedTuple):
    """What a replay's answers are made of, less the players' names (a rename changes
    those): ``body``, the tail of the API's answer as JSON (``rules``, ``valid``,
    ``states``), and ``page``, what the page embeds of the states."""

    body: bytes
    page: dict[str, Any]


def replay_parts_made(*, match: Match) -> ReplayParts:
    """Walk the stored match once and make its ``ReplayParts``. ``match`` comes with its log
    (``Match.objects.with_log()``)."""
    replay = _walk(match)
    return ReplayParts(_body(match, replay), _page(match, replay))


def _walk(match: Match) -> Replay:
    # One walk of the stored log, each play's best read from the figures stored with it.
    return replay_match(match.log(), [hand.facts for hand in match.hands])


def _body(match: Match, replay: Replay) -> bytes:
    return msgspec.json.encode(
        {"rules": match.rules, "valid": replay.report.valid, "states": replay.states}
    )


def _page(match: Match, replay: Replay) -> dict[str, Any]:
    return {"valid": replay.report.valid} | replay_page_part(
        replay.states, seats=match.player_count
    )


def replay_body(*, match: Match) -> bytes:
    """Return the body of the match's ``ReplayParts``: kept when made for this version of
    the match, else made now (and kept, for a long match). ``match`` comes with its log."""
    kept = _kept(match, "body")
    if kept:
        return zstandard.ZstdDecompressor().decompress(kept)
    if match.move_count >= REPLAY_KEPT_FROM:
        return replay_parts(match).body
    return _body(match, _walk(match))


def replay_page(*, match: Match) -> dict[str, Any]:
    """Return the page part of the match's ``ReplayParts``, as ``replay_body`` does."""
    kept = _kept(match, "page")
    if kept:
        return msgspec.json.decode(zstandard.ZstdDecompressor().decompress(kept))
    if match.move_count >= REPLAY_KEPT_FROM:
        return replay_parts(match).page
    return _page(match, _walk(match))


def _kept(match: Match, field: str) -> bytes | None:
    """Return one compressed part of the match's kept replay, if kept for this version."""
    found = StoredReplay.objects.filter(match_id=match.pk, version=match.cache_version)
    value = found.values_list(field, flat=True).first()
    return bytes(value) if value is not None else None


def replay_parts(match: Match) -> ReplayParts:
    """Make the match's ``ReplayParts`` and keep them."""
    parts = replay_parts_made(match=match)
    replay_keep(match=match, parts=parts)
    return parts


def replay_keep(*, match: Match, parts: ReplayParts) -> None:
    """Keep a match's ``ReplayParts`` for its current version. Two workers making the same
    match's at once make the same bytes: the second to write finds the row and replaces it,
    or, both inserting, gives way."""
    compress = zstandard.ZstdCompressor(level=3).compress
    values = {
        "version": match.cache_version,
        "body": compress(parts.body),
        "page": compress(msgspec.json.encode(parts.page)),
    }
    try:
        with transaction.atomic():
            StoredReplay.objects.update_or_create(match_id=match.pk, defaults=values)
    except IntegrityError:
        pass  # the other one's row stands: the same replay


def replays_store(*, match_ids: list[int]) -> int:
    """Make and keep the replays of the long matches among these (just stored or rescored),
    so that no person waits for their first replay; return how many were made."""
    made = 0
    long_matches = Match.objects.filter(pk__in=match_ids, move_count__gte=REPLAY_KEPT_FROM)
    for match in long_matches.with_log():
        if not StoredReplay.objects.filter(match=match, version=match.cache_version).exists():
            replay_parts(match)
            made += 1
    return made


def replay_header(*, match: Match) -> dict[str, Any]:
    """Return what a replay says of its players (the part a rename changes)."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    return {
        "match": match.pk,
        "players": [seat.player.handle for seat in seats],
        "teams": match.teams,
        "team_names": team_names(match),
        "team_of": [seat.team for seat in seats],
    }


def match_replay_json(*, match: Match) -> bytes:
    """Return ``match_replay`` as JSON bytes (the replay API's answer), made once per version
    of the match and kept under one key, which the API and the pages both read.

    The answer is its header (``replay_header``) and the body of its ``ReplayParts`` joined
    as bytes: the same bytes as encoding ``match_replay`` whole."""

    def compute() -> bytes:
        full = Match.objects.with_log().get(pk=match.pk)
        header = msgspec.json.encode(replay_header(match=full))
        return header[:-1] + b"," + replay_body(match=full)[1:]

    return cached_for_match(match, "replay", compute)


def match_replay(*, match: Match) -> dict[str, Any]:
    """Return what a replay page draws: the players and the engine's state after each move,
    made from the stored match in one walk (the reference ``match_replay_json`` is held to).

    ``match`` must come with its seats and hands loaded (``Match.objects.with_log()``).
    """
    # One walk of the stored log, each play's best read from the figures stored with it.
    replay = replay_match(match.log(), [hand.facts for hand in match.hands])
    return replay_header(match=match) | {
        "rules": match.rules,
        "valid": replay.report.valid,
        "states": replay.states,
    }


# A match with more positions than this sends its first hand with the page and fetches the
# rest from the replay API after the first paint. Below it the page carries every position,
# packed (``states_packed``): a 200-hand match's 4,900 positions are about 700 KB of JSON
# that gzip to under 80 KB, where the API's states are 4 MB (210 KB gzipped).
PAGE_STATES = 15_000


def layout_short(layout: dict[str, Any]) -> dict[str, str]:
    """Return a replay state's layout written short, as layout.js's ``expand`` reads it."""
    if not layout["lead"]:
        return {}
    out = {"l": layout["lead"]}
    for arm, tiles in layout["arms"].items():
        if tiles:
            out[arm] = " ".join(entry["tile"] for entry in tiles)
    spinner = layout["spinner"]
    if spinner is not None:
        out["s"] = spinner_short(spinner)
    return out


def spinner_short(spinner: dict[str, Any] | None) -> str | None:
    """Return where the spinner lies, written short ("L" the lead, "E3"), or None."""
    if spinner is None:
        return None
    return "L" if spinner["arm"] is None else f"{spinner['arm']}{spinner['index']}"


def layout_counts(layout: dict[str, Any], last: dict[str, str]) -> str | None:
    """Return how many tiles of each arm (W E N S) of its hand's last layout ``last``
    (written short) ``layout`` holds, as "2 1 0 0"; "" for an empty table; None when
    ``layout`` is not the start of ``last``."""
    if not layout["lead"]:
        return ""
    if layout["lead"] != last.get("l"):
        return None
    counts = []
    for arm in "WENS":
        tiles = [entry["tile"] for entry in layout["arms"][arm]]
        if last.get(arm, "").split(" ")[: len(tiles)] != tiles:
            return None
        counts.append(str(len(tiles)))
    return " ".join(counts)


def state_flat(state: dict[str, Any], last: dict[str, str]) -> dict[str, Any]:
    """Return what the page draws of a state, flat and short: no legal plays (the page
    does not list them), the seat of a move only in its action, the pips left only at the
    hand's end, the best play only where it beat the play, the layout as counts of the
    hand's last layout, each seat's tiles as a string."""
    missed = missed_points(state["points"], state.get("best")) > 0
    flat: dict[str, Any] = {}
    for name, value in state.items():
        if name in ("hand", "move", "legal", "layout", "hands"):
            continue
        if (
            (name == "seat" and state["action"])
            or (name == "pips" and not state["hand_end"])
            or (name in ("best", "best_play") and not missed)
        ):
            continue
        if name == "open_ends":
            value = " ".join(f"{end['end']}{end['pip']}" for end in value)
        flat[name] = value
    for seat, tiles in enumerate(state["hands"]):
        flat[f"h{seat}"] = " ".join(tiles)
    counts = layout_counts(state["layout"], last)
    if counts is None:
        flat["layout"] = layout_short(state["layout"])
    else:
        flat["tiles"] = counts
    flat["spinner"] = spinner_short(state["layout"]["spinner"])
    return flat


def state_predicted(before: dict[str, Any], state: dict[str, Any]) -> dict[str, str]:
    """Return what the page works out of a state from the flat state before it and the
    state's move, so the packed state need not say it: the tiles on the table (one more on
    the arm played to) and the hand of the seat that moved (the tile played gone, the tile
    drawn added, in order). replay.js's ``predict`` is the same; what it would get wrong is
    written out."""
    action = state["action"]
    if not action:
        return {}
    guess = {}
    counts, placed = before.get("tiles"), state["placed"]
    if counts is not None and placed:
        if placed == "lead":
            guess["tiles"] = "0 0 0 0"
        elif placed in "WENS" and counts:
            numbers = [int(n) for n in counts.split(" ")]
            numbers["WENS".index(placed)] += 1
            guess["tiles"] = " ".join(map(str, numbers))
    seat = f"h{action['seat']}"
    held = before.get(seat)
    if held is not None:
        hand: list[str] | None = held.split(" ") if held else []
        if "play" in action:
            low, _, high = str(action["play"]).partition("-")
            tile = next((t for t in (action["play"], f"{high}-{low}") if t in hand), None)
            if tile is None:
                hand = None
            else:
                hand.remove(tile)
        elif "draw" in action:
            hand = sorted([*hand, action["draw"]])
        if hand is not None:
            guess[seat] = " ".join(hand)
    return guess


def states_packed(states: list[dict[str, Any]], lasts: list[dict[str, str]]) -> list[dict]:
    """Return the states as the page carries them: each what changed since the state
    before it in its hand (all of it at a hand's start; null for what went away), in the
    short form of ``state_flat``, less what ``state_predicted`` works out. replay.js's
    ``unpack`` gives the states back."""
    packed = []
    before: dict[str, Any] = {}
    hand = -1
    for state in states:
        if state["move"] is None:
            hand += 1
            before = {}
        flat = state_flat(state, lasts[hand])
        expected = before | state_predicted(before, state)
        change = {name: value for name, value in flat.items() if expected.get(name, ...) != value}
        change.update({name: None for name in expected if name not in flat})
        packed.append(change)
        before = flat
    return packed


def replay_page_part(states: list[dict[str, Any]], *, seats: int) -> dict[str, Any]:
    """Return what the replay page embeds of the states: them packed (all of them but for a
    very long match, which sends its first hand and fetches the rest from the API), how many
    there are, each hand's last layout (the board is laid out and sized from those before
    any state is drawn) and each hand's points missed by seat."""
    hands: list[dict[str, Any]] = []
    for state in states:
        if state["move"] is None:
            hands.append({"moves": 0})
        else:
            hands[-1]["moves"] += 1
        hands[-1]["layout"] = layout_short(state["layout"])
    shown = states
    if len(states) > PAGE_STATES and hands:
        shown = states[: hands[0]["moves"] + 1]
    return {
        "packed": states_packed(shown, [hand["layout"] for hand in hands]),
        "total": len(states),
        "hands": hands,
        "missed": missed_by_hand(states=states, seats=seats),
    }


def match_replay_page_cached(*, match: Match, api_url: str) -> dict[str, Any]:
    """Return the replay as its page carries it (``replay``: the header, the rules, the
    packed states, ``api``) and each hand's points missed by seat (``missed``), made once
    per version of the match from its ``ReplayParts`` (the full states are not read)."""

    def compute() -> dict[str, Any]:
        full = Match.objects.with_log().get(pk=match.pk)
        part = replay_page(match=full)
        missed = part.pop("missed")
        return {
            "replay": replay_header(match=full) | {"rules": full.rules} | part | {"api": api_url},
            "missed": missed,
        }

    return cached_for_match(match, "replay-page", compute)


def replay_text() -> dict[str, str]:
    """Return the words the replay script shows, in the language of the request."""
    return {
        "empty_table": _("The table is empty"),
        "hand_start": _("Hand %(hand)s: the tiles are dealt"),
        "position_start": _("Hand %(hand)s, start"),
        "position": _("Hand %(hand)s, move %(move)s"),
        "plays": _("%(player)s plays %(tile)s %(where)s"),
        "leads": _("to lead"),
        "on_end": _("on %(end)s"),
        "count_points": _("count %(count)s: +%(points)s"),
        "count_only": _("count %(count)s"),
        "draws": _("%(player)s draws %(tile)s"),
        "draws_hidden": _("%(player)s draws a tile"),
        "loading": _("Loading the other hands…"),
        "load_failed": _("The other hands could not be loaded."),
        "passes": _("%(player)s passes"),
        "hand_heading": _("Hand %(hand)s"),
        "hand_of": _("Hand %(hand)s of %(hands)s"),
        "draw": _("draws"),
        "pass": _("passes"),
        "pips_left": _("%(pips)s pips left"),
        "hidden_tiles": _("%(count)s hidden tiles"),
        "hand_ended": _("The hand ends: %(how)s."),
        "end_domino": _("domino, a player went out"),
        "end_block": _("blocked, nobody can play"),
        "end_target": _("the target is reached"),
        "settlement": _("Settlement: %(list)s."),
        "missed": _("%(play)s would have scored %(best)s"),
        "missed_short": _("missed %(missed)s"),
        "claimed": _("claimed %(claimed)s"),
        "play": _("Play"),
        "pause": _("Pause"),
    } | end_names()


CHART_WIDTH = 640
CHART_HEIGHT = 260
CHART_LEFT = 48  # room for the values
CHART_RIGHT = 44  # room for the last value of each line
CHART_TOP = 14
CHART_BOTTOM = 40  # room for the hands (or dates) and the axis's name
DATES_DROP = 10  # a rating chart's dates lower still, clear of the lowest rating's figure


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Return round values from ``low`` to ``high``, about ``count`` of them."""
    span = max(high - low, 1e-9)
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def label_every(count: int, most: int = 12) -> int:
    """Return how many steps apart to label ``count`` steps so at most ``most`` labels show."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if count / step <= most:
            return step
    return max(1, count // most)


def short_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class Frame:
    """The plot area of a chart: maps values to the SVG's coordinates."""

    def __init__(
        self,
        *,
        steps: int,
        low: float,
        high: float,
        height: int = CHART_HEIGHT,
        below: int = CHART_BOTTOM,
    ):
        self.steps = max(steps, 1)
        self.height = height
        self.low = low
        self.span = max(high - low, 1e-9)
        self.left = CHART_LEFT
        self.right = CHART_WIDTH - CHART_RIGHT
        self.top = CHART_TOP
        self.bottom = height - below
        self.below = below

    def x(self, index: float) -> float:
        return round(self.left + index * (self.right - self.left) / self.steps, 1)

    def y(self, value: float) -> float:
        return round(self.bottom - (value - self.low) * (self.bottom - self.top) / self.span, 1)

    def base(self, y_ticks: list[float]) -> dict[str, Any]:
        return {
            "width": CHART_WIDTH,
            "height": self.height,
            "left": self.left,
            "right": self.right,
            "top": self.top,
            "bottom": self.bottom,
            "plot_height": self.bottom - self.top,
            "y_ticks": [{"y": self.y(v), "label": short_number(v)} for v in y_ticks],
            "axis_y": self.bottom + self.below - 8,
            "middle": round((self.left + self.right) / 2, 1),
        }


def spread_labels(lines: list[dict[str, Any]], *, bottom: float, gap: float = 18) -> None:
    """Set each line's ``label_y``: its final score beside its end, moved apart from the
    others' by ``gap`` (a phone draws them 19 units high: two scores 10 points apart would
    print on each other), kept above ``bottom``."""
    order = sorted(lines, key=lambda line: line["last_y"])
    placed = [line["last_y"] for line in order]
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    for i in reversed(range(len(placed))):
        placed[i] = min(placed[i], bottom if i == len(placed) - 1 else placed[i + 1] - gap)
    for line, y in zip(order, placed, strict=True):
        line["label_y"] = round(y, 1)


def score_chart(*, match: Match) -> dict[str, Any]:
    """Return the geometry of an SVG line chart of each team's score after every hand:
    axes with values and hand numbers, and each hand's scores on hover."""
    names = team_names(match)
    hands = match.hands
    series = [[0] + [hand.scores[team] for hand in hands] for team in range(len(names))]
    values = [value for line in series for value in line]
    target = match.rules.get("target")
    top = max([*values, target or 0, 1])
    bottom = min([*values, 0])
    ticks = nice_ticks(bottom, top)
    frame = Frame(steps=len(hands), low=min(bottom, ticks[0]), high=max(top, ticks[-1]))
    every = label_every(len(hands))
    small = len(hands) <= 40
    lines = [
        {
            "name": name,
            "points": " ".join(f"{frame.x(i)},{frame.y(v)}" for i, v in enumerate(series[team])),
            "dots": [{"x": frame.x(i), "y": frame.y(v)} for i, v in enumerate(series[team]) if i]
            if small
            else [],
            "last_x": frame.x(len(series[team]) - 1),
            "last_y": frame.y(series[team][-1]),
            "last": series[team][-1],
            "colour": f"team-{team}",
        }
        for team, name in enumerate(names)
    ]
    spread_labels(lines, bottom=frame.bottom)
    width = (frame.right - frame.left) / frame.steps
    columns = [
        {
            "x": round(frame.x(i) - width / 2, 1),
            "width": round(width, 1),
            "title": _("Hand %(hand)s: %(scores)s")
            % {
                "hand": i,
                "scores": ", ".join(f"{name} {series[t][i]}" for t, name in enumerate(names)),
            },
        }
        for i in range(1, len(hands) + 1)
    ]
    chart = frame.base(ticks)
    chart.update(
        {
            "lines": lines,
            "columns": columns,
            "target_y": frame.y(target) if target else None,
            "target": target,
            "zero_y": frame.y(0),
            "hand_ticks": [
                {"x": frame.x(i), "label": i}
                for i in range(1, len(hands) + 1)
                if i == 1 or i % every == 0
            ],
        }
    )
    return chart


def missed_by_hand(*, states: list[dict[str, Any]], seats: int) -> list[list[int]]:
    """Return the points each seat missed in every hand (the most a legal play could have
    scored, minus what the play scored)."""
    hands: list[list[int]] = []
    for state in states:
        if state["move"] is None:
            hands.append([0] * seats)
        else:
            hands[-1][state["seat"]] += missed_points(state["points"], state.get("best"))
    return hands


def missed_chart(
    *,
    players: list[str],
    hands: list[list[int]] | list[list[float]],
    always: bool = False,
    top: float | None = None,
    widest: float | None = None,
) -> dict[str, Any]:
    """Return the geometry of a bar chart of the points each player missed in every hand
    (``missed_by_hand``), stacked by seat; empty when no play missed anything (unless
    ``always``). ``top``: the highest value the axis must reach; ``widest``: the widest a
    bar may be (a match of one or two hands is not drawn as a wall)."""
    if not always and not any(any(hand) for hand in hands):
        return {}
    top = top if top is not None else max(sum(hand) for hand in hands)
    ticks = nice_ticks(0, top, 4)
    if len(ticks) > 1 and ticks[-1] < top:
        # The axis goes on to the next round value: no bar stands above its last number.
        ticks.append(round(ticks[-1] + ticks[1] - ticks[0], 6))
    frame = Frame(steps=len(hands), low=0, high=max(top, ticks[-1]), height=200)
    slot = (frame.right - frame.left) / frame.steps
    bar = max(round(slot * 0.8, 1), 0.8)
    if widest is not None:
        bar = min(bar, widest)
    every = label_every(len(hands))
    bars = []
    for number, hand in enumerate(hands, start=1):
        x = round(frame.left + (number - 0.5) * slot - bar / 2, 1)
        level = 0
        segments = []
        for seat, missed in enumerate(hand):
            if missed:
                y0, y1 = frame.y(level + missed), frame.y(level)
                segments.append({"y": y0, "height": round(y1 - y0, 1), "colour": f"team-{seat}"})
                level += missed
        bars.append(
            {
                "x": x,
                "slot_x": round(frame.left + (number - 1) * slot, 1),
                "segments": segments,
                "title": _("Hand %(hand)s: %(missed)s")
                % {
                    "hand": number,
                    "missed": ", ".join(
                        f"{players[s]} {short_number(round(m, 1))}" for s, m in enumerate(hand)
                    ),
                },
            }
        )
    chart = frame.base(ticks)
    chart.update(
        {
            "bars": bars,
            "bar": bar,
            "slot": round(slot, 1),
            "players": [{"name": name, "colour": f"team-{s}"} for s, name in enumerate(players)],
            "hand_ticks": [
                {"x": round(frame.left + (n - 0.5) * slot, 1), "label": n}
                for n in range(1, len(hands) + 1)
                if n == 1 or n % every == 0
            ],
        }
    )
    return chart


def rating_chart(history: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the geometry of a player's rating history (the shown ratings): rating against
    matches played, axes with ratings and dates, a dashed line at a newcomer's rating when it
    is in sight, each point's date and rating on hover."""
    if not history:
        return {}
    values = [point["rating"] for point in history]
    ticks = nice_ticks(min(values), max(values), 4) if max(values) > min(values) else []
    low = min([*values, *ticks])
    high = max([*values, *ticks])
    if high - low < 10:  # a flat line: ten shown points either side
        low, high = low - 10, high + 10
        ticks = nice_ticks(low, high, 4)
    first = history[0]["matches"]
    last = max(history[-1]["matches"], first + 1)
    # The dates sit lower than a match's hand numbers, and the axis's name below them: at a
    # phone's size the lowest rating's figure ("1500", at the axis) touched the first date.
    frame = Frame(
        steps=last - first,
        low=low,
        high=high,
        height=220 + DATES_DROP,
        below=CHART_BOTTOM + DATES_DROP,
    )
    points = [
        {
            "x": frame.x(point["matches"] - first),
            "y": frame.y(point["rating"]),
            "title": _("Match %(number)s, %(date)s: %(rating)s")
            % {
                "number": point["matches"],
                "date": point["played_at"].strftime("%Y-%m-%d") if point["played_at"] else "—",
                "rating": point["rating"],
            },
        }
        for point in history
    ]
    every = max(1, -(-len(history) // 4))  # four dates at most: they fit a phone's width
    date_ticks = [
        {
            "x": points[i]["x"],
            "label": history[i]["played_at"].strftime("%Y-%m-%d")
            if history[i]["played_at"]
            else str(history[i]["matches"]),
        }
        for i in range(0, len(history), every)
    ]
    chart = frame.base(ticks)
    chart.update(
        {
            "points": points,
            "line": " ".join(f"{p['x']},{p['y']}" for p in points),
            "date_ticks": date_ticks,
            "low": min(values),
            "high": max(values),
            "last": values[-1],
            "dots": len(points) <= 80,
            "date_dy": 15 + DATES_DROP,
            "newcomer": SHOWN_BASE,
            "newcomer_y": frame.y(SHOWN_BASE) if low <= SHOWN_BASE <= high else None,
        }
    )
    return chart


def loss_chart(*, players: list[str], hands: list[list[float | None]]) -> dict[str, Any]:
    """Return the geometry of a bar chart of each player's expected loss in every hand (the
    analysis's ``loss_by_hand``), stacked by seat like the points missed, with the axis's
    unit; empty when no hand was reviewed."""
    cleaned = [[max(value or 0.0, 0.0) for value in hand] for hand in hands]
    if not cleaned:
        return {}
    top = max([sum(hand) for hand in cleaned] + [0.5])
    chart = missed_chart(players=players, hands=cleaned, always=True, top=top, widest=48)
    chart["unit"] = _("points")
    return chart
