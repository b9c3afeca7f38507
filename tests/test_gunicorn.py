"""The archive served docs/deploy.md's production way: collectstatic, then gunicorn with threaded
workers and a long timeout (DEBUG off, a key of its own, static files by WhiteNoise from what
collectstatic wrote: fingerprinted, compressed, cached a year), answering pages, static files
and an API upload."""

from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.request

import pytest

from bench.served import (
    TEST_GUNICORN,
    Gunicorn,
    free_port,
    gunicorn_missing,
    manage,
    production_env,
)
from tests.archive.helpers import valid_log


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_gunicorn_serves_pages_static_files_and_an_upload(tmp_path):
    if reason := gunicorn_missing():
        pytest.skip(reason)
    env = production_env(tmp_path)
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "from clubs.services import club_create; "
        "club_create(owner=User.objects.create_user('ana'), name='Tbilisi Fives Club', "
        "slug='tbilisi-fives-club')",
    )
    token = manage(env, "api_token", "ana")
    port = free_port()
    # docs/deploy.md's command: threads, so that a phone's slow download of Pyodide holds a
    # thread, not a worker gunicorn kills at its timeout.
    server = Gunicorn(env, port, TEST_GUNICORN, log=tmp_path / "gunicorn.log")
    server.start()
    base = f"http://127.0.0.1:{port}"
    try:
        status, headers, page = _get(f"{base}/")
        assert status == 200 and b"<html" in page
        assert "script-src" in headers.get("Content-Security-Policy", "")
        assert _get(f"{base}/static/replays/replay.js")[0] == 200
        # A page names its static files by their content; each is sent compressed, kept a year.
        script = re.search(rb'src="(/static/js/site\.[0-9a-f]{12}\.js)"', page)
        assert script, "the page names site.js by its hash"
        status, headers, body = _get(f"{base}{script[1].decode()}", **{"Accept-Encoding": "br"})
        assert status == 200 and headers["Content-Encoding"] == "br"
        cache = headers["Cache-Control"]
        assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache)[1]) >= 31536000
        status, headers, _ = _get(
            f"{base}{script[1].decode()}", **{"Accept-Encoding": "gzip, deflate"}
        )
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        # Pyodide keeps its files' names, in a directory named by their content.
        (pyodide,) = (tmp_path / "static" / "recorder" / "pyodide").iterdir()
        status, headers, _ = _get(
            f"{base}/static/recorder/pyodide/{pyodide.name}/python_stdlib.zip",
            **{"Accept-Encoding": "gzip, deflate, br, zstd"},
        )
        assert status == 200 and headers["Content-Encoding"] == "br"
        assert "immutable" in headers["Cache-Control"]

        upload = urllib.request.Request(
            f"{base}/api/v1/uploads/",
            data=json.dumps(valid_log()).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(upload, timeout=30) as answer:
            assert answer.status == 202
            body = json.loads(answer.read())
            assert answer.headers["Location"].endswith(f"/api/v1/uploads/{body['id']}/")
        status, _, detail = _get(
            f"{base}/api/v1/uploads/{body['id']}/", Authorization=f"Bearer {token}"
        )
        assert status == 200 and json.loads(detail)["status"] == "accepted"
        match_id = json.loads(detail)["items"][0]["match"]
        assert _get(f"{base}/matches/{match_id}/")[0] == 200
        assert _get(f"{base}/api/v1/matches/{match_id}/replay/")[0] == 200
        _answered_before_the_body_is_read(port)
    finally:
        server.stop()


def _answered_before_the_body_is_read(port: int) -> None:
    """Issue 34, item 7: an answer made before the body was read (here a wrong token's 401;
    in an outage, the database's 503) left the rest of the body on gunicorn's socket, which
    drains 64 kB of it at most: past that it closed the connection it had just said it would
    keep, and the client's next request on it got no answer ("Remote end closed connection
    without response"); on a connection of its own the body left unread made a reset, which
    could cut off the answer. The archive now reads the body to its end before answering."""
    body = b"x" * (1024 * 1024)
    headers = {"Authorization": "Bearer not-a-token", "Content-Type": "application/json"}
    kept = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for _ in range(3):
            kept.request("POST", "/api/v1/uploads/", body=body, headers=headers)
            answer = kept.getresponse()
            assert answer.status == 401
            answer.read()
            kept.request("GET", "/api/v1/ping/")  # on the same connection, kept alive
            answer = kept.getresponse()
            assert answer.status == 200 and json.loads(answer.read()) == {"ok": True}
    finally:
        kept.close()
    for _ in range(3):
        fresh = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            fresh.request("POST", "/api/v1/uploads/", body=body, headers=headers)
            answer = fresh.getresponse()
            assert answer.status == 401 and b"error" in answer.read()
        finally:
            fresh.close()
