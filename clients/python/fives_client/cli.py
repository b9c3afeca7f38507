"""``fives``: the archive's command line (login, upload, export, validate).

Exit status: 0 when all went well; 1 when a match was rejected (``upload``) or a log is not
valid (``validate``); 2 on a usage error, an archive that cannot be reached, or a refusal
(a token unknown or without the scope).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import pathlib
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TransferSpeedColumn,
)

from fives_engine import iter_reports, load_json, validate_json, validate_log
from fives_engine.log import SchemaError
from fives_engine.validate import Report

from . import config
from .client import ArchiveError, Client, ExportChanged
from .types import Issue, Upload, UploadItem

SUFFIXES = (".json", ".ndjson", ".jsonl")
NDJSON_SUFFIXES = (".ndjson", ".jsonl")


class Usage(Exception):
    """A usage error: said on standard error, exit status 2."""


def stderr() -> Console:
    return Console(stderr=True, highlight=False)


# --- the files ----------------------------------------------------------------------------


def collect(paths: Sequence[str]) -> list[pathlib.Path]:
    """Return the files named, and the ``.json``/``.ndjson`` files in the folders named
    (recursively, in name order); a name that is neither is a usage error."""
    found: list[pathlib.Path] = []
    for name in paths:
        path = pathlib.Path(name)
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
            )
        elif path.is_file():
            found.append(path)
        else:
            raise Usage(f"{name}: no such file or folder")
    if not found:
        raise Usage("no .json or .ndjson file in " + ", ".join(paths))
    return found


def is_ndjson(path: pathlib.Path) -> bool:
    return path.suffix.lower() in NDJSON_SUFFIXES


def count_logs(data: bytes, ndjson: bool) -> int:
    return sum(1 for line in data.splitlines() if line.strip()) if ndjson else 1


def connect(url: str | None, *, token_needed: bool) -> Client:
    settings = config.resolve(url)
    if not settings.url:
        raise Usage("the archive's address: --url, FIVES_URL, or `fives login --url URL`")
    if token_needed and not settings.token:
        raise Usage(
            "no token: run `fives login` or set FIVES_TOKEN (make one on the archive's"
            f" page {settings.url.rstrip('/')}/settings/tokens/)"
        )
    return Client(settings.url, settings.token, language=os.environ.get("FIVES_LANGUAGE"))


# --- login --------------------------------------------------------------------------------


def command_login(args: argparse.Namespace) -> int:
    settings = config.resolve(args.url)
    if not settings.url:
        raise Usage("the archive's address: fives login --url https://ARCHIVE")
    token = args.token
    if not token:
        where = f"{settings.url.rstrip('/')}/settings/tokens/"
        if sys.stdin.isatty():
            token = getpass.getpass(f"A token made at {where} (scopes read and upload): ")
        else:
            token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise Usage("no token given")
    with Client(settings.url, token) as client:
        client.check_token()
    path = config.save(config.Settings(url=settings.url, token=token))
    print(f"Signed in to {settings.url}; the token is kept in {path}")
    return 0


# --- upload -------------------------------------------------------------------------------


@dataclass
class Sent:
    path: pathlib.Path
    logs: int
    upload: Upload | None = None
    error: str = ""
    items: list[UploadItem] = field(default_factory=list)


def progress_bar(*columns: Any) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        *columns,
        TimeElapsedColumn(),
        console=stderr(),
    )


def send_all(client: Client, files: list[pathlib.Path], club: str | None) -> list[Sent]:
    """Send every file, with a bar of the bytes sent; return what each answered."""
    sizes = {path: path.stat().st_size for path in files}
    sent: list[Sent] = []
    with progress_bar(DownloadColumn(), TransferSpeedColumn()) as progress:
        bar = progress.add_task("bytes sent", total=sum(sizes.values()))
        for path in files:
            data = path.read_bytes()
            ndjson = is_ndjson(path)
            one = Sent(path, count_logs(data, ndjson))
            try:
                one.upload = client.upload(
                    data,
                    ndjson=ndjson,
                    club=club,
                    on_sent=lambda n: progress.advance(bar, n),
                )
            except ArchiveError as error:
                if error.status in (400, 401, 403):  # the token or the query: every file's
                    raise
                one.error = f"{error.message} ({error.code})"
            sent.append(one)
    return sent


def wait_all(client: Client, sent: list[Sent]) -> None:
    """Wait for every upload's result, with a bar of the matches processed, and read the
    report of each of its logs."""
    with progress_bar(MofNCompleteColumn()) as progress:
        total = sum(one.logs for one in sent if one.upload)
        bar = progress.add_task("matches stored", total=total)
        for one in sent:
            if one.upload is None:
                continue
            if one.upload["status"] == "pending":  # else processed already (tasks in-process)
                one.upload = client.wait(one.upload["id"])
            one.items = list(client.items(one.upload))
            progress.advance(bar, one.logs)
            progress.update(bar, description=f"matches stored ({one.path.name} done)")
        progress.update(bar, description="matches stored")


def issue_words(issue: Issue) -> str:
    return f"{issue['code']}: {issue['message']}"


def counted(one: Sent, status: str) -> int:
    return sum(1 for item in one.items if item["status"] == status)


def report_upload(one: Sent, each: bool) -> bool:
    """Print what became of one file's matches; return whether all of them were stored."""
    if one.upload is None:
        print(f"{one.path}: not sent: {one.error}")
        return False
    upload = one.upload
    counts = (
        f"{counted(one, 'accepted')} stored, {counted(one, 'duplicate')} already in the"
        f" archive, {counted(one, 'rejected')} rejected"
    )
    print(f"{one.path}: upload {upload['id']} {upload['status']}: {counts}")
    if upload["status"] == "failed":
        print(f"  failed: {upload['failure'] or 'processing failed'}")
    if upload["problem"]:
        print(f"  {upload['problem']}")
    for item in one.items:
        if item["status"] != "rejected" and not each:
            continue
        # An item's index is its line in the file (from 1; a JSON file's one log: 1).
        line = f"line {item['index']}" if upload["kind"] == "ndjson" else "the log"
        match = f" (match {item['match']})" if item["match"] else ""
        print(f"  {line}: {item['status']}{match}")
        for issue in item["report"]["errors"]:
            print(f"    {issue_words(issue)}")
    return upload["status"] == "accepted"


