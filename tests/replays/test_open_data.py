"""The open data (issue 59, item 4): a month's public matches as fives/1 NDJSON (zstd) and
their seat results as Parquet, listed at /data/ and /api/v1/data/, read back with DuckDB as
the page shows; private clubs' matches never, a deleted or hidden match gone from the next
files."""

from __future__ import annotations

import hashlib
import io
import json
import os
from datetime import date

import duckdb
import pyarrow.parquet as pq
import pytest
import zstandard
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club
from clubs.services import club_create
from fives_engine import validate_json
from games.models import Match, Seat
from games.services.matches import match_delete
from replays import open_data
from replays.models import SeatResult

from .helpers import store_match

pytestmark = pytest.mark.django_db

MONTH = "2026-11"


@pytest.fixture
def data_root(settings, tmp_path):
    settings.FIVES_DATA_ROOT = tmp_path / "data"
    return settings.FIVES_DATA_ROOT


@pytest.fixture
def month_of_matches(owner, django_capture_on_commit_callbacks):
    """Public matches of two clubs in November (one of them of four seats in two teams, one
    with no time of play, stored in November), a private club's, a match of October and one
    of November deleted; their seat results added up."""
    club_create(owner=owner, name="Closed circle", slug="closed-circle", is_private=True)
    with django_capture_on_commit_callbacks(execute=True):
        public = [
            store_match(owner, ["Levan", "Nino"], seed=1, played_at="2026-11-02T19:00:00Z"),
            store_match(
                owner, ["Levan", "Tamar", "Nino"], seed=2, played_at="2026-11-30T23:59:00Z"
            ),
            store_match(
                owner,
                ["Ivan", "Olga", "Pyotr", "Anna"],
                seed=3,
                played_at="2026-11-15T18:00:00+03:00",
                club="Moscow",
                teams=True,
            ),
        ]
        private = store_match(
            owner, ["Levan", "Nino"], seed=4, played_at="2026-11-03T19:00:00Z", club="Closed circle"
        )
        october = store_match(owner, ["Levan", "Nino"], seed=5, played_at="2026-10-31T23:00:00Z")
        deleted = store_match(owner, ["Levan", "Nino"], seed=6, played_at="2026-11-04T19:00:00Z")
    match_delete(match_id=deleted.pk)
    unplaced = store_match(owner, ["Levan", "Nino"], seed=7, played_at="2026-11-05T19:00:00Z")
    # A log that says not when it was played counts in the month it was stored.
    Match.objects.filter(pk=unplaced.pk).update(
        played_at=None, played_at_text="", created_at="2026-11-20T10:00:00Z"
    )
    public.append(unplaced)
    return {"public": public, "private": private, "october": october}


def ndjson_lines(path) -> list[bytes]:
    with open(path, "rb") as handle:
        data = zstandard.ZstdDecompressor().stream_reader(handle).read()
    return data.splitlines()


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_month_holds_exactly_its_public_matches_and_says_so(data_root, month_of_matches):
    made = open_data.month_write(MONTH)
    public = month_of_matches["public"]
    lines = ndjson_lines(data_root / made.ndjson.name)
    assert len(lines) == made.matches == len(public) == 4
    logs = [json.loads(line) for line in lines]
    # Each line is what the export writes of the match, and validates.
    stored = Match.objects.with_log().filter(pk__in=[match.pk for match in public]).order_by("pk")
    for line, match in zip(lines, stored, strict=True):
        report = validate_json(line)
        assert report.valid, report
        assert json.loads(line) == json.loads(match.log().as_json_text())
    assert {log["club"] for log in logs} == {"Tbilisi Fives Club", "Moscow"}
    assert made.hands == sum(len(log["hands"]) for log in logs)
    assert made.moves == sum(len(hand["moves"]) for log in logs for hand in log["hands"])
    # 0 private matches: by club and by content.
    assert all(log["club"] != "Closed circle" for log in logs)
    private_log = json.loads(month_of_matches["private"].log().as_json_text())
    assert private_log["hands"] not in [log["hands"] for log in logs]
    # The sizes and sums listed are the files'.
    for _kind, file in made.files():
        path = data_root / file.name
        assert file.bytes == path.stat().st_size
        assert file.sha256 == sha256(path)
        assert oct(path.stat().st_mode & 0o777) == "0o644"
    assert oct((data_root / f"fives-{MONTH}.json").stat().st_mode & 0o777) == "0o644"
    written = json.loads((data_root / f"fives-{MONTH}.json").read_text())
    assert written["licence"]["name"] == "CC BY 4.0"
    assert open_data.months_listed() == [made]


