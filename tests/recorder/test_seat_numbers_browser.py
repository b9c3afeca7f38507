"""The recorder's seats read from 1 in Georgian too, on a phone (390x844, Debian's chromium),
while the record it writes keeps the log's seats from 0 (FORMAT.md). Screenshot in
test-artifacts/recorder-seats-ka.png, looked at."""

from __future__ import annotations

import os
import pathlib

import pytest
from django.test import Client

from .helpers import PHONE, Recorder, launch

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


def test_the_recorders_seats_read_from_one_in_georgian(browser, live_server, owner):
    from playwright.sync_api import expect

    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, locale="ka-GE")
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": "ka", "url": live_server.url},
        ]
    )
    page = context.new_page()
    page.goto("/record/")
    Recorder(page, expect).ready()
    page.locator("input[name=count][value='4']").check()
    expect(page.locator("#seats label")).to_have_text(
        ["ადგილი 1 ", "ადგილი 2 ", "ადგილი 3 ", "ადგილი 4 "]
    )
    expect(page.locator("#teams-row")).to_have_text(
        "წყვილები: ადგილები 1 და 3 ადგილების 2 და 4 წინააღმდეგ"
    )
    page.fill("#seat-0", "ანა")
    leaders = page.locator("#first-leader option")
    expect(leaders).to_have_text(["ადგილი 1: ანა", "ადგილი 2", "ადგილი 3", "ადგილი 4"])
    assert leaders.evaluate_all("(all) => all.map((o) => o.value)") == ["0", "1", "2", "3"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "recorder-seats-ka.png"), full_page=True)
    context.close()
