"""A real receiver of webhooks for the tests: an HTTP server on 127.0.0.1 in a thread that
verifies every delivery with the ``standardwebhooks`` package, as a tool would, and keeps
what came (each webhook-id, its type, its body). It can answer a status of the test's
choosing, and be down (its port closed) and up again on the same port."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook


@dataclass
class Received:
    webhook_id: str
    type: str
    body: dict
    verified: bool
    headers: dict
    raw: bytes = b""


@dataclass
class Receiver:
    """What the server got; ``secrets``: the secrets a delivery may be signed with (any
    one verifying is enough, as during a roll)."""

    secrets: list[str] = field(default_factory=list)
    answer: int = 204
    got: list[Received] = field(default_factory=list)
    port: int = 0
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/fives"

    def verify(self, body: bytes, headers: dict) -> bool:
        for secret in self.secrets:
            try:
                Webhook(secret).verify(body, headers)
                return True
            except Exception:
                continue
        return False

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {key.lower(): value for key, value in self.headers.items()}
                receiver.got.append(
                    Received(
                        webhook_id=headers.get("webhook-id", ""),
                        type=json.loads(body).get("type", ""),
                        body=json.loads(body),
                        verified=receiver.verify(body, headers),
                        headers=headers,
                        raw=body,
                    )
                )
                self.send_response(receiver.answer)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def wait_for(self, count: int, seconds: float = 30) -> list[Received]:
        deadline = time.monotonic() + seconds
        while len(self.got) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.got


def down_port() -> int:
    """A port on 127.0.0.1 nobody listens on (taken, then let go)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
