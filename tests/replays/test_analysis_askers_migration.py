"""The analyses asked for before askers were kept get theirs (replays 0012): the person who
asked, else the match's club; so the day's quotas and the queue's turns count them after the
migration as before. Back and forth, the rows stay."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import timezone

from replays import analysis as service
from replays.models import AnalysisAsker, MatchAnalysis
from tests.migrations import migrate
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("replays", "0011_clubs_moved")]
LATEST = None  # every app's newest migration


def test_earlier_analyses_are_given_their_askers(owner, member, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        mine, clubs, other = (
            store_match(owner, ["Levan", "Nino"], seed=seed, played_at="2026-10-01")
            for seed in (41, 42, 43)
        )

    old = migrate(BEFORE)
    OldAnalysis = old.get_model("replays", "MatchAnalysis")
    now = timezone.now()
    for match, user_id in ((mine, member.pk), (other, member.pk), (clubs, None)):
        OldAnalysis.objects.create(
            match_id=match.pk, version="1", requested_by_id=user_id, requested_at=now
        )

    migrate(LATEST)
    person = AnalysisAsker.objects.get(user=member)
    club = AnalysisAsker.objects.get(club=mine.club)
    assert AnalysisAsker.objects.count() == 2
    assert {a.match_id: a.asker_id for a in MatchAnalysis.objects.all()} == {
        mine.pk: person.pk,
        other.pk: person.pk,
        clubs.pk: club.pk,
    }
    assert service.quota_left(user=member)[0] == settings.FIVES_ANALYSES_PER_DAY - 2
    # Queued, they are served in turn: each asker's first, then the person's second.
    assert service.analyses_in_turn() == [
        MatchAnalysis.objects.get(match=m).pk for m in (mine, clubs, other)
    ]

    migrate(BEFORE)
    assert OldAnalysis.objects.count() == 3
    migrate(LATEST)
    assert MatchAnalysis.objects.filter(asker__isnull=False).count() == 3
