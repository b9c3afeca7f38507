"""The practice drill's page, /players/{id}/practice/: the player's own account is shown the
next position due, picks a play by a form's button, reads the verdict and has the try
remembered (a miss comes back in minutes, a solve a day later, then two days, four...);
anyone else who may see the player may practise too but nothing is kept; a private club's
player is not found by outsiders; the player page links the drill for the player alone."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import msgspec
import pytest
from django.template.defaultfilters import floatformat
from django.test import Client
from django.utils import timezone

from clubs.models import Club
from games.models import Player
from replays import practice
from replays.models import MatchAnalysis, PracticeAttempt

from .helpers import analysed_levan, store_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(owner, member, django_capture_on_commit_callbacks):
    """A short match of Levan (the member's own handle) and Nino, analysed."""
    return analysed_levan(owner, member, django_capture_on_commit_callbacks)


def levan():
    return Player.objects.get(handle="Levan")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def drilled(match):
    plays = MatchAnalysis.objects.get(match=match).result["plays"]
    return [
        msgspec.convert({"match": match.pk, **p}, practice.Mistake)
        for p in plays
        if p["seat"] == 0 and p["mark"] in ("mistake", "blunder")
    ]


def shown_key(html: str) -> str:
    return re.search(r'data-position="([0-9-]+)"', html)[1]


def test_the_player_is_shown_their_biggest_mistake_first_with_a_button_per_play(analysed, member):
    html = signed_in(member).get(f"/players/{levan().pk}/practice/").content.decode()
    mistakes = drilled(analysed)
    first = max(mistakes, key=lambda p: p.loss)
    assert shown_key(html) == f"{analysed.pk}-{first.hand + 1}-{first.move + 1}"
    buttons = re.findall(r'<button type="submit" name="choice" value="([^"]+)">', html)
    assert sorted(buttons) == sorted(alt.play for alt in first.alternatives)
    assert f"{len(mistakes)} positions" in html
    assert "solved 0 · due now" in html
    # No verdict before a pick: the best play is not named on the page.
    assert 'id="verdict"' not in html


def test_a_pick_is_judged_remembered_and_a_miss_comes_back_soon(analysed, member):
    client = signed_in(member)
    address = f"/players/{levan().pk}/practice/"
    html = client.get(address).content.decode()
    key = shown_key(html)
    mistake = practice.find_mistake(
        drilled(analysed), match=analysed.pk, hand=int(key.split("-")[1]) - 1,
        move=int(key.split("-")[2]) - 1,
    )  # fmt: skip
    # The worst by the mark's unit (winning chances, a two-player match).
    worst = min(mistake.alternatives, key=lambda alt: alt.chance)
    answer = client.post(address, {"at": key, "choice": worst.play})
    assert answer.status_code == 302 and answer["Location"].endswith("#verdict")
    attempt = PracticeAttempt.objects.get(user=member)
    assert (attempt.match_id, attempt.hand, attempt.move) == (
        analysed.pk,
        mistake.hand,
        mistake.move,
    )
    assert attempt.tries == 1 and not attempt.solved and attempt.streak == 0
    assert timedelta(minutes=9) < attempt.due_at - attempt.tried_at <= timedelta(minutes=10)
    verdict = unescape(client.get(answer["Location"]).content.decode())
    loss = mistake.best_value - worst.value
    # As the page rounds it (Django's floatformat rounds a half up).
    assert "less than the best" in verdict and floatformat(loss, 1) in verdict
    best = practice.play_label(mistake.best)
    assert f"The best play: {best}, worth {mistake.best_value:.1f}." in verdict
    assert f"/matches/{analysed.pk}/#h{mistake.hand + 1}m{mistake.move + 1}" in verdict
    assert "Missed: it comes back in a few minutes." in verdict
    # Meanwhile another position, never tried, is next; after ten minutes the missed one
    # is due again and comes first, before any never tried.
    assert len(drilled(analysed)) >= 3
    assert shown_key(client.get(address).content.decode()) != key
    later = practice.practice_page(
        player=levan(), user=member, now=timezone.now() + timedelta(minutes=11)
    )
    assert later["key"] == key


def test_a_solve_comes_back_a_day_later_then_twice_as_late(analysed, member):
    mistake = drilled(analysed)[0]
    now = timezone.now()
    first = practice.practice_record(user=member, mistake=mistake, solved=True, now=now)
    assert first.due_at - now == timedelta(days=1) and first.streak == 1
    second = practice.practice_record(user=member, mistake=mistake, solved=True, now=now)
    assert second.due_at - now == timedelta(days=2) and second.tries == 2
    missed = practice.practice_record(user=member, mistake=mistake, solved=False, now=now)
    assert missed.due_at - now == timedelta(minutes=10) and missed.streak == 0


def test_the_best_play_solves_the_position(analysed, member):
    client = signed_in(member)
    address = f"/players/{levan().pk}/practice/"
    key = shown_key(client.get(address).content.decode())
    _, hand, move = (int(part) for part in key.split("-"))
    mistake = practice.find_mistake(drilled(analysed), match=analysed.pk, hand=hand - 1,
                                    move=move - 1)  # fmt: skip
    answer = client.post(address, {"at": key, "choice": mistake.best})
    html = unescape(client.get(answer["Location"]).content.decode())
    assert f"Good: {practice.play_label(mistake.best)} is worth" in html
    assert "Solved: it comes back on" in html
    assert PracticeAttempt.objects.get(user=member).solved
    # The next position is another one.
    following = client.get(f"{address}?after={key}").content.decode()
    assert shown_key(following) != key


def test_a_play_that_is_not_a_choice_is_refused(analysed, member):
    client = signed_in(member)
    address = f"/players/{levan().pk}/practice/"
    key = shown_key(client.get(address).content.decode())
    assert client.post(address, {"at": key, "choice": "6-6 on Q"}).status_code == 400
    assert client.post(address, {"at": "1-2", "choice": "6-6"}).status_code == 400
    # A key of thousands of digits, or of digits int() reads but a person does not type, is
    # no key: refused, or (the next position's ``after``) not heeded, never a 500.
    for key in ("1-1-" + "9" * 5000, "9" * 40 + "-1-1", "١-١-١"):
        assert client.post(address, {"at": key, "choice": "6-6"}).status_code == 400, key
        assert client.get(address, {"after": key}).status_code == 200, key
    assert not PracticeAttempt.objects.exists()


def test_someone_else_may_practise_but_nothing_is_kept(analysed, owner):
    client = signed_in(owner)
    address = f"/players/{levan().pk}/practice/"
    html = client.get(address).content.decode()
    assert "Only Levan, signed in, has their tries remembered." in html
    key = shown_key(html)
    mistake = drilled(analysed)[0]
    answer = client.post(address, {"at": key, "choice": mistake.alternatives[0].play})
    assert answer.status_code == 302
    assert not PracticeAttempt.objects.exists()
    assert 'id="verdict"' in client.get(answer["Location"]).content.decode()


def test_a_private_clubs_drill_is_not_found_by_outsiders(analysed, outsider, member):
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    assert signed_in(outsider).get(f"/players/{levan().pk}/practice/").status_code == 404
    assert Client().get(f"/players/{levan().pk}/practice/").status_code == 404
    assert signed_in(member).get(f"/players/{levan().pk}/practice/").status_code == 200


def test_the_player_page_links_the_drill_for_the_player_alone(analysed, member, owner):
    address = f"/players/{levan().pk}/"
    assert 'id="practice-link"' in signed_in(member).get(address).content.decode()
    assert 'id="practice-link"' not in signed_in(owner).get(address).content.decode()
    assert 'id="practice-link"' not in Client().get(address).content.decode()


def test_with_nothing_analysed_the_page_says_how_to_get_positions(owner, member):
    store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    Player.objects.filter(handle="Levan").update(user=member)
    html = signed_in(member).get(f"/players/{levan().pk}/practice/").content.decode()
    assert 'id="practice-empty"' in html and "0 positions" in html


def test_with_every_position_solved_the_page_says_when_the_next_comes_back(analysed, member):
    now = timezone.now()
    for mistake in drilled(analysed):
        practice.practice_record(user=member, mistake=mistake, solved=True, now=now)
    html = signed_in(member).get(f"/players/{levan().pk}/practice/").content.decode()
    assert 'id="practice-done"' in html and 'data-position="' not in html
    assert "Nothing is due now. The next position comes back on" in html
    assert f"solved {len(drilled(analysed))} · due now 0" in html
