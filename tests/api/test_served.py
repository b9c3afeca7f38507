"""The API as Django's own server serves it (``make run`` runs ``runserver``; pytest's
``live_server`` is the same server): a header it refuses is a 500 there that the test client
never shows, and an address nothing serves answers in the API's error shape."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from django.test import override_settings

from fives_engine.simulate import simulate_match
from games.models import Upload
from games.tokens import token_create

pytestmark = pytest.mark.django_db(transaction=True)


def request(url: str, *, key: str = "", data: bytes | None = None) -> tuple[int, dict, dict]:
    """Return the status, headers and JSON body of a request to the live server."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers)) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        assert error.headers["Content-Type"].startswith("application/json"), error.read()[:200]
        return error.code, dict(error.headers), json.loads(error.read())


def test_an_upload_answers_202_and_where_it_is(live_server, owner):
    _, key = token_create(user=owner, name="served", scopes=["read", "upload"])
    doc = simulate_match("muggins", 2, seed=4)
    status, headers, body = request(
        f"{live_server.url}/api/v1/uploads/?club=tbilisi-fives-club",
        key=key,
        data=json.dumps(doc).encode(),
    )
    assert status == 202, body
    upload = Upload.objects.get()
    assert body["id"] == upload.pk
    assert headers["Location"] == body["url"]
    assert headers["Location"].endswith(f"/api/v1/uploads/{upload.pk}/")


@override_settings(DEBUG=False)
@pytest.mark.parametrize("path", ["/api/v1/nothing/", "/api/v1/matches/abc/", "/api/nothing"])
def test_an_address_nothing_serves_answers_in_the_apis_error_shape(live_server, path):
    status, _headers, body = request(live_server.url + path)
    assert status == 404
    assert body == {"error": {"code": "not_found", "message": "Not found."}}


def test_a_page_nothing_serves_is_still_a_page(client):
    response = client.get("/nothing-here/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
