"""Claiming oneself (issue 56, item 5): a player's page says "This is me" to a signed-in member
of the player's club who holds no handle there yet, and to everyone else what stands in the way
(signing in, joining the club, a claim waiting for an admin); the practice link shows once the
handle is the reader's and a match of theirs is analysed, with a sentence until then; the
practice page of someone else's handle speaks of them, not to the reader as if they were them."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from clubs.models import Club
from games.models import HandleClaim, Player
from tests.conftest import join

from .helpers import analysed_levan, store_match

pytestmark = pytest.mark.django_db


def page(user, address: str, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(address)
    assert response.status_code == 200
    return unescape(response.content.decode())


def levan() -> Player:
    return Player.objects.get(handle="Levan")


@pytest.fixture
def stored(owner):
    """A match of Levan and Nino, neither handle claimed."""
    return store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")


@pytest.fixture
def analysed(owner, member, django_capture_on_commit_callbacks):
    """A short match of Levan (the member's own handle) and Nino, analysed."""
    return analysed_levan(owner, member, django_capture_on_commit_callbacks)


@pytest.fixture
def stranger(django_user_model, owner):
    """Ana, a member of another club (Moscow) only."""
    user = django_user_model.objects.create_user("ana", password="a-long-password-6")
    join(user, "moscow")
    return user


def claim(user, player: Player, next_page: str | None = None):
    client = Client()
    client.force_login(user)
    data = {"next": next_page} if next_page else {}
    return client.post(f"/players/{player.pk}/claim/", data)


def ids(html: str) -> set[str]:
    return set(re.findall(r'id="((?:claim|practice)[a-z-]*)"', html))


# The player's page, by role and state.


def test_signed_out_the_page_says_to_sign_in_as_a_member_to_claim(stored):
    address = f"/players/{levan().pk}/"
    html = page(None, address)
    assert ids(html) == {"claim-sign-in"}
    assert "Is this you? Sign in as a member of the club" in html
    assert f'href="/accounts/login/?next=/players/{levan().pk}/"' in html
    refused = Client().post(f"/players/{levan().pk}/claim/")
    assert refused.status_code == 302 and "/accounts/login/" in refused["Location"]
    assert not HandleClaim.objects.exists()


def test_a_member_with_no_handle_claims_it_from_the_player_page(stored, member):
    address = f"/players/{levan().pk}/"
    html = page(member, address)
    assert ids(html) == {"claim", "claim-button"}
    assert f'action="/players/{levan().pk}/claim/"' in html and ">This is me</button>" in html
    assert "once a club admin confirms it, your mistakes and blunders" in html
    client = Client()
    client.force_login(member)
    answer = client.post(f"/players/{levan().pk}/claim/", {"next": address})
    # Back on the player's page, which now says what the claim waits for.
    assert answer.status_code == 302 and answer["Location"] == address
    assert HandleClaim.objects.get().status == HandleClaim.Status.PENDING
    html = unescape(client.get(address).content.decode())
    assert ids(html) == {"claim-pending"}
    assert "Your claim is sent to the club's admins." in html
    assert "waits for a club admin’s confirmation. Once it is confirmed, your practice" in html


def test_a_claim_from_the_club_page_still_goes_back_there(stored, member):
    answer = claim(member, levan(), "/clubs/tbilisi-fives-club/")
    assert answer["Location"] == "/clubs/tbilisi-fives-club/"
    # Without a page to go back to (an old form), the club's page as before.
    other = claim(member, Player.objects.get(handle="Nino"))
    assert other["Location"] == "/clubs/tbilisi-fives-club/"


def test_a_member_with_a_pending_claim_is_not_offered_another(stored, member):
    claim(member, levan())
    html = page(member, f"/players/{Player.objects.get(handle='Nino').pk}/")
    assert ids(html) == {"claim-elsewhere"}
    assert "Your claim to another handle waits for a club admin’s confirmation" in html
    assert f'href="/players/{levan().pk}/"' in html


def test_a_member_who_holds_a_handle_is_shown_it_instead(stored, member):
    Player.objects.filter(handle="Levan").update(user=member)
    html = page(member, f"/players/{Player.objects.get(handle='Nino').pk}/")
    assert ids(html) == {"claim-elsewhere"}
    assert "Your handle in this club" in html and f'href="/players/{levan().pk}/"' in html


def test_once_an_admin_confirms_the_practice_link_waits_for_an_analysed_match(
    owner, member, club_admin
):
    store_match(owner, ["Levan", "Nino"], seed=9, played_at="2026-05-01T19:00:00Z")
    claim(member, levan())
    admin = Client()
    admin.force_login(club_admin)
    pending = HandleClaim.objects.get()
    admin.post(f"/clubs/tbilisi-fives-club/claims/{pending.pk}/", {"decision": "confirm"})
    assert levan().user == member
    html = page(member, f"/players/{levan().pk}/")
    assert ids(html) == {"practice-locked"}
    assert "Your practice opens once a match of yours is analysed" in html


def test_the_confirmed_player_with_an_analysed_match_is_linked_to_the_drill(analysed, member):
    html = page(member, f"/players/{levan().pk}/")
    assert ids(html) == {"practice-link"}
    assert f'href="/players/{levan().pk}/practice/"' in html


def test_a_member_of_another_club_is_told_to_join_it_first(stored, stranger):
    html = page(stranger, f"/players/{levan().pk}/")
    assert ids(html) == {"claim-join"}
    assert "Ask to join the club on its page" in html
    assert 'href="/clubs/tbilisi-fives-club/"' in html
    assert claim(stranger, levan()).status_code == 403
    assert not HandleClaim.objects.exists()


def test_a_private_clubs_player_is_not_shown_to_another_clubs_member(stored, stranger):
    Club.objects.filter(slug="tbilisi-fives-club").update(is_private=True)
    client = Client()
    client.force_login(stranger)
    assert client.get(f"/players/{levan().pk}/").status_code == 404
    assert client.post(f"/players/{levan().pk}/claim/").status_code == 404
    assert Client().get(f"/players/{levan().pk}/").status_code == 404


def test_the_club_admin_may_claim_and_is_told_of_the_claims_waiting(stored, member, club_admin):
    address = f"/players/{levan().pk}/"
    assert "claim-waiting" not in ids(page(club_admin, address))
    claim(member, levan())
    html = page(club_admin, address)
    # An admin without a handle of the club may say this one is theirs too.
    assert ids(html) == {"claim", "claim-button", "claim-waiting"}
    assert "1 claim to this handle waits for your decision" in html
    assert 'href="/clubs/tbilisi-fives-club/manage/#claims"' in html
    # Only the club's admins are told.
    assert "claim-waiting" not in ids(page(member, address))


def test_a_declined_claim_is_said_and_may_be_made_again(stored, member, club_admin):
    claim(member, levan())
    admin = Client()
    admin.force_login(club_admin)
    pending = HandleClaim.objects.get()
    admin.post(f"/clubs/tbilisi-fives-club/claims/{pending.pk}/", {"decision": "decline"})
    html = page(member, f"/players/{levan().pk}/")
    assert ids(html) == {"claim", "claim-declined", "claim-button"}
    assert "A club admin declined your claim to this handle." in html
    claim(member, levan())
    assert HandleClaim.objects.filter(status=HandleClaim.Status.PENDING).count() == 1


def test_someone_elses_handle_says_nothing_of_claiming(analysed, owner, club_admin):
    for reader in (owner, club_admin, None):
        assert ids(page(reader, f"/players/{levan().pk}/")) == set()


@pytest.mark.parametrize(
    ("language", "button", "pending"),
    [
        ("ru", ">Это я</button>", "Ваша заявка на это имя ждёт подтверждения"),
        ("ka", ">ეს მე ვარ</button>", "ამ სახელზე თქვენი მოთხოვნა"),
    ],
)
def test_the_claim_reads_in_russian_and_georgian(stored, member, language, button, pending):
    address = f"/players/{levan().pk}/"
    assert button in page(member, address, language)
    claim(member, levan())
    assert pending in page(member, address, language)


# The practice page, read by the player and by anyone else.


def practice(reader, language: str = "en", query: str = "") -> str:
    return page(reader, f"/players/{levan().pk}/practice/{query}", language)


def test_the_players_own_drill_speaks_to_them(analysed, member):
    html = practice(member, query=f"?at={analysed.pk}-1-1")  # a lead: the table is empty
    assert "The table is empty: you lead." in html
    assert "Your tiles:" in html and "Pick the play you would make:" in html
    assert "Levan leads" not in html and "Tiles of" not in html and "in the place of" not in html


def test_someone_elses_drill_speaks_of_the_player(analysed, owner, member):
    for reader in (owner, None):  # another member, the signed out
        html = practice(reader, query=f"?at={analysed.pk}-1-1")
        assert "The table is empty: Levan leads." in html
        assert "Tiles of Levan:" in html
        assert "Pick the play you would make in the place of Levan:" in html
        assert "you lead" not in html and "Your tiles" not in html
        assert "Only Levan, signed in, has their tries remembered." in html
        assert 'id="practice-unclaimed"' not in html
    client = Client()
    address = f"/players/{levan().pk}/practice/"
    best = re.search(r'name="choice" value="([^"]+)"', practice(None))[1]
    at = re.search(r'data-position="([0-9-]+)"', practice(None))[1]
    answer = client.post(address, {"at": at, "choice": best})
    verdict = unescape(client.get(answer["Location"]).content.decode())
    assert "The chance of Levan to win the match after it:" in verdict
    assert "Your chance" not in verdict and "tiles Levan could not see" in verdict


def test_someone_elses_drill_reads_right_in_russian_and_georgian(analysed, owner):
    ru = practice(owner, "ru", f"?at={analysed.pk}-1-1")
    assert "Стол пуст: первым ходит игрок Levan." in ru and "Кости игрока Levan" in ru
    assert "вы ходите первым" not in ru and "Ваши кости" not in ru
    ka = practice(owner, "ka", f"?at={analysed.pk}-1-1")
    assert "მაგიდა ცარიელია: იწყებს მოთამაშე Levan." in ka and "მოთამაშის ქვები (Levan)" in ka
    assert "თქვენ იწყებთ" not in ka and "თქვენი ქვები" not in ka


def test_an_unclaimed_handles_drill_says_nobody_has_tries_kept(analysed, member):
    Player.objects.filter(handle="Levan").update(user=None)
    html = practice(member)
    assert 'id="practice-unclaimed"' in html
    assert "Nobody has said this handle is theirs yet" in html
    assert f'<a href="/players/{levan().pk}/">Is it yours? Say so on its page.</a>' in html
    assert "Only Levan, signed in" not in html


def test_an_empty_drill_says_whose_it_is(stored, member, owner):
    Player.objects.filter(handle="Levan").update(user=member)
    own = practice(member)
    assert "Nothing to practise yet: no mistake or blunder in an analysed match." in own
    other = practice(owner)
    assert "Nothing to practise yet: Levan has no mistake or blunder in an analysed match." in other
    assert "Ask for the analysis" not in other
