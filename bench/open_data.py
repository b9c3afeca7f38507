"""Benchmark: a month of open data written and read back (issue 59, item 4).

    python -m bench.open_data [--matches 100000] [--templates 48] [--private 200] [--seed 59]
                              [--jobs 2] [--reuse] [--write-only]

Makes a month (2026-11) of ``--matches`` public matches in two public clubs and
``--private`` matches of a private club, fast: ``--templates`` simulated matches of every
preset and 2, 3 and 4 players and partnerships are stored through the archive's own path
(``upload_create``, ``upload_process``, their figures added up), then copied row for row
(the match with its packed hands, its seats and its seat results, each copy its own id,
hash, time of play and club) by ``bulk_create``, untimed. Then times
``replays.open_data.month_write``, what ``manage.py data_month`` and the monthly job run:
the goal is at most 60 s for 100,000 matches. Then reads the files back, timed apart: every
line validated by the engine (``validate_json``, in ``--jobs`` processes), the counts of
matches, hands and moves against the database's, the SHA-256 and sizes against the files,
the seat rows read by DuckDB against the database's seats, and the private club's matches
in either file (0).

With DATABASE_URL (PostgreSQL), into a database of its own (``fives_bench_open_data``,
made anew; ``--reuse`` keeps the last run's matches); else a fresh SQLite file. The files go
to a temporary folder, removed after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.benchdb import bench_database
from bench.ingest import MIX

MONTH = "2026-11"
START = datetime(2026, 11, 1, tzinfo=UTC)
BATCH = 2000
PUBLIC_CLUBS = (("Open data one", "open-one"), ("Open data two", "open-two"))
PRIVATE_CLUB = ("Open data hidden", "open-hidden")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--templates", type=int, default=48)
    parser.add_argument("--private", type=int, default=200)
    parser.add_argument("--seed", type=int, default=59)
    parser.add_argument("--jobs", type=int, default=2, help="processes validating the file")
    parser.add_argument("--reuse", action="store_true", help="keep the last run's matches")
    parser.add_argument(
        "--write-only", action="store_true", help="time the write again, without reading back"
    )
    parser.add_argument("--database", default="fives_bench_open_data")
    args = parser.parse_args()
    database_url, kind = bench_database(
        os.environ.get("DATABASE_URL"), args.database, reuse=args.reuse
    )
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from bench.inprocess import tasks_held

    call_command("migrate", verbosity=0)
    tasks_held()
    started = time.perf_counter()
    held = _month_make(args)
    print(
        f"bench.open_data: {held['public']:,} public matches and {held['private']:,} of a "
        f"private club in {MONTH}, {kind}; made in {time.perf_counter() - started:.1f} s "
        f"({args.templates} simulated, copied)",
        flush=True,
    )
    root = Path(tempfile.mkdtemp(prefix="fives-open-data-"))
    try:
        _write_and_read(root, args.jobs, read_back=not args.write_only)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _month_make(args) -> dict[str, int]:
    """Store the templates and copy them into the month, unless it holds its matches."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club
    from clubs.services import club_create
    from games.models import Match

    user, _ = get_user_model().objects.get_or_create(username="bench-open-data")
    clubs = []
    for (name, slug), private in (
        (PUBLIC_CLUBS[0], False),
        (PUBLIC_CLUBS[1], False),
        (PRIVATE_CLUB, True),
    ):
        club = Club.objects.filter(slug=slug).first() or club_create(
            owner=user, name=name, slug=slug, is_private=private
        )
        clubs.append(club)
    public, hidden = clubs[:2], clubs[2]
    in_month = Match.objects.filter(played_at__gte=START, played_at__lt=_end())
    have_public = in_month.filter(club__in=public).count()
    have_private = in_month.filter(club=hidden).count()
    if have_public < args.matches or have_private < args.private:
        templates = _templates(user, public[0], args.templates, args.seed)
        rng = random.Random(args.seed)
        _copies(templates, public, args.matches - have_public, rng, "p")
        _copies(templates, [hidden], args.private - have_private, rng, "h")
    _analyse()
    return {
        "public": in_month.filter(club__in=public).count(),
        "private": in_month.filter(club=hidden).count(),
    }


