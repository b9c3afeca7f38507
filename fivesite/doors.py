"""Every door that writes, in one table beside the URL map: the budget it spends, and the one
input boundary its body passes (issue 55).

A write (``POST``, ``PUT``, ``PATCH``, ``DELETE``) reaches a view only through a door named
here (``DOORS``, by URL name) or an exemption with its reason (``EXEMPT``): any other write is
a ``405`` before its view runs, so a new door cannot open unguarded. ``DoorMiddleware`` runs
each door's guards, in this order, before the view:

1. the input boundary (``clubs.inputs``): a JSON body nested too deep, holding a NUL or too
   large is a ``400`` (``413``) with its code, and a form's field holding a NUL a ``400``; a
   match log is not read here (the engine reads it and the archive keeps its report);
2. the door's budget, spent through ``games.ratelimit.budget_spend`` (per person, per address
   for the signed out; per feed address for a calendar feed): past it, ``429`` with
   ``Retry-After`` and the words of when to try again, in the reader's language, as a page,
   as JSON for the recorder's scripts, in the API's error shape under ``/api/``.

The API's doors spend their budget after the REST framework has read the token (its
throttle ``DoorThrottle``), so that a token's person, not its address, pays. A door whose
view answers in its own form spends its budget itself (``by_view``): the uploads (the form
again, the upload's page, the phone's send keeping its match), the sign-up form, the
analysis (a daily quota counted in the database).

The rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, one per kind, each with its
``FIVES_BUDGET_<KIND>`` setting, listed with their reasons in docs/api.md ("Budgets").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import throttling

from clubs.inputs import BodyRefused, form_nul, looks_like_json, request_json
from games.ratelimit import Spent, budget_spend

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Door:
    """A door's guards: ``budget``, the kind it spends; ``by_view``: its view spends it
    (answering in its own words); ``log``: its body is a match log, for the engine to read;
    ``reads``: its reads spend the budget too, counted per address of the door (a calendar
    feed, fetched by calendar services for many people from one address)."""

    budget: str
    by_view: bool = False
    log: bool = False
    reads: bool = False


UPLOAD = Door("upload", by_view=True, log=True)
CREATE, MANAGE, NOTIFY = Door("create"), Door("manage"), Door("notify")
SESSION, PRACTICE, LIVE = Door("session"), Door("practice"), Door("live-step")
ANALYSIS, FEED = Door("analysis", by_view=True), Door("feed", reads=True)

# Every write of the site and the API, by URL name. The kinds:
#   upload    a match log stored (the form, a re-run, the phone's send, the API)
#   signup    an account made (its form counts it, per address)
#   analysis  a match's analysis asked for (a daily quota in the database)
#   create    something new that lasts: a club, a league, a season, an event, an
#             invitation, a token
#   notify    an act that tells another person (an email, an inbox item): a join request, a
#             postponement offered, taken back or accepted, a result submitted, confirmed or
#             disputed, clubs invited to a league, a handle claimed
#   manage    every other change an organiser, an admin or an owner makes
#   session   signing in and out, one's language, one's email and token settings
#   practice  a practice answer, a puzzle's answer
#   board     a position analysed (the analysis board's API: the server's time)
#   live-step the phone's live steps of a match at the table (a new table also spends
#             ``live-table``, recorder.live_views)
#   feed      a calendar feed read (per feed: calendar services fetch for many people)
DOORS: dict[str, Door] = {
    # games: uploads, accounts, clubs' administration
    "games:upload-create": UPLOAD,
    "games:upload-rerun": Door("upload", by_view=True),
    "games:upload-delete": MANAGE,
    "games:signup": Door("signup", by_view=True),
    "games:token-settings": SESSION,
    "games:club-create": CREATE,
    "games:club-settings": MANAGE,
    "games:club-join": NOTIFY,
    "games:club-member-action": MANAGE,
    "games:join-request-decide": NOTIFY,
    "games:invitation-create": CREATE,
    "games:invitation-revoke": MANAGE,
    "games:invitation": MANAGE,
    "games:match-decide": MANAGE,
    "games:club-review": MANAGE,
    "games:claim-decide": NOTIFY,
    "games:player-claim": NOTIFY,
    "games:player-rename": MANAGE,
    "games:player-merge": MANAGE,
    "competitions:club-leave": MANAGE,
    "competitions:club-calendar-reset": MANAGE,
    "competitions:club-calendar": FEED,
    # replays: analysis and practice
    "replays:match-analyse": ANALYSIS,
    "replays:player-practice": PRACTICE,
    "replays:puzzle": PRACTICE,
    # competitions: seasons, events, leagues, fixtures, emails
    "competitions:season-list": CREATE,
    "competitions:season-close": MANAGE,
    "competitions:event-list": CREATE,
    "competitions:event-edit": MANAGE,
    "competitions:event-delete": MANAGE,
    "competitions:league-list": CREATE,
    "competitions:league-detail": NOTIFY,
    "competitions:league-edit": MANAGE,
    "competitions:league-schedule": MANAGE,
    "competitions:league-delete": MANAGE,
    "competitions:league-accept": MANAGE,
    "competitions:league-decline": MANAGE,
    "competitions:league-team": MANAGE,
    "competitions:league-team-edit": MANAGE,
    "competitions:league-team-delete": MANAGE,
    "competitions:league-team-withdraw": MANAGE,
    "competitions:league-team-reinstate": MANAGE,
    "competitions:league-match-time": MANAGE,
    "competitions:fixture-edit": MANAGE,
    "competitions:fixture-reset": MANAGE,
    "competitions:fixture-delete": MANAGE,
    "competitions:fixture-submit": NOTIFY,
    "competitions:fixture-confirm": NOTIFY,
    "competitions:fixture-dispute": NOTIFY,
    "competitions:fixture-resolve": NOTIFY,
    "competitions:fixture-postpone": NOTIFY,
    "competitions:fixture-postpone-accept": NOTIFY,
    "competitions:fixture-postpone-withdraw": NOTIFY,
    "competitions:fixture-concede": NOTIFY,
    "competitions:fixture-walkover": NOTIFY,
    "competitions:email-settings": SESSION,
    "competitions:league-calendar": FEED,
    "competitions:team-calendar": FEED,
    "competitions:player-calendar": FEED,
    # recorder: the phone at the table
    "recorder:send": UPLOAD,
    "recorder:live-steps": LIVE,
    "recorder:live-abandon": LIVE,
    # webhooks: a club's endpoints, their secrets, a delivery sent again
    "webhooks:endpoints": CREATE,
    "webhooks:endpoint-action": MANAGE,
    "webhooks:delivery-resend": MANAGE,
    # the site: signing in and out, the language
    "login": SESSION,
    "logout": SESSION,
    "password_change": SESSION,
    "password_reset": NOTIFY,
    "password_reset_confirm": SESSION,
    "set_language": SESSION,
    # the API
    "v1:upload-list": UPLOAD,
    "v1:upload-rerun": Door("upload", by_view=True),
    "v1:upload-detail": MANAGE,
    "v1:match-analysis": ANALYSIS,
    "v1:analyse": Door("board"),
    "v1:match-approve": MANAGE,
    "v1:match-reject": MANAGE,
    "v1:club-list": CREATE,
    "v1:club-detail": MANAGE,
    "v1:club-seasons": CREATE,
    "v1:club-season-close": MANAGE,
    "v1:club-events": CREATE,
    "v1:club-event": MANAGE,
    "v1:club-member": MANAGE,
    "v1:club-leave": MANAGE,
    "v1:club-transfer": MANAGE,
    "v1:club-invitations": CREATE,
    "v1:club-invitation": MANAGE,
    "v1:club-join-requests": NOTIFY,
    "v1:join-request-accept": NOTIFY,
    "v1:join-request-decline": NOTIFY,
    "v1:claim-confirm": NOTIFY,
    "v1:claim-decline": NOTIFY,
    "v1:invitation-accept": MANAGE,
    "v1:player-claim": NOTIFY,
    "v1:player-rename": MANAGE,
    "v1:player-merge": MANAGE,
    "v1:player-mistake-attempt": PRACTICE,
    "v1:puzzle-attempt": PRACTICE,
    "v1:league-list": CREATE,
    "v1:league-detail": MANAGE,
    "v1:league-clubs": NOTIFY,
    "v1:league-accept": MANAGE,
    "v1:league-decline": MANAGE,
    "v1:league-teams": MANAGE,
    "v1:league-team": MANAGE,
    "v1:league-fixtures": MANAGE,
    "v1:league-schedule": MANAGE,
    "v1:league-fixture": MANAGE,
    "v1:fixture-submit": NOTIFY,
    "v1:fixture-confirm": NOTIFY,
    "v1:fixture-dispute": NOTIFY,
    "v1:fixture-resolve": NOTIFY,
    "v1:fixture-reset": MANAGE,
    "v1:fixture-postpone": NOTIFY,
    "v1:fixture-postpone-accept": NOTIFY,
    "v1:fixture-postpone-withdraw": NOTIFY,
    "v1:fixture-concede": NOTIFY,
    "v1:fixture-walkover": NOTIFY,
    "v1:club-webhooks": CREATE,
    "v1:club-webhook": MANAGE,
    "v1:club-webhook-secret": MANAGE,
    "v1:club-webhook-resend": MANAGE,
    "v1:team-withdraw": MANAGE,
    "v1:team-reinstate": MANAGE,
}

# Writes that spend no budget, each with its reason. Django's admin (``admin:``) is one.
EXEMPT: dict[str, str] = {
    "competitions:unsubscribe": (
        "One-click unsubscribing (RFC 8058) is posted by mail providers' servers for many "
        "people from few addresses; refusing it would go on mailing people who asked us to "
        "stop. It only turns emails off, for the tokens the archive sent."
    ),
    "proxy-refused": (
        "The words of what nginx refused itself, asked by nginx with the refused request's "
        "method; it writes nothing."
    ),
    "first-api": (
        "The first API's addresses answer 308 to the same address under /api/v1/, whose door "
        "spends the budget; it writes nothing."
    ),
}
# Kinds counted elsewhere than the cache's windows, and where.
COUNTED_ELSEWHERE: dict[str, str] = {
    "analysis": "a daily quota counted in the database (replays.analysis, FIVES_ANALYSES_PER_DAY)",
}
EXEMPT_ADMIN = "Django's admin: staff only, every change kept in its own history."


def door_of(name: str | None) -> Door | None:
    return DOORS.get(name or "")


def exemption_of(name: str | None) -> str | None:
    name = name or ""
    return EXEMPT_ADMIN if name.startswith("admin:") else EXEMPT.get(name)


def _speaks_json(request: HttpRequest) -> bool:
    """Whether the asker reads JSON: the API, and the recorder's scripts (which send JSON)."""
    if request.path.startswith("/api/"):
        return True
    accept = request.META.get("HTTP_ACCEPT", "")
    kind = request.META.get("CONTENT_TYPE", "")
    return "json" in kind or ("application/json" in accept and "text/html" not in accept)


