"""Personas of the API tests: the owner, someone else, tokens with and without scopes."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from fives_engine.simulate import simulate_match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from games.tokens import token_create


@pytest.fixture(autouse=True)
def fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def client_with(user, scopes):
    client = APIClient()
    _, key = token_create(user=user, name="test", scopes=scopes)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.fixture
def owner_api(owner):
    return client_with(owner, ["read", "upload", "manage"])


@pytest.fixture
def outsider_api(outsider):
    return client_with(outsider, ["read", "upload", "manage"])


@pytest.fixture
def reader_api(owner):
    return client_with(owner, ["read"])


@pytest.fixture
def anonymous_api():
    return APIClient()


def make_doc(
    seed, names=("Nino", "Giorgi"), club="Tbilisi Fives Club", played_at="2026-11-20", **kw
):
    doc = simulate_match(
        {"base": "muggins", "target": 50}, len(names), seed=seed, names=list(names), **kw
    )
    doc["id"] = f"api-{seed}-{'-'.join(names)}"
    doc["club"] = club
    doc["played_at"] = played_at
    return doc


@pytest.fixture
def archive(owner, django_capture_on_commit_callbacks):
    """Six matches in two clubs, stored through the services."""
    docs = [
        make_doc(1),
        make_doc(2, played_at="2026-10-01"),
        make_doc(3, names=("Nino", "Tamar")),
        make_doc(4, names=("Olga", "Ivan"), club="Moscow"),
        make_doc(5, names=("Olga", "Ivan", "Anna"), club="Moscow", played_at="2026-09-09"),
        make_doc(6, names=("Nino", "Giorgi", "Tamar", "Levan"), teams=True),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner,
            data=b"\n".join(json.dumps(d).encode() for d in docs),
            kind="ndjson",
        )
        upload_process(upload_id=upload.pk)
    return docs
