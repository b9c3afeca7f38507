"""The recorder in a real browser (Debian's chromium, a phone's 390x844 screen), by taps
only: whole matches from simulated table records, draws, knocks, a blocked hand, a refused
tap and undo; then a match recorded with the network cut, the page closed and reopened, and
the match stored exactly once when the network returns."""

from __future__ import annotations

import json
import os
import pathlib
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from fives_engine import to_table_record, validate_log
from fives_engine.replay import replay_log
from fives_engine.simulate import simulate_match
from games.models import Upload

from .helpers import PHONE, Recorder, launch, normalised, quiet, tile_name

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = pytest.mark.django_db(transaction=True)

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts"
# Seeds whose simulated matches hold draws, knocks and a blocked hand (found by
# tests/recorder/test_recorder_engine.py::test_the_seeds_have_draws_knocks_and_a_block).
MUGGINS_2 = ("muggins", 2, False, 383)
ALL_FIVES_4 = ("all-fives", 4, True, 214)
# Signed in as Django's own backend does (force_login would take the first backend that has
# a get_user, which need not be the one that finds the user).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def record_of(preset: str, players: int, teams: bool, seed: int) -> dict:
    return to_table_record(simulate_match(preset, players, teams=teams, seed=seed))


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server, owner):
    """A phone-sized browser signed in as Nino (who owns the Tbilisi Fives Club)."""
    client = Client()
    client.force_login(owner, backend=MODEL_BACKEND)
    # A table in Tbilisi (UTC+4, no summer time): the match is dated by the table's clock.
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, timezone_id="Asia/Tbilisi"
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    yield context
    quiet(context)
    context.close()


def open_recorder(context):
    from playwright.sync_api import expect

    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto("/record/")
    recorder = Recorder(page, expect)
    recorder.errors = errors
    recorder.from_worker = response is not None and response.from_service_worker
    return recorder


def check_stored(owner, doc) -> Upload:
    """The phone's record reached the upload pipeline once, as the expected table record
    (tiles spelt low pip first; its own id, club and date), with the expected scores.

    That the archive then stores it as a match is
    ``test_recorder_engine.py::test_the_archive_stores_a_table_record`` (not yet: ingest
    reads a deal from every hand)."""
    upload = Upload.objects.get(uploader=owner)
    sent = json.loads(upload.document)
    assert normalised(sent) == normalised(doc)
    assert sent["id"].startswith("rec-") and sent["club"] == "Tbilisi Fives Club"
    played = datetime.fromisoformat(sent["played_at"])
    assert sent["played_at"].endswith("+04:00") and played.utcoffset() == timedelta(hours=4)
    assert abs(datetime.now(UTC) - played) < timedelta(hours=1)
    assert upload.club.slug == "tbilisi-fives-club"
    report, expected = validate_log(sent), validate_log(doc)
    assert report.valid and report.as_dict()["record"] == "table"
    assert report.scores == expected.scores == doc["final_scores"]
    assert report.winner == expected.winner
    return upload


def stored_steps(page) -> list[dict]:
    """The steps of the match in progress as the phone keeps them, one key each."""
    return page.evaluate(
        """() => {
          const count = Number(localStorage.getItem("fives-recorder/nino/steps"));
          return Array.from({ length: count },
            (_, i) => JSON.parse(localStorage.getItem("fives-recorder/nino/step/" + i)));
        }"""
    )


def moves_of(steps: list[dict]) -> list[dict]:
    """The moves of a hand's steps: each move, and the lead turned round where one says so."""
    moves = []
    for step in steps:
        if "m" in step:
            moves.append(step["m"])
        elif step.get("turn"):
            moves[0]["play"] = "-".join(reversed(moves[0]["play"].split("-")))
    return moves


def save_and_wait(recorder) -> None:
    recorder.tap("#save")
    recorder.expect(recorder.page.locator("#saved a")).to_have_count(1, timeout=30000)


