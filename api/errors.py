"""The one shape of every API error."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from django.views.defaults import page_not_found
from rest_framework import exceptions
from rest_framework.views import exception_handler

from clubs.refusals import ClubRefusal
from games.health import database_away
from games.ratelimit import retry_seconds

# Seconds a client is asked to wait when the database is away (a restart, a failover).
RETRY_AFTER = 30


class Conflict(exceptions.APIException):
    """What the rules of clubs do not allow, whoever asks: 409 with the refusal's own code."""

    status_code = 409


class OutOfBounds(exceptions.APIException):
    """A value the rules of clubs bound, out of them (a day: ``clubs.dates``): 400 with the
    refusal's own code."""

    status_code = 400


def api_exception_handler(exc: Exception, context: dict[str, Any]):
    """Answer every error in one shape: ``{"error": {"code", "message", "fields"?}}``."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, ClubRefusal):
        exc = (OutOfBounds if exc.status == 400 else Conflict)(exc.message, exc.code)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        error = {
            "code": "invalid",
            "message": str(_("The request is not valid: see fields.")),
            "fields": response.data if isinstance(response.data, dict) else {"": response.data},
        }
    else:
        detail = getattr(exc, "detail", str(exc))
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        error = {
            "code": codes if isinstance(codes, str) else "error",
            "message": str(detail),
        }
        if isinstance(exc, exceptions.Throttled):
            # One number in the header and the body, said as every 429 of the site says it
            # (the REST framework wrote "%d" of its wait, and none for a wait of 0).
            wait = retry_seconds(exc.wait if exc.wait is not None else 1)
            error["retry_after"] = wait
            response["Retry-After"] = str(wait)
    response.data = {"error": error}
    return response


def not_found(request: HttpRequest, exception: Exception | None = None):
    """Answer an address nothing serves: under ``/api/`` in the API's one error shape (a
    client reads JSON, never a page), elsewhere Django's own page."""
    if request.path.startswith("/api/"):
        error = {"code": "not_found", "message": str(exceptions.NotFound.default_detail)}
        return JsonResponse({"error": error}, status=404)
    return page_not_found(request, exception)


def server_error(request: HttpRequest):
    """Answer an error nothing handled (Django's ``handler500``). The database being away is
    an outage, not a fault: 503 with ``Retry-After``, in the API's error shape under
    ``/api/`` and as a short page elsewhere (rendered without the database). Anything else is
    a 500, in the API's shape under ``/api/``."""
    error = sys.exc_info()[1]
    if database_away(error):
        message = str(
            _("The archive's database cannot be reached just now. Try again in a minute.")
        )
        if request.path.startswith("/api/"):
            response = JsonResponse(
                {"error": {"code": "unavailable", "message": message, "retry_after": RETRY_AFTER}},
                status=503,
            )
        else:
            response = render(request, "503.html", {"message": message}, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if request.path.startswith("/api/"):
        message = str(_("Something went wrong on the archive's side. It has been logged."))
        return JsonResponse({"error": {"code": "server_error", "message": message}}, status=500)
    return defaults.server_error(request)