def command_upload(args: argparse.Namespace) -> int:
    files = collect(args.paths)
    with connect(args.url, token_needed=True) as client:
        sent = send_all(client, files, args.club)
        wait_all(client, sent)
    stored = [report_upload(one, args.each) for one in sent]
    matches = sum(counted(one, "accepted") for one in sent)
    duplicates = sum(counted(one, "duplicate") for one in sent)
    rejected = sum(counted(one, "rejected") for one in sent)
    print(
        f"{len(files)} files: {matches} matches stored, {duplicates} already in the archive,"
        f" {rejected} rejected"
    )
    return 0 if all(stored) else 1


# --- export -------------------------------------------------------------------------------


def command_export(args: argparse.Namespace) -> int:
    params = {"club": args.club}
    if args.since:
        params["date_from"] = args.since
    if sys.stdout.isatty():
        raise Usage("the export is NDJSON: send it to a file (fives export ... > club.ndjson)")
    with (
        connect(args.url, token_needed=False) as client,
        Progress(
            TextColumn("{task.description}"),
            TextColumn("{task.completed} matches"),
            TimeElapsedColumn(),
            console=stderr(),
        ) as progress,
    ):
        bar = progress.add_task(f"exporting {args.club}", total=None)
        try:
            count = client.export(
                sys.stdout.buffer, params, on_line=lambda: progress.advance(bar, 1)
            )
        except ExportChanged as error:
            print(f"fives export: {error}", file=sys.stderr)
            return 1
    print(f"{count} matches exported", file=sys.stderr)
    return 0


# --- validate -----------------------------------------------------------------------------


