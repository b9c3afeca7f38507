"""The archive's pages (the match list, uploads, tokens, signing up): thin views over the
selectors and services. A club's admins' page and their decisions are ``club_views``, its
membership and settings pages ``club_admin_views``; the club list and a club's own page are
``competitions.club_views``."""

from __future__ import annotations

import logging
import math
import time
from typing import NamedTuple

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.hooks import HOME_NOTES
from clubs.pages import page_of
from clubs.reads import pin_to_primary, primary_reads

from . import selectors, tokens
from .clients import client_address
from .forms import (
    MatchFilterForm,
    SignInForm,
    SignupForm,
    TokenForm,
    UploadForm,
    UploadStatusForm,
)
from .health import health
from .models import Match, UploadItem
from .ratelimit import budget_spend, retry_seconds, uploads_wait_message, window_hit
from .services.accounts import account_create
from .services.uploads import upload_create as upload_store
from .services.uploads import upload_delete, upload_may_manage, upload_rerun
from .signin import signin_lock_left

logger = logging.getLogger(__name__)


def match_list(request):
    form = MatchFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    page = page_of(request, selectors.match_list(filters=filters, user=request.user))
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("cursor", None)
    others = query.copy()
    others.pop("sort", None)
    context = {
        "form": form,
        "page": page,
        "query": query.urlencode(),
        "title": _("Matches"),
        "filtered": any(value for name, value in filters.items() if name != "sort"),
        "sortable": True,
        "current_sort": filters.get("sort", ""),
        "sort_query": others.urlencode() + "&" if others else "",
        # The unfiltered list is the home page: the apps above say their lines there.
        "home_notes": [] if request.GET else [note(request) for note in HOME_NOTES.fills],
    }
    return render(request, "games/match_list.html", context)


def player_names(request):
    """The handles a person may see that contain what they typed, for the "Player" filter's
    suggestions (a private club's players only to its members)."""
    names = selectors.player_names(text=request.GET.get("q", ""), user=request.user)
    response = JsonResponse({"players": names})
    response["Cache-Control"] = "private, max-age=60"
    return response


