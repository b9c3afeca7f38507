"""A club's "analyse every match" offers its earlier matches too (issue 37, item 6): asked for
by the periodic job, the newest first, within the club's daily bound, served after every
other request; the setting turns itself off when none is left."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from clubs.models import Club
from clubs.services import club_update
from replays import analysis as service
from replays.models import MatchAnalysis

from .helpers import store_each

pytestmark = pytest.mark.django_db


def test_the_earlier_matches_are_asked_for_within_the_bound_and_served_last(
    owner, member, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_CLUB_ANALYSES_PER_DAY", 3)
    matches = store_each(owner, 5, django_capture_on_commit_callbacks)
    assert not MatchAnalysis.objects.exists()  # stored before the setting: none analysed
    club = Club.objects.get(slug="tbilisi-fives-club")
    club_update(actor=owner, club=club, analyse_every_match=True, analyse_earlier=True)
    assert service.analyses_earlier() == 3
    asked = MatchAnalysis.objects.order_by("match_id")
    newest_first = sorted(matches, key=lambda m: (m.played_at, m.pk), reverse=True)[:3]
    assert sorted(a.match_id for a in asked) == sorted(m.pk for m in newest_first)
    assert all(a.earlier and a.requested_by is None for a in asked)
    club.refresh_from_db()
    assert club.analyse_earlier, "two matches wait for tomorrow's bound"
    # A person's request, made after them, is served before every earlier match.
    mine = service.analysis_request(match=matches[0], user=member)
    assert not mine.earlier
    assert service.analyses_in_turn()[0] == mine.pk
    # A day later the bound has room again: the last one is asked for, the setting is off.
    MatchAnalysis.objects.update(requested_at=mine.requested_at - timedelta(days=1, minutes=1))
    assert service.analyses_earlier() == 1
    assert MatchAnalysis.objects.count() == 5
    club.refresh_from_db()
    assert not club.analyse_earlier
    assert service.analyses_earlier() == 0


def test_nothing_is_asked_for_without_analyse_every_match(
    owner, django_capture_on_commit_callbacks
):
    store_each(owner, 2, django_capture_on_commit_callbacks)
    club = Club.objects.get(slug="tbilisi-fives-club")
    club_update(actor=owner, club=club, analyse_earlier=True)
    assert service.analyses_earlier() == 0
    assert not MatchAnalysis.objects.exists()


def test_the_club_settings_offer_the_earlier_matches(owner):
    client = Client()
    client.force_login(owner)
    html = client.get("/clubs/tbilisi-fives-club/settings/").content.decode()
    assert 'name="analyse_earlier"' in html
    assert "analysed too, after everyone else" in html
