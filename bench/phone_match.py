"""Benchmark section: the match page on a phone (issue 23).

    python -m bench.phone --only match

A normal match of the demo data and a 200-hand match stored for the run, opened in chromium
as a 390x844 phone, on this machine's line and on the slow phone (1.6 Mbit/s, 150 ms round
trip, CPU x4). Measured: the bytes the server sent for a cold visit (the page, its styles and
scripts, anything it fetched), the time from navigation until every move can be stepped to
(the replay's ``replay-complete`` mark; the server has made the match's replay before, as it
does once per version of a match), the time of a step at hand 150 of the 200-hand match
(in the page: performance.now() from the start of a frame, a click on "next", to the next
animation frame, the median of many steps; and the step's own script, style and layout), and
what a second visit asks of the server.
"""

from __future__ import annotations

import json
import statistics

from bench.phonekit import kilobytes

STORE_LONG_MATCH = """
import json
import statistics
from django.contrib.auth import get_user_model
from fives_engine.simulate import simulate_match
from clubs.models import Club
from games.models import Match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
club = Club.objects.order_by('pk').first()
normal = Match.objects.filter(club=club).order_by('pk').first()
user = get_user_model().objects.get(username='bench-phone')
doc = simulate_match({'base': 'all-fives', 'target': 100000}, 2, seed=5, max_hands=200)
doc['club'] = club.name
doc['id'] = 'bench-phone-200-hands'
upload = upload_process(upload_id=upload_create(
    uploader=user, data=json.dumps(doc).encode(), kind='json').pk)
long = upload.items.get().match
print(json.dumps({'normal': normal.pk, 'long': long.pk, 'hands': len(doc['hands'])}))
"""

# A step as the reader makes it, timed from the start of a frame to the next frame: a step
# that fits in one frame takes one frame's time (16.7 ms at 60 Hz), one that does not, two.
STEP_TIMES = """async (count) => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const next = document.querySelector('#next');
  const framed = [], work = [];
  for (let k = 0; k < count; k++) {
    await frame();
    const started = performance.now();
    next.click();
    document.body.offsetHeight;  // style and layout, done now
    work.push(performance.now() - started);
    await frame();
    framed.push(performance.now() - started);
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  return {framed: median(framed), work: median(work), worst: Math.max(...work)};
}"""


def cold_visit(kit, browser, path: str, *, slow: bool) -> dict:
    """Open ``path`` in a new phone (an empty cache); return the bytes the server sent until
    every move could be stepped, the time that took after navigation, the page's elements
    and, visiting again, what the second visit asked of the server."""
    context = kit.context(browser, phone=True, slow=slow, user="bench-phone")
    page = kit.page(context)
    try:
        mark = kit.mark()
        page.goto(path, wait_until="load")
        page.wait_for_selector("#replay[data-complete='1']", timeout=120_000)
        steppable = page.evaluate("performance.getEntriesByName('replay-complete')[0].startTime")
        elements = page.evaluate("document.getElementsByTagName('*').length")
        sent = kit.sent_since(mark)
        page.goto("/", wait_until="load")
        mark = kit.mark()
        page.goto(path, wait_until="load")
        page.wait_for_selector("#replay[data-complete='1']", timeout=120_000)
        again = [p for _size, _status, _method, p in kit.requests_since(mark)]
        return {"sent": sent, "steppable": steppable, "elements": elements, "again": again}
    finally:
        context.close()


def step_at(kit, browser, path: str, *, slow: bool, steps: int = 60) -> dict:
    context = kit.context(browser, phone=True, slow=slow, user="bench-phone")
    page = kit.page(context)
    try:
        page.goto(path, wait_until="load")
        page.wait_for_selector("#replay[data-complete='1']", timeout=120_000)
        figures = page.evaluate(STEP_TIMES, steps)
        figures["list"] = page.evaluate("document.querySelectorAll('#move-list *').length")
        return figures
    finally:
        context.close()


def run(kit) -> list[tuple[str, str, str]]:
    kit.user("bench-phone")
    found = json.loads(kit.shell(STORE_LONG_MATCH).splitlines()[-1])
    normal = f"/matches/{found['normal']}/"
    long = f"/matches/{found['long']}/"
    rows: list[tuple[str, str, str]] = []
    # The server works out a match's replay once per version of the match; the figures are
    # of a reader's first visit to a match seen before (a cold browser, a warm server).
    with kit.chromium() as browser:
        warm = kit.context(browser, phone=True, user="bench-phone")
        for path in (normal, long):
            warm.request.get(path)
        warm.close()
        visits = {}
        for name, path in (("normal", normal), ("200-hand", long)):
            for slow in (False, True):
                # Three cold visits: the bytes of the first, the median of the times.
                tries = [cold_visit(kit, browser, path, slow=slow) for _ in range(3)]
                visits[name, slow] = tries[0] | {
                    "steppable": statistics.median(t["steppable"] for t in tries)
                }
        steps = {slow: step_at(kit, browser, f"{long}#h150m5", slow=slow) for slow in (False, True)}
    for name, goal in (("normal", "at most 40 KB"), ("200-hand", "at most 120 KB")):
        rows.append(
            (f"{name} match page, cold: bytes sent", kilobytes(visits[name, False]["sent"]), goal)
        )
    for name in ("normal", "200-hand"):
        for slow in (False, True):
            where = "slow phone" if slow else "phone"
            rows.append(
                (
                    f"{name} match: every move steppable after navigation, median of 3 ({where})",
                    f"{visits[name, slow]['steppable'] / 1000:.2f} s",
                    "under 0.6 s",
                )
            )
    for slow in (False, True):
        where = "slow phone" if slow else "phone"
        figures = steps[slow]
        rows.append(
            (
                f"step at hand 150 of 200, start of frame to next frame ({where})",
                f"{figures['framed']:.1f} ms",
                "one frame (16.7 ms)",
            )
        )
        rows.append(
            (
                f"step at hand 150 of 200, script+style+layout, median/max ({where})",
                f"{figures['work']:.1f} / {figures['worst']:.1f} ms",
                "within 16 ms",
            )
        )
    rows.append(
        ("move list elements at hand 150 of 200", str(steps[False]["list"]), "bounded by a hand")
    )
    for name in ("normal", "200-hand"):
        again = visits[name, False]["again"]
        rows.append(
            (
                f"{name} match page, second visit: requests to the server",
                f"{len(again)}: " + ", ".join(sorted({p.split("?")[0] for p in again}))[:60],
                "the HTML only",
            )
        )
    return rows


if __name__ == "__main__":
    from bench.phonekit import kit as running_kit

    with running_kit() as k:
        for row in run(k):
            print(" | ".join(row))
