"""A page refused or not found is the site's own page, in the reader's language, with the
menu and a way on: not the server's bare words in English."""

from __future__ import annotations

import pytest

from clubs.capitals import mtavruli_count

pytestmark = pytest.mark.django_db


def test_a_member_refused_the_manage_page_reads_why_in_their_language(page_as):
    page = page_as("member")
    refused = page.get("/clubs/tbilisi-fives-club/manage/")
    assert refused.status_code == 403
    text = refused.content.decode()
    assert "Not yours to open" in text and 'href="/clubs/"' in text
    assert 'name="viewport"' in text  # the site's own page, laid out for a phone
    russian = page.get("/clubs/tbilisi-fives-club/manage/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Эта страница не для вас" in russian.content.decode()
    georgian = page.get("/clubs/tbilisi-fives-club/manage/", HTTP_ACCEPT_LANGUAGE="ka")
    assert "ეს გვერდი თქვენთვის არ არის" in georgian.content.decode()
    assert mtavruli_count(georgian.content.decode()) == 0


def test_a_mistyped_invitation_link_finds_the_sites_page_not_found(page_as):
    missing = page_as("outsider").get("/join/not-a-token/")
    assert missing.status_code == 404
    text = missing.content.decode()
    assert "Nothing here" in text and 'href="/"' in text
    assert page_as(None).get("/api/v1/nowhere/").json()["error"]["code"] == "not_found"


def test_the_sign_in_page_sends_no_one_back_to_itself(page_as):
    page = page_as(None).get("/accounts/login/").content.decode()
    assert "next=/accounts/login/" not in page and 'href="/accounts/login/"' in page
    elsewhere = page_as(None).get("/clubs/").content.decode()
    assert 'href="/accounts/login/?next=/clubs/"' in elsewhere
