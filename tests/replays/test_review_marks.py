"""The review's marks where the play is (issue 37, item 1): each reviewed play that lost
something carries its mark and its loss in the replay's data; in chromium on a phone the
move list and the last move's line show them, the board's panel the best play, and a setting
kept in the browser hides them (screenshots in test-artifacts/, looked at)."""

from __future__ import annotations

import json
import pathlib
import re
from html import unescape

import pytest
from django.test import Client

from replays import analysis as service
from replays.models import MatchAnalysis
from tests.replays.helpers import store_match

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"


def analysed_match(owner, member):
    match = store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    analysis = service.analysis_request(match=match, user=member)
    service.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == MatchAnalysis.Status.DONE
    return match, analysis.result


def page_marks(match) -> list | None:
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    found = re.search(r'<script id="review-marks" type="application/json">(.*?)</script>', html)
    return json.loads(unescape(found[1])) if found else None


@pytest.mark.django_db
def test_the_replay_carries_each_losing_plays_mark_loss_and_best(owner, member):
    match = store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    assert page_marks(match) is None  # not analysed: nothing to show
    match, result = analysed_match(owner, member)
    marks = page_marks(match)
    # Counted the other way: every reviewed play with a loss of at least 0.05 in its mark's
    # unit (winning chances here), in the review's order, at the replay's address of the
    # table just after it (hand and move from 1; the review keeps them from 0).
    expected = [
        [
            p["hand"] + 1,
            p["move"] + 1,
            p["mark"],
            round(p["chance_loss"], 1),
            p["chance_best"],
            "chance",
        ]
        for p in result["plays"]
        if p["chance_loss"] >= 0.05
    ]
    assert marks == expected
    assert any(mark[2] for mark in marks), "some play of the match is marked"
    assert all(mark[2] is None or mark[3] >= 2.0 for mark in marks)


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_a_marked_play_shows_its_mark_and_the_best_play_until_hidden(
    browser, live_server, owner, member
):
    match, result = analysed_match(owner, member)
    play = next(p for p in result["plays"] if p["mark"])
    sign = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[play["mark"]]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/#h{play['hand'] + 1}m{play['move'] + 1}")
        last = page.locator("#last-move")
        last.wait_for()
        assert f"{sign} {play['mark']}" in last.inner_text()
        assert f"gave up {round(play['chance_loss'], 1)} points of chance" in last.inner_text()
        best = page.locator("#review-best")
        assert best.is_visible()
        assert play["chance_best"].split(" ")[0] in best.inner_text()
        badge = page.locator(f"[data-state] .review-mark.mark-{play['mark']}").first
        assert badge.is_visible() and sign in badge.inner_text()
        # The board's panel and the list stay within the phone's width.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#replay").screenshot(path=str(ARTIFACTS / "review-marks-phone.png"))
        # Hidden for those who replay first, and still hidden after a reload.
        page.locator("#show-marks").uncheck()
        assert page.locator(".review-mark").count() == 0
        assert not best.is_visible() and sign not in last.inner_text()
        page.reload()
        page.locator("#last-move").wait_for()
        assert not page.locator("#show-marks").is_checked()
        assert page.locator(".review-mark").count() == 0
        page.locator("#show-marks").check()
        assert page.locator(".review-mark").count() > 0
        assert errors == []
    finally:
        context.close()