def test_record_a_two_player_muggins_match_with_a_refused_tap_and_undo(phone, owner):
    doc = record_of(*MUGGINS_2)
    recorder = open_recorder(phone)
    page = recorder.page
    recorder.set_up(doc, "tbilisi-fives-club")
    # Who leads is chosen by name as well as by seat.
    leaders = [f"Seat {seat}: {name}" for seat, name in enumerate(doc["players"], start=1)]
    assert page.locator("#first-leader option").all_text_contents() == leaders
    first = doc["hands"][0]
    recorder.hand(0, first, slice(0, 6))
    # A tile that fits no open end: the engine says so in words, and nothing is recorded.
    state = replay_log(doc).states[6]
    pips = {end["pip"] for end in state["open_ends"]}
    laid = {tile_name(m["play"]) for m in first["moves"][:6] if "play" in m}
    wrong = next(
        t
        for t in (f"{a}-{b}" for a in range(7) for b in range(a, 7))
        if t not in laid and not ({int(p) for p in t.split("-")} & pips)
    )
    held = page.locator("#held").text_content()
    recorder.tap(f"#picker [data-tile='{wrong}']")
    error = page.locator("#error").text_content()
    assert error.startswith("An impossible play: ") and f"{wrong} matches no open end" in error
    assert "hand 1, move" not in error  # at the table it is always the move just tapped
    assert page.locator("#held").text_content() == held
    # Three steps undone, then tapped again.
    for _ in range(3):
        recorder.tap("#undo")
    recorder.hand(0, first, slice(3, 6))
    # The points of a play are called at once, with the count and the open ends.
    recorder.hand(0, first, slice(6, None))
    recorder.record({"hands": []})
    for index, hand in enumerate(doc["hands"][1:], start=1):
        recorder.hand(index, hand)
    recorder.expect(page.locator("#over")).to_be_visible()
    save_and_wait(recorder)
    check_stored(owner, doc)
    assert recorder.errors == []


def test_a_lead_turned_round_stays_turned_through_every_undo(phone, owner):
    # An undo rebuilds the match from its steps: each rebuild turned the lead round once more
    # (the step's own move was turned), so after a second undo the lead lay the wrong way
    # and the engine refused the next tap.
    doc = record_of(*MUGGINS_2)
    first = doc["hands"][0]
    lead = first["moves"][0]["play"]
    assert tile_name(lead) != lead  # written high pip first: the recorder turns it round
    recorder = open_recorder(phone)
    page = recorder.page
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.hand(0, first, slice(0, 4))
    # Two undos: two rebuilds (an odd number turned it back the right way).
    for _ in range(2):
        recorder.tap("#undo")
    recorder.hand(0, first, slice(2, 6))
    letters = ", ".join(f"{e['end']} {e['pip']}" for e in replay_log(doc).states[6]["open_ends"])
    assert page.locator("#ends").text_content() == f"Open ends: {letters}"
    recorded = {**doc, "hands": [{"leader": 0, "moves": moves_of(stored_steps(page))}]}
    expected = {**doc, "hands": [{"leader": 0, "moves": first["moves"][:6]}]}
    assert normalised(recorded)["hands"] == normalised(expected)["hands"]
    assert recorder.errors == []


def test_record_a_four_player_partnership_all_fives_match(phone, owner):
    doc = record_of(*ALL_FIVES_4)
    recorder = open_recorder(phone)
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.record(doc)
    recorder.expect(recorder.page.locator("#over")).to_be_visible()
    save_and_wait(recorder)
    check_stored(owner, doc)
    assert recorder.errors == []


def test_record_offline_close_reopen_and_send_once_when_the_network_returns(phone, owner):
    doc = record_of(*MUGGINS_2)
    recorder = open_recorder(phone)
    recorder.ready()
    # The service worker keeps the page, Pyodide and the engine once it controls the page.
    recorder.expect(recorder.page.locator("body[data-offline=ready]")).to_have_count(
        1, timeout=60000
    )
    phone.set_offline(True)
    recorder.set_up(doc, "tbilisi-fives-club")
    recorder.hand(0, doc["hands"][0])
    recorder.hand(1, doc["hands"][1], slice(0, 5))
    recorder.page.close()
    # The browser closed and opened again, still without a network: the match goes on.
    recorder = open_recorder(phone)
    assert recorder.from_worker
    recorder.ready()
    recorder.expect(recorder.page.locator("#table")).to_be_visible()
    recorder.hand(1, doc["hands"][1], slice(5, None))
    for index, hand in enumerate(doc["hands"][2:], start=2):
        recorder.hand(index, hand)
    recorder.tap("#save")
    page = recorder.page
    recorder.expect(page.locator("body[data-outbox='1']")).to_have_count(1)
    assert not Upload.objects.exists()
    page.close()
    recorder = open_recorder(phone)
    recorder.ready()
    recorder.expect(recorder.page.locator("body[data-outbox='1']")).to_have_count(1)
    phone.set_offline(False)
    recorder.expect(recorder.page.locator("body[data-outbox='0']")).to_have_count(1, timeout=30000)
    check_stored(owner, doc)
    # Opened again with the network: nothing is sent twice.
    recorder.page.close()
    recorder = open_recorder(phone)
    recorder.ready()
    recorder.expect(recorder.page.locator("body[data-outbox='0']")).to_have_count(1)
    assert Upload.objects.filter(uploader=owner).count() == 1


