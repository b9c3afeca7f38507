"""One attempt of a delivery, as the Standard Webhooks specification says
(https://www.standardwebhooks.com): the body as kept, ``webhook-id`` (the same through
every attempt), ``webhook-timestamp`` (the attempt's), ``webhook-signature``: ``v1,`` and
the base64 HMAC-SHA256 of ``id.timestamp.body`` under the secret's key, once per secret
that signs now (two while a rolled secret's grace runs), space-separated. The connection
goes to the address checked (``addresses.target_of``); the answer is read to its first
bytes only, within ``FIVES_WEBHOOK_TIMEOUT`` seconds."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import secrets
import socket
import ssl
import time
from dataclasses import dataclass

from django.conf import settings

from .addresses import AddressRefused, Target, target_of

PREFIX = "whsec_"
ANSWER_KEPT = 500  # the answer's first bytes kept in the log


def secret_new() -> str:
    """Return a new signing secret: ``whsec_`` and 24 random bytes in base64."""
    return PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """Return ``v1,<base64 HMAC-SHA256>`` of ``message_id.timestamp.body`` under ``secret``."""
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secrets_now: list[str], message_id: str, timestamp: int, body: bytes) -> dict:
    """Return the headers of an attempt signed with each of ``secrets_now``."""
    signed = " ".join(signature(secret, message_id, timestamp, body) for secret in secrets_now)
    return {
        "content-type": "application/json",
        "user-agent": "fives-archive-webhooks/1",
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signed,
    }


@dataclass(frozen=True, slots=True)
class Answer:
    """What an attempt got: the answer's status (None: no answer) and its first bytes, or
    why there was none."""

    status: int | None
    text: str

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _Pinned(http.client.HTTPConnection):
    """A connection to ``ip`` that says ``host`` (the Host header)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.ip = target.ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self.ip, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """A TLS connection to ``ip``, its certificate checked for ``host``."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.ip = target.ip
        self.context = ssl.create_default_context()

    def connect(self) -> None:
        sock = socket.create_connection((self.ip, self.port), self.timeout)
        self.sock = self.context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, signed: dict) -> Answer:
    """Send one attempt of ``body`` to ``url`` (resolved and checked now); return what came
    back. Never raises for the receiver's sake: a refused address, a failed connection or
    no answer in time is an answer without a status."""
    try:
        target = target_of(url)
    except AddressRefused as refused:
        return Answer(None, f"refused: {refused.message}"[:ANSWER_KEPT])
    timeout = settings.FIVES_WEBHOOK_TIMEOUT
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(target, timeout)
    started = time.monotonic()
    try:
        connection.request("POST", target.path, body=body, headers=signed)
        response = connection.getresponse()
        first = response.read(ANSWER_KEPT) if time.monotonic() - started < timeout else b""
        return Answer(response.status, first.decode("utf-8", "replace"))
    except (OSError, http.client.HTTPException) as error:
        return Answer(None, f"{type(error).__name__}: {error}"[:ANSWER_KEPT])
    finally:
        connection.close()
