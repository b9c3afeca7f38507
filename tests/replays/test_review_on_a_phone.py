"""The review on a phone, and the match page's accessibility (issue 56, items 4 and 8), in
Debian's chromium:

- the luck and skill table fits a 390 px screen, its result first after the side's name, in
  English, Russian and Georgian, for a partnership's long names too;
- every list of a match's plays gives a play's loss in one unit: the list of every play and
  the move list beside the board in winning chances where the match has a table of them
  (the points under them in small print), in points where it has none;
- the move list's buttons are targets of 24 CSS px at least each way (WCAG 2.2, 2.5.8);
- every box that scrolls is reached from the keyboard and named (tabindex 0, a region with
  a label in the reader's language), and axe-core finds no target-size or scrolled-region
  violation.

Screenshots in test-artifacts/ at 390 and 1280 px, in English, Russian and Georgian (looked at).
"""

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

from .test_replay_browser import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)
AXE = pathlib.Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
# A partnership of two long names: the widest side a luck and skill table names.
PARTNERS = ["Levan Abashidze", "Nino", "Giorgi Tsereteli", "Tamar"]


def analysed(owner, member, names, *, seed, teams=False):
    """A stored match of ``names``, analysed here and now; the match and the review."""
    match = store_match(owner, names, seed=seed, teams=teams, played_at="2026-05-01T19:00:00Z")
    analysis = service.analysis_request(match=match, user=member)
    service.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == MatchAnalysis.Status.DONE
    return match, analysis.result


