"""Live tables without a browser: the phone's steps taken once however often sent, undone
and replaced, checked by the engine; a watcher's catch-up from any revision; the match
stored, rated and its watchers sent to it when its last tile is recorded; and who may watch."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club
from fives_engine import to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from recorder import live
from recorder.models import LiveMatch
from recorder.table import analyse
from replays.models import ClubRatingChange, Rating
from replays.ratings import default_rating, shown_points, shown_rating
from tests.conftest import join

pytestmark = pytest.mark.django_db

CLUB = "tbilisi-fives-club"


def match_record(preset="muggins", players=2, teams=False, seed=3, record_id="rec-live-1"):
    doc = to_table_record(simulate_match(preset, players, teams=teams, seed=seed))
    doc.pop("final_scores", None)
    return {**doc, "id": record_id, "club": "Tbilisi Fives Club"}


def phone_send(client, doc, start, steps, setup=None):
    """What recorder.js sends: the set-up, and the steps from number ``start`` on."""
    body = {
        "id": doc["id"],
        "club": CLUB,
        "setup": setup or live.steps_of(doc)[0],
        "from": start,
        "steps": steps,
    }
    return client.post("/record/live/", json.dumps(body), content_type="application/json")


@pytest.fixture
def phone(owner):
    client = Client()
    client.force_login(owner)
    return client


def watched(views_by_number: dict[int, dict], change: dict) -> dict[int, dict]:
    """A watcher's list of views after a change (live.js ``applyChange``)."""
    out = dict(views_by_number)
    for step in change["steps"]:
        out[step["n"]] = step["view"]
    return {n: v for n, v in out.items() if n < change["count"]}


