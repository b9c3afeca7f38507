"""Gzip for the API's answers only.

Replays of long matches are megabytes of JSON that compress tenfold. Pages are left alone:
an HTML page holds a CSRF token, and compressing secrets next to what a visitor typed opens
the BREACH attack; the API's JSON answers hold no such secret.
"""

from django.middleware.gzip import GZipMiddleware


class ApiGZipMiddleware(GZipMiddleware):
    """Compress the answers under ``/api/`` for clients that accept gzip."""

    def process_response(self, request, response):
        if not request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)
