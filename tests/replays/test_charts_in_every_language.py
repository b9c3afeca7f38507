"""The charts the server draws (a player's rating history, a match's scores and missed points)
write their coordinates in SVG's own syntax in every language: Russian writes 180,5 for
180.5 in text, which an SVG attribute cannot read, and the chart fell apart."""

from __future__ import annotations

import re

import pytest

from games.models import Match, Player
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db
# A number attribute of an SVG shape (x, y, x1..y2, cx, cy, r, width, height), and the
# points of a line: x,y pairs apart by spaces.
SHAPE_NUMBER = re.compile(r'\s(?:c?[xy][12]?|r|width|height)="([^"]*)"')
POINTS = re.compile(r'\spoints="([^"]*)"')
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
PAIRS = re.compile(rf"{NUMBER},{NUMBER}(?: {NUMBER},{NUMBER})*")
SVG = re.compile(r"<svg\b.*?</svg>", re.S)


@pytest.fixture
def stored(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(1, 5):
            store_match(owner, ["Nino", "Giorgi", "Tamar"], seed=seed, played_at=f"2026-10-0{seed}")
    return Player.objects.get(handle="Nino"), Match.objects.order_by("pk").first()


def svg_values(html: str) -> tuple[list[str], list[str]]:
    """Return the number attributes and the points of every chart of a page."""
    charts = SVG.findall(html)
    assert charts, "no chart on the page"
    numbers = [value for chart in charts for value in SHAPE_NUMBER.findall(chart)]
    return numbers, [value for chart in charts for value in POINTS.findall(chart)]


@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_every_chart_writes_its_coordinates_with_a_decimal_point(client, stored, language):
    player, match = stored
    client.cookies["django_language"] = language
    for path in (f"/players/{player.pk}/", f"/matches/{match.pk}/"):
        numbers, points = svg_values(client.get(path).content.decode())
        bad = [value for value in numbers if not re.fullmatch(NUMBER, value)]
        bad += [value for value in points if not PAIRS.fullmatch(value)]
        assert not bad, (path, bad[:5])
        assert any("." in value for value in numbers), path  # fractions were checked too


def test_close_final_scores_are_labelled_apart():
    from replays.charts import spread_labels

    lines = [{"last_y": 14.0}, {"last_y": 160.0}, {"last_y": 151.0}]
    spread_labels(lines, bottom=160)
    labels = sorted(line["label_y"] for line in lines)
    assert labels[0] == 14.0  # far from the others: beside its line's end
    assert labels[2] - labels[1] >= 18  # 45 and 55 no longer print on each other
    assert labels[2] <= 160  # and stay above the axis
