"""Personal API tokens: made and revoked on the settings page, shown once, stored hashed."""

from __future__ import annotations

import re

import pytest

from games.models import ApiToken
from games.tokens import token_hash

pytestmark = pytest.mark.django_db


def test_a_signed_in_user_makes_a_token_that_is_shown_once_and_stored_hashed(client, owner):
    client.force_login(owner)
    response = client.post("/settings/tokens/", {"name": "club bot", "scopes": ["read", "upload"]})
    html = response.content.decode()
    key = re.search(r'<code id="new-token">([^<]+)</code>', html).group(1)
    token = ApiToken.objects.get()
    assert token.key_hash == token_hash(key) and key not in token.key_hash
    assert token.scopes == ["read", "upload"]
    assert token.prefix == key[:10]
    again = client.get("/settings/tokens/").content.decode()
    assert key not in again and token.prefix in again
    api = client.__class__()
    assert api.get("/api/v1/uploads/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200


def test_a_user_revokes_a_token_and_it_stops_working(client, owner):
    client.force_login(owner)
    html = client.post("/settings/tokens/", {"name": "x", "scopes": ["read"]}).content.decode()
    key = re.search(r'<code id="new-token">([^<]+)</code>', html).group(1)
    token = ApiToken.objects.get()
    client.post("/settings/tokens/", {"revoke": token.pk})
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert (
        client.__class__().get("/api/v1/matches/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code
        == 401
    )


def test_nobody_revokes_someone_elses_token(client, owner, outsider):
    from games.tokens import token_create

    token, _ = token_create(user=owner, name="mine", scopes=["read"])
    client.force_login(outsider)
    client.post("/settings/tokens/", {"revoke": token.pk})
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_settings_page_needs_a_signed_in_user(client):
    assert client.get("/settings/tokens/").status_code == 302
