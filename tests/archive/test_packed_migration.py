"""Migrations 0007 to 0010 convert an existing database: the move rows of every hand become
its packed form (0007), then every match's hands one packed value in the match's own row
(0008 to 0010), and back again (the way back for one release), with nothing changed."""

from __future__ import annotations

import bz2
import hashlib
import json

import pytest

from fives_engine import check_document
from fives_engine.simulate import simulate_match
from games.codec import unpack_hand
from tests.migrations import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0006_clubs_made_on_purpose")]
AFTER = [("games", "0007_packed_hands")]
LATEST = None  # every app's newest migration


def _store_old_style(apps, doc: dict) -> int:
    """Store a match as the archive did before 0007: a deal column and a row a move."""
    User = apps.get_model("auth", "User")
    Club = apps.get_model("games", "Club")
    Player = apps.get_model("games", "Player")
    Upload = apps.get_model("games", "Upload")
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    Hand = apps.get_model("games", "Hand")
    Move = apps.get_model("games", "Move")
    checked = check_document(doc)
    report = checked.report
    user, _ = User.objects.get_or_create(username="old")
    club, _ = Club.objects.get_or_create(name="Old club", slug="old-club")
    raw = json.dumps(doc).encode()
    upload = Upload.objects.create(
        uploader=user, club=club, kind="json", raw=raw, size=len(raw), content_hash=doc["id"]
    )
    match = Match.objects.create(
        club=club,
        upload=upload,
        external_id=doc["id"],
        content_hash=hashlib.sha256(doc["id"].encode()).hexdigest(),
        preset=report.ruleset.base,
        ruleset=doc["ruleset"],
        rules=report.ruleset.as_dict(),
        player_count=len(doc["players"]),
        outcome=report.outcome,
        scores=report.scores,
        winner=report.winner,
        move_count=sum(len(hand["moves"]) for hand in doc["hands"]),
    )
    for seat, name in enumerate(doc["players"]):
        player, _ = Player.objects.get_or_create(club=club, handle=name)
        Seat.objects.create(match=match, seat=seat, team=seat, player=player)
    for index, (hand, result, facts) in enumerate(
        zip(checked.log.hands, report.hands, checked.moves, strict=True)
    ):
        row = Hand.objects.create(
            match=match,
            index=index,
            leader=hand.leader,
            deal=[list(tiles) for tiles in hand.deal],
            end=result.end,
            points=result.points,
            settlement=result.settlement,
            scores=result.scores,
        )
        for number, (move, fact) in enumerate(zip(hand.moves, facts, strict=True)):
            Move.objects.create(
                hand=row,
                index=number,
                seat=move.seat,
                kind=move.kind,
                tile=move.tile or "",
                end=move.end or "",
                count=fact.count,
                points=fact.points,
                claimed=move.points,
                best=fact.best,
                best_play=fact.best_play or "",
            )
    return match.pk


def _rows(apps, match_id: int) -> list[tuple]:
    Move = apps.get_model("games", "Move")
    Hand = apps.get_model("games", "Hand")
    hands = [(h.index, h.deal) for h in Hand.objects.filter(match_id=match_id).order_by("index")]
    moves = list(
        Move.objects.filter(hand__match_id=match_id)
        .order_by("hand__index", "index")
        .values_list(
            "seat", "kind", "tile", "end", "count", "points", "claimed", "best", "best_play"
        )
    )
    return [hands, moves]