def test_a_short_match_to_100_by_the_rules_of_the_table(phone, owner):
    # Played to 100 instead of muggins' 250; nobody draws or knocks before the lead; a saved
    # match is not undone; partnerships are offered to four players only.
    doc = to_table_record(simulate_match({"base": "muggins", "target": 100}, 2, seed=5))
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.ready()
    expect(page.locator("#teams")).to_be_hidden()
    page.locator("input[name=count][value='4']").check()
    expect(page.locator("#teams")).to_be_visible()
    # Seats read from 1, as people count them (the match page too); the log's stay 0-based.
    expect(page.locator("#seats label")).to_have_text(["Seat 1 ", "Seat 2 ", "Seat 3 ", "Seat 4 "])
    expect(page.locator("#teams-row")).to_contain_text("seats 1 and 3 against seats 2 and 4")
    leaders = page.locator("#first-leader option")
    expect(leaders).to_have_text(["Seat 1", "Seat 2", "Seat 3", "Seat 4"])
    assert leaders.evaluate_all("(all) => all.map((o) => o.value)") == ["0", "1", "2", "3"]
    assert page.locator("#seats input").evaluate_all("(all) => all.map((i) => i.id)") == [
        "seat-0",
        "seat-1",
        "seat-2",
        "seat-3",
    ]
    recorder.set_up(doc, "tbilisi-fives-club")
    for button in ("#drew", "#drew-shown", "#knock"):
        expect(page.locator(button)).to_be_disabled()
    recorder.hand(0, doc["hands"][0], slice(0, 1))
    for button in ("#drew", "#drew-shown", "#knock"):
        expect(page.locator(button)).to_be_enabled()
    recorder.hand(0, doc["hands"][0], slice(1, None))
    for index, hand in enumerate(doc["hands"][1:], start=1):
        recorder.hand(index, hand)
    save_and_wait(recorder)
    expect(page.locator("#undo")).to_be_disabled()
    upload = check_stored(owner, doc)
    assert json.loads(upload.document)["ruleset"] == {"base": "muggins", "target": 100}
    assert recorder.errors == []


def test_a_match_stopped_at_the_target_mid_hand_asks_no_tiles_left(phone, owner):
    # Played to 100, ending the moment a play reaches it (RULES.md's `end_at_target:
    # "immediately"`): the hands played out ask the tiles each seat shows (their settlement
    # needs them); the last hand stops mid-way at the target, and nothing is asked.
    ruleset = {"base": "muggins", "target": 100, "end_at_target": "immediately"}
    doc = to_table_record(simulate_match(ruleset, 2, seed=0))
    last = doc["hands"][-1]
    assert "left" not in last and all("left" in hand for hand in doc["hands"][:-1])
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.ready()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#at-once").check()
    page.screenshot(path=ARTIFACTS / "recorder-setup-at-once.png")
    recorder.set_up(doc, "tbilisi-fives-club")
    for index, hand in enumerate(doc["hands"][:-1]):
        recorder.hand(index, hand)
    recorder.hand(len(doc["hands"]) - 1, last, slice(0, -1))
    expect(page.locator("body[data-phase=play]")).to_have_count(1)
    recorder.move(last["moves"][-1])
    expect(page.locator("body[data-phase=over]")).to_have_count(1)
    expect(page.locator("#left-heading")).to_be_hidden()
    expect(page.locator("#picker button:enabled")).to_have_count(0)
    over = page.locator("#over-text")
    expect(over).to_contain_text(f"Hand {len(doc['hands'])} is over: the target is reached.")
    expect(over).not_to_contain_text("Settlement")
    # The README's recorder on a phone is this picture (docs/img/readme-recorder-phone.png).
    page.screenshot(path=ARTIFACTS / "recorder-stopped-at-target.png")
    save_and_wait(recorder)
    upload = check_stored(owner, doc)
    sent = json.loads(upload.document)
    assert sent["ruleset"] == ruleset and "left" not in sent["hands"][-1]
    assert recorder.errors == []


