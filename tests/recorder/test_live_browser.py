"""Live tables in a real browser at a phone's size: one phone records a match while a second
person watches the club night's page and the match's own page, and sees each tap; the
phone loses its network mid-hand and every step reaches the watchers when it is back; at
the last tile the watcher is taken to the stored match, rated.

Run twice: the way ``make run`` serves (the test's server, no Redis: the pages ask again),
and the production way where PostgreSQL and Redis are (the streams' ASGI server, uvicorn,
on the test database, fed from Redis, and a real Celery worker storing the match)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import connection
from django.test import Client

from bench.served import free_port
from fives_engine import to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from recorder import live
from recorder.models import LiveMatch
from tests.celery_worker import ROOT, Worker, database_url, real_broker
from tests.conftest import services_missing

from .helpers import PHONE, Recorder, normalised
from .test_recorder_browser import (
    ARTIFACTS,
    MODEL_BACKEND,
    browser,  # noqa: F401 (the fixture)
)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)


def short_match() -> dict:
    """The shortest of a few simulated two-player Muggins matches (fewest taps)."""
    docs = [to_table_record(simulate_match("muggins", 2, seed=seed)) for seed in range(20, 32)]
    return min(docs, key=lambda doc: sum(len(hand["moves"]) for hand in doc["hands"]))


@pytest.fixture(params=["polling", "streams"])
def served(request, live_server, settings):
    yield from _served(request.param, live_server, settings)


def _served(kind, live_server, settings):
    """The archive the test's browsers talk to: the test's server with the pages asking
    again, or (where the services are) the ASGI server with the streams and a worker."""
    if kind == "polling":
        settings.FIVES_LIVE_STREAMS = False
        yield live_server.url
        return
    if reason := services_missing():
        if os.environ.get("FIVES_REQUIRE_SERVICES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    if connection.vendor != "postgresql":
        pytest.skip("the ASGI server shares the test database: needs PostgreSQL")
    with real_broker(os.environ["REDIS_URL"]) as broker:
        settings.REDIS_URL = broker
        settings.FIVES_LIVE_STREAMS = True
        port = free_port()
        env = dict(
            os.environ, DATABASE_URL=database_url(), REDIS_URL=broker, FIVES_DATABASE_POOL="4"
        )
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "fivesite.asgi:application", "--port", str(port),
             "--no-access-log"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        worker = Worker(broker=broker)
        worker.start()
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/v1/ping/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        try:
            yield base
        finally:
            worker.stop()
            server.terminate()
            server.wait(10)


def signed_in(browser, base: str, user):  # noqa: F811 (the fixture's browser)
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    context = browser.new_context(viewport=PHONE, base_url=base, timezone_id="Asia/Tbilisi")
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context


def first_tap(page, expect, doc: dict) -> tuple[Recorder, list[dict]]:
    """Open the recorder on ``page``, set ``doc`` up at the Tbilisi club and tap its first
    move; wait for the archive's answer. Return the recorder and the first hand's moves."""
    page.goto("/record/")
    recorder = Recorder(page, expect)
    recorder.set_up(doc, "tbilisi-fives-club")
    first = doc["hands"][0]["moves"]
    recorder.move(first[0])
    answered(page, expect)
    return recorder, first


def answered(page, expect) -> None:
    """Wait until the archive has answered the phone's send of its steps: a refusal (the
    club, the account, the engine) says so rather than leaving the watchers with nothing."""
    expect(page.locator("body[data-live-sent], body[data-live-refused]")).to_have_count(
        1, timeout=20000
    )
    refused = page.locator("body").get_attribute("data-live-refused")
    assert refused is None, f"the archive refused the phone's live steps: HTTP {refused}"


def watched(page, check, *args, **kwargs) -> None:
    """Run the watcher's ``check`` (an expectation); if it fails, say what a reader needs to
    tell where the step went: the live matches stored and what the watcher's page holds."""
    try:
        check(*args, **kwargs)
    except AssertionError as missing:
        raise AssertionError(f"{missing}\n{what_the_archive_has(page)}") from None


def what_the_archive_has(page) -> str:
    """The live matches stored, and the watcher's page's data and status line."""
    lives = list(
        LiveMatch.objects.values("pk", "club__slug", "steps", "abandoned", "finished_at",
                                 "updated_at")
    )  # fmt: skip
    body = page.evaluate(
        "() => ({...document.body.dataset, status: document.getElementById('live-status')"
        ".textContent})"
    )
    return f"live matches stored: {lives}; the watcher's page: {body}"


