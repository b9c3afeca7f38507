"""One walk gives it all: a document's report, its parsed log, and what every move did.

``check_document`` reads a document (JSON text or bytes, or a value already parsed) once,
parses it once and walks the match once (``validate.walk_match``), keeping each move's
count and points and each play's best: what ingest stores (the archive's codec packs them).
"""

from __future__ import annotations

from typing import Any

from . import validate
from .log import SchemaError, load_json
from .report import Checked, MoveFacts

__all__ = ["Checked", "MoveFacts", "check_document"]


def check_document(data: bytes | str | Any) -> Checked:
    """Return the report, the log and the per-move facts of one document.

    ``data`` is JSON text (``str``) or bytes, or any other value already decoded from JSON
    (a JSON string value cannot be told from JSON text: pass text as text).
    """
    doc = data
    if isinstance(data, bytes | bytearray | str):
        try:
            doc = load_json(data)
        except SchemaError as exc:
            return Checked(validate.schema_report(exc), None, [])
    return validate.walk_match(doc, trace=True, review=True)
