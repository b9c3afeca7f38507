"""Live tables' pages and the phone's sends of steps: thin views over ``live``.

The pages follow a match as it is recorded: through the event stream (``live_stream.py``,
an ASGI server's) where the archive has Redis, else by asking ``.../steps/`` again every few
seconds (``make run``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.inputs import request_json
from clubs.models import Club
from games.ratelimit import budget_spend

from . import live, services
from .live_texts import live_tables_wait_message, live_text, too_often
from .models import LiveMatch

# How often a page without the event stream asks again (milliseconds).
POLL_MS = 2000


def _body(request: HttpRequest) -> dict:
    try:
        body = request_json(request)  # the one boundary: the door refused a bad body already
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise live.LiveRefused(_("The steps could not be read."))
    return body


def _new_table_refused(request: HttpRequest, body: dict) -> JsonResponse | None:
    """A new table spends the ``live-table`` budget (a recorder opens a handful an evening;
    300 in 25 s filled a club night's page): past it, 429 with ``Retry-After``, which the
    phone's sender waits out and sends again. A table already open spends nothing. Only a
    send from step 0 can open one (any later start is a gap on a table with none), so the
    other sends, a tap each, ask nothing more of the database."""
    if body.get("from") != 0:
        return None
    if live.live_table_exists(user=request.user, record_id=str(body.get("id", ""))):
        return None
    spent = budget_spend(request, "live-table")
    if spent is None or spent.allowed:
        return None
    return too_often(live_tables_wait_message(spent.retry_after), spent.retry_after)


@require_POST
def live_steps(request: HttpRequest) -> JsonResponse:
    """Take a phone's steps of a match in progress (``live.live_steps_put``):
    ``{"id", "club", "setup", "from", "steps", "user"}``. When the steps end the match, it is
    stored as the phone's save would store it (spending the upload budget as a save does:
    past it, the phone's own save sends it later)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Sign in to save the match.")}, status=401)
    try:
        body = _body(request)
        recorded_by = body.get("user")
        if recorded_by is not None and str(recorded_by) != request.user.get_username():
            return JsonResponse(
                {"error": _("This match was recorded by another account.")}, status=409
            )
        club = next(
            (c for c in services.recorder_clubs(request.user) if c.slug == str(body.get("club"))),
            None,
        )
        if club is None:
            return JsonResponse({"error": _("You are not a member of this club.")}, status=403)
        refused = _new_table_refused(request, body)
        if refused is not None:
            return refused
        put = live.live_steps_put(
            user=request.user,
            club=club,
            record_id=str(body.get("id", "")),
            setup=body.get("setup"),
            start=body.get("from"),
            steps=body.get("steps"),
        )
    except live.LiveGap as gap:
        return JsonResponse({"code": "gap", "count": gap.have}, status=409)
    except live.LiveRefused as refused:
        return JsonResponse({"error": refused.message}, status=refused.status)
    current = put.live
    if put.over and current.finished_at is None:
        spent = budget_spend(request, "upload")
        if spent is None or spent.allowed:
            current = live.live_finish(live_id=current.pk)
    return JsonResponse(
        {
            "count": current.steps,
            "revision": current.revision,
            "url": current.get_absolute_url(),
            "upload": current.upload_id,
        }
    )


@require_POST
def live_abandon(request: HttpRequest) -> JsonResponse:
    """The phone's "Abandon the match": the live match leaves the club night's page."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Sign in to save the match.")}, status=401)
    try:
        record_id = str(_body(request).get("id", ""))
    except live.LiveRefused as refused:
        return JsonResponse({"error": refused.message}, status=400)
    return JsonResponse({"abandoned": live.live_abandon(user=request.user, record_id=record_id)})


def _follow(request: HttpRequest, stream: str) -> dict:
    """How a page follows its changes: the stream's address (``FIVES_LIVE_STREAMS``: with
    Redis and the ASGI server), else by asking again."""
    return {"stream": stream if settings.FIVES_LIVE_STREAMS else None, "poll_ms": POLL_MS}


@require_GET
def club_live(request: HttpRequest, slug: str) -> HttpResponse:
    """A club night's page: every table of the club now playing."""
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    config = {
        "tables": live.club_tables(club),
        # A match waiting for approval opens to the club's admins alone (its uploader reads
        # it from the phone's own list).
        "sees_waiting": club.is_admin(request.user),
        "state": reverse("recorder:club-live-tables", args=[club.slug]),
        **_follow(request, reverse("recorder:club-live-stream", args=[club.slug])),
    }
    return render(
        request,
        "recorder/live_club.html",
        {"club": club, "config": config, "live_text": live_text()},
    )


@require_GET
def club_live_tables(request: HttpRequest, slug: str) -> JsonResponse:
    """The club night's tables, for a page without the stream."""
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    return JsonResponse({"tables": live.club_tables(club)})


def _visible_live(request: HttpRequest, pk: int) -> LiveMatch:
    found = (
        LiveMatch.objects.visible_to(request.user)
        .select_related("club", "match", "upload")
        .filter(pk=pk)
        .first()
    )
    if found is None:
        raise Http404
    return found


@require_GET
def live_match(request: HttpRequest, pk: int) -> HttpResponse:
    """A live match's page: the board and the score chart, following each step."""
    current = _visible_live(request, pk)
    config = {
        "setup": live.setup_public(current.setup),
        "since": live.live_since(current, 0),
        # A stored match waiting for approval opens to its uploader and the club's admins.
        "sees_waiting": current.recorder_id == request.user.pk
        or current.club.is_admin(request.user),
        "state": reverse("recorder:live-steps-since", args=[current.pk]),
        **_follow(request, reverse("recorder:live-stream", args=[current.pk])),
    }
    return render(
        request,
        "recorder/live_match.html",
        {
            "live": current,
            "club": current.club,
            "config": config,
            "live_text": live_text(),
            "sides_title": " – ".join(config["setup"]["sides"]),
        },
    )


@require_GET
def live_steps_since(request: HttpRequest, pk: int) -> JsonResponse:
    """What changed in a live match after revision ``?after=`` (0: all of it)."""
    current = _visible_live(request, pk)
    try:
        after = max(0, int(request.GET.get("after", 0)))
    except ValueError:
        after = 0
    return JsonResponse(live.live_since(current, after))
