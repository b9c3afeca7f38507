"""The one input boundary of a JSON body: every JSON body the archive reads that is not a
match log (the API's writes, the recorder's send, the phone's live steps) is read here, once,
before any view runs (``fivesite.doors.DoorMiddleware``), and the views read what it kept
(``request_json``).

What it refuses, with a 400 and a code, in the reader's language:

- ``body-too-deep``: arrays and objects nested deeper than ``FIVES_JSON_MAX_DEPTH`` (32: the
  deepest body the archive takes is a live set-up's, five levels). Python's parser recurses
  once a level, so ``[`` × 100,000 was a ``RecursionError`` and a 500.
- ``nul-character``: U+0000 anywhere, as a byte or as a ``\\u0000`` escape, in a key or a
  value. No name, handle, id or text of the archive holds one, and PostgreSQL refuses it in
  any string it is sent (a live set-up's player name with one was a 500).
- ``body-too-large``: more than ``FIVES_JSON_MAX_BYTES`` (4 MiB: a live match's 5,000 steps
  of at most 600 bytes fit in 3).

A match log (``fives/1``, sent to the uploads or the upload form) is not read here: the
engine reads it whatever it holds and says what is wrong in its report (``too-deep``,
``schema``), and the archive keeps the rejected upload with that report.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _

# What a request's body parsed to, kept on the request so that it is parsed once.
_KEPT = "_fives_json"
_NOTHING = object()


class BodyRefused(Exception):
    """A body the boundary refuses: its code, its HTTP status and its words."""

    def __init__(self, code: str, status: int = 400):
        super().__init__(code)
        self.code = code
        self.status = status

    @property
    def message(self) -> str:
        if self.code == "body-too-deep":
            return _(
                "The body is nested deeper than %(depth)d levels of arrays and objects: "
                "nothing was stored."
            ) % {"depth": max_depth()}
        if self.code == "nul-character":
            return _("The body holds a NUL character (U+0000): nothing was stored.")
        return _("The body is larger than %(size)d kB: nothing was stored.") % {
            "size": max_bytes() // 1024
        }


def max_depth() -> int:
    return int(getattr(settings, "FIVES_JSON_MAX_DEPTH", 32))


def max_bytes() -> int:
    return int(getattr(settings, "FIVES_JSON_MAX_BYTES", 4 * 1024 * 1024))


def _checked(value: Any, limit: int) -> None:
    """Raise ``BodyRefused`` for a value nested past ``limit`` or holding a NUL; a walk
    with a stack of its own, so that no depth the parser took can exhaust Python's."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BodyRefused("nul-character")
        elif isinstance(item, dict | list):
            if depth > limit:
                raise BodyRefused("body-too-deep")
            if isinstance(item, dict):
                for key, child in item.items():
                    if "\x00" in key:
                        raise BodyRefused("nul-character")
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


def json_of(data: bytes | str) -> Any:
    """Return the JSON value of ``data``. Raises ``BodyRefused`` for what the boundary
    refuses, ``ValueError`` for what is not JSON at all (each door says that its own way)."""
    if len(data) > max_bytes():
        raise BodyRefused("body-too-large", status=413)
    if (b"\x00" if isinstance(data, bytes) else "\x00") in data:
        raise BodyRefused("nul-character")
    try:
        value = json.loads(data)
    except RecursionError:  # nested past what the parser itself can follow
        raise BodyRefused("body-too-deep") from None
    _checked(value, max_depth())
    return value


def looks_like_json(request) -> bool:
    """Whether a request's body is meant as JSON: said so by its type, or sent with no type
    (a script's ``fetch``, ``curl --data``) and beginning as JSON does."""
    kind = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if kind == "application/json" or kind.endswith("+json"):
        return True
    if kind in ("", "text/plain", "application/octet-stream"):
        return request.body.lstrip()[:1] in (b"{", b"[")
    return False


def request_json(request) -> Any:
    """The JSON value of ``request``'s body, read once through ``json_of`` (kept on the
    request, for the door and the view alike). Raises as ``json_of`` does."""
    request = getattr(request, "_request", request)  # a REST framework request wraps Django's
    kept = getattr(request, _KEPT, _NOTHING)
    if kept is _NOTHING:
        try:
            kept = json_of(request.body)
        except ValueError as error:
            kept = error
        except RawPostDataException:  # a multipart form, read as one already: no JSON
            kept = ValueError("a form, not JSON")
        setattr(request, _KEPT, kept)
    if isinstance(kept, Exception):
        raise kept
    return kept


def form_nul(request) -> bool:
    """Whether a form's fields (not its files: a file is a log, read by the engine) hold a
    NUL. Django's text fields refuse one, but a view reading ``request.POST`` itself would
    hand it on."""
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.POST.lists()
    )
