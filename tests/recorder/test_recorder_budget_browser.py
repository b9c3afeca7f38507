"""The recorder past the upload budget, in a real browser (issue 34, item 3): the archive
answers the send 429 with Retry-After; the page keeps the match in the phone's outbox, says
in words that it waits and when it goes again, sends nothing before then, and every match
reaches the archive once."""

from __future__ import annotations

import json
import os

import pytest

from games.models import Upload
from tests.archive.helpers import valid_log

from . import test_recorder_browser as table
from .test_recorder_browser import open_recorder

# The phone of the recorder's browser tests (Nino's, 390x844, in Tbilisi's time).
browser = table.browser
phone = table.phone

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)

OUTBOX = "fives-recorder/nino/outbox"
# Every text the outbox line shows, kept as the page shows it (it may show for a second).
WATCH_OUTBOX = """
window.fivesOutboxSaid = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("outbox");
  if (!box) return;
  new MutationObserver(() => window.fivesOutboxSaid.push(box.textContent))
    .observe(box, { childList: true, characterData: true, subtree: true });
});
"""


def test_a_send_past_the_budget_waits_in_the_phone_and_goes_after_retry_after(
    phone, owner, settings
):
    # One upload in five seconds: the second match of the outbox is refused, and goes once
    # its wait is over (a busy machine may take a second a send: one a second let all by).
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": "1000/min", "upload": "1/5s", "export": "30/min"},
    }
    entries = []
    for seed in (1, 2, 3):
        doc = valid_log(seed, id=f"rec-budget-{seed}")
        entries.append(
            {"id": doc["id"], "club": "tbilisi-fives-club", "user": "nino", "text": json.dumps(doc)}
        )
    page = phone.new_page()
    page.goto("/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)", [OUTBOX, json.dumps(entries)]
    )
    page.close()
    phone.add_init_script(WATCH_OUTBOX)
    answers: list[tuple[int, str | None]] = []

    def seen(response):
        if response.url.endswith("/record/send/"):
            answers.append((response.status, response.headers.get("retry-after")))

    phone.on("response", seen)  # from the page's first send, as it opens
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    expect(page.locator("body[data-outbox='0']")).to_have_count(1, timeout=60000)

    codes = [status for status, _wait in answers]
    assert 429 in codes
    # Each refused match went again only once its wait was over, and then passed.
    assert codes.count(201) == 3 and codes[-1] == 201
    assert all(wait and int(wait) >= 1 for status, wait in answers if status == 429)
    assert codes.count(429) <= 2, codes
    said = page.evaluate("window.fivesOutboxSaid")
    assert any("waits in this phone and is sent again in" in text for text in said), said
    # Every match reached the archive once; nothing refused was kept.
    documents = sorted(json.loads(upload.document)["id"] for upload in Upload.objects.all())
    assert documents == ["rec-budget-1", "rec-budget-2", "rec-budget-3"]
    assert recorder.errors == []
