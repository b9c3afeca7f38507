"""The recorder's first visit, served the production way (collectstatic, gunicorn, through a
slow line: ``bench.phonekit``): what it costs on the wire, what the page says of it, the
set-up filled in while the engine loads, and a second visit served by the service worker.
The figures (times included) are printed by ``python -m bench.phone --only recorder``."""

from __future__ import annotations

import pathlib
import re
import shutil
import sys
import tempfile

import pytest

from bench.phonekit import Kit

from .helpers import launch

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
# The goal for a first visit: at most 5 MB sent by the server in all.
FIRST_VISIT_LIMIT = 5_000_000


@pytest.fixture(scope="module")
def archive():
    if not pathlib.Path(sys.executable).with_name("gunicorn").exists():
        pytest.skip("needs gunicorn (pyproject.toml installs it)")
    directory = pathlib.Path(tempfile.mkdtemp(prefix="fives-loading-"))
    running = Kit(directory, demo_matches=0)
    # The production way, whatever the test session serves: what collectstatic wrote, alone.
    running.env |= {"FIVES_STATIC_SOURCES": "0", "STATIC_ROOT": str(directory / "static")}
    try:
        running.start()
        yield running
    finally:
        running.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


def test_a_first_visit_costs_under_5_mb_once_and_a_second_comes_from_the_worker(archive, browser):
    from playwright.sync_api import expect

    context = archive.context(browser, slow=True, user="nino")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    mark = archive.mark()
    page.goto("/record/")

    # The size is said before anything is downloaded, and the bar shows what has come.
    said = page.locator("#download-size").text_content()
    assert "Wi-Fi" in said, said
    size = float(re.search(r"(\d+\.\d) MB", said)[1])
    expect(page.locator("#download-done")).to_contain_text(f"of {size:.1f} MB", timeout=30000)
    # The set-up is there while the engine loads: names typed, Start tapped, the match
    # starts once the engine is ready.
    expect(page.locator("#setup")).to_be_visible()
    assert page.locator("body[data-engine]").count() == 0, "the engine was ready too soon"
    page.fill("#seat-0", "Nino")
    page.fill("#seat-1", "Levan")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "recorder-loading-phone.png"))
    page.locator("#start").click()
    expect(page.locator("#setup-error")).to_contain_text("as soon as the rules engine is ready")
    expect(page.locator("body[data-engine=ready]")).to_have_count(1, timeout=240000)
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Nino")
    assert "resumed" not in page.locator("#call").text_content()  # a new match, not resumed
    expect(page.locator("#loading")).to_be_hidden()
    expect(page.locator("body[data-offline=ready]")).to_have_count(1)

    first = archive.requests_since(mark)
    sent = sum(size for size, *_ in first)
    assert sent <= FIRST_VISIT_LIMIT, f"{sent:,} bytes on the first visit"
    # Each of Pyodide's files and the engine crossed the wire once (the service worker
    # keeps what the page fetched).
    engine_files = [path for _, _, _, path in first if "/pyodide/" in path or "engine.zip" in path]
    assert len(engine_files) == 6 and len(set(engine_files)) == 6, engine_files
    # What the page said it would cost is what it cost (to the tenth of a megabyte).
    cost = sum(n for n, _, _, path in first if "/pyodide/" in path or "engine.zip" in path)
    assert abs(cost / 1e6 - size) <= 0.1, (cost, size)

    # A second visit: the worker answers for everything but the page itself.
    mark = archive.mark()
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("body[data-engine=ready]")).to_have_count(1, timeout=60000)
    expect(page.locator("#loading")).to_be_hidden()
    second = archive.requests_since(mark)
    assert not [path for *_, path in second if "/static/" in path or "engine.zip" in path]
    assert sum(size for size, *_ in second) < 100_000, second
    assert errors == []
    context.close()
