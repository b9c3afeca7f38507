"""The calendar feeds' addresses (``competitions.calendars`` says what they hold and who
reads them), the reset of a member's secret link, and the links the pages show."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.pages import refusals_said, visible_club
from games.models import Player

from . import calendars
from .calendars import Feed
from .league_permissions import is_organiser
from .models import League, Team


def _answer(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=calendars.CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    response["X-Robots-Tag"] = "noindex"
    return response


def _feed(request, name: str, zone: str | None, opened: Club | None) -> Feed:
    return Feed(
        name=name,
        zone=zone,
        user=request.user,
        opened=opened,
        absolute=request.build_absolute_uri,
    )


def _opened(request, club: Club) -> Club | None:
    """The private club whose feed the request reads (404 when it may not); None for a
    public club."""
    if not calendars.feed_readable(club, request.user, request.GET.get("key")):
        raise Http404
    return club if club.is_private else None


@never_cache
def club_calendar(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    opened = _opened(request, club)
    with translation.override(club.language):
        body = calendars.club_feed(club, _feed(request, club.name, club.time_zone, opened))
    return _answer(body, f"club-{club.pk}")


@never_cache
def league_calendar(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    return _answer(
        calendars.league_feed(league, _feed(request, league.name, None, None)), f"league-{pk}"
    )


@never_cache
def team_calendar(request, pk: int, team: int):
    found = get_object_or_404(Team.objects.select_related("club", "league"), league_id=pk, pk=team)
    club = found.club
    if is_organiser(found.league, request.user):
        opened = club if club.is_private else None
    else:
        opened = _opened(request, club)
    name = f"{found.name} · {found.league.name}"
    with translation.override(club.language):
        body = calendars.team_feed(found, _feed(request, name, club.time_zone, opened))
    return _answer(body, f"team-{found.pk}")


@never_cache
def player_calendar(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    club = player.club
    opened = _opened(request, club)
    with translation.override(club.language):
        body = calendars.player_feed(player, _feed(request, player.handle, club.time_zone, opened))
    return _answer(body, f"player-{player.pk}")


@require_POST
@login_required
@refusals_said
def calendar_key_reset(request, slug: str):
    club = visible_club(request, slug)
    calendars.member_key_reset(club=club, user=request.user)
    messages.success(request, _("Your calendar link is new: the old one no longer works."))
    return redirect(reverse("competitions:club-detail", args=[club.slug]) + "#calendar")


class MatchTimeForm(forms.Form):
    match_time = forms.TimeField(
        label=_lazy("Fixtures start at"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )


@require_POST
@login_required
def league_match_time(request, pk: int):
    league = get_object_or_404(League, pk=pk)
    form = MatchTimeForm(request.POST)
    if form.is_valid():
        calendars.match_time_set(
            actor=request.user, league=league, match_time=form.cleaned_data["match_time"]
        )
        messages.success(request, _("The league's fixtures start at the time given."))
    else:
        messages.error(request, _("Not a time: write one such as 19:30."))
    return redirect(reverse("competitions:league-detail", args=[pk]) + "#calendar-league-link")


def match_time_form(league: League) -> MatchTimeForm:
    return MatchTimeForm(initial={"match_time": league.match_time})


# --- the links the pages show ------------------------------------------------------------


def calendar_link(request, path: str, club: Club | None, name: str) -> dict[str, Any] | None:
    """The link to a feed as the page shows it to this reader: the address (with the
    reader's secret key for a private ``club``), its ``webcal:`` twin that a calendar
    application subscribes to, and whether it is secret; None when the reader has no link
    that would open it (a private club they are not a member of)."""
    key = None
    if club is not None and club.is_private:
        key = calendars.member_key(club=club, user=request.user)
        if key is None and not club.is_visible_to(request.user):
            return None
    url = request.build_absolute_uri(path) + (f"?key={key}" if key else "")
    return {
        "id": name,
        "url": url,
        "webcal": "webcal://" + url.split("://", 1)[1],
        "secret": key is not None,
    }


def player_calendar_link(request, player: Player) -> dict[str, Any] | None:
    """The link to ``player``'s feed, for the player's page (``clubs.hooks.PLAYER_CALENDAR``)."""
    path = reverse("competitions:player-calendar", args=[player.pk])
    return calendar_link(request, path, player.club, "calendar-player")
