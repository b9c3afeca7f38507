"""The events a club's endpoints may take (issue 59, item 1): each one's type, the kind of
object its ``data`` is, its words, and the clubs whose endpoints are told of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from competitions.models import Fixture
from games.models import Match, Upload
from recorder.models import LiveMatch


@dataclass(frozen=True, slots=True)
class Event:
    """An event's type (``match.stored``), the kind of its ``data``, its words, and
    ``clubs(ids)``: the clubs each object of ``ids`` belongs to, by id."""

    type: str
    kind: str
    label: Promise | str
    clubs: Callable[[Iterable[int]], dict[int, tuple[int, ...]]]


def _match_clubs(ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    return {pk: (club,) for pk, club in Match.objects.filter(pk__in=ids).values_list("pk", "club")}


def _upload_clubs(ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    rows = Upload.objects.filter(pk__in=ids, club__isnull=False).values_list("pk", "club")
    return {pk: (club,) for pk, club in rows}


def _fixture_clubs(ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    # A fixture is both sides': each side's club is told.
    rows = Fixture.objects.filter(pk__in=ids).values_list("pk", "home__club", "away__club")
    return {pk: tuple(dict.fromkeys((home, away))) for pk, home, away in rows}


def _live_clubs(ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    rows = LiveMatch.objects.filter(pk__in=ids).values_list("pk", "club")
    return {pk: (club,) for pk, club in rows}


EVENTS: dict[str, Event] = {
    event.type: event
    for event in (
        Event("match.stored", "match", _("A match is stored"), _match_clubs),
        Event("match.rejected", "match", _("A match is rejected"), _match_clubs),
        Event("upload.finished", "upload", _("An upload is finished"), _upload_clubs),
        Event("analysis.done", "analysis", _("A match's analysis is done"), _match_clubs),
        Event("fixture.submitted", "fixture", _("A fixture's result is submitted"), _fixture_clubs),
        Event("fixture.confirmed", "fixture", _("A fixture's result is confirmed"), _fixture_clubs),
        Event("fixture.disputed", "fixture", _("A fixture's result is disputed"), _fixture_clubs),
        Event("live.started", "live", _("A live table starts"), _live_clubs),
        Event("live.finished", "live", _("A live table finishes"), _live_clubs),
    )
}


def event_choices() -> list[tuple[str, Promise | str]]:
    """The events as a form offers them: the type and its words."""
    return [(event.type, event.label) for event in EVENTS.values()]
