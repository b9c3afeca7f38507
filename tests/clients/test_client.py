"""The client's own behaviour, against an archive played by httpx's MockTransport: the export
resumes after a broken connection without a line lost or written twice, a throttled call
waits for its ``Retry-After``, and the config file is the user's alone."""

from __future__ import annotations

import io
import json
import stat

import httpx
import pytest
from fives_client import config
from fives_client.client import Client, ExportChanged

LINES = [json.dumps({"format": "fives/1", "id": f"m-{n}"}).encode() + b"\n" for n in range(6)]
EXPORT = b"".join(LINES)


def cut_after(data: bytes, size: int, *, clean: bool = False):
    """A body that sends ``size`` bytes of ``data``, then breaks (or just ends)."""

    def body():
        yield data[:size]
        if not clean:
            raise httpx.ReadError("connection reset by peer")

    return body()


def archive(*bodies, seen: list[httpx.Request]):
    """A transport answering each export request with the next of ``bodies``."""
    answers = iter(bodies)

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = next(answers)
        if isinstance(body, httpx.Response):
            return body
        if isinstance(body, bytes):  # as the archive does: from ``offset``, ``limit`` lines
            lines = body.splitlines(keepends=True)
            start = int(request.url.params.get("offset", 0))
            limit = request.url.params.get("limit")
            body = b"".join(lines[start : None if limit is None else start + int(limit)])
        return httpx.Response(200, headers={"Content-Type": "application/x-ndjson"}, content=body)

    return httpx.MockTransport(handle)


def client_of(transport, waits: list[float]) -> Client:
    return Client("http://archive", "fives_x", transport=transport, sleep=waits.append)


@pytest.mark.parametrize("clean", [False, True], ids=["reset", "closed"])
def test_the_export_resumes_after_the_last_complete_line(clean):
    seen: list[httpx.Request] = []
    waits: list[float] = []
    middle = len(LINES[0]) * 2 + 10  # two lines and part of a third
    transport = archive(cut_after(EXPORT, middle, clean=clean), EXPORT, seen=seen)
    out = io.BytesIO()
    count = client_of(transport, waits).export(out, {"club": "c", "date_from": "2026-01-01"})
    assert out.getvalue() == EXPORT and count == len(LINES)
    assert len(seen) == 2 and len(waits) == 1
    # Asked again from the last line written (the second), not from the start.
    assert dict(seen[0].url.params) == {"club": "c", "date_from": "2026-01-01"}
    assert dict(seen[1].url.params) == {"club": "c", "date_from": "2026-01-01", "offset": "1"}


def test_a_resumed_export_keeps_to_its_limit():
    seen: list[httpx.Request] = []
    transport = archive(cut_after(EXPORT, len(LINES[0]) * 3 + 5), EXPORT, seen=seen)
    out = io.BytesIO()
    count = client_of(transport, []).export(out, {"club": "c", "limit": "5"})
    assert out.getvalue() == b"".join(LINES[:5]) and count == 5
    assert dict(seen[1].url.params) == {"club": "c", "limit": "3", "offset": "2"}


def test_a_resumed_export_that_changed_under_it_says_so():
    seen: list[httpx.Request] = []
    changed = b"".join([LINES[0], LINES[2], *LINES[3:]])  # the second match deleted meanwhile
    transport = archive(cut_after(EXPORT, len(LINES[0]) * 2 + 3), changed, seen=seen)
    out = io.BytesIO()
    with pytest.raises(ExportChanged):
        client_of(transport, []).export(out, {"club": "c"})
    assert out.getvalue() == b"".join(LINES[:2])  # what was written stays whole


def test_a_throttled_call_waits_for_its_retry_after():
    seen: list[httpx.Request] = []
    waits: list[float] = []
    throttled = httpx.Response(
        429,
        headers={"Retry-After": "3"},
        json={"error": {"code": "throttled", "message": "Wait.", "retry_after": 3}},
    )
    upload = {"id": 7, "status": "accepted", "items": [], "item_count": 0}
    transport = archive(throttled, httpx.Response(200, json=upload), seen=seen)
    assert client_of(transport, waits).wait(7)["status"] == "accepted"
    assert waits == [3.0]
    assert [r.url.path for r in seen] == ["/api/v1/uploads/7/"] * 2


def test_the_config_file_is_the_users_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("FIVES_TOKEN", raising=False)
    monkeypatch.delenv("FIVES_URL", raising=False)
    path = config.save(config.Settings(url="http://archive", token='fives_a"b'))
    assert path == tmp_path / "fives" / "config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert config.resolve(None) == config.Settings(url="http://archive", token='fives_a"b')
    monkeypatch.setenv("FIVES_TOKEN", "fives_env")
    assert config.resolve("http://other").token == "fives_env"
    assert config.resolve("http://other").url == "http://other"
