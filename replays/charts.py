"""The SVG charts' geometry: a match's scores and missed points, a player's rating history,
an analysis's expected loss."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext as _

from clubs.dates import shown_day
from games.models import Match
from games.numbering import shown
from games.presentation import team_names

from .ratings import SHOWN_BASE

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
                "date": shown_day(point["played_at"].date()) if point["played_at"] else "—",
                "rating": point["rating"],
            },
        }
        for point in history
    ]
    every = max(1, -(-len(history) // 4))  # four dates at most: they fit a phone's width
    date_ticks = [
        {
            "x": points[i]["x"],
            "label": shown_day(history[i]["played_at"].date())
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


def chance_chart(*, names: list[str], start: float, points: list[list[float]]) -> dict[str, Any]:
    """Return the geometry of a line chart of each side's winning chance (percent) at the
    start and after every reviewed play (the review's ``chances``: side 0's, as [hand, move,
    chance]), with the hands marked along the bottom; empty without a play."""
    if not points or len(names) != 2:
        return {}
    series0 = [start] + [point[2] for point in points]
    frame = Frame(steps=len(series0) - 1, low=0.0, high=100.0)
    hands: list[dict[str, Any]] = []
    for index, point in enumerate(points, start=1):
        hand = shown(int(point[0]))
        if not hands or hands[-1]["hand"] != hand:
            hands.append({"hand": hand, "x": frame.x(index)})
    every = label_every(len(hands))
    lines = []
    for side, name in enumerate(names):
        series = series0 if side == 0 else [100.0 - value for value in series0]
        lines.append(
            {
                "name": name,
                "points": " ".join(f"{frame.x(i)},{frame.y(v)}" for i, v in enumerate(series)),
                "last_x": frame.x(len(series) - 1),
                "last_y": frame.y(series[-1]),
                "last": f"{series[-1]:.0f}",
                "colour": f"team-{side}",
            }
        )
    spread_labels(lines, bottom=frame.bottom)
    chart = frame.base([0, 25, 50, 75, 100])
    chart.update(
        {
            "lines": lines,
            "half_y": frame.y(50),
            "hand_ticks": [
                {"x": tick["x"], "label": tick["hand"]}
                for number, tick in enumerate(hands)
                if number == 0 or (number + 1) % every == 0
            ],
        }
    )
    return chart