def test_the_seat_results_read_back_with_duckdb_as_the_page_shows(
    data_root, month_of_matches, client
):
    made = open_data.month_write(MONTH)
    public_ids = sorted(match.pk for match in month_of_matches["public"])
    # Counted another way: from the database's seats.
    seats = Seat.objects.filter(match_id__in=public_ids)
    assert made.seats == seats.count() == 2 + 3 + 4 + 2
    page = client.get(reverse("replays:open-data"))
    shown = page.context["example"]
    assert shown in page.content.decode() or shown.replace("'", "&#x27;") in page.content.decode()
    seats_query, matches_query = (part.strip() for part in shown.split(";")[:2])
    cwd = os.getcwd()
    os.chdir(data_root)
    try:
        top = duckdb.sql(seats_query).fetchall()
        logs = duckdb.sql(matches_query.replace("LIMIT 10", "")).fetchall()
        rows = duckdb.sql(
            f"SELECT match_id, line, seat, player, team, score, won, club_slug, plays "
            f"FROM '{made.parquet.name}' ORDER BY match_id, seat"
        ).fetchall()
    finally:
        os.chdir(cwd)
    assert len(logs) == made.matches
    assert sum(hands for _players, hands in logs) == made.hands
    expected = [
        (
            seat.match_id,
            public_ids.index(seat.match_id) + 1,
            seat.seat,
            seat.player.handle,
            seat.team,
            seat.match.scores[seat.team],
            seat.match.winner == seat.team,
            seat.match.club.slug,
        )
        for seat in seats.select_related("match__club", "player").order_by("match_id", "seat")
    ]
    assert [row[:8] for row in rows] == expected
    # The figures added up where they are, as stored; null for the match not added up (the
    # last, stored after the others' figures were made).
    figures = dict(
        ((result.match_id, result.seat), result.plays)
        for result in SeatResult.objects.filter(match_id__in=public_ids)
    )
    assert len(figures) == 9
    assert {(row[0], row[2]): row[8] for row in rows} == figures | {
        (public_ids[-1], 0): None,
        (public_ids[-1], 1): None,
    }
    assert ("Levan", "Tbilisi Fives Club") in {(player, club) for player, club, *_ in top}
    table = pq.read_table(io.BytesIO((data_root / made.parquet.name).read_bytes()))
    assert table.num_rows == made.seats
    assert "Closed circle" not in table.column("club").to_pylist()