def opened(browser, live_server, match, viewport, language="en", address=""):
    """A context and its page on the match, laid out whole (nothing left for later), with a
    list of the page's errors."""
    context = browser.new_context(
        viewport=viewport,
        is_mobile=viewport == PHONE,
        has_touch=viewport == PHONE,
        # axe-core is put into the page by the test: the page's own policy allows no script
        # of another origin.
        bypass_csp=True,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/matches/{match.pk}/{address}")
    page.wait_for_selector("#replay[data-complete='1']")
    page.evaluate("document.querySelectorAll('.later').forEach((e) => e.classList.remove('later'))")
    return context, page, errors


def shot(page, selector: str, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(selector).screenshot(path=str(ARTIFACTS / name))


# Each key cell of the luck and skill table (the side's name and its result) and whether
# it lies inside the screen, as the table is scrolled into sight.
SIDES = """() => {
  const screen = document.documentElement.clientWidth;
  const box = document.querySelector('table.review-sides').closest('.table-scroll');
  return {
    scrolls: box.scrollWidth > box.clientWidth,
    heads: [...document.querySelectorAll('table.review-sides thead th')].map(
      (th) => th.textContent.trim()),
    cells: [...document.querySelectorAll('table.review-sides tbody tr')].map((row) => {
      const name = row.querySelector('th').getBoundingClientRect();
      const result = row.querySelector('[data-result]').getBoundingClientRect();
      return {
        result: row.querySelector('[data-result]').textContent.trim(),
        inside: name.left >= 0 && result.left >= 0 && result.right <= screen + 0.5
          && result.top >= 0 && result.bottom <= window.innerHeight,
      };
    }),
  };
}"""


def test_the_luck_and_skill_table_fits_a_phone_with_the_result_first(
    browser, live_server, owner, member
):
    match, result = analysed(owner, member, PARTNERS, seed=3, teams=True)
    assert result["unit"] == "chance" and len(result["sides"]) == 2
    for language in ("en", "ru", "ka"):
        for viewport in (PHONE, LAPTOP):
            context, page, errors = opened(browser, live_server, match, viewport, language)
            try:
                page.locator("table.review-sides").scroll_into_view_if_needed()
                seen = page.evaluate(SIDES)
                assert not seen["scrolls"], (language, viewport)
                assert all(cell["inside"] for cell in seen["cells"]), (language, seen)
                assert [float(cell["result"].replace(",", ".")) for cell in seen["cells"]] == [
                    round(side["result"], 1) for side in result["sides"]
                ]
                if language == "en":
                    assert seen["heads"][:2] == ["Side", "Result"]
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], (language, width)
                shot(page, ".review-chances", f"review-sides-{language}-{viewport['width']}.png")
            finally:
                context.close()
            assert errors == []


def plays_list(html: str) -> dict:
    """What the page says of the list of every play before it is opened: its unit and the
    words that name it (the list's rows come from the API when opened)."""
    table = re.search(r'<table class="analysis-plays" data-unit="(\w+)">.*?</thead>', html, re.S)
    head = re.search(r'<th scope="col" class="num" title="([^"]*)">Loss</th>', table[0])
    return {"unit": table[1], "loss title": unescape(head[1])}


def page_marks_units(html: str) -> set:
    found = re.search(r'<script id="review-marks" type="application/json">(.*?)</script>', html)
    return {mark[5] for mark in json.loads(unescape(found[1]))}


def test_the_list_of_every_play_and_the_move_list_say_a_loss_in_one_unit(owner, member):
    """Winning chances where the match has a table of them (two sides), points where it has
    none (three players alone): the marks the move list shows, and the list of every play."""
    two, two_result = analysed(owner, member, ["Levan", "Nino"], seed=9)
    three, three_result = analysed(owner, member, ["Levan", "Nino", "Giorgi"], seed=4)
    for match, result, unit in ((two, two_result, "chance"), (three, three_result, "points")):
        assert result["unit"] == unit
        html = Client().get(f"/matches/{match.pk}/").content.decode()
        assert page_marks_units(html) == {unit}
        listed = plays_list(html)
        assert listed["unit"] == unit
        said = "Chance given up" if unit == "chance" else "Points lost"
        assert listed["loss title"].startswith(said), listed
    # In Russian and Georgian too, each in its own words.
    for language, words in (("ru", "Потерянный шанс"), ("ka", "დაკარგული შანსი")):
        client = Client(headers={"Accept-Language": language})
        client.cookies["django_language"] = language
        html = client.get(f"/matches/{two.pk}/").content.decode()
        assert html.count(words) == 1, language


# Each row of the list of every play whose play the move list marks: its address, the loss
# it says, and what its small print says.
ROWS = """() => [...document.querySelectorAll('table.analysis-plays tbody tr')]
  .filter((row) => row.className.startsWith('mark-'))
  .map((row) => {
    const loss = row.cells[2];
    const small = loss.querySelector('.other-unit');
    return {
      href: row.querySelector('a').getAttribute('href'),
      loss: loss.firstChild.textContent,
      other: small ? small.textContent : null,
    };
  })"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_marked_play_has_the_same_loss_in_both_lists(
    browser, live_server, owner, member, players
):
    names = ["Levan", "Nino", "Giorgi"][:players]
    match, result = analysed(owner, member, names, seed={2: 9, 3: 4}[players])
    unit = result["unit"]
    assert unit == {2: "chance", 3: "points"}[players]
    context, page, errors = opened(browser, live_server, match, LAPTOP)
    try:
        page.locator("[data-analysis-plays] summary").click()
        page.wait_for_selector("table.analysis-plays tbody tr")
        rows = page.evaluate(ROWS)
        assert rows, "some play of the match is marked"
        for row in rows:
            # The list's link steps the replay there: the move list shows that play's mark.
            page.locator(f"table.analysis-plays a[href='{row['href']}']").click()
            page.wait_for_function("(h) => location.hash === h", arg=row["href"])
            badge = page.locator("#move-list [aria-current] .review-mark").inner_text()
            shown = float(re.search(r"−([\d.]+)", badge)[1])
            listed = float(row["loss"])
            assert round(listed, 1) == shown, (row, badge)
            words = page.inner_text("#last-move")
            if unit == "chance":
                assert "points of chance" in words, words
                assert re.fullmatch(r"in points: \d+\.\d\d", row["other"]), row
            else:
                assert f"lost {shown} points" in words, words
                assert row["other"] is None, row
        page.locator("table.analysis-plays").scroll_into_view_if_needed()
        shot(page, "[data-analysis-plays]", f"every-play-{unit}-1280.png")
    finally:
        context.close()
    assert errors == []


# Every box of the page that scrolls, as its style says (overflow auto or scroll), with what
# makes it reachable from the keyboard and its name; a form's field (the embed code's
# textarea) is a control of its own, focused and named by its label.
SCROLLED = """() => [...document.querySelectorAll('body *:not(textarea):not(select)')]
  .filter((e) => { const s = getComputedStyle(e);
                   return /auto|scroll/.test(s.overflowX + ' ' + s.overflowY); })
  .map((e) => ({
    what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className,
    tabindex: e.getAttribute('tabindex'),
    role: e.getAttribute('role') || (e.tagName === 'NAV' ? 'navigation' : null),
    label: e.getAttribute('aria-label'),
    focusable: !!e.querySelector('button, a[href], input, select, textarea'),
  }))"""


def axe_violations(page, rules: list[str]) -> list:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "(rules) => axe.run(document, {runOnly: {type: 'rule', values: rules}})", rules
    )
    return [(v["id"], [n["target"] for n in v["nodes"]]) for v in found["violations"]]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_the_move_lists_buttons_and_the_scrolled_boxes_are_for_every_hand_and_key(
    browser, live_server, owner, member, viewport
):
    match, _result = analysed(owner, member, PARTNERS, seed=3, teams=True)
    for language in ("en", "ka", "ru"):
        context, page, errors = opened(browser, live_server, match, viewport, language, "#h1m3")
        try:
            page.locator("[data-analysis-plays] summary").click()
            page.wait_for_selector("table.analysis-plays tbody tr")
            # The move list's buttons: 24 px at least each way.
            sizes = page.evaluate(
                "() => [...document.querySelectorAll('#move-list button')].map((b) => {"
                " const r = b.getBoundingClientRect(); return [b.textContent, r.width, r.height];})"
            )
            assert len(sizes) > 10
            small = [size for size in sizes if size[1] < 24 or size[2] < 24]
            assert small == [], small
            # Every box that scrolls: a region of its own name, in the tab order.
            boxes = page.evaluate(SCROLLED)
            for box in boxes:
                assert box["label"], box
                assert box["tabindex"] == "0" or (box["role"] and box["focusable"]), box
                if "table-scroll" in box["what"]:
                    assert box["role"] == "region" and box["tabindex"] == "0", box
            labels = [box["label"] for box in boxes]
            assert len(labels) == len(set(labels)), labels  # each region told apart
            names = {
                "en": "Luck and skill of each side",
                "ru": "Везение и мастерство каждой стороны",
                "ka": "თითოეული მხარის იღბალი და ოსტატობა",
            }
            assert names[language] in labels, labels
            # In the tab order: it takes the focus.
            region = page.locator(f"[role=region][aria-label='{names[language]}']")
            region.focus()
            assert (
                page.evaluate("document.activeElement.getAttribute('aria-label')")
                == (names[language])
            )
            if AXE.exists():
                rules = [
                    "target-size",
                    "scrollable-region-focusable",
                    "aria-allowed-role",
                    "landmark-unique",
                    "aria-prohibited-attr",
                ]
                assert axe_violations(page, rules) == []
            page.locator("#move-list").scroll_into_view_if_needed()
            shot(page, "#move-list", f"move-list-{language}-{viewport['width']}.png")
            page.locator("[data-analysis-plays]").evaluate("(e) => e.scrollIntoView()")
            page.screenshot(path=str(ARTIFACTS / f"every-play-{language}-{viewport['width']}.png"))
        finally:
            context.close()
        assert errors == []
