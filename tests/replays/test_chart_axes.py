"""The bar charts' axes reach every bar: no bar stands above the last number of its axis."""

from __future__ import annotations

import pytest

from replays.charts import loss_chart, missed_chart


@pytest.mark.parametrize(
    "hands",
    [
        [[40.0, 32.0], [3.0, 1.5]],  # 72 at most: round ticks stop at 60, the axis goes to 80
        [[0.4, 0.0]],
        [[12.0, 0.0], [0.0, 9.0], [7.0, 7.0]],
    ],
)
def test_the_axis_reaches_the_highest_bar(hands):
    for chart in (
        loss_chart(players=["A", "B"], hands=hands),
        missed_chart(players=["A", "B"], hands=hands),
    ):
        if not chart:
            continue
        highest_tick = min(tick["y"] for tick in chart["y_ticks"])  # SVG: y grows downwards
        for bar in chart["bars"]:
            for segment in bar["segments"]:
                assert segment["y"] >= highest_tick - 0.05, (segment, chart["y_ticks"])
