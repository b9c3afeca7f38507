"""The webhooks' one extension point: what an event's ``data`` holds, said by the app that
answers for that object (the API, above: its answer's fields), filled in its
``AppConfig.ready()`` as ``clubs.hooks``' are."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from clubs.hooks import Hook


@runtime_checkable
class Payload(Protocol):
    """The ``data`` of an event about an object of ``kind`` ("match", "upload", "analysis",
    "fixture", "live"): ``data(id)``, the fields of the API's answer for the object of
    ``id``, or None when it is gone."""

    kind: str

    def data(self, object_id: int) -> dict[str, Any] | None: ...


PAYLOADS: Hook[Payload] = Hook("webhook_payloads", Payload, many=True, key=lambda p: p.kind)
