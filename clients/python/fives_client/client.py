"""A small typed client of the archive's API v1 (docs/api.md), on httpx.

Every call waits out a ``429 throttled`` for the seconds its ``Retry-After`` says and asks
again; any other error is an ``ArchiveError`` with the API's ``code`` and ``message``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any, cast

import httpx

from .types import PaginatedUploadItemList, Upload, UploadItem

CHUNK = 64 * 1024
USER_AGENT = "fives-client/0.1.0"
NDJSON = "application/x-ndjson"


class ArchiveError(Exception):
    """An answer of the API that is an error: its HTTP status, ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{message} ({code}, HTTP {status})")
        self.status, self.code, self.message = status, code, message


class ExportChanged(Exception):
    """The export, asked for again to resume, no longer holds the lines already written."""


def error_of(response: httpx.Response) -> ArchiveError:
    """Return the error an answer says, in the API's one shape (or its status in words)."""
    try:
        detail = response.json()["error"]
        message = str(detail["message"])
        for name, problems in (detail.get("fields") or {}).items():
            message += f" {name}: {' '.join(str(problem) for problem in problems)}"
        return ArchiveError(response.status_code, str(detail["code"]), message)
    except (ValueError, KeyError, TypeError, AttributeError):
        text = response.reason_phrase or "error"
        return ArchiveError(response.status_code, "http", f"{response.status_code} {text}")


def retry_after(response: httpx.Response) -> float:
    """Return the seconds a ``429`` asks to wait (``Retry-After``, whole seconds)."""
    try:
        return max(0.0, float(response.headers.get("Retry-After", "1")))
    except ValueError:
        return 1.0


class Client:
    """The archive at ``url``, as the holder of ``token`` (none: anonymous reading)."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        language: str | None = None,
    ) -> None:
        headers = {"User-Agent": USER_AGENT}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if language:
            headers["Accept-Language"] = language
        self.url = url.rstrip("/")
        self.sleep = sleep
        self.http = httpx.Client(
            base_url=self.url,
            headers=headers,
            transport=transport,
            timeout=httpx.Timeout(timeout, connect=10.0),
            follow_redirects=True,
        )

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- requests -------------------------------------------------------------------------

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """Send a request, waiting out each ``429`` for its ``Retry-After``; return the
        answer, or raise ``ArchiveError`` for any other error."""
        while True:
            response = self.http.request(method, url, **kwargs)
            if response.status_code == 429:
                self.sleep(retry_after(response))
                continue
            if response.is_error:
                raise error_of(response)
            return response

    def get_json(self, url: str, params: Mapping[str, Any] | None = None) -> Any:
        return self.request("GET", url, params=params).json()

    # --- who you are ----------------------------------------------------------------------

    def check_token(self) -> None:
        """Raise ``ArchiveError`` unless the token is one the archive knows (401 otherwise)."""
        self.get_json("/api/v1/uploads/", {"page_size": 1})

    # --- uploads --------------------------------------------------------------------------

    def upload(
        self,
        data: bytes,
        *,
        ndjson: bool,
        club: str | None = None,
        on_sent: Callable[[int], None] | None = None,
    ) -> Upload:
        """Send one document (a JSON log, or NDJSON logs), calling ``on_sent`` with the
        bytes of each chunk as it goes out; return the upload as answered (``202``)."""
        params = {"club": club} if club else None
        headers = {
            "Content-Type": NDJSON if ndjson else "application/json",
            "Content-Length": str(len(data)),
        }
        while True:
            sent = 0

            def chunks() -> Iterator[bytes]:
                nonlocal sent
                for start in range(0, len(data), CHUNK):
                    chunk = data[start : start + CHUNK]
                    yield chunk
                    sent += len(chunk)
                    if on_sent:
                        on_sent(len(chunk))

            response = self.http.post(
                "/api/v1/uploads/", params=params, headers=headers, content=chunks()
            )
            if response.status_code == 429:
                if on_sent and sent:
                    on_sent(-sent)  # the bytes go again
                self.sleep(retry_after(response))
                continue
            if response.is_error:
                raise error_of(response)
            return cast(Upload, response.json())

    def upload_status(self, upload_id: int) -> Upload:
        return cast(Upload, self.get_json(f"/api/v1/uploads/{upload_id}/"))

    def wait(self, upload_id: int, *, interval: float = 0.25, longest: float = 2.0) -> Upload:
        """Poll the upload until it is processed (any status but ``pending``); return it."""
        while True:
            upload = self.upload_status(upload_id)
            if upload["status"] != "pending":
                return upload
            self.sleep(interval)
            interval = min(longest, interval * 1.5)

    def items(self, upload: Upload) -> Iterator[UploadItem]:
        """Yield the report of every log of an upload, in the document's order."""
        if upload["item_count"] <= len(upload["items"]):
            yield from upload["items"]
            return
        url: str | None = upload["items_url"]
        params: dict[str, int] | None = {"page_size": 200}  # the most a page holds
        while url:
            page = cast(PaginatedUploadItemList, self.get_json(url, params))
            params = None  # the next page's address says it
            yield from page["results"]
            url = page["next"]

    # --- the export -----------------------------------------------------------------------

    def export(
        self,
        out: IO[bytes],
        params: Mapping[str, str],
        *,
        attempts: int = 8,
        on_line: Callable[[], None] | None = None,
    ) -> int:
        """Write the export's NDJSON to ``out``, one complete line at a time; return the
        number of matches written.

        The export streams the matches in the order they were stored. When the connection
        breaks, the export is asked for again with the same filters from the last line
        written (``offset``), which comes again first and must be the same match (its
        ``id``), else ``ExportChanged``: a match deleted or hidden meanwhile would shift the
        rest. Up to ``attempts`` connections in a row may break.
        """
        written = 0
        last_id: object = None
        failures = 0
        while True:
            skip = 1 if written else 0
            asked = dict(params)
            if written:
                asked["offset"] = str(int(params.get("offset", 0)) + written - 1)
                if "limit" in params:
                    asked["limit"] = str(int(params["limit"]) - written + 1)
            try:
                with self.http.stream("GET", "/api/v1/matches/export", params=asked) as answer:
                    if answer.status_code == 429:
                        self.sleep(retry_after(answer))
                        continue
                    if answer.is_error:
                        answer.read()
                        raise error_of(answer)
                    buffered = b""
                    for chunk in answer.iter_bytes():
                        buffered += chunk
                        *lines, buffered = buffered.split(b"\n")
                        for line in lines:
                            if not line.strip():
                                continue
                            if skip:
                                skip -= 1
                                if not skip and match_id(line) != last_id:
                                    raise ExportChanged(changed(written))
                                continue
                            out.write(line + b"\n")
                            written += 1
                            last_id = match_id(line)
                            failures = 0
                            if on_line:
                                on_line()
                    out.flush()
                    if buffered.strip():
                        # Every line of the export ends with a newline: a stream closed
                        # within one was cut short (a server that closes the connection
                        # to end a stream says no more).
                        raise httpx.RemoteProtocolError("the export ended within a line")
                    if skip:
                        raise ExportChanged(changed(written))
                    return written
            except httpx.TransportError:
                failures += 1
                if failures >= attempts:
                    raise
                out.flush()
                self.sleep(min(30.0, 0.5 * 2**failures))


def changed(written: int) -> str:
    return (
        f"the export changed after its first {written} matches were written"
        " (deleted or hidden since): export again"
    )


def match_id(line: bytes) -> object:
    """Return a line's log ``id`` (None where it has none, or is not JSON)."""
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    return doc.get("id") if isinstance(doc, dict) else None
