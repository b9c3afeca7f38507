"""What the pages of clubs and of what they do share (``games.club_views``, the pages of
``competitions``): a page of a list, the club as the person may see it, a refusal said as a
message, and a form's use case run with its refusal said on the form."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .models import Club
from .refusals import ClubRefusal, require_admin

PAGE_SIZE = 50
# Where an action goes back to when nothing says where it came from: the site's first page
# (the match list).
HOME = "/"


def page_of(request, queryset) -> Page:
    """Return the page of ``queryset`` the request asks for (``?page=``)."""
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))


def visible_club(request, slug: str) -> Club:
    """Return the club of ``slug`` if the person may see it (a private club: 404 to others)."""
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


def admin_club(request, slug: str) -> Club:
    """Return the club of ``slug`` if the person owns or administers it; 404 to whoever
    may not see it, 403 to its other members and to outsiders of a public club."""
    club = visible_club(request, slug)
    require_admin(club=club, user=request.user)
    return club


def refusals_said(view: Callable) -> Callable:
    """Say a ``ClubRefusal`` of a page's action as a message, and go back where it came."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ClubRefusal as refusal:
            messages.error(request, refusal.message)
            return redirect(back(request))

    return wrapper


def action(view: Callable) -> Callable:
    """A page's action (a button's form): POST only, signed in, a ``ClubRefusal`` said as a
    message back where it came from (``refusals_said``)."""
    return require_POST(login_required(refusals_said(view)))


def cleaned_or_refused(form, message: str, code: str) -> dict[str, Any]:
    """Return what a page's action's ``form`` took, or refuse it: a ``ClubRefusal`` that
    says ``message`` (said as a message back where it came, ``refusals_said``)."""
    if not form.is_valid():
        raise ClubRefusal(message, code)
    return form.cleaned_data


def back(request) -> str:
    """Return the page an action came from (one of the site's own), else the first page."""
    target = request.POST.get("next", "")
    if target.startswith("/") and not target.startswith("//") and len(target) < 500:
        return target
    # A form without ``next`` (the manage page's) goes back to the page it was sent from.
    came_from = request.headers.get("Referer", "")
    if len(came_from) < 500 and url_has_allowed_host_and_scheme(
        came_from, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return came_from
    return HOME


def form_done[T](request, form, act: Callable[[dict[str, Any]], T]) -> T | None:
    """Return what ``act`` (a service called with the form's cleaned data) returns once a
    POST fills ``form`` validly; None otherwise, or when the service refuses, its refusal
    said on the form as an error of the whole of it."""
    if request.method != "POST" or form is None or not form.is_valid():
        return None
    try:
        return act(form.cleaned_data)
    except ClubRefusal as refusal:
        form.add_error(None, refusal.message)
        return None
