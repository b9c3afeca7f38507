"""A club's webhooks pages, for its owner and admins (issue 59, item 1): the endpoints, a new
one (its secret said once, on the page that answers), and each endpoint's delivery log with
"send again". Thin: the services decide."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.pages import action, admin_club, form_done, page_of

from . import services
from .events import EVENTS
from .forms import EndpointForm, EventsForm
from .models import Delivery, Endpoint
from .tasks import deliveries_prompt


def _endpoint(club: Club, pk: int) -> Endpoint:
    return get_object_or_404(Endpoint.objects.select_related("club"), club=club, pk=pk)


@login_required
def endpoints(request, slug: str):
    """The club's endpoints, and a new one registered (its secret shown once, here)."""
    club = admin_club(request, slug)
    form = EndpointForm(request.POST or None)
    made = form_done(
        request,
        form,
        lambda data: services.endpoint_create(actor=request.user, club=club, **data),
    )
    if made is not None:
        form = EndpointForm()
    context = {
        "club": club,
        "form": form,
        "made": made,
        "endpoints": services.endpoints_of(club=club),
        "events": EVENTS,
    }
    return render(request, "webhooks/endpoints.html", context)


def _page(request, club: Club, endpoint: Endpoint, rolled: bool = False):
    page = page_of(request, services.deliveries_of(endpoint=endpoint))
    context = {
        "club": club,
        "endpoint": endpoint,
        "page": page,
        "rolled": rolled,
        "events_form": EventsForm(initial={"events": endpoint.events}),
    }
    return render(request, "webhooks/endpoint.html", context)


@login_required
def endpoint(request, slug: str, pk: int):
    """An endpoint, its events, and its delivery log, newest first."""
    club = admin_club(request, slug)
    return _page(request, club, _endpoint(club, pk))


@action
def endpoint_action(request, slug: str, pk: int):
    """Change an endpoint: its events, on or off, a new secret (said once), or delete it."""
    club = admin_club(request, slug)
    found = _endpoint(club, pk)
    what = request.POST.get("action")
    if what == "delete":
        services.endpoint_delete(actor=request.user, endpoint=found)
        messages.success(request, _("The endpoint is deleted."))
        return redirect("webhooks:endpoints", club.slug)
    if what == "roll":
        rolled = services.secret_roll(actor=request.user, endpoint=found)
        return _page(request, club, rolled, rolled=True)
    if what in ("on", "off"):
        services.endpoint_change(actor=request.user, endpoint=found, active=what == "on")
    elif what == "events":
        form = EventsForm(request.POST)
        chosen = form.cleaned_data["events"] if form.is_valid() else []
        services.endpoint_change(actor=request.user, endpoint=found, events=chosen)
    messages.success(request, _("The endpoint is saved."))
    return redirect("webhooks:endpoint", club.slug, found.pk)


@action
def delivery_resend(request, slug: str, pk: int, delivery: int):
    """Send a delivery again, with its id."""
    club = admin_club(request, slug)
    found = get_object_or_404(
        Delivery.objects.select_related("endpoint__club"),
        endpoint=_endpoint(club, pk),
        pk=delivery,
    )
    services.delivery_resend(actor=request.user, delivery=found)
    deliveries_prompt([found.pk])
    messages.success(request, _("The delivery is sent again."))
    return redirect("webhooks:endpoint", club.slug, pk)
