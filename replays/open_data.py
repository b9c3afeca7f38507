"""The open data (issue 59, item 4): each month's public matches, for research and tools.

A month's files, under ``settings.FIVES_DATA_ROOT``, served by nginx from
``settings.FIVES_DATA_URL`` (by Django only with DEBUG):

- ``fives-YYYY-MM.ndjson.zst``: the month's public matches as ``fives/1`` NDJSON, one log a
  line, written by the export's own code (``games.export.export_logs``: the file says what
  ``/api/v1/matches/export`` says), compressed with zstd;
- ``fives-YYYY-MM-seats.parquet``: one row per seat of each of those matches (the match's
  archive id and its line in the NDJSON file, when and where it was played, the seat's
  player, team, score and result, and the per-seat figures the archive keeps for it where
  they are at hand: null for a match not yet added up);
- ``fives-YYYY-MM.json``: what the page and the API list (counts, sizes, SHA-256 of each file,
  the licence) and ``fingerprint``, how many public matches the month held and the sum of
  their ids, by which the job sees that the month changed.

A month's matches are those played in it (UTC), or stored in it when the log says not when
it was played (as the statistics place them). Public: counted (approved) matches of public
clubs, ``Match.objects.visible_to(None)``, what anyone may read. The files are remade from the
database, never edited: a match deleted or made private (its club turned private, its
approval withdrawn) changes its month's fingerprint, and the job (``open_data_due``, every
``FIVES_DATA_EVERY`` seconds) writes that month's files again without it. A file is written
beside its old one and renamed over it: a reader never sees half of one.
"""

from __future__ import annotations

import calendar
import hashlib
import json
import multiprocessing
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import zstandard
from django.conf import settings
from django.db import connection, connections
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from games.export import export_logs
from games.models import Match, Seat

from .models import SeatResult
from .stats import STATISTICS

MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
LICENCE = {
    "name": "CC BY 4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
}
# What /data/ shows to read a month's files with DuckDB (the test runs it as shown).
DUCKDB_EXAMPLE = """SELECT player, club, count(*) AS matches, round(avg(won::INT), 2) AS won
FROM '{seats}'
GROUP BY player, club ORDER BY matches DESC, player LIMIT 10;

SELECT players, len(hands) AS hands
FROM read_json('{matches}', format = 'newline_delimited', compression = 'zstd',
               maximum_object_size = 100000000)
LIMIT 10;"""
# zstd's own default: a month of 100,000 matches is some 750 MB of text.
ZSTD_LEVEL = 3
# Matches read at once for the seat rows (the export reads its own chunks).
CHUNK = 2000
# The per-seat figures of ``SeatResult`` the Parquet file carries (null where not at hand).
# (the rank and the points against, then each statistic the archive counts: ``STATISTICS``)
FIGURES = ("rank", "scored_against", *STATISTICS)
SCHEMA = pa.schema(
    [
        ("match_id", pa.int64()),
        ("line", pa.int32()),
        ("played_at", pa.timestamp("us", tz="UTC")),
        ("club", pa.string()),
        ("club_slug", pa.string()),
        ("ruleset", pa.string()),
        ("players", pa.int8()),
        ("complete", pa.bool_()),
        ("seat", pa.int8()),
        ("player", pa.string()),
        ("team", pa.int8()),
        ("score", pa.int32()),
        ("won", pa.bool_()),
        *((name, pa.int32()) for name in FIGURES),
    ]
)


@dataclass(frozen=True)
class DataFile:
    name: str
    bytes: int
    sha256: str


@dataclass(frozen=True)
class MonthFiles:
    """One month's files, as its ``.json`` says."""

    month: str
    matches: int
    hands: int
    moves: int
    seats: int
    ndjson: DataFile
    parquet: DataFile
    made_at: str
    fingerprint: list[int]

    def url(self, file: DataFile) -> str:
        return settings.FIVES_DATA_URL + file.name

    def files(self) -> list[tuple[str, DataFile]]:
        return [("matches", self.ndjson), ("seats", self.parquet)]


def month_parse(text: str) -> tuple[int, int]:
    """Return (year, month) of ``YYYY-MM``; ValueError for anything else."""
    found = MONTH.match(text or "")
    if found is None:
        raise ValueError(f"a month is written YYYY-MM, not {text!r}")
    return int(found[1]), int(found[2])


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """The month's first instant and the next month's (UTC)."""
    year, number = month_parse(month)
    start = datetime(year, number, 1, tzinfo=UTC)
    days = calendar.monthrange(year, number)[1]
    return start, start + timedelta(days=days)


