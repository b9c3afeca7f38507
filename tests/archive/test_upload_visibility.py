"""Who sees an upload: its uploader, the admins of its club and staff. Anyone else gets 404,
on the page and in the API, so that ids cannot be walked."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club
from games.services.uploads import upload_create
from games.tokens import token_create
from tests.archive.helpers import as_bytes, valid_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload(owner, django_capture_on_commit_callbacks):
    club = Club.objects.get(slug="tbilisi-fives-club")
    with django_capture_on_commit_callbacks(execute=True):
        return upload_create(uploader=owner, data=as_bytes(valid_log(1)), kind="json", club=club)


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="x-long-pass-4", is_staff=True)


def api_for(user):
    client = APIClient()
    _, key = token_create(user=user, name="t", scopes=["read", "manage"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.mark.parametrize("persona", ["owner", "club_admin", "staff"])
def test_the_uploader_the_clubs_admins_and_staff_see_it(persona, request, upload, client):
    """(``club_admin`` is an admin of the upload's club.)"""
    user = request.getfixturevalue(persona)
    client.force_login(user)
    assert client.get(f"/uploads/{upload.pk}/").status_code == 200
    answer = api_for(user).get(f"/api/v1/uploads/{upload.pk}/")
    assert answer.status_code == 200 and answer.json()["id"] == upload.pk


def test_someone_else_gets_404_as_for_an_upload_that_does_not_exist(upload, outsider, client):
    client.force_login(outsider)
    api = api_for(outsider)
    for pk in (upload.pk, upload.pk + 1000):
        assert client.get(f"/uploads/{pk}/").status_code == 404
        assert api.get(f"/api/v1/uploads/{pk}/").status_code == 404
        assert api.delete(f"/api/v1/uploads/{pk}/").status_code == 404
        assert api.post(f"/api/v1/uploads/{pk}/rerun/").status_code == 404


def test_someone_signed_out_gets_404_too(upload, client):
    assert client.get(f"/uploads/{upload.pk}/").status_code == 404
    assert APIClient().get(f"/api/v1/uploads/{upload.pk}/").status_code == 404
    assert APIClient().delete(f"/api/v1/uploads/{upload.pk}/").status_code == 401


def test_a_club_admin_may_still_manage_it(upload, club_admin):
    assert api_for(club_admin).post(f"/api/v1/uploads/{upload.pk}/rerun/").status_code == 202
