"""Command line: ``python -m fives_engine validate FILE`` and ``... simulate``.

``validate`` prints one report per log as JSON Lines and exits 0 when every log is valid,
1 when any is not (or there is no log at all), 2 when the input cannot be read.
``simulate`` prints simulated logs as NDJSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from .bots import BOTS
from .equity import table_for
from .equity_make import CONFIGS, chart_svg, make
from .log import SchemaError, load_json
from .rules import PRESETS, resolve_ruleset
from .simulate import simulate_matches
from .validate import Report, iter_reports, validate_json, validate_log

NDJSON_SUFFIXES = (".ndjson", ".jsonl")


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _write_line(value: Any) -> None:
    """Print one JSON line in UTF-8, whatever the terminal's encoding.

    The parser refuses strings that are not text (lone surrogates), so a report holds
    none; should one slip through all the same, it is written escaped (``\\ud800``), as
    JSON allows, rather than failing the whole run.
    """
    text = _dump(value) + "\n"
    try:
        line = text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, separators=(",", ":")) + "\n"
        line = text.encode("ascii")
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text stream without bytes underneath (a test's StringIO)
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buffer.write(line)


def _reports(data: bytes, *, ndjson: bool | None) -> Iterable[Report]:
    """Yield the reports of a file: one log, or one per line of NDJSON.

    With ``ndjson`` None (standard input), a document that is one JSON value is one log,
    anything else is read line by line.
    """
    if ndjson is None:
        try:
            doc = load_json(data)
        except SchemaError:
            lines = [line for line in data.splitlines() if line.strip()]
            if len(lines) > 1:
                yield from _reports(data, ndjson=True)
                return
            yield validate_json(data)
            return
        yield validate_log(doc)
        return
    if not ndjson:
        yield validate_json(data)
        return
    yield from iter_reports(data.splitlines())


def command_validate(path: str) -> int:
    """Validate the logs of ``path`` (``-``: standard input); return the exit status."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            ndjson = None
        else:
            with open(path, "rb") as handle:
                data = handle.read()
            ndjson = path.lower().endswith(NDJSON_SUFFIXES)
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    seen = 0
    all_valid = True
    try:
        for report in _reports(data, ndjson=ndjson):
            seen += 1
            all_valid = all_valid and report.valid
            _write_line(report.as_dict())
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining
        # when it flushes standard output on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0 if all_valid else 1
    if not seen:
        print(f"{path}: no match log found", file=sys.stderr)
        return 1
    return 0 if all_valid else 1


def _ruleset_arg(text: str) -> Any:
    if text in PRESETS:
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither a preset ({', '.join(PRESETS)}) nor a JSON ruleset object"
        ) from None


def command_equity(
    presets: Sequence[str] | None, players: Sequence[int] | None, hands: int, seed: int
) -> int:
    """Sample and write the equity files of the chosen configurations (all by default)."""
    for base, count, teams in CONFIGS:
        if (presets and base not in presets) or (players and count not in players):
            continue
        data = make(base, count, teams, hands, seed=seed)
        table = data["table"]
        zero = -table["low"] // table["step"]
        print(
            f"{base} {count}{' in teams' if teams else ''}: {hands} hands in {data['seconds']} s;"
            f" target {table['target']}, the leader's chance at 0-0"
            f" {table['leading'][zero][zero]:.3f}"
        )
    return 0


def command_equity_chart(path: str) -> int:
    """Draw the published two-player All Fives table (docs/analysis.md's chart)."""
    table = table_for(resolve_ruleset("all-fives", 2), 2, False)
    if table is None:
        print("no published All Fives table", file=sys.stderr)
        return 1
    title = "Two-player All Fives to 250: the leading side's chance to win the match"
    with open(path, "w") as out:
        out.write(chart_svg(table, (0, 100, 200, 230), title))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m fives_engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="validate fives/1 logs, one report per log")
    validate.add_argument("file", help="a .json log, an .ndjson file of logs, or - for stdin")
    simulate = commands.add_parser("simulate", help="print simulated matches as NDJSON")
    simulate.add_argument("--ruleset", type=_ruleset_arg, default="muggins")
    simulate.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    simulate.add_argument("--teams", action="store_true", help="two partnerships (4 players)")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--count", type=int, default=1)
    simulate.add_argument(
        "--bot", action="append", choices=sorted(BOTS), help="a seat's bot (repeat per seat)"
    )
    simulate.add_argument("--max-hands", type=int, default=200)
    equity = commands.add_parser(
        "equity",
        help="sample the match-equity hands of the expected bot (engine/fives_engine/equity/)",
    )
    equity.add_argument("--preset", choices=sorted(PRESETS), action="append")
    equity.add_argument("--players", type=int, choices=(2, 4), action="append")
    equity.add_argument("--hands", type=int, default=2000)
    equity.add_argument("--seed", type=int, default=0)
    equity.add_argument(
        "--chart", metavar="SVG", help="only draw two-player All Fives' table into this file"
    )
    args = parser.parse_args(argv)

    if args.command == "validate":
        return command_validate(args.file)
    if args.command == "equity":
        if args.chart:
            return command_equity_chart(args.chart)
        return command_equity(args.preset, args.players, args.hands, args.seed)
    if args.teams and args.players != 4:
        parser.error("--teams needs --players 4")
    logs = simulate_matches(
        args.count,
        seed=args.seed,
        ruleset=args.ruleset,
        players=args.players,
        teams=args.teams,
        bots=args.bot or ("greedy",),
        max_hands=args.max_hands,
    )
    try:
        for log in logs:
            sys.stdout.write(_dump(log) + "\n")
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
