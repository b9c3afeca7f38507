"""The analysis quotas (issue 34, item 4): a club's "analyse every match" counts in a daily
bound of its own, set by the site (40 of 40 matches were analysed, in no quota and with no
bound), and past it the club's matches are simply not analysed automatically, its admins
reading why; a refusal says when a place frees. (Parallel requests: test_analysis_quota_race.)
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from clubs.models import Club
from clubs.services import club_update
from replays import analysis as service
from replays.models import AnalysisAsker, MatchAnalysis

from .helpers import store_each, store_match

pytestmark = pytest.mark.django_db

Status = MatchAnalysis.Status


def stored(owner, count: int, capture, *, first_seed: int = 100) -> list:
    return store_each(owner, count, capture, first_seed=first_seed)


def test_a_clubs_own_analyses_stop_at_the_sites_bound_for_a_day(
    owner, club_admin, member, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_CLUB_ANALYSES_PER_DAY", 3)
    club = Club.objects.get(slug="tbilisi-fives-club")
    club_update(actor=owner, club=club, analyse_every_match=True)
    matches = stored(owner, 5, django_capture_on_commit_callbacks)
    analysed = MatchAnalysis.objects.filter(status=Status.DONE)
    assert sorted(a.match_id for a in analysed) == [m.pk for m in matches[:3]]
    assert {a.requested_by for a in analysed} == {None}  # in no person's quota
    asker = AnalysisAsker.objects.get(club=club)
    assert asker.refused_at is not None
    assert service.club_bound_reached(club=club)["limit"] == 3
    # Another club's bound is its own.
    other = Club.objects.get(slug="moscow")
    club_update(actor=owner, club=other, analyse_every_match=True)
    with django_capture_on_commit_callbacks(execute=True):
        moscow = store_match(
            owner, ["Ivan", "Olga"], seed=7, played_at="2026-03-02T19:00:00Z", club="Moscow"
        )
    assert MatchAnalysis.objects.get(match=moscow).status == Status.DONE
    assert service.club_bound_reached(club=other) is None

    # The club's admins read why a match was not analysed; a member reads no such thing.
    page = Client()
    page.force_login(club_admin)
    html = page.get(f"/matches/{matches[4].pk}/").content.decode()
    assert "data-analysis-club-bound" in html
    assert "reached the site's bound of 3 a day" in html
    for language, words in (("ru", "достигли предела сайта — 3 в день"), ("ka", "დღეში 3")):
        html = page.get(f"/matches/{matches[4].pk}/", HTTP_ACCEPT_LANGUAGE=language)
        assert words in html.content.decode()
    page.force_login(member)
    html = page.get(f"/matches/{matches[4].pk}/").content.decode()
    assert "data-analysis-club-bound" not in html
    # A person may still ask for it, within their own quota.
    with django_capture_on_commit_callbacks(execute=True):
        service.analysis_request(match=matches[4], user=member)
    assert MatchAnalysis.objects.get(match=matches[4]).status == Status.DONE
    assert service.quota_left(user=member)[0] == settings.FIVES_ANALYSES_PER_DAY - 1
    # A day later the first of the club's leaves the count: its next match is analysed.
    MatchAnalysis.objects.filter(match=matches[0]).update(
        requested_at=timezone.now() - timedelta(days=1, seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        later = store_match(owner, ["Levan", "Nino"], seed=300, played_at="2026-03-05T19:00:00Z")
    assert MatchAnalysis.objects.get(match=later).status == Status.DONE


def test_the_club_settings_say_the_bound(owner, monkeypatch):
    monkeypatch.setattr(settings, "FIVES_CLUB_ANALYSES_PER_DAY", 7)
    page = Client()
    page.force_login(owner)
    html = page.get("/clubs/tbilisi-fives-club/settings/").content.decode()
    assert "the site analyses at most 7 of the club&#x27;s matches a day" in html


def test_past_the_quota_the_refusal_names_when_a_place_frees(
    owner, member, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 2)
    matches = stored(owner, 3, django_capture_on_commit_callbacks)
    first = service.analysis_request(match=matches[0], user=member)
    service.analysis_request(match=matches[1], user=member)
    hours_ago = timezone.now() - timedelta(hours=20)
    MatchAnalysis.objects.filter(pk=first.pk).update(requested_at=hours_ago)
    with pytest.raises(service.QuotaExceeded) as refused:
        service.analysis_request(match=matches[2], user=member)
    # The first leaves the day in about four hours, and frees a place then.
    assert 4 * 3600 - 60 < refused.value.retry_after <= 4 * 3600
    assert AnalysisAsker.objects.get(user=member).refused_at is not None
