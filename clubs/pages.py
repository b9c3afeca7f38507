"""What the pages of clubs and of what they do share (``games.club_views``, the pages of
``competitions``): a page of a list, the club as the person may see it, a refusal said as a
message, and a form's use case run with its refusal said on the form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import connection
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .models import Club
from .refusals import ClubRefusal, require_admin

PAGE_SIZE = 50
# Where an action goes back to when nothing says where it came from: the site's first page
# (the match list).
HOME = "/"


@dataclass
class CursorPage:
    """A page of a list read by its position, not counted (issue 39): the rows after (or,
    going back, before) the row a cursor names, in the list's own order. No ``COUNT(*)`` and
    no ``OFFSET``: the 1,000th page costs what the first does, on the index of the order.
    ``next_query`` and ``previous_query`` are the query strings of its neighbours ("" when
    there is none)."""

    object_list: list[Any]
    next_query: str = ""
    previous_query: str = ""

    @property
    def has_next(self) -> bool:
        return bool(self.next_query)

    @property
    def has_previous(self) -> bool:
        return bool(self.previous_query)

    @property
    def has_other_pages(self) -> bool:
        return self.has_next or self.has_previous


CURSOR_SALT = "clubs.pages.cursor"


def page_of(request, queryset: QuerySet, size: int = PAGE_SIZE) -> CursorPage:
    """Return the page of ``queryset`` (ordered, its last field unique: ``-id``) that the
    request's ``?cursor=`` names: the first page without one, or with one that this site did
    not sign (a cursor is the position's values, signed, so none reaches the database
    unchecked)."""
    ordering = [str(field) for field in queryset.query.order_by]
    fields = [field.lstrip("-") for field in ordering]
    back, position = False, None
    try:
        back, position = signing.loads(request.GET.get("cursor", ""), salt=CURSOR_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        back, position = False, None
    rows = queryset
    if position is not None and len(position) == len(fields):
        rows = rows.filter(_beyond(ordering, position, before=back))
        # The same bound on the first field alone, said again: an index on it is then read
        # from the position on (PostgreSQL reads no index range out of the OR above).
        first = ordering[0]
        rows = rows.filter(
            _past(first.lstrip("-"), position[0], less=first.startswith("-") != back, same=True)
        )
    if back:
        rows = rows.reverse()
    found = list(rows[: size + 1])
    more = len(found) > size
    found = found[:size]
    if back:
        found.reverse()
    values = _positions(queryset, fields, found)
    query = request.GET.copy()
    query.pop("page", None)

    def link(after: bool) -> str:
        query["cursor"] = cursor_at(values[-1 if after else 0], back=not after)
        return query.urlencode()

    later = found and (more if not back else True)
    earlier = found and (position is not None) and (more if back else True)
    return CursorPage(
        object_list=found,
        next_query=link(True) if later else "",
        previous_query=link(False) if earlier else "",
    )


def cursor_at(position: list[Any], *, back: bool = False) -> str:
    """Return the cursor of the rows after ``position`` (the values of a row's ordering
    fields, as JSON keeps them; ``back``: the rows before it)."""
    return signing.dumps([back, position], salt=CURSOR_SALT)


def _positions(queryset: QuerySet, fields: list[str], rows: list[Any]) -> list[list[Any]]:
    """Return each row's values of the ordering's fields, as JSON keeps them."""
    if not rows:
        return []
    # Read through the list's own query: an order may name a relation it joined (a player's
    # list orders by their seat, ``games.selectors``).
    shown = queryset.order_by().prefetch_related(None).filter(pk__in=[row.pk for row in rows])
    by_pk = {pk: values for pk, *values in shown.values_list("pk", *fields)}
    return [
        [value.isoformat() if hasattr(value, "isoformat") else value for value in by_pk[row.pk]]
        for row in rows
    ]


def _beyond(ordering: list[str], position: list[Any], *, before: bool) -> Q:
    """Return the rows after ``position`` in ``ordering`` (``before``: the rows before it):
    the first field past its value, or equal and the next past its, and so on."""
    condition = Q()
    for index in range(len(ordering) - 1, -1, -1):
        field = ordering[index].lstrip("-")
        less = ordering[index].startswith("-") != before
        past = _past(field, position[index], less=less)
        if index == len(ordering) - 1:
            condition = past
        else:
            condition = past | (Q(**{field: position[index]}) & condition)
    return condition


def _past(field: str, value: Any, *, less: bool, same: bool = False) -> Q:
    """Return the rows whose ``field`` comes after ``value`` going down (``less``) or up
    (``same``: or equals it), as one comparison an index range is read from.

    A missing value (a match with no play time) sorts as the database puts it: PostgreSQL
    above every value, SQLite below; so on each it comes past a value in one direction."""
    nulls_past = (connection.vendor == "postgresql") != less
    if value is None:
        if nulls_past:
            return Q(**{f"{field}__isnull": True}) if same else Q(pk__in=[])
        return Q() if same else Q(**{f"{field}__isnull": False})
    lookup = ("lte" if less else "gte") if same else ("lt" if less else "gt")
    past = Q(**{f"{field}__{lookup}": value})
    return past | Q(**{f"{field}__isnull": True}) if nulls_past else past


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
