"""The upload form chooses the club for the person: their only club, else the club of their
latest upload into one (a tour as a new user left it on "the club the log names", and a
log naming no club was refused)."""

from __future__ import annotations

import json

import pytest

from clubs.models import Club
from fives_engine.simulate import simulate_match
from games.forms import UploadForm
from games.services.uploads import upload_create

pytestmark = pytest.mark.django_db


def chosen(user) -> int | None:
    return UploadForm(user=user)["club"].value()


def test_a_member_of_one_club_has_it_chosen(member):
    assert chosen(member) == Club.objects.get(slug="tbilisi-fives-club").pk


def test_a_member_of_several_clubs_has_the_club_of_their_latest_upload(owner):
    clubs = list(Club.objects.filter(memberships__user=owner).order_by("name"))
    assert len(clubs) > 1
    assert chosen(owner) is None  # no upload yet: the log's own club
    data = json.dumps(simulate_match("all-fives", 2, seed=1)).encode()
    upload_create(uploader=owner, data=data, kind="json", club=clubs[-1])
    assert chosen(owner) == clubs[-1].pk
    html = str(UploadForm(user=owner)["club"])
    assert f'<option value="{clubs[-1].pk}" selected>' in html


def test_a_person_in_no_club_has_none_chosen(outsider):
    assert chosen(outsider) is None
