"""Benchmark: the club night on a phone (issue 23), measured in Debian's chromium.

    python -m bench.phone [--only recorder,match,...] [--demo-matches 60]

Serves the archive the README's production way (``bench.phonekit``: collectstatic, gunicorn,
SQLite with demo data) and runs each section against it: the recorder's first and warm visits,
its storage per tap, the match page, the organiser's approvals and the Georgian pages. Each
row prints what was measured beside the goal of the issue, on a phone of 390x844 and, where
the goal says so, on the slow phone (1.6 Mbit/s, 150 ms round trip, CPU x4).
"""

from __future__ import annotations

import argparse
import importlib
import traceback

from bench.phonekit import kit

SECTIONS = {
    "recorder": "bench.phone_recorder",
    "storage": "bench.phone_storage",
    "taps": "bench.phone_taps",
    "match": "bench.phone_match",
    "organiser": "bench.phone_organiser",
    "georgian": "bench.phone_georgian",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--demo-matches", type=int, default=60)
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    rows: list[tuple[str, str, str, str]] = []
    with kit(demo_matches=args.demo_matches) as running:
        for name in chosen:
            try:
                module = importlib.import_module(SECTIONS[name])
            except ModuleNotFoundError:
                rows.append((name, "(section not built)", "", ""))
                continue
            try:
                for what, measured, goal in module.run(running):
                    rows.append((name, what, measured, goal))
            except Exception:  # one section's failure is printed, the others still run
                traceback.print_exc()
                rows.append((name, "(section failed, see above)", "", ""))
    width = max(len(what) for _, what, _, _ in rows) if rows else 10
    print(f"{'section':10} {'what':{width}}  {'measured':>18}  goal")
    for section, what, measured, goal in rows:
        print(f"{section:10} {what:{width}}  {measured:>18}  {goal}")


if __name__ == "__main__":
    main()
