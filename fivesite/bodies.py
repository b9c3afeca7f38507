"""A request's body is read to its end: one sent in chunks before any view sees it
(``ChunkedBodyMiddleware``), and what no view read before the answer goes out
(``UnreadBodyMiddleware``).

A body is a body, however it is sent: one sent with ``Transfer-Encoding: chunked`` is read
to its end before any view sees it.

Django reads a request's body as ``CONTENT_LENGTH`` bytes of ``wsgi.input``, and a chunked
body has no length: the API, the upload form and the recorder's send read nothing, and an
upload was stored as "The document is empty" (curl with that header, and Python's
``requests`` sending a generator, do exactly that). gunicorn decodes the chunks and marks its
``wsgi.input`` as readable to the end (``wsgi.input_terminated``, as mod_wsgi and uWSGI do);
nginx in front reads a chunked body whole and passes it on with a length. Here such a body is
read up to the largest size any view takes, plus one byte (a body past the limit is then
refused by the view, exactly as one that gave its length), and handed on with its length.

A server that gives no way to read a chunked body to its end (Django's own ``runserver``,
which reads ``CONTENT_LENGTH`` bytes only) gets a 400 saying to send the length: never a 202
for what was not kept.
"""

from __future__ import annotations

import io
import logging

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

READ_PIECE = 64 * 1024

logger = logging.getLogger(__name__)


def body_limit() -> int:
    """The largest body any view reads: the API's upload limit, the forms' (the form's file
    is the upload limit, plus the form's other fields)."""
    return max(settings.FIVES_UPLOAD_MAX_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def read_to_end(stream, limit: int) -> bytes:
    """Read ``stream`` to its end, or to ``limit`` bytes: what is past that is never read."""
    pieces: list[bytes] = []
    size = 0
    while size < limit:
        piece = stream.read(min(READ_PIECE, limit - size))
        if not piece:
            break
        pieces.append(piece)
        size += len(piece)
    return b"".join(pieces)


def is_chunked(meta) -> bool:
    encodings = meta.get("HTTP_TRANSFER_ENCODING", "").lower()
    return "chunked" in encodings and not meta.get("CONTENT_LENGTH")


class ChunkedBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_chunked(request.META):
            if not request.META.get("wsgi.input_terminated"):
                return self.unreadable(request)
            # One byte past the limit, so that a view sees the body is too large.
            data = read_to_end(request.META["wsgi.input"], body_limit() + 1)
            request._stream = LimitedStream(io.BytesIO(data), len(data))
            request.META["CONTENT_LENGTH"] = str(len(data))
        return self.get_response(request)

    @staticmethod
    def unreadable(request):
        message = _(
            "This server cannot read a body sent in chunks (Transfer-Encoding: chunked): "
            "send it with a Content-Length. Nothing was stored."
        )
        if request.path.startswith("/api/"):
            error = {"code": "body-unreadable", "message": message}
            return JsonResponse({"error": error}, status=400)
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def unread_length(request) -> int:
    """How many bytes of the body nothing has read yet (0 when it was read whole)."""
    if hasattr(request, "_body"):  # request.body: read whole, and kept
        return 0
    stream = getattr(request, "_stream", None)
    if not isinstance(stream, LimitedStream):
        return 0
    return max(0, stream.limit - stream._pos)


def drain(request) -> int:
    """Read and drop what is left of the body, up to the body limit; return how much."""
    left = unread_length(request)
    if not left or left > body_limit():
        return 0
    read = 0
    try:
        while read < left:
            piece = request._stream.read(min(READ_PIECE, left - read))
            if not piece:
                break
            read += len(piece)
    except Exception as error:  # the client went away mid-body: nothing left to answer
        logger.info("a request's body ended early: %s", error)
    return read


class UnreadBodyMiddleware:
    """The outermost middleware: every answer, the error handlers' too, goes out after the
    request's body was read to its end.

    An answer can be made before the body was read: the database away (authentication asks it
    first, and the answer is a 503), a refused token, a redirect to HTTPS, a budget spent. The
    web server then has the rest of the body on its socket. gunicorn drains at most 64 kB of it
    to keep the connection alive and closes the connection past that, after an answer that had
    promised to keep it: the client's next request on it got no answer at all, and a body left
    in the kernel's buffer when a socket closes is answered with a TCP reset, which can cut off
    the answer itself (issue 34: uploads of about 70 kB during a database outage). Here the rest
    of the body, up to the largest body any view reads (``body_limit``), is read and
    dropped before the answer is handed to the server; the client was sending it anyway, as
    it would have for a view that read it. A body larger than that is left unread: it is refused
    whatever happens, and the server closes its connection.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        drain(request)
        return response
