"""What a club's match may count for, offered to its uploader (``games.event_names``): the
club's events around the day (each by its name, a cup's ties to play by round) and the legs
of its league fixtures to play around the day, each named as a log's ``event`` names it
(docs/format.md, "The event a match counts for")."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.hooks import EventName
from clubs.models import Club

from .models import Fixture, League, Tournament
from .tournaments import tournament_schedule

# Offered from a week before an event's or fixture's days to a week after: a club night
# recorded at the table, or uploaded from paper a few days later.
AROUND = timedelta(days=7)


def leg_name(league: str, home: str, away: str, number: int) -> str:
    """Return how a log's ``event`` names leg ``number`` of a league fixture."""
    return f"{league}, {home} v {away}, leg {number}"


def tournament_names(club: Club, user: Any, today: date) -> list[EventName]:
    """The club's events of open seasons around ``today``: each by its name, and a cup's
    ties to play by their round, with their players."""
    events = Tournament.objects.filter(
        season__club=club,
        season__closed_at__isnull=True,
        first_day__lte=today + AROUND,
        last_day__gte=today - AROUND,
    ).order_by("first_day", "name")
    names = []
    for event in events.select_related("season__club"):
        names.append(EventName(event.name, event.name))
        if event.kind != Tournament.Kind.KNOCKOUT:
            continue
        for round_ in tournament_schedule(event)["rounds"]:
            for tie in round_["fixtures"]:
                if tie["state"] == "to-play":
                    words = {"event": event.name, "round": round_["number"]}
                    words |= {"a": tie["a_name"], "b": tie["b_name"]}
                    label = _("%(event)s, round %(round)s: %(a)s v %(b)s") % words
                    names.append(EventName(f"{event.name}, round {round_['number']}", label))
    return names


def league_leg_names(club: Club, user: Any, today: date) -> list[EventName]:
    """The legs of the club's league fixtures to play around ``today``, where the person
    may see both teams' clubs."""
    visible = set(Club.objects.visible_to(user).values_list("pk", flat=True))
    fixtures = (
        Fixture.objects.filter(
            Q(home__club=club) | Q(away__club=club),
            status=Fixture.Status.TO_PLAY,
            day__gte=today - AROUND,
            day__lte=today + AROUND,
        )
        .select_related("league", "home", "away")
        .order_by("day", "id")
    )
    names = []
    for fixture in fixtures:
        if not {fixture.home.club_id, fixture.away.club_id} <= visible:
            continue
        league, home, away = fixture.league.name, fixture.home.name, fixture.away.name
        for number, kind in enumerate(fixture.league.legs, start=1):
            # The value is the log's own (English) name; the label says it in the reader's
            # words, the day as the reader's language writes it.
            label = _("%(league)s: %(home)s – %(away)s, leg %(number)s (%(kind)s, %(day)s)") % {
                "league": league,
                "home": home,
                "away": away,
                "number": number,
                "kind": League.LegKind(kind).label,
                "day": date_format(fixture.day, "SHORT_DATE_FORMAT"),
            }
            names.append(EventName(leg_name(league, home, away, number), label))
    return names