def test_move_rows_become_packed_hands_and_back_with_nothing_changed():
    docs = [simulate_match("muggins", 2, seed=seed) | {"id": f"old-{seed}"} for seed in (1, 2)]
    docs[0]["hands"][0]["moves"][0]["points"] = 99  # a claim that differs is kept too
    docs.append(simulate_match("all-fives", 4, teams=True, seed=3) | {"id": "old-3"})
    old = migrate(BEFORE)
    ids = [_store_old_style(old, doc) for doc in docs]
    before = [_rows(old, match_id) for match_id in ids]

    new = migrate(AFTER)
    Hand = new.get_model("games", "Hand")
    for doc, match_id in zip(docs, ids, strict=True):
        rows = Hand.objects.filter(match_id=match_id).order_by("index")
        logged = [unpack_hand(bytes(row.packed))[0] for row in rows]
        assert [hand.as_json() for hand in logged] == doc["hands"]
    Upload = new.get_model("games", "Upload")
    for upload in Upload.objects.all():
        assert upload.raw_codec == "bz2"
        assert json.loads(bz2.decompress(bytes(upload.raw)))["id"].startswith("old-")

    back = migrate(BEFORE)
    assert [_rows(back, match_id) for match_id in ids] == before
    migrate(LATEST)  # leave the database as the other tests expect it


def _hand_rows(apps, match_id: int) -> list[tuple]:
    Hand = apps.get_model("games", "Hand")
    Match = apps.get_model("games", "Match")
    rows = Hand.objects.filter(match_id=match_id).order_by("index")
    match = Match.objects.get(pk=match_id)
    return [match.rules, match.content_hash] + [
        (
            (row.index, row.leader, row.end, row.points, row.settlement, row.scores),
            row.move_count,
            unpack_hand(bytes(row.packed)),
        )
        for row in rows
    ]


def test_hand_rows_become_one_packed_value_per_match_and_back_with_nothing_changed():
    docs = [simulate_match("all-threes", 3, seed=seed) | {"id": f"old-{seed}"} for seed in (4, 5)]
    docs[1]["hands"][0]["moves"][0]["points"] = 7.5  # a claim that differs, not even whole
    docs.append(simulate_match("all-fives", 4, teams=True, seed=6) | {"id": "old-6"})
    old = migrate(BEFORE)
    ids = [_store_old_style(old, doc) for doc in docs]
    packed = migrate(AFTER)
    before = [_hand_rows(packed, match_id) for match_id in ids]
    assert all(len(rows) > 1 for rows in before)
    packed_hashes = dict(
        packed.get_model("games", "Match").objects.values_list("id", "content_hash")
    )

    migrate(LATEST)
    from games.models import Match  # the current model: it reads the packed hands

    for doc, match_id in zip(docs, ids, strict=True):
        match = Match.objects.with_log().get(pk=match_id)
        assert [hand.as_json() for hand in match.log().hands] == doc["hands"]
        checked = check_document(doc)
        assert [hand.result for hand in match.hands] == checked.report.hands
        assert [hand.facts for hand in match.hands] == checked.moves
        assert match.rules == checked.report.ruleset.as_dict()
        assert bytes(match.content_hash).hex() == packed_hashes[match_id]

    back = migrate(AFTER)
    assert [_hand_rows(back, match_id) for match_id in ids] == before
    migrate(LATEST)  # leave the database as the other tests expect it


def test_seats_lose_their_id_and_get_it_back_with_nothing_else_changed():
    docs = [
        simulate_match("muggins", 4, teams=True, seed=seed) | {"id": f"old-{seed}"}
        for seed in (7, 8)
    ]
    old = migrate(BEFORE)
    ids = [_store_old_style(old, doc) for doc in docs]
    fields = ("match_id", "seat", "team", "player_id")
    before = sorted(old.get_model("games", "Seat").objects.values_list(*fields))
    assert len(before) == 8

    migrate(LATEST)
    from games.models import Match, Seat  # the current models: keyed by (match, seat)

    assert sorted(Seat.objects.values_list(*fields)) == before
    assert [s.pk for s in Seat.objects.filter(match_id=ids[0])] == [(ids[0], n) for n in range(4)]
    match = Match.objects.with_log().get(pk=ids[0])
    assert list(match.log().players) == docs[0]["players"]

    back = migrate([("games", "0012_content_hash_is_the_digest")])
    seats = back.get_model("games", "Seat").objects
    assert sorted(seats.values_list(*fields)) == before
    assert len(set(seats.values_list("id", flat=True))) == 8
    migrate(LATEST)  # leave the database as the other tests expect it