def _analyse() -> None:
    """Let PostgreSQL see the rows just copied, as its autovacuum would by the 1st: without
    it the planner, counting on an empty table, reads every seat to find a few hundred."""
    from django.db import connection

    from games.models import Match, Player, Seat
    from replays.models import SeatResult

    if connection.vendor == "postgresql":
        tables = ", ".join(model._meta.db_table for model in (Match, Seat, Player, SeatResult))
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {tables}")


def _end() -> datetime:
    return START + timedelta(days=30)


def _templates(user, club, count: int, seed: int) -> list[int]:
    """Simulate ``count`` matches of every preset and table, store them through the upload
    path and add up their figures (played in October: outside the month); return their ids."""
    from bench.inprocess import store_batch
    from fives_engine.simulate import simulate_match
    from games.models import Match
    from replays.pipeline import matches_review

    found = list(
        Match.objects.filter(external_id__startswith="template-", club=club).values_list(
            "id", flat=True
        )
    )
    if len(found) >= count:
        return found[:count]
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        ruleset, players, teams = MIX[number % len(MIX)]
        names = [f"P{rng.randrange(400):03d}-{seat}" for seat in range(players)]
        doc = simulate_match(ruleset, players, teams=teams, seed=rng.getrandbits(32), names=names)
        doc["id"] = f"template-{number}"
        doc["club"] = club.name
        doc["played_at"] = (START - timedelta(days=3, minutes=number)).isoformat()
        lines.append(json.dumps(doc).encode())
    ids = store_batch(user, lines, club=club)
    matches_review(match_ids=ids)
    return ids


def _copies(template_ids: list[int], clubs: list, count: int, rng: random.Random, tag: str):
    """Copy the templates ``count`` times into the month, each copy in one of ``clubs``, its
    seats (the same handles, as players of its club) and seat results with it."""
    if count <= 0:
        return
    from django.db import transaction

    from games.models import Match, Player, Seat
    from replays.models import SeatResult

    matches = {row["id"]: row for row in Match.objects.filter(pk__in=template_ids).values()}
    seats = {}
    for row in Seat.objects.filter(match_id__in=template_ids).values(
        "match_id", "seat", "team", "player__handle"
    ):
        seats.setdefault(row["match_id"], []).append(row)
    results = {}
    for row in SeatResult.objects.filter(match_id__in=template_ids).values():
        results[(row["match_id"], row["seat"])] = row
    players = {}
    for club in clubs:
        handles = {row["player__handle"] for rows in seats.values() for row in rows}
        for handle in handles:
            player, _ = Player.objects.get_or_create(club=club, handle=handle)
            players[(club.pk, handle)] = player.pk
    stamp = time.time_ns()
    made = 0
    while made < count:
        size = min(BATCH, count - made)
        batch, plan = [], []
        for number in range(made, made + size):
            template = matches[rng.choice(template_ids)]
            club = clubs[number % len(clubs)]
            played = START + timedelta(seconds=rng.randrange(30 * 24 * 3600))
            row = dict(template, packed=bytes(template["packed"]))
            row.pop("id")
            row.update(
                club_id=club.pk,
                upload_id=None,
                external_id=f"{tag}{stamp}-{number}",
                content_hash=hashlib.sha256(f"{tag}{stamp}-{number}".encode()).digest(),
                played_at=played,
                played_at_text=played.isoformat(),
            )
            batch.append(Match(**row))
            plan.append((template["id"], club, played))
        with transaction.atomic():
            stored = Match.objects.bulk_create(batch)
            seat_rows, result_rows = [], []
            for match, (template_id, club, played) in zip(stored, plan, strict=True):
                for seat in seats[template_id]:
                    player_id = players[(club.pk, seat["player__handle"])]
                    seat_rows.append(
                        Seat(
                            match_id=match.pk,
                            seat=seat["seat"],
                            team=seat["team"],
                            player_id=player_id,
                            played_at=played,
                        )
                    )
                    result = results.get((template_id, seat["seat"]))
                    if result is not None:
                        fields = dict(result, match_id=match.pk, player_id=player_id)
                        fields.update(club_id=club.pk, played_at=played)
                        result_rows.append(SeatResult(**fields))
            Seat.objects.bulk_create(seat_rows, batch_size=BATCH * 4)
            SeatResult.objects.bulk_create(result_rows, batch_size=BATCH * 4)
        made += size
        print(f"  {made:,} of {count:,} copies", file=sys.stderr, flush=True)


