"""The pages: thin views over the selectors and services."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import selectors, tokens
from .forms import MatchFilterForm, TokenForm, UploadForm
from .models import Club
from .services.uploads import upload_create as upload_store

PAGE_SIZE = 50


def _page(request, queryset):
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))


def match_list(request):
    form = MatchFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    page = _page(request, selectors.match_list(filters=filters))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/match_list.html",
        {"form": form, "page": page, "query": query.urlencode(), "title": _("Matches")},
    )


def club_detail(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    page = _page(request, selectors.match_list(filters={"club": slug}))
    players = club.players.order_by("handle")
    return render(
        request, "games/club_detail.html", {"club": club, "page": page, "players": players}
    )


@login_required
def upload_create(request):
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data, filename, size = form.document()
        upload = upload_store(
            uploader=request.user,
            data=data,
            kind=form.kind(data, filename),
            filename=filename,
            club=form.cleaned_data.get("club"),
            size=size,
        )
        return redirect(upload)
    return render(request, "games/upload_form.html", {"form": form})


def upload_detail(request, pk: int):
    """An upload's status: for its uploader, the admins of its club and staff (404 to anyone
    else, so that ids cannot be walked)."""
    visible = selectors.uploads_visible_to(request.user)
    upload = get_object_or_404(visible.select_related("uploader", "club"), pk=pk)
    items = upload.items.select_related("match").order_by("index")
    return render(
        request,
        "games/upload_detail.html",
        {"upload": upload, "items": items},
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
    minutes = max(1, round(settings.AXES_COOLOFF_TIME * 60))
    message = ngettext(
        "Too many failed sign-ins for this account or from this address. "
        "Try again in %(minutes)d minute.",
        "Too many failed sign-ins for this account or from this address. "
        "Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    return render(
        request,
        "registration/login.html",
        {"form": AuthenticationForm(request), "locked_out": message},
        status=429,
    )
