"""What webhooks listen to (filled in ``WebhooksConfig.ready()``): each event of the apps
below, told after its commit, becomes a task that makes its deliveries, when an endpoint
that is on takes it (none: nothing is queued)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games.events import MatchesStored
from recorder.models import LiveMatch

from .services import wanted
from .tasks import events_emit_task

# What waits on a person that is also an event for tools: a fixture's legs submitted (the
# other side's captains confirm them), and disputed (the organiser resolves it).
WAITING_EVENTS = {"fixture-confirm": "fixture.submitted", "dispute": "fixture.disputed"}


def emit(type: str, ids: tuple[int, ...]) -> None:
    """Queue the deliveries of ``type`` about ``ids``, stamped now (the change's commit)."""
    if ids and wanted(type):
        at = timezone.now().isoformat().replace("+00:00", "Z")
        events_emit_task.delay(type, list(ids), at)


def on_archive_event(event: Any) -> None:
    if isinstance(event, MatchesStored):
        emit("match.stored", event.match_ids)


def on_waiting(kind: str, ids: tuple[int, ...]) -> None:
    if kind in WAITING_EVENTS:
        emit(WAITING_EVENTS[kind], ids)


def on_tool_event(type: str, ids: tuple[int, ...]) -> None:
    emit(type, ids)


@dataclass(frozen=True)
class LivePayload:
    """A live table's data: the API has no answer for it, so its fields are said here."""

    kind: str = "live"

    def data(self, object_id: int) -> dict[str, Any] | None:
        live = LiveMatch.objects.select_related("club").filter(pk=object_id).first()
        if live is None:
            return None
        return {
            "id": live.pk,
            "club": live.club.name,
            "club_slug": live.club.slug,
            "steps": live.steps,
            "summary": live.summary,
            "started_at": _iso(live.started_at),
            "finished_at": _iso(live.finished_at),
            "upload": live.upload_id,
        }


def _iso(moment: Any) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


LIVE_PAYLOAD = LivePayload()
