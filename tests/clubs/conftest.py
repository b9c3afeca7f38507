"""Personas of the club tests: the owner, an admin, a member, an outsider (each with a page
client and an API client with every scope) and someone signed out."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fives_engine.simulate import simulate_match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from tests.api.conftest import client_with

PERSONAS = ["owner", "club_admin", "member", "outsider"]


@pytest.fixture
def api_as(request):
    """Return an API client (read, upload, manage) of a persona, or signed out for None."""

    def api_as(persona):
        if persona is None:
            return APIClient()
        return client_with(request.getfixturevalue(persona), ["read", "upload", "manage"])

    return api_as


@pytest.fixture
def page_as(request):
    """Return a page client signed in as a persona, or signed out for None."""

    def page_as(persona):
        client = Client()
        if persona is not None:
            client.force_login(request.getfixturevalue(persona))
        return client

    return page_as


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    assert {"code", "message"} <= set(body["error"])
    return body["error"]


def log(seed: int, names=("Nino", "Giorgi"), club="Tbilisi Fives Club", played_at=None) -> dict:
    doc = simulate_match(
        {"base": "muggins", "target": 50}, len(names), seed=seed, names=list(names)
    )
    doc["id"] = f"club-{seed}-{'-'.join(names)}"
    doc["club"] = club
    doc["played_at"] = played_at or f"2026-10-{1 + seed % 28:02d}T19:00:00+00:00"
    return doc


def send(user, *docs, club=None):
    """Upload ``docs`` as ``user`` and process them here; return the upload."""
    data = b"\n".join(json.dumps(doc).encode() for doc in docs)
    upload = upload_create(uploader=user, data=data, kind="ndjson", club=club)
    return upload_process(upload_id=upload.pk)
