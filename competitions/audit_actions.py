"""The actions of events and team leagues in a club's audit trail (``clubs.audit``), each
with its name and its words: an entry names the event, league, team and fixture as they were
called then (each may be renamed or gone since). Filled into the trail when competitions is
ready (``CompetitionsConfig.ready``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.audit import Actions
from clubs.dates import shown_day

LEAGUE_KEYS = ("league", "team", "fixture", "day")


def _event(words: Callable[[], str]) -> Callable[[dict[str, Any], str], str | None]:
    """Return the words of an event's entry, said when it names the event."""

    def said(detail: dict[str, Any], person: str) -> str | None:
        event = str(detail.get("event") or "")
        return words() % {"event": event} if event else None

    return said


def _league(words: Callable[[], str]) -> Callable[[dict[str, Any], str], str | None]:
    """Return the words of a league's entry, said when it has every detail they name."""

    def said(detail: dict[str, Any], person: str) -> str | None:
        text = words()
        values = {key: str(detail.get(key) or "") for key in LEAGUE_KEYS}
        if any(not values[key] for key in LEAGUE_KEYS if f"%({key})s" in text):
            return None
        # The day is kept as written then (ISO) and read in the reader's language's form.
        return text % {**values, "day": shown_day(values["day"])}

    return said


# Filled into the trail (clubs.hooks.AUDIT_ACTIONS) in the app's ready(), in this order.
ACTIONS = Actions()
EVENT_CREATED = ACTIONS.add(
    "event-created",
    gettext_lazy("made an event"),
    _event(lambda: _("made the event “%(event)s”")),
)
EVENT_CHANGED = ACTIONS.add(
    "event-changed",
    gettext_lazy("changed an event"),
    _event(lambda: _("changed the event “%(event)s”")),
)
EVENT_DELETED = ACTIONS.add(
    "event-deleted",
    gettext_lazy("deleted an event"),
    _event(lambda: _("deleted the event “%(event)s”")),
)
LEAGUE_INVITED = ACTIONS.add(
    "league-invited",
    gettext_lazy("invited the club to a league"),
    _league(lambda: _("invited the club to the league “%(league)s”")),
)
LEAGUE_JOINED = ACTIONS.add(
    "league-joined",
    gettext_lazy("accepted a league's invitation"),
    _league(lambda: _("accepted the invitation to the league “%(league)s”")),
)
LEAGUE_CHANGED = ACTIONS.add(
    "league-changed",
    gettext_lazy("changed a league"),
    _league(lambda: _("changed the league “%(league)s”")),
)
LEAGUE_DELETED = ACTIONS.add(
    "league-deleted",
    gettext_lazy("deleted a league"),
    _league(lambda: _("deleted the league “%(league)s”")),
)
TEAM_CREATED = ACTIONS.add(
    "team-created",
    gettext_lazy("made a league team"),
    _league(lambda: _("made the team “%(team)s” of the league “%(league)s”")),
)
TEAM_CHANGED = ACTIONS.add(
    "team-changed",
    gettext_lazy("changed a league team"),
    _league(lambda: _("changed the team “%(team)s” of the league “%(league)s”")),
)
TEAM_DELETED = ACTIONS.add(
    "team-deleted",
    gettext_lazy("deleted a league team"),
    _league(lambda: _("deleted the team “%(team)s” of the league “%(league)s”")),
)
FIXTURE_CREATED = ACTIONS.add(
    "fixture-created",
    gettext_lazy("made a league fixture"),
    _league(lambda: _("made the fixture %(fixture)s on %(day)s in the league “%(league)s”")),
)
FIXTURE_CHANGED = ACTIONS.add(
    "fixture-changed",
    gettext_lazy("changed a league fixture"),
    _league(lambda: _("changed the fixture %(fixture)s on %(day)s in the league “%(league)s”")),
)
FIXTURE_RESET = ACTIONS.add(
    "fixture-reset",
    gettext_lazy("reset a league fixture"),
    _league(
        lambda: _(
            "reset the fixture %(fixture)s on %(day)s in the league “%(league)s” "
            "(its legs forgotten)"
        )
    ),
)
FIXTURE_DELETED = ACTIONS.add(
    "fixture-deleted",
    gettext_lazy("deleted a league fixture"),
    _league(lambda: _("deleted the fixture %(fixture)s on %(day)s in the league “%(league)s”")),
)
# Registered after the actions written before (issue 36): the order of the others stays.
LEAGUE_DECLINED = ACTIONS.add(
    "league-declined",
    gettext_lazy("declined a league's invitation"),
    _league(lambda: _("declined the invitation to the league “%(league)s”")),
)
# League formats (issue 36): conceded fixtures, walkovers and withdrawn teams.
FIXTURE_CONCEDED = ACTIONS.add(
    "fixture-conceded",
    gettext_lazy("conceded a league fixture"),
    _league(
        lambda: _(
            "recorded the fixture %(fixture)s on %(day)s in the league “%(league)s” as "
            "conceded by %(team)s"
        )
    ),
)
TEAM_WITHDRAWN = ACTIONS.add(
    "team-withdrawn",
    gettext_lazy("withdrew a league team"),
    _league(lambda: _("withdrew the team %(team)s from the league “%(league)s”")),
)
TEAM_REINSTATED = ACTIONS.add(
    "team-reinstated",
    gettext_lazy("reinstated a league team"),
    _league(lambda: _("reinstated the team %(team)s in the league “%(league)s”")),
)
SCHEDULE_MADE = ACTIONS.add(
    "schedule-made",
    gettext_lazy("made a league's schedule"),
    _league(lambda: _("made the schedule of the league “%(league)s”, every fixture at once")),
)
POSTPONEMENT_OFFERED = ACTIONS.add(
    "postponement-offered",
    gettext_lazy("offered days for a league fixture"),
    _league(
        lambda: _(
            "offered other days for the fixture %(fixture)s on %(day)s in the league “%(league)s”"
        )
    ),
)
POSTPONEMENT_ACCEPTED = ACTIONS.add(
    "postponement-accepted",
    gettext_lazy("accepted a day for a league fixture"),
    _league(lambda: _("moved the fixture %(fixture)s to %(day)s in the league “%(league)s”")),
)
