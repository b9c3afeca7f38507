"""One walk gives it all: a document's report, its parsed log, and what every move did.

``check_document`` reads a document (JSON text or bytes, or a value already parsed) once,
and walks the match once (``validate.walk_match``): the fast lane parses the log as it walks
it, else the log is parsed once and walked by the careful validator; either keeps each
move's count and points and each play's best.
"""

from __future__ import annotations

from typing import Any

from . import validate
from .log import SchemaError, load_json
from .report import Checked, MoveFacts

__all__ = ["Checked", "MoveFacts", "check_document"]


def check_document(data: bytes | str | Any, *, pack: bool = False) -> Checked:
    """Return the report, the log and the per-move facts of one document.

    ``data`` is JSON text (``str``) or bytes, or any other value already decoded from JSON
    (a JSON string value cannot be told from JSON text: pass text as text). With ``pack``,
    a log the fast lane takes comes back packed instead (``Checked.packed``: its hands,
    their figures and its canonical text; ``log`` its header alone), as ingest stores it.
    """
    doc = data
    if isinstance(data, bytes | bytearray | str):
        try:
            doc = load_json(data)
        except SchemaError as exc:
            return Checked(validate.schema_report(exc), None, [])
    return validate.walk_match(doc, trace=True, review=True, parse=True, pack=pack)
