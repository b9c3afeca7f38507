"""The links to the calendar feeds, for the club's and the league's pages (the player's page,
in ``replays``, asks through ``clubs.hooks.PLAYER_CALENDAR``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from competitions.calendar_views import calendar_link, match_time_form
from competitions.models import Team

register = template.Library()


@register.simple_tag(takes_context=True)
def club_calendar(context, club) -> dict[str, Any] | None:
    path = reverse("competitions:club-calendar", args=[club.slug])
    return calendar_link(context["request"], path, club, "calendar-club")


@register.simple_tag(takes_context=True)
def league_calendar(context, league) -> dict[str, Any] | None:
    path = reverse("competitions:league-calendar", args=[league.pk])
    return calendar_link(context["request"], path, None, "calendar-league")


@register.simple_tag(takes_context=True)
def team_calendar(context, league, team) -> dict[str, Any] | None:
    """The link to a team's feed (``team``: a team as the league page shows it); none for a
    team of a private club the reader is not a member of."""
    if team.hidden:
        return None
    found = _league_teams(context, league).get(team.pk)
    if found is None:
        return None
    path = reverse("competitions:team-calendar", args=[league.pk, found.pk])
    return calendar_link(context["request"], path, found.club, f"calendar-team-{found.pk}")


def _league_teams(context, league) -> dict[int, Team]:
    """The league's teams with their clubs, by id: read once per page, not once per team."""
    key = ("league-teams", league.pk)
    if key not in context.render_context:
        teams = Team.objects.select_related("club").filter(league=league)
        context.render_context[key] = {team.pk: team for team in teams}
    return context.render_context[key]


@register.simple_tag
def league_match_time_form(league):
    """The organiser's form of when the league's fixtures start."""
    return match_time_form(league)
