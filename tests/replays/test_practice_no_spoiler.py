"""The practice page tells the hand's outcome only with the verdict (issue 60, item 3): the
position asked holds no outcome, the page before a pick shows none, the verdict shows it."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Player
from replays.models import MatchAnalysis
from replays.practice import OUTCOME_FIELDS, practice_page

from .helpers import analysed_levan

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(owner, member, django_capture_on_commit_callbacks):
    return analysed_levan(owner, member, django_capture_on_commit_callbacks)


def test_the_question_holds_no_outcome_and_the_verdict_tells_it(analysed, member):
    from django.utils import timezone

    levan = Player.objects.get(handle="Levan")
    play = next(
        p
        for p in MatchAnalysis.objects.get(match=analysed).result["plays"]
        if p["seat"] == 0 and p["mark"] in ("mistake", "blunder")
    )
    at = f"{analysed.pk}-{play['hand'] + 1}-{play['move'] + 1}"
    asked = practice_page(player=levan, user=member, at=at, now=timezone.now())
    assert asked["position"] is not None and asked["verdict"] is None
    assert not set(asked["position"]) & {*OUTCOME_FIELDS, "hand_end_words", "hand_results"}
    client = Client()
    client.force_login(member)
    page = f"/players/{levan.pk}/practice/"
    before = client.get(page, {"at": at}).content.decode()
    assert "The hand ended" not in before and "The hand gave" not in before
    answered = practice_page(
        player=levan, user=member, at=at, picked=play["played"], now=timezone.now()
    )
    result = analysed.hands[play["hand"]].result
    assert answered["verdict"]["hand_end"] == result.end
    assert answered["verdict"]["hand_points"] == [
        p + s for p, s in zip(result.points, result.settlement, strict=True)
    ]
    after = client.get(page, {"at": at, "picked": play["played"]}).content.decode()
    assert "The hand ended" in after and "The hand gave" in after