def test_steps_sent_twice_or_in_pieces_are_kept_once_and_each_is_the_engines_table(phone):
    doc = match_record()
    setup, steps = live.steps_of(doc)
    half = len(steps) // 2
    first = phone_send(phone, doc, 0, steps[:half])
    assert first.status_code == 200, first.content
    assert first.json()["count"] == half
    again = phone_send(phone, doc, 0, steps[:half])
    assert again.json() == first.json()  # nothing changed: the same revision
    current = LiveMatch.objects.get()
    assert current.steps == half and current.revision == 1
    # Each step's view is the engine's table after it, for a record cut there.
    rows = list(current.step_rows.order_by("number"))
    assert [row.number for row in rows] == list(range(half))
    for row in rows[:: max(1, half // 7)]:
        expected = analyse(live.record_of(setup, steps[: row.number + 1]))
        assert row.view["scores"] == expected["state"]["scores"]
        assert row.view["count"] == expected["state"]["count"]
        assert row.view["layout"] == expected["state"]["layout"]
    # A gap (the phone thinks the archive has more) is answered with what it has.
    gap = phone_send(phone, doc, half + 3, steps[half + 3 :])
    assert gap.status_code == 409 and gap.json() == {"code": "gap", "count": half}


def test_an_undo_and_a_new_step_replace_the_one_taken_back(phone):
    doc = match_record()
    _, steps = live.steps_of(doc)
    phone_send(phone, doc, 0, steps[:10])
    undone = phone_send(phone, doc, 9, [])
    assert undone.json()["count"] == 9
    current = LiveMatch.objects.get()
    assert current.step_rows.count() == 9
    # The watchers are told a tap was taken back (the club night's table, a match's page).
    assert current.summary["undone"] and current.summary["steps"] == 9
    assert live.live_since(current, 1)["undone"] is True
    # Step 10 sent again after the undo: a change of its own, checked by the engine again.
    replaced = phone_send(phone, doc, 9, [steps[9]])
    assert replaced.json()["count"] == 10
    current = LiveMatch.objects.get()
    assert current.revision == 3
    assert not current.summary["undone"] and live.live_since(current, 2)["undone"] is False


def test_a_step_the_engine_refuses_is_refused_and_nothing_is_kept(phone):
    doc = match_record()
    _, steps = live.steps_of(doc)
    phone_send(phone, doc, 0, steps[:4])
    bad = {"m": {"seat": 0, "play": "6-6"}}  # not this seat's turn, or not its tile
    answer = phone_send(phone, doc, 4, [bad, bad])
    assert answer.status_code == 400
    assert "refused by the engine" in answer.json()["error"]
    assert LiveMatch.objects.get().steps == 4
    for broken in ([{"x": 1}], ["text"], "steps"):
        assert phone_send(phone, doc, 4, broken).status_code == 400
    assert phone_send(phone, doc, 4, [{"m": {"seat": 0, "play": "1-" * 400}}]).status_code == 400


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_watcher_catches_up_from_any_revision_it_saw(owner, data):
    """Random sends, resends and undos: a watcher back after any revision, given what
    changed since, sees exactly the steps a new watcher sees."""
    LiveMatch.objects.all().delete()
    doc = match_record(seed=data.draw(st.integers(1, 5)), record_id="rec-p")
    setup, steps = live.steps_of(doc)
    steps = steps[:30]
    kept = 0
    seen_at = {0: {}}
    current = None
    club = Club.objects.get(slug=CLUB)

    def put(start: int, sent: list) -> None:
        live.live_steps_put(
            user=owner, club=club, record_id="rec-p", setup=setup, start=start, steps=sent
        )

    for _ in range(data.draw(st.integers(1, 8))):
        action = data.draw(st.sampled_from(["add", "undo", "resend"]))
        if action == "add" and kept < len(steps):
            more = data.draw(st.integers(1, len(steps) - kept))
            put(kept, steps[kept : kept + more])
            kept += more
        elif action == "undo" and kept:
            kept -= 1
            put(kept, [])
        else:
            back = data.draw(st.integers(0, kept))
            put(back, steps[back:kept])
        current = LiveMatch.objects.filter(record_id="rec-p").first()
        if current is not None:
            seen_at[current.revision] = watched({}, live.live_since(current, 0))
    if current is None:
        return
    fresh = watched({}, live.live_since(current, 0))
    assert sorted(fresh) == list(range(kept))
    for revision, views in seen_at.items():
        assert watched(views, live.live_since(current, revision)) == fresh


def test_the_last_tile_stores_the_match_rates_it_and_sends_the_watchers_there(
    phone, owner, django_capture_on_commit_callbacks
):
    doc = match_record()
    setup, steps = live.steps_of(doc)
    with django_capture_on_commit_callbacks(execute=True):
        phone_send(phone, doc, 0, steps[:-1])
    current = LiveMatch.objects.get()
    assert current.finished_at is None and not Upload.objects.exists()
    assert live.live_since(current, 0)["end"] is None
    with django_capture_on_commit_callbacks(execute=True):
        last = phone_send(phone, doc, len(steps) - 1, steps[-1:])
    assert last.status_code == 200
    current.refresh_from_db()
    match = Match.objects.get()
    assert current.finished_at is not None and current.match == match
    assert current.settled_at is not None
    assert ClubRatingChange.objects.filter(match=match).exists()  # rated
    end = live.live_since(current, current.revision - 1)["end"]
    assert end == {"match": match.pk, "url": match.get_absolute_url(), "waiting": False}
    # The stored match's page shows the ratings it left, each counted here from the club's
    # ratings (a first match: each player came from the newcomer's 1500).
    page = phone.get(end["url"]).content.decode()
    assert "Club ratings after this match" in page
    for rating in Rating.objects.filter(scope__club__slug=CLUB):
        shown = shown_rating(rating.mu)
        change = shown_points(rating.mu - default_rating()[0])
        assert f'<td class="num rating">{shown}</td>' in page
        assert f"{'+' if change > 0 else ''}{change}</td>" in page
    # The phone's own save of the same record is the same upload, not a second one.
    final = {**live.record_of(setup, steps), "final_scores": list(match.scores)}
    body = {"club": CLUB, "log": json.dumps(final), "user": "nino"}
    sent = phone.post("/record/send/", json.dumps(body), content_type="application/json")
    assert sent.status_code == 201 and sent.json()["upload"] == current.upload_id
    assert Upload.objects.count() == 1 and Match.objects.count() == 1
    # Steps sent after the end change nothing.
    assert phone_send(phone, doc, 0, steps[:3]).json()["count"] == len(steps)


def test_the_club_night_page_shows_each_table_playing(phone, owner):
    doc = match_record()
    other = match_record(preset="all-fives", players=4, teams=True, seed=2, record_id="rec-2")
    for record in (doc, other):
        phone_send(phone, record, 0, live.steps_of(record)[1][:12])
    tables = phone.get(f"/clubs/{CLUB}/live/tables/").json()["tables"]
    assert len(tables) == 2
    four = next(t for t in tables if len(t["sides"]) == 2 and "&" in t["sides"][0])
    assert four["steps"] == 12 and four["hand"] == 1
    page = phone.get(f"/clubs/{CLUB}/live/")
    assert page.status_code == 200 and b"live-config" in page.content
    match_page = phone.get(tables[0]["url"])
    assert match_page.status_code == 200
    # Abandoned at the table: the club night says so (for an hour, as of a finished table).
    answer = phone.post(
        "/record/live/abandon/", json.dumps({"id": "rec-2"}), content_type="application/json"
    )
    assert answer.json() == {"abandoned": True}
    tables = phone.get(f"/clubs/{CLUB}/live/tables/").json()["tables"]
    assert [(t["id"], t["end"]) for t in tables] == [
        (LiveMatch.objects.get(record_id="rec-live-1").pk, None),
        (LiveMatch.objects.get(record_id="rec-2").pk, {"abandoned": True}),
    ]


ROLES = ("anonymous", "outsider", "member", "admin", "owner", "staff")


@pytest.mark.parametrize("private", [False, True])
def test_who_may_watch_a_club_nights_tables(owner, member, outsider, django_user_model, private):
    club = Club.objects.get(slug=CLUB)
    club.is_private = private
    club.save()
    admin = django_user_model.objects.create_user("tamar", password="a-long-password-3")
    join(admin, CLUB, "admin")
    staff = django_user_model.objects.create_user("staff", password="x", is_staff=True)
    phone = Client()
    phone.force_login(owner)
    doc = match_record()
    phone_send(phone, doc, 0, live.steps_of(doc)[1][:5])
    current = LiveMatch.objects.get()
    addresses = (
        f"/clubs/{CLUB}/live/",
        f"/clubs/{CLUB}/live/tables/",
        f"/live/{current.pk}/",
        f"/live/{current.pk}/steps/?after=0",
    )
    people = {
        "outsider": outsider,
        "member": member,
        "admin": admin,
        "owner": owner,
        "staff": staff,
    }
    for role in ROLES:
        client = Client()
        if role != "anonymous":
            client.force_login(people[role])
        may = not private or role in ("member", "admin", "owner", "staff")
        for address in addresses:
            status = client.get(address).status_code
            assert status == (200 if may else 404), (role, address, status)
    # Only the club's members send steps into it, and only the recorder into their match.
    for role in ("anonymous", "outsider"):
        client = Client()
        if role != "anonymous":
            client.force_login(people[role])
        assert phone_send(client, doc, 5, []).status_code in (401, 403)
    levan = Client()
    levan.force_login(member)
    phone_send(levan, doc, 0, [])  # Levan's own match of the same id: not Nino's
    assert LiveMatch.objects.get(recorder=owner).steps == 5


def test_a_setup_or_steps_too_large_are_refused(phone):
    doc = match_record()
    setup, steps = live.steps_of(doc)
    big = {**setup, "doc": {**setup["doc"], "event": "x" * 9000}}
    assert phone_send(phone, doc, 0, steps[:2], setup=big).status_code == 400
    assert not LiveMatch.objects.exists()


def test_a_match_saved_by_the_phone_first_is_never_stored_twice_by_its_late_steps(
    phone, owner, django_capture_on_commit_callbacks
):
    # Offline to the end: the phone's save reaches the archive before its live steps do.
    doc = match_record(record_id="rec-offline")
    setup, steps = live.steps_of(doc)
    answer = analyse(live.record_of(setup, steps))
    final = {**live.record_of(setup, steps), "final_scores": answer["report"]["scores"]}
    body = {"club": CLUB, "log": json.dumps(final), "user": "nino"}
    with django_capture_on_commit_callbacks(execute=True):
        sent = phone.post("/record/send/", json.dumps(body), content_type="application/json")
    assert sent.status_code == 201
    current = LiveMatch.objects.get()
    assert current.finished_at is not None and current.upload_id == sent.json()["upload"]
    assert current.summary["scores"] == answer["report"]["scores"]
    with django_capture_on_commit_callbacks(execute=True):
        late = phone_send(phone, doc, 0, steps)
    assert late.status_code == 200
    assert Upload.objects.count() == 1 and Match.objects.count() == 1
    current.refresh_from_db()
    assert live.live_since(current, 0)["end"]["url"] == Match.objects.get().get_absolute_url()


def test_a_lead_turned_round_is_the_tables_however_often_the_record_is_rebuilt(phone):
    # The phone records a lead laid low pip first, then turns it round (its own step): each
    # later step's check rebuilds the record, and the lead must stay turned once.
    for seed in range(1, 40):
        doc = match_record(seed=seed)
        setup, steps = live.steps_of(doc)
        a, b = steps[0]["m"]["play"].split("-")
        if a != b:
            break
    turned = [{"m": {**steps[0]["m"], "play": f"{b}-{a}"}}, {"turn": 1}, *steps[1:6]]
    answer = phone_send(phone, doc, 0, turned)
    assert answer.status_code == 200, answer.content
    row = LiveMatch.objects.get().step_rows.get(number=6)
    expected = analyse(live.record_of(setup, steps[:6]))["state"]
    assert row.view["layout"] == expected["layout"]


def test_an_abandoned_match_taken_back_is_at_its_table_again(phone):
    doc = match_record()
    _, steps = live.steps_of(doc)
    phone_send(phone, doc, 0, steps[:6])
    phone.post("/record/live/abandon/", json.dumps({"id": doc["id"]}), "application/json")
    [table] = phone.get(f"/clubs/{CLUB}/live/tables/").json()["tables"]
    assert table["end"] == {"abandoned": True}
    phone_send(phone, doc, 0, steps[:7])
    (table,) = phone.get(f"/clubs/{CLUB}/live/tables/").json()["tables"]
    assert table["steps"] == 7 and table["end"] is None


def test_a_table_sent_before_its_first_tile_has_its_sides_for_the_club_nights_page(phone):
    """A watcher who comes before the first tile: the table is listed with its sides at 0
    (it had no summary, and the page's script stopped on it: issue 55's live page)."""
    doc = match_record(record_id="rec-early")
    assert phone_send(phone, doc, 0, []).status_code == 200
    [table] = phone.get(f"/clubs/{CLUB}/live/tables/").json()["tables"]
    assert table["sides"] and table["scores"] == [0] * len(table["sides"])
    assert table["steps"] == 0


def test_a_set_up_with_no_tile_is_told_to_the_club_nights_streams(
    phone, monkeypatch, django_capture_on_commit_callbacks
):
    """The phone's set-up opens a table: the club night's streams are told of it then, not
    at its first tile (a watcher of the stream saw no table until someone played)."""
    told = []
    monkeypatch.setattr(live, "publish_change", lambda pk, previous: told.append((pk, previous)))
    doc = match_record(record_id="rec-told")
    with django_capture_on_commit_callbacks(execute=True):
        assert phone_send(phone, doc, 0, []).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        phone_send(phone, doc, 0, [])  # the same set-up again: nothing new to tell
    assert told == [(LiveMatch.objects.get().pk, 0)]
