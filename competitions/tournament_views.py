"""The pages of a club's events: the list (where admins make one), an event's schedule with
its results, its CSV, and changing or deleting it. A private club's events are 404 to
outsiders; only the club's owner and admins make, change and delete them (the services say
so too)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.ids import id_of
from clubs.models import Club
from clubs.pages import form_done

from .forms import TournamentForm
from .models import Tournament
from .tournaments import (
    schedule_csv,
    tournament_change,
    tournament_delete,
    tournament_make,
    tournament_schedule,
    tournament_values,
)


def _club(request, slug: str) -> Club:
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


def _tournament(request, slug: str, pk: int) -> Tournament:
    club = _club(request, slug)
    return get_object_or_404(
        Tournament.objects.select_related("season__club"), season__club=club, pk=pk
    )


def _admin_only(club: Club, user) -> None:
    if not club.is_admin(user):
        raise PermissionDenied(_("Only the club's owner and admins may do this."))


def tournament_list(request, slug: str):
    club = _club(request, slug)
    may_manage = club.is_admin(request.user)
    form = None
    if may_manage:
        initial = {"season": request.GET.get("season", "")[:12]}
        season = club.seasons.filter(closed_at__isnull=True).filter(pk=id_of(initial["season"]))
        if season:
            initial |= {"first_day": season[0].first_day, "last_day": season[0].first_day}
        form = TournamentForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST":
        _admin_only(club, request.user)
    event = form_done(
        request,
        form,
        lambda data: tournament_make(
            actor=request.user,
            season=data["season"],
            kind=data["kind"],
            **_arguments(form, data["kind"]),
        ),
    )
    if event is not None:
        return redirect("competitions:event-detail", slug=club.slug, pk=event.pk)
    events = Tournament.objects.filter(season__club=club).select_related("season")
    return render(
        request,
        "competitions/event_list.html",
        {"club": club, "events": events, "form": form, "may_manage": may_manage},
    )


def _arguments(form: TournamentForm, kind: str) -> dict:
    """What the service takes of the page's form: a cup's legs are one (the page hides the
    choice of legs for a cup, and sends it all the same)."""
    given = form.arguments(form.cleaned_data)
    return given | {"legs": given["legs"] if kind == Tournament.Kind.ROUND_ROBIN else 1}


def tournament_detail(request, slug: str, pk: int):
    event = _tournament(request, slug, pk)
    return render(
        request,
        "competitions/event_detail.html",
        {
            "club": event.season.club,
            "event": event,
            "schedule": tournament_schedule(event),
            "may_manage": event.season.club.is_admin(request.user),
        },
    )


def tournament_edit(request, slug: str, pk: int):
    event = _tournament(request, slug, pk)
    club = event.season.club
    _admin_only(club, request.user)
    initial = tournament_values(event)
    form = TournamentForm(request.POST or None, club=club, changing=True, initial=initial)
    if form_done(
        request,
        form,
        lambda data: tournament_change(
            actor=request.user, event=event, **_arguments(form, event.kind)
        ),
    ):
        messages.success(request, _("The event is changed."))
        return redirect("competitions:event-detail", slug=slug, pk=pk)
    return render(
        request, "competitions/event_edit.html", {"club": club, "event": event, "form": form}
    )


@require_POST
def tournament_delete_view(request, slug: str, pk: int):
    event = _tournament(request, slug, pk)
    if not request.POST.get("sure"):  # the box the form asks to tick (a page's guard only)
        _admin_only(event.season.club, request.user)
        messages.error(request, _("Tick the box to delete it."))
        return redirect("competitions:event-edit", slug=slug, pk=pk)
    tournament_delete(actor=request.user, event=event)
    messages.success(request, _("The event is deleted; its matches stay in the archive."))
    return redirect("competitions:event-list", slug=slug)


def tournament_csv(request, slug: str, pk: int):
    event = _tournament(request, slug, pk)
    response = HttpResponse(
        schedule_csv(tournament_schedule(event)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.csv"'
    return response
