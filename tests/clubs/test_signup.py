"""Anyone may make an account (/accounts/signup/) and is signed in with it; the sign-in
page and an invitation link lead there; one address makes only so many accounts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from clubs.models import Club, Invitation

pytestmark = pytest.mark.django_db

PASSWORD = "lazy-tiles-on-the-table"


def sign_up(client: Client, name: str, password: str = PASSWORD, again: str | None = None, **extra):
    data = {"username": name, "password1": password, "password2": again or password}
    return client.post("/accounts/signup/", data | extra)


def test_a_new_organiser_makes_an_account_and_is_signed_in(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/"' in page and "Create an account" in page
    answer = sign_up(client, "nana")
    assert answer.status_code == 302 and answer.url == "/"
    user = get_user_model().objects.get(username="nana")
    assert user.check_password(PASSWORD) and not user.is_staff
    assert client.get("/clubs/new/").status_code == 200  # signed in: may create a club


def test_a_name_taken_in_any_case_or_a_weak_or_mistyped_password_is_refused(client, owner):
    taken = sign_up(client, owner.username.upper())
    assert taken.status_code == 200 and "already exists" in taken.content.decode()
    weak = sign_up(client, "tamar", password="12345678")
    assert weak.status_code == 200 and "too common" in weak.content.decode()
    mistyped = sign_up(client, "tamar", again=PASSWORD + "x")
    assert mistyped.status_code == 200 and "didn’t match" in mistyped.content.decode()
    assert not get_user_model().objects.filter(username="tamar").exists()


def test_it_goes_back_to_the_page_that_asked_and_never_to_another_site(client):
    assert sign_up(client, "giorgi", next="/clubs/").url == "/clubs/"
    assert sign_up(Client(), "levan", next="https://evil.example/").url == "/"


def test_an_invitation_link_offers_an_account_and_comes_back_to_join(client, owner):
    club = Club.objects.get(slug="tbilisi-fives-club")
    invitation = Invitation.objects.create(
        club=club, created_by=owner, token="t" * 40, expires_at=timezone.now() + timedelta(days=1)
    )
    path = f"/join/{invitation.token}/"
    # Signed out: the club invited to, and the ways in, each coming back here.
    asked = client.get(path).content.decode()
    assert "Join Tbilisi Fives Club" in asked
    assert f'href="/accounts/login/?next={path}"' in asked
    assert f'href="/accounts/signup/?next={path}"' in asked
    assert "Join the club" not in asked
    joined = client.post(path)  # a join sent signed out asks to sign in first
    assert joined.url == f"/accounts/login/?next={path}"
    assert sign_up(client, "luka", next=path).url == path
    assert "Join the club" in client.get(path).content.decode()
    assert client.post(path).status_code == 302
    assert club.is_member(get_user_model().objects.get(username="luka"))
    # A member (the owner too) reads that they are one, with no button to join again.
    again = client.get(path).content.decode()
    assert "You are a member of this club already." in again and "Join the club" not in again
    client.force_login(owner)
    assert "You are a member of this club already." in client.get(path).content.decode()


def test_one_address_makes_only_so_many_accounts(client, settings):
    settings.FIVES_SIGNUP_RATE = "3/h"
    answers = [sign_up(Client(), f"player{n}").status_code for n in range(4)]
    assert answers == [302, 302, 302, 429]
    assert get_user_model().objects.filter(username__startswith="player").count() == 3