def month_before(day: date) -> str:
    """The month before ``day``'s (the one the job writes on the 1st)."""
    last = day.replace(day=1) - timedelta(days=1)
    return f"{last.year:04d}-{last.month:02d}"


def public_matches(month: str) -> QuerySet[Match]:
    """The month's public matches, in the order stored (ids)."""
    start, end = month_bounds(month)
    placed = Q(played_at__gte=start, played_at__lt=end) | Q(
        played_at__isnull=True, created_at__gte=start, created_at__lt=end
    )
    return Match.objects.visible_to(None).filter(placed).order_by("id")


def fingerprint(month: str) -> list[int]:
    """How many public matches the month holds and the sum of their ids: a match deleted,
    made private or added changes it."""
    found = public_matches(month).order_by().aggregate(count=Count("id"), total=Sum("id"))
    return [int(found["count"]), int(found["total"] or 0)]


def data_root() -> Path:
    return Path(settings.FIVES_DATA_ROOT)


def month_write(month: str, root: Path | None = None, *, jobs: int | None = None) -> MonthFiles:
    """Write the month's files from what is public now (over any before); return them.

    The matches are read in ``jobs`` processes at once (``FIVES_DATA_JOBS``), each its share
    of them in the order stored, on PostgreSQL outside a transaction (a process of its own
    would not see what a transaction has not committed; SQLite is read by one)."""
    root = root or data_root()
    root.mkdir(parents=True, exist_ok=True)
    # Taken before the files: a change while they are written makes the next job write again.
    print_before = fingerprint(month)
    stem = f"fives-{month}"
    ids = list(public_matches(month).values_list("id", flat=True))
    jobs = max(1, min(jobs or settings.FIVES_DATA_JOBS, len(ids) // CHUNK or 1))
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        jobs = 1
    shares = [ids[len(ids) * n // jobs : len(ids) * (n + 1) // jobs] for n in range(jobs)]
    parts = [
        (month, share[0] if share else 0, share[-1] if share else -1, str(_temporary(root, stem)))
        for share in shares
    ]
    if jobs == 1:
        done = [_part(part) for part in parts]
    else:
        connections.close_all()  # each process its own connection, none shared by a fork
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = pool.map(_part, parts)
    ndjson_tmp = _temporary(root, stem)
    tables = []
    lines = hands = moves = 0
    with open(ndjson_tmp, "wb") as raw:
        writer = zstandard.ZstdCompressor(level=ZSTD_LEVEL, threads=-1).stream_writer(raw)
        for (*_share, path), (count, part_hands, part_moves) in zip(parts, done, strict=True):
            with open(path, "rb") as part:
                while block := part.read(1 << 20):
                    writer.write(block)
            with pa.memory_map(path + ".arrow") as source:
                table = pa.ipc.open_file(source).read_all()
            line = pc.add(table.column("line"), pa.scalar(lines, pa.int32()))
            tables.append(table.set_column(1, "line", line))
            lines += count
            hands += part_hands
            moves += part_moves
            os.unlink(path)
            os.unlink(path + ".arrow")
        writer.flush(zstandard.FLUSH_FRAME)
    table = pa.concat_tables(tables) if tables else SCHEMA.empty_table()
    parquet_tmp = _temporary(root, stem)
    pq.write_table(table, parquet_tmp, compression="zstd")
    ndjson = _publish(ndjson_tmp, root / f"{stem}.ndjson.zst")
    parquet = _publish(parquet_tmp, root / f"{stem}-seats.parquet")
    made = MonthFiles(
        month=month,
        matches=lines,
        hands=hands,
        moves=moves,
        seats=table.num_rows,
        ndjson=ndjson,
        parquet=parquet,
        made_at=timezone.now().isoformat(timespec="seconds"),
        fingerprint=print_before,
    )
    manifest = dict(asdict(made), licence=LICENCE)
    manifest_tmp = _temporary(root, stem)
    manifest_tmp.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    manifest_tmp.chmod(0o644)  # nginx serves it too
    os.replace(manifest_tmp, root / f"{stem}.json")
    return made


def _part(part: tuple[str, int, int, str]) -> tuple[int, int, int]:
    """Write one share of a month (its public matches of ids ``first`` to ``last``) as NDJSON
    lines to ``path`` and its seat rows (lines counted from 1) as Arrow to ``path.arrow``;
    return how many matches, hands and moves."""
    month, first, last, path = part
    matches = public_matches(month).filter(id__gte=first, id__lte=last)
    written: list[int] = []
    hands = moves = 0
    with open(path, "wb") as out:
        for match_id, log in export_logs(matches):
            written.append(match_id)
            hands += len(log.hands)
            moves += sum(len(hand.moves) for hand in log.hands)
            out.write((log.as_json_text() + "\n").encode())
    table = _seat_table(written)
    with pa.OSFile(path + ".arrow", "wb") as sink, pa.ipc.new_file(sink, SCHEMA) as arrow:
        arrow.write_table(table)
    return len(written), hands, moves


def months_listed(root: Path | None = None) -> list[MonthFiles]:
    """The months written, the latest first (from their ``.json``)."""
    root = root or data_root()
    found = []
    for path in sorted(root.glob("fives-????-??.json"), reverse=True):
        try:
            found.append(_month_read(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a file not of ours, or being replaced
    return found


def open_data_due(today: date | None = None, root: Path | None = None) -> list[str]:
    """Write last month's files once it is over (if it had public matches), and each month's
    written before whose public matches changed since; return the months written."""
    today = today or timezone.now().date()
    listed = {made.month: made for made in months_listed(root)}
    last = month_before(today)
    due = [last] if last not in listed and fingerprint(last)[0] else []
    due += [month for month, made in listed.items() if fingerprint(month) != made.fingerprint]
    for month in due:
        month_write(month, root)
    return due


def _month_read(data: dict[str, Any]) -> MonthFiles:
    month_parse(data["month"])
    return MonthFiles(
        **{key: data[key] for key in ("month", "matches", "hands", "moves", "seats")},
        ndjson=DataFile(**data["ndjson"]),
        parquet=DataFile(**data["parquet"]),
        made_at=data["made_at"],
        fingerprint=list(data["fingerprint"]),
    )


def _temporary(root: Path, stem: str) -> Path:
    handle, name = tempfile.mkstemp(prefix=f".{stem}.", dir=root)
    os.close(handle)
    return Path(name)


def _publish(temporary: Path, path: Path) -> DataFile:
    """Rename ``temporary`` to ``path`` (readable by nginx); return its size and SHA-256."""
    digest = hashlib.sha256()
    with open(temporary, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    temporary.chmod(0o644)
    os.replace(temporary, path)
    return DataFile(name=path.name, bytes=path.stat().st_size, sha256=digest.hexdigest())


def _seat_table(match_ids: list[int]) -> pa.Table:
    """The seat rows of these matches (in their order, seat by seat)."""
    rows = [
        row
        for start in range(0, len(match_ids), CHUNK)
        for row in _seat_rows(match_ids[start : start + CHUNK], start)
    ]
    if not rows:
        return SCHEMA.empty_table()
    return pa.table(dict(zip(SCHEMA.names, zip(*rows, strict=True), strict=True)), schema=SCHEMA)


def _seat_rows(ids: list[int], first_line: int) -> Iterator[tuple]:
    matches = {
        row[0]: row
        for row in Match.objects.filter(pk__in=ids).values_list(
            "id",
            "played_at",
            "created_at",
            "club__name",
            "club__slug",
            "preset",
            "player_count",
            "outcome",
            "scores",
            "winner",
        )
    }
    seats: dict[int, list[tuple]] = {}
    for row in (
        Seat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "player__handle", "team")
    ):
        seats.setdefault(row[0], []).append(row)
    figures = {
        (row[0], row[1]): row[2:]
        for row in SeatResult.objects.filter(match_id__in=ids).values_list(
            "match_id", "seat", *FIGURES
        )
    }
    empty = (None,) * len(FIGURES)
    for line, match_id in enumerate(ids, start=first_line + 1):
        match = matches.get(match_id)
        if match is None:  # deleted while the files were written
            continue
        _id, played_at, created_at, club, slug, preset, players, outcome, scores, winner = match
        for _match, seat, handle, team in seats.get(match_id, []):
            yield (
                match_id,
                line,
                played_at or created_at,
                club,
                slug,
                preset,
                players,
                outcome == Match.Outcome.COMPLETE,
                seat,
                handle,
                team,
                scores[team],
                winner == team,
                *figures.get((match_id, seat), empty),
            )
