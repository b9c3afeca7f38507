"""A NUL character in an address or a query is refused before any view sees it.

No name, slug, handle or date of the archive holds one, and PostgreSQL refuses it in any
string it is sent (``ValueError``), which made ``/clubs/%00/`` a 500. One check at the door
answers 400 for all of them: in the API's error shape under ``/api/``, as a page elsewhere.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            message = _("An address may not hold a NUL character (%00).")
            if request.path.startswith("/api/"):
                return JsonResponse({"error": {"code": "invalid", "message": message}}, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
