"""Statistics of a hand-built match, every figure checked by hand."""

from __future__ import annotations

import json

import pytest

from games.models import Match
from games.services.uploads import upload_create
from replays.head_to_head import head_to_head
from replays.models import SeatResult
from replays.stats import player_figures
from tests.conftest import home_club
from tests.engine.test_error_codes import blocked_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def blocked_match(owner, django_capture_on_commit_callbacks):
    doc = blocked_log()
    doc["ruleset"]["target"] = 10
    doc["played_at"] = "2026-11-01T20:00:00+00:00"
    doc["hands"][0]["moves"][1]["points"] = 5  # claimed, but the count is 3: nothing
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json", club=home_club())
    return Match.objects.get()


def test_every_figure_of_a_hand_built_blocked_match(blocked_match):
    # Counts of the plays 0, 3, 4, 0, 5, 6, 0, 2, 1, 0: only seat 0's 0-5 scores (5). The
    # hand blocks; seat 0 holds 46 pips, seat 1 holds 80: 34 -> 35 -> 7 for seat 0, who
    # reaches 12 of a target of 10. Missed, worked out by hand from every legal play:
    # seat 0's lead 0-0 (1-4, 2-3 or 0-5 would score 5) and 2-1 on W (2-5 on W scores 5);
    # seat 1's 4-0 on E (1-0 on W or 4-5 on E score 5) and 5-6 on E (5-5 on E scores 10).
    assert blocked_match.outcome == "complete"
    rows = {
        r.seat: r for r in SeatResult.objects.filter(match=blocked_match).select_related("player")
    }
    figures = {
        seat: {
            name: getattr(row, name)
            for name in (
                "won",
                "rank",
                "hands",
                "plays",
                "scoring_plays",
                "points",
                "missed",
                "dominoes",
                "blocked",
                "settlement_won",
                "settlement_lost",
                "claims_differ",
                "complete",
            )
        }
        for seat, row in rows.items()
    }
    assert figures[0] == {
        "won": True,
        "rank": 1,
        "hands": 1,
        "plays": 5,
        "scoring_plays": 1,
        "points": 5,
        "missed": 10,
        "dominoes": 0,
        "blocked": 1,
        "settlement_won": 7,
        "settlement_lost": 0,
        "claims_differ": 0,
        "complete": True,
    }
    assert figures[1] == {
        "won": False,
        "rank": 2,
        "hands": 1,
        "plays": 5,
        "scoring_plays": 0,
        "points": 0,
        "missed": 15,
        "dominoes": 0,
        "blocked": 1,
        "settlement_won": 0,
        "settlement_lost": 0,
        "claims_differ": 1,
        "complete": True,
    }
    a = player_figures(player_id=rows[0].player_id)
    assert (a["matches"], a["wins"], a["points_per_hand"], a["scoring_share"]) == (1, 1, 5.0, 0.2)
    assert (a["points_per_scoring_play"], a["missed_per_hand"]) == (5.0, 10.0)
    assert head_to_head(player_id=rows[0].player_id) == [
        {"opponent_id": rows[1].player_id, "matches": 1, "wins": 1, "losses": 0}
    ]


def test_subtract_own_settlement_is_counted_as_points_lost(
    owner, django_capture_on_commit_callbacks
):
    from tests.replays.helpers import store_match

    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(
            owner,
            ["Nino", "Giorgi"],
            seed=4,
            played_at="2026-11-02",
            ruleset={"base": "all-fives", "target": 60},
        )
    lost = sum(-min(hand.settlement[team], 0) for hand in match.hands for team in (0,))
    won = sum(max(hand.settlement[0], 0) for hand in match.hands)
    row = SeatResult.objects.get(match=match, seat=0)
    assert (row.settlement_won, row.settlement_lost) == (won, lost)
    assert row.hands == len(match.hands)
