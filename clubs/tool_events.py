"""The events a tool may be told of that no other hook carries (issue 59, item 1): each app
publishes its own once its change commits, and whatever tells tools (``webhooks``) listens
through ``clubs.hooks.TOOL_EVENTS``. Nothing here knows who listens."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from .hooks import TOOL_EVENTS

# The types published here, by the app that makes each.
UPLOAD_FINISHED = "upload.finished"  # games: an upload's every log read
MATCH_REJECTED = "match.rejected"  # games: an admin rejected a match awaiting approval
ANALYSIS_DONE = "analysis.done"  # replays: a match's analysis stored (ids: the matches)
FIXTURE_CONFIRMED = "fixture.confirmed"  # competitions: a fixture's legs confirmed
LIVE_STARTED = "live.started"  # recorder: a live table set up
LIVE_FINISHED = "live.finished"  # recorder: a live table's last tile, its match sent
TYPES = (
    UPLOAD_FINISHED,
    MATCH_REJECTED,
    ANALYSIS_DONE,
    FIXTURE_CONFIRMED,
    LIVE_STARTED,
    LIVE_FINISHED,
)


def publish(type: str, ids: Iterable[int | None]) -> None:
    """Tell the listeners that ``type`` happened to the objects of ``ids``, once the current
    transaction commits (a rolled-back change tells nothing)."""
    if type not in TYPES:
        raise LookupError(f"no tool event {type!r}")
    ids = tuple(pk for pk in ids if pk is not None)
    if not ids or not TOOL_EVENTS.fills:
        return

    def send() -> None:
        for receiver in TOOL_EVENTS.fills:
            receiver(type, ids)

    transaction.on_commit(send)
