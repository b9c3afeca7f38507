"""The analysis on a match page in chromium, on a phone (390x844) and a laptop: asked for
with the button, its progress shown while a worker runs it, then each player's accuracy,
the chart of expected loss by hand and every play's figures, the page never wider than the
screen (screenshots in test-artifacts/, looked at)."""

from __future__ import annotations

import pathlib

import pytest
from django.test import Client

from replays import analysis as service
from replays.models import MatchAnalysis
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def signed_in(browser, live_server, user, viewport, language="en"):
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if viewport == PHONE else 1,
        is_mobile=viewport == PHONE,
        has_touch=viewport == PHONE,
        extra_http_headers={"Accept-Language": language},
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def fits(page, width: int) -> None:
    """The page never scrolls sideways; the analysis's parts lie within the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for selector in ("#analysis .table-scroll", ".loss-chart svg", "#analysis h2"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, selector


@pytest.mark.parametrize("language", ["en", "ka"])
def test_asking_on_a_phone_shows_the_analysis_in_place(
    browser, live_server, owner, member, language
):
    from playwright.sync_api import expect

    match = store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    context, page, errors = signed_in(browser, live_server, member, PHONE, language)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.locator("[data-analysis-form] button").click()
        # Tasks run in-process here: the answer comes once it is done, and the page shows it.
        expect(page.locator("table.analysis-seats tbody tr")).to_have_count(2, timeout=60_000)
        result = MatchAnalysis.objects.get(match=match).result
        page.locator("[data-analysis-plays] summary").click()
        expect(page.locator("table.analysis-plays tbody tr")).to_have_count(len(result["plays"]))
        first = result["plays"][0]
        row = page.locator("table.analysis-plays tbody tr").first
        assert row.locator("a").get_attribute("href") == (
            f"#h{first['hand'] + 1}m{first['move'] + 1}"
        )
        assert first["played"].split(" ")[0] in row.inner_text()  # the tile, in any language
        fits(page, PHONE["width"])
        # The chart's words are drawn large enough to read on the phone (CSS pixels).
        tick = page.locator(".loss-chart svg text.tick").first.bounding_box()
        assert tick is not None and tick["height"] >= 9
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#analysis").screenshot(path=str(ARTIFACTS / f"analysis-phone-{language}.png"))
        # A link of the list steps the replay to that play.
        row.locator("a").click()
        assert page.evaluate("location.hash") == f"#h{first['hand'] + 1}m{first['move'] + 1}"
    finally:
        context.close()
    assert errors == []


def test_the_progress_bar_follows_a_worker_and_the_result_appears(
    browser, live_server, owner, member
):
    from playwright.sync_api import expect

    match = store_match(owner, ["Levan", "Nino"], seed=10, played_at="2026-05-02T19:00:00Z")
    # A worker has taken it and reviewed 10 plays of 40 so far.
    analysis = service.analysis_request(match=match, user=member)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status="queued")
    service.analysis_take(analysis_id=analysis.pk, holder="worker")
    MatchAnalysis.objects.filter(pk=analysis.pk).update(done=10, total=40)
    context, page, errors = signed_in(browser, live_server, member, LAPTOP)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/#analysis")
        expect(page.locator("[data-analysis-count]")).to_have_text("10 of 40 plays")
        MatchAnalysis.objects.filter(pk=analysis.pk).update(done=25)
        expect(page.locator("[data-analysis-count]")).to_have_text("25 of 40 plays")
        assert page.locator("#analysis-bar").evaluate("bar => bar.value") == 25
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#analysis").screenshot(path=str(ARTIFACTS / "analysis-progress.png"))
        # The worker finishes: the page shows the figures without being asked.
        service.analysis_run(analysis_id=analysis.pk, holder="worker")
        expect(page.locator("table.analysis-seats tbody tr")).to_have_count(2, timeout=20_000)
        page.locator("[data-analysis-plays] summary").click()
        expect(page.locator("table.analysis-plays tbody tr").first).to_be_visible()
        fits(page, LAPTOP["width"])
        page.locator("#analysis").screenshot(path=str(ARTIFACTS / "analysis-laptop.png"))
    finally:
        context.close()
    assert errors == []
