"""Issue 37's figures in the archive: each seat's winning chances lost and its side's luck and
skill stored with the analysis, the performance figure and its band on the player page and
in the ranking (sortable), and the match page's chart and table of luck and skill; each
checked against the review's own JSON, counted another way."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Match
from replays import analysis as service
from replays.models import MatchAnalysis, SeatAnalysis

from .helpers import store_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(owner, member, django_capture_on_commit_callbacks) -> MatchAnalysis:
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        analysis = service.analysis_request(match=match, user=member)
    analysis.refresh_from_db()
    assert analysis.status == MatchAnalysis.Status.DONE
    return analysis


def _by_seat(result: dict) -> dict[int, list[float]]:
    lost: dict[int, list[float]] = {}
    for play in result["plays"]:
        if len(play["alternatives"]) > 1:
            lost.setdefault(play["seat"], []).append(play["chance_loss"])
    return lost


def test_each_seat_keeps_its_chances_lost_and_its_sides_luck_and_skill(analysed):
    result = analysed.result
    assert result["unit"] == "chance"
    lost = _by_seat(result)
    sides = {seat: side for side in result["sides"] for seat in side["seats"]}
    rows = SeatAnalysis.objects.filter(match=analysed.match).order_by("seat")
    assert [row.seat for row in rows] == [0, 1]
    for row in rows:
        assert row.decisions == len(lost[row.seat])
        assert row.chance_loss == pytest.approx(sum(lost[row.seat]))
        assert row.luck == pytest.approx(sides[row.seat]["luck"])
        assert row.skill == pytest.approx(sides[row.seat]["skill"])


def test_the_performance_its_band_and_luck_on_the_player_page(analysed):
    lost = _by_seat(analysed.result)
    seat = analysed.match.seats.get(seat=0)
    figures = service.players_expected_loss(player_ids=[seat.player_id])[seat.player_id]
    performance = round(sum(lost[0]) / len(lost[0]), 2)
    assert figures["performance"] == performance
    assert figures["band"] == service.performance_band(performance)
    side = next(side for side in analysed.result["sides"] if 0 in side["seats"])
    assert figures["luck"] == round(side["luck"], 1)
    assert figures["skill"] == round(side["skill"], 1)
    html = Client().get(f"/players/{seat.player_id}/").content.decode()
    shown = re.search(r'<dd id="stat-performance">(.*?)</dd>', html, re.S)[1]
    assert f"{performance:.2f}" in shown
    assert re.search(r'<dd id="stat-luck">luck -?\d+\.\d, skill -?\d+\.\d per match', html)


def test_the_ranking_sorts_by_performance_the_best_first(analysed):
    lost = _by_seat(analysed.result)
    performance = {
        seat.player_id: round(sum(lost[seat.seat]) / len(lost[seat.seat]), 2)
        for seat in analysed.match.seats.all()
    }
    html = Client().get("/clubs/tbilisi-fives-club/ranking/?sort=performance").content.decode()
    order = [int(pk) for pk in re.findall(r'<tr data-player="(\d+)">', html)]
    shown = [pk for pk in order if pk in performance]
    assert shown == sorted(performance, key=lambda pk: performance[pk])
    html = (
        Client()
        .get("/clubs/tbilisi-fives-club/ranking/?sort=performance&order=asc")
        .content.decode()
    )
    order = [int(pk) for pk in re.findall(r'<tr data-player="(\d+)">', html)]
    assert [pk for pk in order if pk in performance] == list(reversed(shown))


def test_the_match_page_shows_each_sides_chances_luck_and_skill(analysed):
    match: Match = analysed.match
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    section = re.search(r"<section class=\"review-chances\".*?</section>", html, re.S)[0]
    assert "Winning chances, luck and skill" in section
    assert section.count("<polyline") == 2
    for side in analysed.result["sides"]:
        row = re.search(rf'<tr data-side="{side["side"]}">(.*?)</tr>', section, re.S)[1]
        cells = re.findall(r'<td class="num[^"]*"[^>]*>([^<]*)</td>', row)
        # The result first (a phone shows it without a sideways scroll), then what made it.
        result, start, luck, skill, adjusted = (float(cell.replace("+", "")) for cell in cells)
        assert start == round(side["expected_start"], 1)
        assert luck == round(side["luck"], 1)
        assert skill == round(side["skill"], 1)
        assert result == side["result"]
        assert adjusted == round(side["luck_adjusted"], 1)
