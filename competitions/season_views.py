"""The pages of a club's seasons: the list (where admins open one), the standings, their
CSV and their printable tables, and closing a season. A private club's seasons are 404 to
outsiders; only the club's owner and admins open and close them."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.pages import form_done
from clubs.presets import preset_name
from clubs.services import ClubRefusal

from .forms import SeasonForm
from .models import Season
from .seasons import season_close, season_open, season_table, table_csv
from .tournaments import tournament_schedule


def _club(request, slug: str) -> Club:
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


def _season(request, slug: str, pk: int) -> Season:
    club = _club(request, slug)
    return get_object_or_404(Season.objects.select_related("club"), club=club, pk=pk)


def season_list(request, slug: str):
    club = _club(request, slug)
    may_manage = club.is_admin(request.user)
    form = SeasonForm(request.POST or None) if may_manage else None
    if request.method == "POST" and not may_manage:
        raise PermissionDenied(_("Only the club's owner and admins may do this."))
    season = form_done(
        request,
        form,
        lambda data: season_open(actor=request.user, club=club, **form.arguments(data)),
    )
    if season is not None:
        return redirect("competitions:season-detail", slug=club.slug, pk=season.pk)
    return render(
        request,
        "competitions/season_list.html",
        {"club": club, "seasons": club.seasons.all(), "form": form, "may_manage": may_manage},
    )


def season_detail(request, slug: str, pk: int):
    season = _season(request, slug, pk)
    return render(
        request,
        "competitions/season_detail.html",
        {
            "club": season.club,
            "season": season,
            "table": season_table(season),
            "presets": [preset_name(preset) for preset in season.presets],
            "events": season.events.all(),
            "may_manage": season.club.is_admin(request.user),
        },
    )


def season_print(request, slug: str, pk: int):
    """The season's tables to print: its standings, then each event's table and schedule,
    each on an A4 page of its own (the print rules of site.css)."""
    season = _season(request, slug, pk)
    events = list(season.events.all())
    return render(
        request,
        "competitions/season_print.html",
        {
            "club": season.club,
            "season": season,
            "table": season_table(season),
            "events": [(event, tournament_schedule(event)) for event in events],
            "printed": date_format(
                timezone.localtime(timezone.now(), ZoneInfo(season.club.time_zone)),
                "SHORT_DATE_FORMAT",
            ),
        },
    )


def season_csv(request, slug: str, pk: int):
    season = _season(request, slug, pk)
    response = HttpResponse(
        table_csv(season_table(season)["rows"]), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="season-{season.pk}.csv"'
    return response


@require_POST
def season_close_view(request, slug: str, pk: int):
    season = _season(request, slug, pk)
    try:
        season_close(actor=request.user, season=season)
    except ClubRefusal as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The season is closed: its table is kept as it stands."))
    return redirect("competitions:season-detail", slug=slug, pk=pk)
