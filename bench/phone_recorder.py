"""The recorder's loading (issue 23): the bytes a first visit costs the server, the time to
the engine ready on a laptop and on the slow phone, and the warm (service worker) visit.

    python -m bench.phone --only recorder

Beside each figure, the goal, and what main did before where it is cheap to know: main sent
Pyodide's files uncompressed and fetched them twice (the page, then the service worker's
install), with Pyodide's whole standard library; that figure is computed from the files.
"""

from __future__ import annotations

import gzip
import json
import re
import urllib.request

from bench.phonekit import ROOT, kilobytes, kit, megabytes

FIRST_VISIT_GOAL = 5_000_000
PYODIDE = ROOT / "node_modules" / "pyodide"
MAIN_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def _before() -> int:
    """Pyodide's files as main sent them: uncompressed, the whole standard library."""
    return sum((PYODIDE / name).stat().st_size for name in MAIN_FILES)


def _visit(kit_, page, timeout_ms: int) -> tuple[float, int, list]:
    """Open the recorder; return the seconds from navigation to the engine ready, the bytes
    the server sent, and its answers."""
    mark = kit_.mark()
    page.goto("/record/")
    page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=timeout_ms)
    ready = int(page.locator("body").get_attribute("data-ready-ms")) / 1000
    answers = kit_.requests_since(mark)
    _visit.steps = _steps(page)
    return ready, sum(size for size, *_ in answers), answers


def _steps(page) -> str:
    """Where a visit's time went, in seconds since navigation: the engine's worker started
    (the page, its scripts and the download's check before), Pyodide's script loaded, Python
    started (the wasm compiled, the standard library), the engine unpacked, and ready (the
    engine's modules imported)."""
    body = page.locator("body")
    worker = int(body.get_attribute("data-worker-at") or 0)
    steps = json.loads(body.get_attribute("data-engine-steps") or "{}")
    ready = int(body.get_attribute("data-ready-ms"))
    parts = [f"worker {worker / 1000:.2f}"]
    parts += [f"{name} {(worker + ms) / 1000:.2f}" for name, ms in steps.items()]
    return ", ".join([*parts, f"ready {ready / 1000:.2f}"])


def _said(text: str) -> str:
    """The size the page says the engine's download is ("3.7 MB")."""
    found = re.search(r"(\d+[.,]\d) MB", text)
    return found[0] if found else text


def _said_to_gzip_only(kit_) -> str:
    """The size the page says to a browser that accepts gzip but not brotli."""
    request = urllib.request.Request(
        kit_.base_url + "/record/",
        headers={
            "Cookie": "sessionid=" + kit_.user("bench-recorder-gzip"),
            "Accept-Encoding": "gzip",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
        if answer.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
    return _said(re.search(r'id="download-size">([^<]*)<', body.decode())[1])


def run(kit_) -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    with kit_.chromium() as browser:
        # A laptop on this machine's line: first visit, then warm.
        context = kit_.context(browser, phone=False, user="bench-recorder")
        page = kit_.page(context)
        ready, sent, answers = _visit(kit_, page, 120_000)
        said = _said(page.locator("#download-size").text_content())
        pyodide = [path for _, _, _, path in answers if "/pyodide/" in path]
        rows.append(
            (
                "first visit: sent by the server",
                megabytes(sent),
                f"<= {megabytes(FIRST_VISIT_GOAL)} (main: 22.3 MB measured; its Pyodide "
                f"alone {megabytes(_before())} uncompressed)",
            )
        )
        rows.append(
            (
                "first visit: Pyodide's files fetched",
                f"{len(pyodide)} ({len(set(pyodide))} files)",
                "each once (main: each twice)",
            )
        )
        rows.append(("first visit: the page says", said, "the real figure"))
        rows.append(("first visit, gzip only: the page says", _said_to_gzip_only(kit_), "<= 5 MB"))
        rows.append(("engine ready, laptop, first visit", f"{ready:.1f} s", "(main: 3.3-6.3 s)"))
        rows.append(("  its steps (s since navigation)", "", _visit.steps))
        page.close()
        # Warm: the page opened again, three times (the median: this machine is shared).
        warm = []
        for _ in range(3):
            page = kit_.page(context)
            ready, sent, _ = _visit(kit_, page, 60_000)
            warm.append(ready)
            page.close()
        times = ", ".join(f"{t:.2f}" for t in warm)
        median = sorted(warm)[1]
        rows.append(
            ("engine ready, laptop, warm (worker)", f"{median:.2f} s", f"< 1 s (3 visits: {times})")
        )
        rows.append(("  its steps, the last (s)", "", _visit.steps))
        rows.append(("warm visit: sent by the server", kilobytes(sent), "the page alone"))
        context.close()

        # The slow phone: 1.6 Mbit/s, 150 ms, CPU x4 (bench.phonekit), its workers too.
        with kit_.slow_threads() as workers:
            rows.append(("slow phone", "", workers))
            _slow_phone(kit_, browser, rows)
    return rows


def _slow_phone(kit_, browser, rows) -> None:
    """The slow phone's first visit, then three warm ones."""
    context = kit_.context(browser, slow=True, user="bench-recorder")
    page = kit_.page(context)
    try:
        ready, _, _ = _visit(kit_, page, 600_000)
        rows.append(
            (
                "engine ready, slow phone, first visit",
                f"{ready:.1f} s",
                "<= 30 s (issue 38: 38.9 s)",
            )
        )
        rows.append(("  its steps (s since navigation)", "", _visit.steps))
    except Exception as error:  # the row says it did not become ready
        rows.append(("engine ready, slow phone, first visit", "not ready", str(error)[:60]))
    page.close()
    warm = []
    for _ in range(3):
        page = kit_.page(context)
        ready, _, _ = _visit(kit_, page, 120_000)
        warm.append(ready)
        page.close()
    times = ", ".join(f"{t:.2f}" for t in warm)
    rows.append(
        (
            "engine ready, slow phone, warm (worker)",
            f"{sorted(warm)[1]:.2f} s",
            f"<= 2.5 s (issue 38: 5.9-6.8 s; 3 visits: {times})",
        )
    )
    rows.append(("  its steps, the last (s)", "", _visit.steps))
    context.close()


if __name__ == "__main__":
    with kit(demo_matches=0) as running:
        for row in run(running):
            print(" | ".join(row))