def _write_and_read(root: Path, jobs: int, *, read_back: bool = True) -> None:
    import duckdb
    import zstandard
    from django.db.models import Sum

    from games.models import Match, Seat
    from replays.open_data import month_write, public_matches

    started = time.perf_counter()
    made = month_write(MONTH, root)
    seconds = time.perf_counter() - started
    rate = made.matches / seconds if seconds else 0
    print(
        f"written: {made.matches:,} matches, {made.hands:,} hands, {made.moves:,} moves, "
        f"{made.seats:,} seat rows in {seconds:.1f} s ({rate:,.0f} matches/s; goal at most "
        f"60 s for 100,000: {'met' if seconds * 100_000 / max(made.matches, 1) <= 60 else 'missed'}"
        f" at this rate)",
        flush=True,
    )
    for kind, file in made.files():
        print(f"  {kind}: {file.name} {file.bytes:,} bytes, sha256 {file.sha256}")
    if not read_back:
        return
    started = time.perf_counter()
    problems = []
    for _kind, file in made.files():
        data = (root / file.name).read_bytes()
        if hashlib.sha256(data).hexdigest() != file.sha256 or len(data) != file.bytes:
            problems.append(f"{file.name}: its SHA-256 or size differs from the listed")
    with open(root / made.ndjson.name, "rb") as handle:
        text = zstandard.ZstdDecompressor().stream_reader(handle).read()
    lines = text.splitlines()
    public = public_matches(MONTH)
    expected = public.count()
    moves = public.aggregate(moves=Sum("move_count"))["moves"] or 0
    seats_expected = Seat.objects.filter(match__in=public).count()
    private_names = set(
        Match.objects.filter(club__is_private=True).values_list("club__name", flat=True)
    )
    valid, hands, logged_moves, private_lines = _validate(lines, jobs, private_names)
    if not (len(lines) == made.matches == expected == valid):
        problems.append(
            f"matches: {len(lines)} lines, {made.matches} listed, {expected} in the database, "
            f"{valid} valid"
        )
    if hands != made.hands or logged_moves != made.moves:
        problems.append(
            f"hands or moves: {hands}/{logged_moves} read, listed {made.hands}/{made.moves}"
        )
    seats = duckdb.sql(f"SELECT count(*) FROM '{root / made.parquet.name}'").fetchall()[0][0]
    private_seats = duckdb.sql(
        f"SELECT count(*) FROM '{root / made.parquet.name}' WHERE club IN "
        f"({', '.join(repr(name) for name in private_names) or 'NULL'})"
    ).fetchall()[0][0]
    if not seats == made.seats == seats_expected:
        problems.append(f"seats: {seats} read, {made.seats} listed, {seats_expected} stored")
    print(
        f"read back in {time.perf_counter() - started:.1f} s: {valid:,} of {len(lines):,} lines "
        f"valid ({jobs} processes); moves {logged_moves:,} (stored move_count {moves:,}); "
        f"seat rows {seats:,} by DuckDB, {seats_expected:,} seats stored; private matches in "
        f"the files: {private_lines + private_seats}; SHA-256 and sizes "
        f"{'agree' if not any('SHA' in p for p in problems) else 'DIFFER'}"
    )
    if problems or private_lines or private_seats:
        print("PROBLEMS:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)


def _validate(lines: list[bytes], jobs: int, private: set[str]) -> tuple[int, int, int, int]:
    """Validate every line; return (valid, hands, moves, lines of a private club)."""
    chunks = [lines[start : start + 500] for start in range(0, len(lines), 500)]
    work = [(chunk, sorted(private)) for chunk in chunks]
    if jobs > 1 and len(chunks) > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_validate_chunk, work)
    else:
        parts = [_validate_chunk(item) for item in work]
    return tuple(sum(part[index] for part in parts) for index in range(4))


def _validate_chunk(item: tuple[list[bytes], list[str]]) -> tuple[int, int, int, int]:
    from fives_engine import validate_json

    lines, private = item
    valid = hands = moves = hidden = 0
    for line in lines:
        valid += validate_json(line).valid
        log = json.loads(line)
        hands += len(log["hands"])
        moves += sum(len(hand["moves"]) for hand in log["hands"])
        hidden += log.get("club") in private
    return valid, hands, moves, hidden


if __name__ == "__main__":
    main()