def test_a_saved_match_waits_for_the_account_that_recorded_it(phone, owner, member, live_server):
    # Saved while the network is away; meanwhile Levan signs in in another tab (the page
    # still Nino's). When the network returns the match is not sent as Levan's: it waits,
    # saying for whom, and goes up once Nino is signed in again.
    doc = record_of(*MUGGINS_2)
    recorder = open_recorder(phone)
    page, expect = recorder.page, recorder.expect
    recorder.set_up(doc, "tbilisi-fives-club")
    phone.set_offline(True)
    recorder.record(doc)
    recorder.tap("#save")
    expect(page.locator("body[data-outbox='1']")).to_have_count(1)
    nino_session = next(c for c in phone.cookies() if c["name"] == "sessionid")["value"]
    levan = Client()
    levan.force_login(member, backend=MODEL_BACKEND)
    # A page first, so that Levan's session has what a first page writes to it (the
    # language, competitions.middleware): else the phone's first answers under his cookie
    # would set it again, and one still on its way could overwrite Nino's given back below.
    levan.get("/record/")
    phone.add_cookies(
        [{"name": "sessionid", "value": levan.cookies["sessionid"].value, "url": live_server.url}]
    )
    phone.set_offline(False)
    expect(page.locator("#error")).to_contain_text(
        "This match was recorded by nino: sign in as nino to send it.", timeout=30000
    )
    assert page.locator("body[data-outbox='1']").count() == 1
    assert not Upload.objects.exists()
    phone.add_cookies([{"name": "sessionid", "value": nino_session, "url": live_server.url}])
    expect(page.locator("body[data-outbox='0']")).to_have_count(1, timeout=30000)
    expect(page.locator("#error")).to_have_text("")
    check_stored(owner, doc)


def test_two_tabs_of_the_recorder_go_on_from_each_others_taps(phone, owner):
    # A second tab left open does not write its older state over the first's: each goes
    # on from the other's last tap.
    doc = record_of(*MUGGINS_2)
    first = open_recorder(phone)
    second = open_recorder(phone)
    second.ready()
    first.set_up(doc, "tbilisi-fives-club")
    hand = doc["hands"][0]
    first.hand(0, hand, slice(0, 3))
    second.expect(second.page.locator("#table")).to_be_visible()
    second.expect(second.page.locator("#turn")).to_have_text(
        first.page.locator("#turn").text_content()
    )
    second.hand(0, hand, slice(3, 5))
    second.page.close()
    first.hand(0, hand, slice(5, 6))
    # The phone's record holds the six moves, the two taps of the second tab among them.
    moves = moves_of(stored_steps(first.page))
    recorded = {**doc, "hands": [{"leader": 0, "moves": moves}]}
    expected = {**doc, "hands": [{"leader": 0, "moves": hand["moves"][:6]}]}
    assert normalised(recorded)["hands"] == normalised(expected)["hands"]
    assert first.errors == second.errors == []


def test_the_open_ends_are_named_in_the_readers_language(phone, owner, live_server):
    """In Russian the recorder names the ends З, В, С, Ю (the log writes W, E, N, S)."""
    phone.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    doc = record_of(*MUGGINS_2)
    recorder = open_recorder(phone)
    recorder.set_up(doc, "tbilisi-fives-club")
    first = doc["hands"][0]
    recorder.hand(0, first, slice(0, 4))
    state = replay_log(doc).states[4]
    letters = {"W": "З", "E": "В", "N": "С", "S": "Ю"}
    shown = recorder.page.locator("#ends").text_content()
    for end in state["open_ends"]:
        assert f"{letters[end['end']]} {end['pip']}" in shown, shown
    assert not any(f"{end} {pip}" in shown for end in letters for pip in range(7)), shown
    assert recorder.errors == []