def match_download(request, pk: int):
    """The match as a ``fives/1`` file, as stored (table records as recorded)."""
    match = get_object_or_404(Match.objects.visible_to(request.user).with_log(), pk=pk)
    response = HttpResponse(match.log().as_json_text() + "\n", content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.fives.json"'
    return response


@login_required
def my_uploads(request):
    """A person's uploads and their clubs' (for club admins), with status and counts."""
    form = UploadStatusForm(request.GET or None)
    status = form.cleaned_data["status"] if form.is_bound and form.is_valid() else ""
    page = page_of(request, selectors.uploads_of(user=request.user, status=status))
    ids = [upload.pk for upload in page.object_list]
    clubs = selectors.upload_club_names(ids)
    zones = selectors.upload_zone_clubs(ids)
    for upload in page.object_list:
        upload.may_manage = upload_may_manage(upload=upload, user=request.user)
        upload.zone_club = zones[upload.pk]
        upload.club_names = clubs[upload.pk]
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("cursor", None)
    return render(
        request,
        "games/my_uploads.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )


def _managed_upload(request, pk: int):
    upload = get_object_or_404(selectors.uploads_visible_to(request.user), pk=pk)
    if not upload_may_manage(upload=upload, user=request.user):
        raise PermissionDenied(_("Only the uploader or an admin of its club may do this."))
    return upload


@require_POST
@login_required
def upload_delete_view(request, pk: int):
    upload = _managed_upload(request, pk)
    upload_delete(upload_id=upload.pk, actor=request.user)
    messages.success(request, _("The upload and the matches it brought are deleted."))
    return redirect("games:my-uploads")


@require_POST
@login_required
def upload_rerun_view(request, pk: int):
    """Process an upload's rejected logs again: it spends the upload budget, as the API's
    re-run does (``UploadRerun``)."""
    upload = _managed_upload(request, pk)
    spent = budget_spend(request, "upload")
    if spent is not None and not spent.allowed:
        messages.error(request, uploads_wait_message(spent.retry_after))
        response = upload_detail(request, upload.pk, status=429)
        response["Retry-After"] = str(spent.retry_after)
        return response
    upload_rerun(upload_id=upload.pk, actor=request.user)
    return redirect(upload)


@login_required
def upload_create(request):
    form = UploadForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and (refused := _upload_budget_spent(request)):
        return refused
    if request.method == "POST" and form.is_valid():
        data, filename, size = form.document()
        upload = upload_store(
            uploader=request.user,
            data=data,
            kind=form.kind(data, filename),
            filename=filename,
            club=form.cleaned_data.get("club"),
            size=size,
            event=form.cleaned_data.get("event", ""),
        )
        return redirect(upload)
    skipped = selectors.approval_skipped_in(request.user)
    return render(request, "games/upload_form.html", {"form": form, "skipped": skipped})


def _upload_budget_spent(request) -> HttpResponse | None:
    """Count an upload sent with the form against its sender's upload budget, the one every
    way in spends (``games.ratelimit.budget_spend``); past it, the form again with 429 saying
    when to try again, else None."""
    spent = budget_spend(request, "upload")
    if spent is None or spent.allowed:
        return None
    messages.error(request, uploads_wait_message(spent.retry_after))
    form = UploadForm(user=request.user)
    skipped = selectors.approval_skipped_in(request.user)
    response = render(
        request, "games/upload_form.html", {"form": form, "skipped": skipped}, status=429
    )
    response["Retry-After"] = str(spent.retry_after)
    return response


def upload_detail(request, pk: int, status: int = 200):
    """An upload's status: for its uploader, the admins of its club and staff (404 to anyone
    else, so that ids cannot be walked)."""
    # Read from the primary (with a replica: fivesite/db_router.py): a person follows their
    # own upload here, and a lagging replica would answer 404 or "pending" for a done one.
    primary_reads()
    visible = selectors.uploads_visible_to(request.user)
    upload = get_object_or_404(visible.select_related("uploader", "club"), pk=pk)
    if not upload.is_done:
        # A worker stores the matches after the upload's own request, however long it
        # takes; the pin that request set lasts FIVES_REPLICA_PIN_SECONDS. The page asks
        # again every 2 s while pending, and each time the pin starts again: so it still
        # runs past the worker's commit once the page says "done", and the match page and
        # the list the person goes to next read the primary. Once done it is not renewed:
        # what the worker wrote is on the replica well before the pin runs out.
        pin_to_primary(request)
    items = upload.items.select_related("match__club").order_by("index")
    clubs = selectors.upload_clubs(upload=upload)
    return render(
        request,
        "games/upload_detail.html",
        {
            "upload": upload,
            # Its times in the zone of the one club it went to; several or none: the reader's.
            "zone_club": clubs[0] if len(clubs) == 1 else None,
            "skipped": selectors.approval_skipped_for(upload=upload, clubs=clubs),
            "items": items,
            "duplicates": items.filter(status=UploadItem.Status.DUPLICATE).count(),
            "may_manage": upload_may_manage(upload=upload, user=request.user),
        },
        status=status,
    )


@login_required
def token_settings(request):
    """List the user's API tokens; make one (shown once) or revoke one."""
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and "revoke" in request.POST:
        token_id = request.POST["revoke"]
        if token_id.isascii() and token_id.isdigit() and len(token_id) < 19:
            tokens.token_revoke(user=request.user, token_id=int(token_id))
        else:
            messages.error(request, _("No such token to revoke."))
        return redirect("games:token-settings")
    if request.method == "POST" and form.is_valid():
        _token, new_key = tokens.token_create(
            user=request.user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
        )
        form = TokenForm()
    return render(
        request,
        "games/token_settings.html",
        {"form": form, "new_key": new_key, "tokens": request.user.api_tokens.all()},
    )


def signin_locked_out(request, original_response=None, credentials=None):
    """What a locked-out sign-in gets (django-axes calls this, for the site's sign-in page
    and the admin's): the sign-in page again, saying why and for how long, with 429."""
    # The per-address limit (games.signin) says its own wait; axes' lock what is left of its
    # cool-off. One number of seconds, in Retry-After and, in minutes rounded up, the page.
    wait = getattr(request, "fives_signin_wait", None)
    seconds = retry_seconds(wait if wait else signin_lock_left(request, credentials))
    minutes = math.ceil(seconds / 60)
    message = ngettext(
        "Too many failed sign-ins for this account or from this address. "
        "Try again in %(minutes)d minute.",
        "Too many failed sign-ins for this account or from this address. "
        "Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    response = render(
        request,
        "registration/login.html",
        {"form": SignInForm(request), "locked_out": message},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


def signup(request):
    """Make an account and sign in with it; then back to the page that asked (``next``)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = ""
    if request.user.is_authenticated:
        # An address, never a view's name: redirect("abc") looked one up and answered 500.
        return HttpResponseRedirect(target) if target else redirect("games:match-list")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        spent = _signup_spend(request)
        if not spent.allowed:
            minutes = math.ceil(spent.retry_after / 60)
            form.add_error(
                None,
                ngettext(
                    "Too many new accounts from this address. Try again in %(minutes)d minute.",
                    "Too many new accounts from this address. Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            response = render(
                request, "registration/signup.html", {"form": form, "next": target}, status=429
            )
            response["Retry-After"] = str(spent.retry_after)
            return response
        if form.is_valid():
            user = account_create(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome: your account is ready and you are signed in."))
            return HttpResponseRedirect(target) if target else redirect("games:match-list")
    return render(request, "registration/signup.html", {"form": form, "next": target})


class _SignupSpent(NamedTuple):
    allowed: bool
    retry_after: int  # whole seconds (retry_seconds); 0 while allowed


def _signup_spend(request) -> _SignupSpent:
    """Count a try to make an account from the client's address (``FIVES_SIGNUP_RATE``); an
    unreachable cache is counted in the web process, as the API's throttles are."""
    key = f"fives:signup:{client_address(request)}"
    hit = window_hit(key, settings.FIVES_SIGNUP_RATE, time.time())
    allowed = hit.count <= hit.limit
    return _SignupSpent(allowed, 0 if allowed else retry_seconds(hit.retry_after))


def healthz(request):
    """For a load balancer: 200 when the database and the broker answer, else 503 saying
    which part is down (``games.health``). Not throttled, never cached."""
    state = health()
    response = JsonResponse(state, status=200 if state["ok"] else 503)
    response["Cache-Control"] = "no-store"
    if not state["ok"]:
        response["Retry-After"] = "30"
    return response
