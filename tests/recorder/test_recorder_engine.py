"""The recorder's server side and its one call into the engine (the same ``recorder.table``
the phone runs in Pyodide), without a browser."""

from __future__ import annotations

import copy
import io
import json
import pathlib
import re
import zipfile

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.utils import translation

from fives_engine import parse_log, to_table_record, validate_log
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from games.services.uploads import upload_create
from recorder import services
from recorder.table import analyse, templates

from .test_recorder_browser import ALL_FIVES_4, MUGGINS_2

pytestmark = pytest.mark.django_db


def record(preset="muggins", players=2, teams=False, seed=3):
    return to_table_record(simulate_match(preset, players, teams=teams, seed=seed))


def test_the_seeds_have_draws_knocks_and_a_block():
    for preset, players, teams, seed in (MUGGINS_2, ALL_FIVES_4):
        doc = record(preset, players, teams, seed)
        moves = [move for hand in doc["hands"] for move in hand["moves"]]
        assert any("draw" in move for move in moves)
        assert any("pass" in move for move in moves)
        assert any(hand.end == "block" for hand in validate_log(doc).hands)


def test_a_hand_that_ends_asks_for_the_tiles_shown_then_settles():
    doc = record()
    hand = copy.deepcopy(doc["hands"][0])
    left = hand.pop("left")
    partial = {**doc, "hands": [hand]}
    partial.pop("final_scores")
    answer = analyse(partial)
    assert answer["phase"] == "left" and answer["report"]["errors"] == []
    assert answer["held"] == [len(tiles) for tiles in left]
    assert answer["state"]["hand_end"] == "domino" and answer["state"]["settlement"] is None
    hand["left"] = left
    answer = analyse(partial)
    assert answer["phase"] == "next-hand"
    assert answer["state"]["settlement"] == validate_log(partial).hands[0].settlement
    assert answer["next_leaders"] == [doc["hands"][1]["leader"]]


def test_a_tile_that_fits_two_ends_names_them_and_refusals_are_in_the_language_asked():
    doc = record(*MUGGINS_2)
    hand = doc["hands"][0]
    move = hand["moves"][4]
    partial = {**doc, "hands": [{"leader": hand["leader"], "moves": hand["moves"][:4]}]}
    partial["hands"][0]["moves"].append({"seat": move["seat"], "play": move["play"]})
    error = analyse(partial)["report"]["errors"][0]
    assert error["code"] == "ambiguous-end" and error["params"]["ends"] == ["N", "S"]
    with translation.override("ru"):
        said = analyse(partial, services.engine_catalogue())["report"]["errors"][0]["message"]
    assert said != error["message"] and move["play"] in said
    # The ends in the page's letters (С, Ю for N, S), as the replay and the buttons name them.
    open_ends = ", ".join(
        f"{'ЗВСЮ'['WENS'.index(end)]} {pip}" for end, pip in error["params"]["open"]
    )
    assert "С и Ю" in said and f"(открыты: {open_ends})" in said, said


def test_every_engine_template_is_offered_for_translation():
    assert "%(tile)s matches no open end (open: %(open)s)" in templates()


def test_the_page_allows_webassembly_and_nothing_more(client, owner):
    client.force_login(owner)
    answer = client.get("/record/")
    assert answer.status_code == 200
    policy = answer.headers["Content-Security-Policy"]
    sources = re.findall(r"'[a-z-]+'", policy)
    assert "'wasm-unsafe-eval'" in sources and "'unsafe-eval'" not in sources
    assert "'wasm-unsafe-eval'" not in client.get("/").headers["Content-Security-Policy"]
    config = answer.context["config"]
    assert [club["slug"] for club in config["clubs"]] == ["kutaisi", "moscow", "tbilisi-fives-club"]


def test_the_engine_zip_holds_the_engines_source_even_where_it_runs_compiled(client):
    """The phone runs the engine's Python source in Pyodide: where the server runs a module
    compiled (``make run`` builds it), the zip still holds that module's source, byte for
    byte (make test runs this again on the compiled engine)."""
    answer = client.get("/record/engine.zip")
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    root = pathlib.Path(__file__).resolve().parents[2]
    engine_sources = sorted(path.name for path in (root / "engine" / "fives_engine").glob("*.py"))
    names = archive.namelist()
    assert [name for name in names if name.startswith("fives_engine/")] == [
        f"fives_engine/{name}"
        for name in ["__init__.py", *sorted(set(engine_sources) - {"__init__.py"})]
    ]
    for name in names:
        source = archive.read(name)
        if name.endswith("__init__.py") and name != "fives_engine/__init__.py":
            continue  # the package stubs
        on_disk = root / ("engine" if name.startswith("fives_engine/") else "") / name
        assert source == on_disk.read_bytes(), name
        compile(source, name, "exec")


def test_the_page_needs_a_sign_in(client):
    assert client.get("/record/").status_code == 302


def test_the_engine_zip_holds_the_engine_and_the_recorders_call(client):
    answer = client.get("/record/engine.zip")
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert "fives_engine/validate.py" in names and "recorder/table.py" in names
    assert not any(name.startswith(("games/models", "games/services")) for name in names)