def _refused(
    request: HttpRequest, code: str, message: str, status: int, **more: int
) -> HttpResponse:
    """A door's refusal: in the API's error shape under ``/api/``, in the recorder's
    (``{"error", "code"}``) to a script that sends JSON, else as a page."""
    if request.path.startswith("/api/"):
        error = {"code": code, "message": message, **more}
        return JsonResponse({"error": error}, status=status)
    if _speaks_json(request):
        return JsonResponse({"error": message, "code": code, **more}, status=status)
    title = _("Too often") if status == 429 else _("Not taken")
    return render(request, "refused.html", {"title": title, "message": message}, status=status)


def wait_message(seconds: int) -> str:
    """What a person reads past a budget, in their language: the wait in seconds under a
    minute, else in minutes rounded up (an hour's budget spent is "44 minutes", not "2615
    seconds"), as the sign-in page says its own."""
    if seconds < 60:
        return ngettext(
            "You have done this as often as the archive allows for now. Try again in "
            "%(seconds)d second.",
            "You have done this as often as the archive allows for now. Try again in "
            "%(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext(
        "You have done this as often as the archive allows for now. Try again in "
        "%(minutes)d minute.",
        "You have done this as often as the archive allows for now. Try again in "
        "%(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def too_often(request: HttpRequest, spent: Spent) -> HttpResponse:
    """``429`` with ``Retry-After``: the words of when to try again."""
    wait = spent.retry_after
    response = _refused(request, "throttled", wait_message(wait), 429, retry_after=wait)
    response["Retry-After"] = str(wait)
    return response


def boundary(request: HttpRequest) -> HttpResponse | None:
    """The input boundary of a door's body (``clubs.inputs``): the refusal, or None."""
    try:
        if looks_like_json(request):
            request_json(request)
        elif request.META.get("CONTENT_TYPE", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")
        ) and form_nul(request):
            raise BodyRefused("nul-character")
    except BodyRefused as refused:
        return _refused(request, refused.code, refused.message, refused.status)
    except ValueError:
        pass  # not JSON at all: the view says so, in its own words
    return None


def _is_api_view(view_func) -> bool:
    return hasattr(view_func, "cls")  # the REST framework's views: DoorThrottle spends


def _ident(request: HttpRequest, door: Door) -> str | None:
    """Whose budget a request spends: the door's address for a feed, else the person's."""
    return f"door-{request.path}" if door.reads else None


class DoorMiddleware:
    """Every write through its door (the module's words); after the sign-in and CSRF
    middleware, so that a refused forgery spends nothing and the person is known."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        name = match.view_name if match else None
        door = door_of(name)
        if request.method not in WRITES:
            if door is not None and door.reads:
                return self._spend(request, door)
            return None
        if door is None:
            if exemption_of(name) is not None:
                return None
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if not door.log:
            refused = boundary(request)
            if refused is not None:
                return refused
        if door.by_view or _is_api_view(view_func):
            return None
        return self._spend(request, door)

    @staticmethod
    def _spend(request, door: Door) -> HttpResponse | None:
        spent = budget_spend(request, door.budget, ident=_ident(request, door))
        if spent is not None and not spent.allowed:
            return too_often(request, spent)
        return None


class DoorThrottle(throttling.BaseThrottle):
    """An API door's budget, spent once the REST framework knows whose token it is."""

    def allow_request(self, request, view) -> bool:
        if request.method not in WRITES:
            return True
        match = request._request.resolver_match
        door = door_of(match.view_name if match else None)
        if door is None or door.by_view:
            return True
        self.spent = budget_spend(request, door.budget)
        return self.spent is None or self.spent.allowed

    def wait(self) -> int:
        return self.spent.retry_after
