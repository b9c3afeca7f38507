"""The analysis on the match page: the button for a signed-in person, the sign-in link for
anyone else, once done each player's accuracy and mean loss, the chart of expected loss by
hand, the plays not reviewed (a table record's hidden hands) and the list of every play
fetched on demand; a stale analysis says so; the player page and the ranking carry the
average expected loss."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.test import Client

from fives_engine.convert import to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match
from games.services.uploads import upload_create
from replays import analysis as service
from replays.models import MatchAnalysis

from .helpers import store_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(owner, django_capture_on_commit_callbacks) -> Match:
    with django_capture_on_commit_callbacks(execute=True):
        return store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")


def analysed(match, user, capture) -> MatchAnalysis:
    with capture(execute=True):
        analysis = service.analysis_request(match=match, user=user)
    analysis.refresh_from_db()
    assert analysis.status == MatchAnalysis.Status.DONE
    return analysis


def page_of(match, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    answer = client.get(f"/matches/{match.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_signed_out_reader_is_asked_to_sign_in(match):
    html = page_of(match)
    assert 'id="analysis"' in html
    assert "Sign in to ask for the analysis of this match." in html
    assert "data-analysis-form" not in html


def test_a_signed_in_person_gets_the_button_and_their_quota(match, member):
    html = page_of(match, member)
    assert "Analyse this match" in html
    assert f"You may ask for {settings.FIVES_ANALYSES_PER_DAY} more analyses today." in html
    assert f'action="/matches/{match.pk}/analyse/"' in html


def test_with_the_days_analyses_used_up_the_button_is_off_and_says_when(
    match, owner, member, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 1)
    other = store_match(owner, ["Levan", "Nino"], seed=7, played_at="2026-04-03T19:00:00Z")
    client = Client()
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{match.pk}/analyse/")
    html = page_of(other, member)
    assert "You may ask for 0 more" not in html
    assert re.search(r'<button type="submit" disabled>Analyse this match</button>', html)
    assert "you may ask for the next in 24 hours." in html


def test_the_button_without_a_script_asks_and_comes_back_to_the_analysis(
    match, member, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/matches/{match.pk}/analyse/")
    assert answer.status_code == 302
    assert answer["Location"] == f"/matches/{match.pk}/#analysis"
    assert MatchAnalysis.objects.get(match=match).status == "done"


def test_past_the_quota_the_page_says_why(match, owner, member, monkeypatch):
    monkeypatch.setattr(settings, "FIVES_ANALYSES_PER_DAY", 0)
    client = Client()
    client.force_login(member)
    answer = client.post(f"/matches/{match.pk}/analyse/", follow=True)
    assert "Your analyses for the day are used up (0 a day)" in answer.content.decode()
    assert not MatchAnalysis.objects.exists()


def test_a_done_analysis_shows_accuracy_loss_marks_and_the_chart(
    match, member, django_capture_on_commit_callbacks
):
    analysis = analysed(match, member, django_capture_on_commit_callbacks)
    result = analysis.result
    html = page_of(match)
    for seat, name in enumerate(["Levan", "Nino"]):
        row = re.search(rf'<tr data-seat="{seat}">(.*?)</tr>', html, re.S).group(1)
        assert name in row
        # As the page rounds them (Django's floatformat rounds a half up).
        assert f"{floatformat(result['accuracy'][seat], 1)} %" in row
        assert floatformat(result["mean_loss"][seat], 2) in row
        marks = [p["mark"] for p in result["plays"] if p["seat"] == seat]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        counts = [int(cell) for cell in cells[1:4]]  # after the accuracy: the marks first
        assert counts == [marks.count(mark) for mark in ("inaccuracy", "mistake", "blunder")]
        assert int(cells[5]) == len(marks)
    # The chart: axes, the hands, the unit and a legend naming each player.
    chart = re.search(r'<figure class="score-chart loss-chart">(.*?)</figure>', html, re.S)[1]
    assert "Expected loss in each hand, by player" in chart
    assert chart.count('class="axis"') == 2 and ">Hand<" in chart
    assert "Expected loss in points:" in chart
    assert "Levan" in chart.split("<figcaption>")[1] and "Nino" in chart.split("<figcaption>")[1]
    # Every play is listed from the API when asked for, not carried by the page.
    assert "Every play with its value" in html
    assert re.search(r'<table class="analysis-plays"[^>]*>.*?<tbody></tbody>', html, re.S)
    text = json.loads(re.search(r'id="analysis-text"[^>]*>(.*?)</script>', html, re.S)[1])
    assert text["blunder"] == "blunder"
    # Nothing more to ask.
    assert "data-analysis-form" not in html


def test_a_stale_analysis_says_so_and_offers_to_run_again(
    match, member, django_capture_on_commit_callbacks
):
    analysis = analysed(match, member, django_capture_on_commit_callbacks)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(version="0")
    html = page_of(match, member)
    assert "data-analysis-stale" in html
    assert "made by an earlier version of the analysis (0; now" in html
    assert "Analyse it again" in html
    assert 'class="analysis-seats"' in html  # the old figures stay until redone


def test_a_running_analysis_shows_its_progress(match, member):
    analysis = service.analysis_request(match=match, user=member)  # queued, not sent
    service.analysis_take(analysis_id=analysis.pk, holder="worker")
    MatchAnalysis.objects.filter(pk=analysis.pk).update(done=12, total=40)
    html = page_of(match, member)
    assert 'data-under-way="1"' in html
    assert '<progress id="analysis-bar" max="40" value="12">' in html
    assert "12 of 40 plays" in html


def test_a_table_records_hidden_hands_are_listed_as_not_reviewed(
    owner, member, django_capture_on_commit_callbacks
):
    doc = to_table_record(simulate_match("muggins", 2, seed=8, bots=("random",)))
    doc["club"] = "Tbilisi Fives Club"
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    match = upload.items.get().match
    analysis = analysed(match, member, django_capture_on_commit_callbacks)
    skipped = analysis.result["skipped"]
    assert skipped, "a table record with hidden draws leaves plays unreviewed"
    html = page_of(match)
    assert "Plays not reviewed" in html
    first = skipped[0]
    assert f'href="#h{first["hand"] + 1}m{first["move"] + 1}"' in html
    assert "the player&#x27;s hand is not known at that moment" in html


def test_the_player_page_and_the_ranking_show_the_average_expected_loss(
    match, member, django_capture_on_commit_callbacks
):
    analysed(match, member, django_capture_on_commit_callbacks)
    seat = match.seats.select_related("player").get(seat=0)
    html = Client().get(f"/players/{seat.player_id}/").content.decode()
    shown = re.search(r'<dd id="stat-expected-loss">(.*?)</dd>', html, re.S)[1]
    assert "over 1 analysed match" in shown
    html = Client().get("/clubs/tbilisi-fives-club/ranking/").content.decode()
    assert "Expected loss" in html
    row = re.search(rf'<tr data-player="{seat.player_id}">(.*?)</tr>', html, re.S)[1]
    assert re.search(r'class="num expected-loss">\d+\.\d\d<', row)
