"""Gzip for the site's pages and the API's answers, not for static files.

A match page is mostly the replay's JSON and tables: 245 KB of HTML that gzip to 16 KB.
Static files are WhiteNoise's: it sends the compressed copies ``collectstatic`` writes (or
the files as they are), so they are left alone here; anything already encoded too.

Compressing a page that holds a secret next to what a visitor typed opens the BREACH
attack (an attacker who can make the browser ask again and again reads the secret from
the compressed sizes). Pages are compressed all the same, because:

- the one secret on every page, the CSRF token, is masked afresh for each answer
  (Django's ``{% csrf_token %}``), so no two answers carry the same bytes to guess at;
- Django's ``GZipMiddleware`` pads each answer with 0-100 random bytes ("Heal the
  Breach"), which blurs the sizes such an attack measures;
- an API token is shown once, on the answer that creates it, and never again.
"""

from django.conf import settings
from django.middleware.gzip import GZipMiddleware

COMPRESSED_TYPES = ("text/html", "application/json", "application/problem+json")


class SiteGZipMiddleware(GZipMiddleware):
    """Compress HTML pages anywhere and every answer under ``/api/``, for clients that
    accept gzip."""

    def process_response(self, request, response):
        kind = response.get("Content-Type", "").split(";")[0].strip()
        if not (request.path.startswith("/api/") or kind in COMPRESSED_TYPES):
            return response
        if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
            return response
        return super().process_response(request, response)
