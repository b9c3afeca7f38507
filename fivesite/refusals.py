"""What nginx refuses itself, said by the archive: a body larger than the archive takes (413)
and too many requests at once from one address (429).

nginx (deploy/nginx-site.conf) answers such a request without passing it on, then asks here
for the words (a GET of ``/proxy/refused/<status>/``, internal to nginx: a client asking for
that address gets nginx's 404) carrying the address first asked for in ``X-Fives-Refused-Uri``,
and sends what this answers with its own status: under ``/api/`` the API's one error shape,
elsewhere the site's page in the reader's language. A 429 says when to come back, in its
``Retry-After`` and its words alike.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# What nginx's 429 asks a client to wait: it counts requests being answered, not a window.
RETRY_AFTER = 1


def refused(request, status: int):
    if status == 413:
        code = "too-large"
        title = _("Too large to take")
        message = _(
            "The request is larger than the archive takes (a document of %(limit)s bytes at "
            "the most). Nothing was stored."
        ) % {"limit": settings.FIVES_UPLOAD_MAX_BYTES}
    elif status == 429:
        code = "throttled"
        title = _("Too many requests at once")
        message = ngettext(
            "Too many requests at once from your address. Try again in %(seconds)d second.",
            "Too many requests at once from your address. Try again in %(seconds)d seconds.",
            RETRY_AFTER,
        ) % {"seconds": RETRY_AFTER}
    else:
        raise Http404
    if request.headers.get("X-Fives-Refused-Uri", "").startswith("/api/"):
        error: dict = {"code": code, "message": message}
        if status == 429:
            error["retry_after"] = RETRY_AFTER
        response = JsonResponse({"error": error}, status=status)
    else:
        context = {"title": title, "message": message}
        response = render(request, "refused.html", context, status=status)
    if status == 429:
        response["Retry-After"] = str(RETRY_AFTER)
    return response