def test_a_watcher_sees_each_tap_the_network_cut_loses_nothing_and_the_end_opens_the_match(
    browser,  # noqa: F811 (the fixture)
    served,
    owner,
    member,
    request,
):
    from playwright.sync_api import expect

    doc = short_match()
    kind = request.node.callspec.params["served"]
    phone = signed_in(browser, served, owner)
    watcher = signed_in(browser, served, member)
    try:
        page = phone.new_page()
        recorder, first = first_tap(page, expect, doc)
        night = watcher.new_page()
        night.goto("/clubs/tbilisi-fives-club/live/")
        table = night.locator(".live-table")
        watched(night, expect(table).to_have_count, 1, timeout=20000)
        # Each tap at the table shows on the club night's page.
        for number, move in enumerate(first[1:6], start=2):
            recorder.move(move)
            watched(
                night, expect(table).to_have_attribute, "data-steps", str(number), timeout=10000
            )
        ARTIFACTS.mkdir(exist_ok=True)
        night.screenshot(path=str(ARTIFACTS / f"live-club-night-{kind}.png"))
        table.get_by_role("link").click()
        expect(night.locator("body[data-steps='6']")).to_have_count(1, timeout=10000)
        # The phone's network is cut mid-hand: the steps wait in the phone.
        phone.set_offline(True)
        for move in first[6:10]:
            recorder.move(move)
        time.sleep(1)
        assert night.locator("body").get_attribute("data-steps") == "6"
        phone.set_offline(False)
        expect(night.locator("body[data-steps='10']")).to_have_count(1, timeout=20000)
        night.screenshot(path=str(ARTIFACTS / f"live-match-{kind}.png"))
        if kind == "polling":
            return  # the end of a match, the same by either way of following, is the streams'
        # The rest of the match; at its last tile the watcher is taken to the stored match.
        recorder.hand(0, {**doc["hands"][0], "moves": first}, slice(10, None))
        for index, hand in enumerate(doc["hands"][1:], start=1):
            recorder.hand(index, hand)
        expect(night).to_have_url(re.compile(r"/matches/\d+/$"), timeout=30000)
        assert night.url == f"{served}/matches/{Match.objects.get().pk}/"
        expect(night.locator("table.match-ratings tr[data-seat]")).to_have_count(2)
        night.screenshot(path=str(ARTIFACTS / f"live-stored-{kind}.png"))
        # Every step reached the archive, the ones tapped offline too: the live match's steps
        # make the whole record.
        current = LiveMatch.objects.get()
        steps = list(current.step_rows.values_list("step", flat=True))
        assert len(steps) == current.steps
        rebuilt = {**live.record_of(current.setup, steps), "final_scores": doc["final_scores"]}
        assert normalised(rebuilt) == normalised(doc)
        # The phone's own save is the same upload: one match.
        recorder.tap("#save")
        expect(page.locator("body[data-outbox='0']")).to_have_count(1, timeout=20000)
        assert Upload.objects.count() == 1 and Match.objects.count() == 1
    finally:
        phone.close()
        watcher.close()


def busy_once_then_served(failed: list[str]):
    """A route that answers its first request 503 (``Retry-After: 1``, the address noted in
    ``failed``), as a restart behind the proxy would, and lets every later one through."""

    def route_to(route):
        if failed:
            route.continue_()
            return
        failed.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "1"}, body="")

    return route_to


def test_a_send_the_archive_fails_goes_again_and_is_not_taken_for_a_refusal(
    browser,  # noqa: F811 (the fixture)
    live_server,
    settings,
    owner,
):
    """A 503 (a restart behind the proxy, a database short of connections) is no refusal:
    the phone sends the steps again after Retry-After, and the watchers get them."""
    from playwright.sync_api import expect

    settings.FIVES_LIVE_STREAMS = False
    doc = short_match()
    phone = signed_in(browser, live_server.url, owner)
    failed: list[str] = []
    busy_once = busy_once_then_served(failed)

    try:
        page = phone.new_page()
        page.route("**/record/live/", busy_once)
        recorder, first = first_tap(page, expect, doc)
        assert failed, "the archive's failure was never seen"
        recorder.move(first[1])
        expect(page.locator("body[data-live-sent='2']")).to_have_count(1, timeout=10000)
        assert LiveMatch.objects.get().steps == 2
    finally:
        phone.close()


def test_the_club_nights_page_says_the_connection_is_back_after_a_failed_ask(
    browser,  # noqa: F811 (the fixture)
    live_server,
    settings,
    member,
):
    """One failed ask of the tables (a 503) says the connection was lost; the next that
    is answered says the page follows the night again (it said "catching up" for good)."""
    from playwright.sync_api import expect

    settings.FIVES_LIVE_STREAMS = False
    watcher = signed_in(browser, live_server.url, member)
    failed: list[str] = []
    busy_once = busy_once_then_served(failed)

    try:
        night = watcher.new_page()
        night.route("**/live/tables/", busy_once)
        night.goto("/clubs/tbilisi-fives-club/live/")
        status = night.locator("#live-status")
        expect(status).to_have_text("The connection was lost: catching up…", timeout=15000)
        expect(status).to_have_text("Live: this page looks again every few seconds.", timeout=15000)
        assert failed
    finally:
        watcher.close()
