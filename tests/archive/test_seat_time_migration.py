"""Migration 0026 gives every stored seat its match's time (the player's list reads a
player's matches in time order from their seats' index), a match with no time included."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.migrations import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0025_match_unfinished")]
AFTER = [("games", "0026_seat_played_at")]


def test_every_seat_takes_its_matchs_time():
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("games", "Player")
    Upload = apps.get_model("games", "Upload")
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    user = User.objects.create(username="old")
    club = Club.objects.create(name="Old club", slug="old-club")
    upload = Upload.objects.create(uploader=user, club=club, kind="json", raw=b"{}", size=2)
    players = [Player.objects.create(club=club, handle=name) for name in ("A", "B", "C")]
    times = [datetime(2024, 1, 2, 3, 4, tzinfo=UTC), None, datetime(2025, 6, 7, tzinfo=UTC)]
    expected = []
    for number, moment in enumerate(times):
        match = Match.objects.create(
            club=club,
            upload=upload,
            external_id=f"m{number}",
            content_hash=f"h{number}".encode(),
            preset="muggins",
            ruleset="muggins",
            player_count=2,
            outcome="complete",
            scores=[0, 0],
            move_count=0,
            played_at=moment,
        )
        for seat, player in enumerate(players[number : number + 2] or players[:2]):
            Seat.objects.create(match=match, seat=seat, team=seat, player=player)
            expected.append((match.pk, seat, moment))
    apps = migrate(AFTER)
    Seat = apps.get_model("games", "Seat")
    found = sorted(Seat.objects.values_list("match_id", "seat", "played_at"))
    assert found == sorted(expected)
    migrate(None)
