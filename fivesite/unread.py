"""A request's body is read to its end before the answer goes out, whatever the answer.

An answer can be made before the body was read: the database away (authentication asks it
first, and the answer is a 503), a refused token, a redirect to HTTPS, a budget spent. The
web server then has the rest of the body on its socket. gunicorn drains at most 64 kB of it
to keep the connection alive and closes the connection past that, after an answer that had
promised to keep it: the client's next request on it got no answer at all, and a body left
in the kernel's buffer when a socket closes is answered with a TCP reset, which can cut off
the answer itself (issue 34: uploads of about 70 kB during a database outage). Here the rest
of the body, up to the largest body any view reads (``fivesite.bodies.body_limit``), is read
and dropped before the answer is handed to the server; the client was sending it anyway, as
it would have for a view that read it. A body larger than that is left unread: it is refused
whatever happens, and the server closes its connection.
"""

from __future__ import annotations

import logging

from django.core.handlers.wsgi import LimitedStream

from .bodies import READ_PIECE, body_limit

logger = logging.getLogger(__name__)


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
    request's body was read to its end."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        drain(request)
        return response