def test_the_service_worker_keeps_the_page_pyodide_and_the_engine(client):
    answer = client.get("/record/sw.js")
    assert answer.headers["Service-Worker-Allowed"] == "/record/"
    body = answer.content.decode()
    fives = json.loads(body.split("const FIVES = ", 1)[1].split(";\n", 1)[0])
    # Pyodide's directory, named by its content (its files are kept as the page fetches them).
    assert re.fullmatch(r"/static/recorder/pyodide/[0-9a-f]{16}/", fives["pyodide"])
    assert fives["engine"].startswith("/record/engine.zip?v=") and fives["page"] == "/record/"


def test_the_service_worker_keeps_anew_what_changed_in_the_recorders_own_files(
    client, monkeypatch, tmp_path
):
    """Its cache is named by the engine and the recorder's own files: a phone that kept the
    page fetches a changed script or stylesheet, not only a changed engine."""

    def version() -> str:
        body = client.get("/record/sw.js").content.decode()
        return json.loads(body.split("const FIVES = ", 1)[1].split(";\n", 1)[0])["version"]

    before = version()
    assert before == version()  # the same files, the same cache
    real_find = finders.find
    changed = "recorder/recorder.js"

    def find(name, *args, **kwargs):
        found = real_find(name, *args, **kwargs)
        if name == changed:
            edited = tmp_path / "recorder.js"
            edited.write_bytes(pathlib.Path(found).read_bytes() + b"\n// changed\n")
            return str(edited)
        return found

    monkeypatch.setattr(finders, "find", find)
    assert version() != before


def test_the_same_record_sent_twice_is_one_upload(owner, outsider):
    client = Client()
    client.force_login(owner)
    text = json.dumps({**record(), "id": "rec-1", "club": "Tbilisi Fives Club"})
    body = json.dumps({"club": "tbilisi-fives-club", "log": text})
    first = client.post("/record/send/", body, content_type="application/json")
    second = client.post("/record/send/", body, content_type="application/json")
    assert first.status_code == second.status_code == 201
    assert first.json()["upload"] == second.json()["upload"]
    assert Upload.objects.count() == 1
    other = Client()
    other.force_login(outsider)
    refused = other.post("/record/send/", body, content_type="application/json")
    assert refused.status_code == 403


def test_a_record_is_sent_only_by_the_account_that_recorded_it(owner, member):
    # The page was opened by Nino; Levan signed in since, in another tab: Nino's match
    # waits (409), it never goes up as Levan's.
    text = json.dumps({**record(), "id": "rec-2", "club": "Tbilisi Fives Club"})
    body = {"club": "tbilisi-fives-club", "log": text, "user": "nino"}
    levan = Client()
    levan.force_login(member)
    refused = levan.post("/record/send/", json.dumps(body), content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "This match was recorded by nino: sign in as nino to send it."
    )
    assert not Upload.objects.exists()
    nino = Client()
    nino.force_login(owner)
    sent = nino.post("/record/send/", json.dumps(body), content_type="application/json")
    assert sent.status_code == 201
    assert Upload.objects.get().uploader == owner
    for broken in ([], "text", {"club": "x"}):
        answer = nino.post("/record/send/", json.dumps(broken), content_type="application/json")
        assert answer.status_code == 400


def test_the_archive_stores_a_table_record(owner, django_capture_on_commit_callbacks):
    doc = {**record(), "club": "Tbilisi Fives Club"}
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    upload.refresh_from_db()
    assert upload.status == Upload.Status.ACCEPTED, upload.items.get().report
    match = upload.items.get().match
    assert list(match.scores) == validate_log(doc).scores
    # Stored exactly: the log rebuilt from the stored match is the record that was sent.
    stored = Match.objects.with_log().get(pk=match.pk).log().as_json()
    assert stored == parse_log(doc).as_json()
    assert stored["record"] == "table" and "deal" not in stored["hands"][0]


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        json.dumps({"club": "tbilisi-fives-club"}).encode(),  # no log
        json.dumps({"club": "tbilisi-fives-club", "log": "{half a record"}).encode(),
    ],
)
def test_what_the_phone_sends_is_kept_even_when_it_is_no_record(
    owner, body, django_capture_on_commit_callbacks
):
    """Issue 25, item 11: malformed JSON was answered 403 "You are not a member" and nothing
    was stored, the one path where what arrives was not kept. Now it is a rejected upload
    with its report, as the API keeps it."""
    client = Client()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/record/send/", body, content_type="application/json")
    assert answer.status_code in (201, 400)
    upload = Upload.objects.get(pk=answer.json()["upload"])
    assert answer.json()["url"] == upload.get_absolute_url()
    assert upload.uploader == owner
    assert upload.document == body or upload.document.decode() in body.decode()
    upload.refresh_from_db()
    assert upload.status == "rejected"
    [item] = upload.items.all()
    assert item.report["errors"][0]["code"] == "schema"


def test_a_record_for_a_club_not_ones_own_is_kept_and_refused_for_its_club(
    outsider, owner, django_capture_on_commit_callbacks
):
    text = json.dumps({**record(), "id": "rec-9", "club": "Tbilisi Fives Club"})
    client = Client()
    client.force_login(outsider)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/record/send/",
            json.dumps({"club": "tbilisi-fives-club", "log": text}),
            content_type="application/json",
        )
    assert answer.status_code == 403
    upload = Upload.objects.get(pk=answer.json()["upload"])
    [item] = upload.items.all()
    assert item.report["errors"][0]["code"] == "club-not-member"
