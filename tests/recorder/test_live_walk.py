"""A live send walks only its hand: each step's view is the one the whole match's walk gives
(``live.views_walked_whole``, what a view is), for every preset and table, sent one by one,
in pieces, undone across a hand's start and sent again; a refusal says the same words; the
engine walks the steps before the match's row is locked, and again when the match moved
meanwhile; the last tile stores the match from its last view, with no walk of its own."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from clubs.models import Club
from fives_engine import PRESETS, to_table_record
from fives_engine.simulate import simulate_match
from recorder import live, table
from recorder.models import LiveMatch

pytestmark = pytest.mark.django_db

CLUB = "tbilisi-fives-club"
TABLES = [(2, False), (3, False), (4, True)]


def phone_steps(preset: str | dict, players: int, teams: bool, seed: int = 3) -> tuple[dict, list]:
    """The set-up and steps a phone keeps of a simulated match, with the steps a phone adds
    that the record does not show: each lead turned round and back, a tile shown before each
    hand's ``left``."""
    doc = to_table_record(simulate_match(preset, players, teams=teams, seed=seed))
    setup, steps = live.steps_of(doc)
    out: list = []
    leading = True
    for step in steps:
        if "left" in step:
            out.append({"seat": 0, "shown": (step["left"][0] or ["?"])[0]})
        out.append(step)
        if leading and "play" in step.get("m", {}):
            out += [{"turn": 1}, {"turn": 1}]
        leading = "hand" in step
    return setup, out


def put(user, setup: dict, start: int, steps: list, record_id: str = "rec-walk") -> live.Put:
    club = Club.objects.get(slug=CLUB)
    return live.live_steps_put(
        user=user, club=club, record_id=record_id, setup=setup, start=start, steps=steps
    )


def stored_views(record_id: str = "rec-walk") -> list[dict]:
    current = LiveMatch.objects.get(record_id=record_id)
    return list(current.step_rows.order_by("number").values_list("view", flat=True))


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_each_step_has_the_whole_walks_view_however_it_is_sent(owner, preset, players, teams):
    setup, steps = phone_steps(preset, players, teams)
    rng = random.Random(f"{preset}-{players}")
    starts = [number for number, step in enumerate(steps) if "hand" in step]
    kept = 0
    while kept < len(steps):
        # A send a tap (the phone at the table), or many (back after a lost connection).
        more = 1 if rng.random() < 0.6 else rng.randint(2, 40)
        put(owner, setup, kept, steps[kept : kept + more])
        kept = min(len(steps), kept + more)
        passed = [number for number in starts if number < kept - 1]
        if passed and rng.random() < 0.2:
            # Undone back past a hand's start (its kept start goes with it), then again.
            back = passed[-1]
            put(owner, setup, back, [])
            put(owner, setup, back, steps[back:kept])
    whole = live.views_walked_whole(setup, steps, 0)
    assert stored_views() == whole
    # The match as the last step left it is the one ingest is sent: its view's scores are
    # the report's of the whole record.
    answer = table.analyse(live.record_of(setup, steps))
    assert whole[-1]["phase"] == "over" == answer["phase"]
    assert whole[-1]["scores"] == answer["report"]["scores"]
    current = LiveMatch.objects.get()
    rows = current.step_rows.filter(hand_start__isnull=False).values_list("number", "hand_start")
    assert [number for number, _ in rows] == starts
    assert [start["hand"] for _, start in rows] == list(range(1, len(starts) + 1))


def test_a_refusal_in_a_later_hand_says_what_the_whole_walk_says(owner):
    setup, steps = phone_steps("muggins", 2, False)
    third = [number for number, step in enumerate(steps) if "hand" in step][1]
    put(owner, setup, 0, steps[: third + 3])
    seat = stored_views()[-1]["turn"]
    lead = steps[third + 1]["m"]["play"]
    for bad in (
        {"m": {"seat": seat, "play": lead}},  # laid already
        {"m": {"seat": 1 - seat, "play": "0-0"}},  # out of turn
        {"m": {"seat": seat, "play": "7-9"}},  # no tile: a schema error, naming its path
    ):
        sent = [*steps[third + 3 : third + 5], bad]
        with pytest.raises(live.LiveRefused) as refused:
            put(owner, setup, third + 3, sent)
        with pytest.raises(live.LiveRefused) as whole:
            live.views_walked_whole(setup, steps[: third + 3] + sent, third + 3)
        assert refused.value.message == whole.value.message
        assert LiveMatch.objects.get().steps == third + 3


def test_a_step_walks_its_hand_not_the_match(owner, monkeypatch):
    setup, steps = phone_steps({"base": "all-fives", "target": 1000}, 2, False)
    put(owner, setup, 0, steps[:-20])
    longest = max(len(hand["moves"]) for hand in live.record_of(setup, steps)["hands"])
    walked: list[int] = []
    resumed = table.analyse_resumed

    def counted(doc, resume, *args):
        walked.append(sum(len(hand["moves"]) for hand in doc["hands"]))
        return resumed(doc, resume, *args)

    monkeypatch.setattr(table, "analyse_resumed", counted)
    monkeypatch.setattr(table, "analyse", None)  # no walk of the whole match
    for number in range(len(steps) - 20, len(steps)):
        put(owner, setup, number, [steps[number]])
    assert len(walked) == 20 and max(walked) <= longest
    assert sum(len(hand["moves"]) for hand in live.record_of(setup, steps)["hands"]) > 5 * longest


def test_the_engine_walks_before_the_lock_and_again_if_the_match_moved(owner, monkeypatch):
    setup, steps = phone_steps("muggins", 2, False)
    put(owner, setup, 0, steps[:10])
    depth = len(connection.atomic_blocks)  # the test's own transaction
    depths: list[int] = []
    resumed = table.analyse_resumed

    def watched(doc, resume, *args):
        depths.append(len(connection.atomic_blocks) - depth)
        return resumed(doc, resume, *args)

    monkeypatch.setattr(table, "analyse_resumed", watched)
    put(owner, setup, 10, steps[10:11])
    assert depths == [0]  # walked with no lock held, once
    depths.clear()
    plan = live._plan

    def moved_meanwhile(current, start, sent):
        planned = plan(current, start, sent)
        if not moved:
            moved.append(True)
            # Another send of the same phone, between the walk and the lock: the step taken
            # back and sent again (the same steps, two revisions on).
            put(owner, setup, 10, [])
            put(owner, setup, 10, steps[10:11])
        return planned

    moved: list[bool] = []
    monkeypatch.setattr(live, "_plan", moved_meanwhile)
    put(owner, setup, 11, steps[11:13])
    # Walked before the lock, then the two sends, then again under the lock.
    assert depths[0] == 0 and depths[-1] == 1 and len(depths) == 2 + 1 + 2
    assert stored_views() == live.views_walked_whole(setup, steps[:13], 0)
    assert LiveMatch.objects.get().revision == 5


def test_the_last_tile_stores_the_match_with_no_walk_of_its_own(owner, monkeypatch):
    setup, steps = phone_steps("muggins", 2, False)
    doc = to_table_record(simulate_match("muggins", 2, seed=3))
    put(owner, setup, 0, steps)
    monkeypatch.setattr(table, "analyse", None)
    current = LiveMatch.objects.get()
    finished = live.live_finish(live_id=current.pk)
    assert finished.finished_at is not None and finished.upload is not None
    assert finished.upload.status != "rejected"
    stored = finished.upload
    assert stored is not None
    assert doc["final_scores"] == stored_views()[-1]["scores"]
