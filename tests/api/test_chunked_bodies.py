"""A body sent in chunks (``Transfer-Encoding: chunked``, no ``Content-Length``) is read to its
end, on the API, the upload form and the recorder's send; a server that cannot read it to its
end gets a 400, never a 202 for an empty document. These tests call the WSGI application
with the environ gunicorn gives a chunked request (its ``wsgi.input`` already decoded, marked
``wsgi.input_terminated``); ``tests/test_proxy.py`` sends real chunks through gunicorn and
nginx."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test.client import RequestFactory

from games.models import Upload
from games.tokens import token_create

from .conftest import make_doc


def call(environ: dict) -> tuple[int, dict, bytes]:
    """Run the archive's WSGI application on ``environ``: (status, headers, body)."""
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split()[0])
        answer["headers"] = dict(headers)

    body = b"".join(WSGIHandler()(environ, start_response))
    return answer["status"], answer["headers"], body


def chunked_environ(path: str, data: bytes, content_type: str, *, terminated=True, **extra):
    environ = RequestFactory()._base_environ(
        PATH_INFO=path,
        REQUEST_METHOD="POST",
        CONTENT_TYPE=content_type,
        HTTP_TRANSFER_ENCODING="chunked",
        **extra,
    )
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = io.BytesIO(data)  # what gunicorn's decoded chunks read as
    environ["wsgi.errors"] = sys.stderr
    if terminated:
        environ["wsgi.input_terminated"] = True
    return environ


def token_for(user) -> str:
    return token_create(user=user, name="chunks", scopes=["read", "upload"])[1]


def upload_chunked(user, data: bytes, content_type: str, *, terminated=True):
    """POST ``data`` to the API's uploads in chunks, as ``user``: (status, answer's JSON)."""
    environ = chunked_environ(
        "/api/v1/uploads/",
        data,
        content_type,
        terminated=terminated,
        HTTP_AUTHORIZATION=f"Bearer {token_for(user)}",
    )
    status, _headers, body = call(environ)
    return status, json.loads(body)


@pytest.mark.django_db(transaction=True)
def test_a_chunked_api_upload_is_stored_whole(owner):
    docs = [make_doc(seed) for seed in (11, 12, 13)]
    data = b"\n".join(json.dumps(doc).encode() for doc in docs)
    status, answer = upload_chunked(owner, data, "application/x-ndjson")
    assert status == 202, answer
    upload = Upload.objects.get(pk=answer["id"])
    assert upload.size == len(data)
    assert upload.document == data
    assert upload.items.count() == 3
    assert upload.items.filter(match__isnull=False).count() == 3


@pytest.mark.django_db(transaction=True)
def test_the_same_log_chunked_and_with_a_length_is_one_document(owner, owner_api):
    data = json.dumps(make_doc(21)).encode()
    status, answer = upload_chunked(owner, data, "application/json")
    assert status == 202, answer
    chunked = Upload.objects.get(pk=answer["id"])
    assert chunked.status == Upload.Status.ACCEPTED and chunked.size == len(data)
    # Sent again with its length, the archive finds the very same document (its hash and
    # size), and answers the upload it already has.
    given = owner_api.post("/api/v1/uploads/", data, content_type="application/json")
    assert given.status_code == 202
    assert given.json()["id"] == chunked.pk
    assert Upload.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_past_the_limit_is_refused_as_one_with_a_length(owner, settings):
    settings.FIVES_UPLOAD_MAX_BYTES = 1000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    data = json.dumps(make_doc(31)).encode()
    assert len(data) > 1000
    status, answer = upload_chunked(owner, data, "application/json")
    assert status == 202, answer
    # Kept as rejected, saying it is too large: as a length-given body past the limit is.
    upload = Upload.objects.get(pk=answer["id"])
    assert upload.status == Upload.Status.REJECTED
    assert upload.size == 1001  # the limit and the one byte that shows it was passed
    assert upload.problem == "The file is 1001 bytes; the limit is 1000 bytes."


@pytest.mark.django_db(transaction=True)
def test_a_server_that_cannot_read_chunks_refuses_them_with_400(owner):
    data = json.dumps(make_doc(41)).encode()
    status, answer = upload_chunked(owner, data, "application/json", terminated=False)
    assert status == 400
    assert answer["error"]["code"] == "body-unreadable"
    assert not Upload.objects.exists()