def reports_of(data: bytes, ndjson: bool | None) -> Iterator[Report]:
    """The reports of a file as ``python -m fives_engine validate`` makes them: one log, or
    one per line of NDJSON; ``ndjson`` None (standard input): one JSON value is one log,
    anything else is read line by line."""
    if ndjson is None:
        try:
            doc = load_json(data)
        except SchemaError:
            if sum(1 for line in data.splitlines() if line.strip()) > 1:
                yield from iter_reports(data.splitlines())
            else:
                yield validate_json(data)
            return
        yield validate_log(doc)
    elif ndjson:
        yield from iter_reports(data.splitlines())
    else:
        yield validate_json(data)


def words(where: str, report: dict[str, Any]) -> Iterable[str]:
    """A report in words, as the archive's upload page says it."""
    if report["valid"]:
        scores = "-".join(str(s) for s in report["scores"])
        yield f"{where}: valid, {report['outcome']}, scores {scores}"
    else:
        yield f"{where}: not valid"
    for issue in report["errors"]:
        yield f"  {issue_words(issue)}"
    for issue in report["warnings"]:
        yield f"  warning {issue_words(issue)}"


def read_input(name: str) -> tuple[bytes, bool | None]:
    if name == "-":
        return sys.stdin.buffer.read(), None
    path = pathlib.Path(name)
    return path.read_bytes(), is_ndjson(path)


def validate_inputs(names: Sequence[str]) -> list[str]:
    """The files to validate: ``-``, files, and the logs in folders."""
    found: list[str] = []
    for name in names:
        if name != "-" and pathlib.Path(name).is_dir():
            found.extend(str(path) for path in collect([name]))
        else:
            found.append(name)
    return found


def command_validate(args: argparse.Namespace) -> int:
    status = 0
    out = sys.stdout.buffer
    for name in validate_inputs(args.files):
        try:
            data, ndjson = read_input(name)
        except OSError as error:
            print(f"cannot read {name}: {error.strerror or error}", file=sys.stderr)
            status = 2
            continue
        seen = 0
        for seen, report in enumerate(reports_of(data, ndjson), 1):
            answer = report.as_dict()
            if not report.valid:
                status = max(status, 1)
            if args.words:
                where = name if ndjson is False else f"{name} line {seen}"
                out.write("".join(line + "\n" for line in words(where, answer)).encode())
            else:
                line = json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n"
                out.write(line.encode("utf-8", "backslashreplace"))
        if not seen:
            print(f"{name}: no match log found", file=sys.stderr)
            status = max(status, 1)
    out.flush()
    return status


# --- the command line ---------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="fives", description="The Fives archive from the command line."
    )
    commands = top.add_subparsers(dest="command", required=True)
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument("--url", help="the archive's address (else FIVES_URL, else `fives login`)")

    login = commands.add_parser("login", parents=[remote], help="keep a token for the archive")
    login.add_argument("--token", help="the token (else asked for, or read from stdin)")
    login.set_defaults(run=command_login)

    upload = commands.add_parser("upload", parents=[remote], help="upload logs, files or folders")
    upload.add_argument("paths", nargs="+", metavar="PATH", help=".json/.ndjson files, folders")
    upload.add_argument("--club", metavar="SLUG", help="put every log in this club of yours")
    upload.add_argument("--each", action="store_true", help="print every match's status")
    upload.set_defaults(run=command_upload)

    export = commands.add_parser("export", parents=[remote], help="a club's matches as NDJSON")
    export.add_argument("--club", metavar="SLUG", required=True)
    export.add_argument("--since", metavar="DATE", help="played on or after (YYYY-MM-DD)")
    export.set_defaults(run=command_export)

    validate = commands.add_parser("validate", help="check logs offline, as the archive would")
    validate.add_argument("files", nargs="+", metavar="FILE", help="a .json, .ndjson, or -")
    validate.add_argument("--words", action="store_true", help="the reports in words")
    validate.set_defaults(run=command_validate)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except Usage as error:
        print(f"fives {args.command}: {error}", file=sys.stderr)
        return 2
    except ArchiveError as error:
        print(f"fives {args.command}: the archive says: {error}", file=sys.stderr)
        return 2
    except httpx.HTTPError as error:
        print(f"fives {args.command}: cannot reach the archive: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