def test_the_page_and_the_api_list_each_file(data_root, month_of_matches, client):
    made = open_data.month_write(MONTH)
    page = client.get(reverse("replays:open-data"))
    assert page.status_code == 200
    text = page.content.decode()
    for _kind, file in made.files():
        assert file.sha256 in text
        assert f'href="/data/files/{file.name}"' in text
    assert "CC BY 4.0" in text and "November 2026" in text
    answer = client.get("/api/v1/data/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["licence"]["name"] == "CC BY 4.0"
    files = {row["kind"]: row for row in body["results"]}
    assert set(files) == {"matches", "seats"}
    assert files["matches"] | {"made_at": None} == {
        "month": MONTH,
        "kind": "matches",
        "url": f"http://testserver/data/files/{made.ndjson.name}",
        "sha256": sha256(data_root / made.ndjson.name),
        "bytes": (data_root / made.ndjson.name).stat().st_size,
        "matches": 4,
        "hands": made.hands,
        "moves": made.moves,
        "seats": made.seats,
        "made_at": None,
    }
    assert files["seats"]["sha256"] == sha256(data_root / made.parquet.name)


def test_the_page_and_the_api_with_no_month_yet(data_root, client):
    page = client.get(reverse("replays:open-data"))
    assert page.status_code == 200
    assert "No month has been written yet" in page.content.decode()
    assert client.get("/api/v1/data/").json()["results"] == []


def test_a_match_made_private_or_deleted_leaves_the_next_files(data_root, month_of_matches):
    """The job writes last month's files on the 1st, and a month's files again once its
    public matches change: a club turned private, a match deleted."""
    assert open_data.open_data_due(date(2026, 10, 1)) == []  # September: no public match
    assert open_data.open_data_due(date(2026, 12, 1)) == [MONTH]
    assert open_data.open_data_due(date(2026, 12, 2)) == []  # nothing changed
    Club.objects.filter(slug="moscow").update(is_private=True)
    first = sorted(match.pk for match in month_of_matches["public"])[0]
    match_delete(match_id=first)
    assert open_data.open_data_due(date(2026, 12, 3)) == [MONTH]
    made = open_data.months_listed()[0]
    logs = [json.loads(line) for line in ndjson_lines(data_root / made.ndjson.name)]
    assert made.matches == len(logs) == 2
    assert {log["club"] for log in logs} == {"Tbilisi Fives Club"}
    assert first not in pq.read_table(data_root / made.parquet.name).column("match_id").to_pylist()


def test_the_command_writes_a_month_by_hand(data_root, month_of_matches, capsys):
    call_command("data_month", MONTH)
    printed = capsys.readouterr().out
    assert "2026-11: 4 matches" in printed
    assert (data_root / f"fives-{MONTH}.ndjson.zst").exists()
    with pytest.raises(Exception, match="YYYY-MM"):
        call_command("data_month", "2026-13")


def test_the_job_is_on_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["open-data"]
    assert entry["task"] == "replays.periodic.open_data_task"
    assert open_data.month_before(date(2027, 1, 1)) == "2026-12"


@pytest.mark.parametrize("language", ["ru", "ka"])
def test_the_page_speaks_russian_and_georgian(data_root, month_of_matches, client, language):
    open_data.month_write(MONTH)
    client.cookies["django_language"] = language
    text = client.get(reverse("replays:open-data"), HTTP_ACCEPT_LANGUAGE=language).content
    text = text.decode()
    english = [
        *("Open data", "Each month the archive", "licence", "Files by month", "Month<"),
        *("Matches<", "Hands<", "Moves<", "File<", "Size<", "match logs", "seat results"),
        *("How to read them", "Check a download", "With DuckDB", "The same with the API"),
    ]
    assert [words for words in english if words in text] == []
    empty = client.get("/api/v1/data/?lang=" + language, HTTP_ACCEPT_LANGUAGE=language)
    assert empty.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_month_read_by_processes_at_once_says_what_one_process_says(
    settings, tmp_path, month_of_matches
):
    """On PostgreSQL (committed rows: ``transaction=True``) the matches are read by several
    processes at once; the files say exactly what one process writes."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("processes at once read PostgreSQL (SQLite is read by one)")
    settings.FIVES_DATA_ROOT = tmp_path
    monkey = pytest.MonkeyPatch()
    monkey.setattr(open_data, "CHUNK", 1)  # a share of a match or two each
    try:
        together = open_data.month_write(MONTH, tmp_path / "together", jobs=3)
        alone = open_data.month_write(MONTH, tmp_path / "alone", jobs=1)
    finally:
        monkey.undo()
    assert together.ndjson.sha256 == alone.ndjson.sha256
    assert together.parquet.sha256 == alone.parquet.sha256
    assert (together.matches, together.hands, together.moves, together.seats) == (
        alone.matches,
        alone.hands,
        alone.moves,
        alone.seats,
    )
    lines = pq.read_table(tmp_path / "together" / together.parquet.name).column("line")
    assert sorted(set(lines.to_pylist())) == [1, 2, 3, 4]


def test_nginx_serves_the_files_and_never_one_being_written(data_root, month_of_matches, tmp_path):
    """The deploy's site serves FIVES_DATA_ROOT at FIVES_DATA_URL as files (no gunicorn
    behind it here), and not a file being written (a name starting with a dot)."""
    import http.client

    from bench.served import free_port
    from deploy import nginx

    if nginx.missing():
        pytest.skip(nginx.missing())
    made = open_data.month_write(MONTH)
    (data_root / ".fives-2026-11.x1y2").write_bytes(b"half a file")
    port = free_port()
    site = nginx.site(
        upstream="127.0.0.1:9",
        static_root=tmp_path / "static",
        data_root=data_root,
        server_name="127.0.0.1",
        http_listen=f"127.0.0.1:{port}",
    )
    proxy = nginx.Nginx(tmp_path / "nginx", site, ports=[port])
    proxy.start()
    try:

        def get(path: str) -> tuple[int, dict, bytes]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()

        for _kind, file in made.files():
            status, _headers, body = get(f"/data/files/{file.name}")
            assert status == 200
            assert hashlib.sha256(body).hexdigest() == file.sha256
        assert get(f"/data/files/{made.ndjson.name}")[1]["Content-Type"] == "application/zstd"
        assert get("/data/files/.fives-2026-11.x1y2")[0] == 404
        assert json.loads(get(f"/data/files/fives-{MONTH}.json")[2])["matches"] == 4
    finally:
        proxy.stop()


@pytest.mark.parametrize("debug", ["1", "0"])
def test_django_serves_the_files_only_with_debug(tmp_path, debug):
    """``make run`` (DEBUG) has no nginx: Django serves the files then, as static files, and
    never otherwise (a fresh process: the URL map is made once, at its start)."""
    import subprocess
    import sys

    (tmp_path / "fives-2026-11.json").write_text('{"month": "2026-11"}\n')
    script = (
        "import django; django.setup(); from django.test import Client; "
        "print(Client().get('/data/files/fives-2026-11.json').status_code)"
    )
    env = dict(
        os.environ,
        DEBUG=debug,
        FIVES_DATA_ROOT=str(tmp_path),
        DJANGO_SETTINGS_MODULE="fivesite.settings",
        SECRET_KEY="test-only-" + "k" * 50,
        FIVES_HTTPS="0",
        ALLOWED_HOSTS="testserver",
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split()[-1] == ("200" if debug == "1" else "404"), done.stderr[-2000:]
