"""Live tables: a match followed step by step while it is recorded, and stored the moment
its last tile is.

The phone sends its steps as it keeps them (``live_steps_put``): "from step k on, the match
is these steps". That is append-only in the phone's sense (a tap adds a step, an undo takes
the last one back) and idempotent by the record's id and the step's number: the same steps
sent twice change nothing, a step sent again after an undo replaces the one taken back. Each
change is a revision; a watcher asks for what changed after the last revision it saw
(``live_since``), so one that lost its connection catches up. The archive's own engine
(``recorder.table``, the phone's) checks every step again here and says what the table
looks like after it (``view_of``), once, for every watcher: each step is the engine's
answer to the record cut there, walked from the start of its hand, where the match stood
then kept with the step that started it (``LiveStep.hand_start``), so a step costs the same
at the end of a long match as at its start.

Changes are told to the watchers' streams through Redis (``publish``; ``live_stream.py``
serves them); without Redis the pages ask again every few seconds.

When a step ends the match, it is sent through the upload pipeline like any finished record
(``live_finish``): stored, rated and, where the club analyses every match, queued for
analysis. Once its ratings are in (``games.events.MatchesRated``), the watchers are sent to
the stored match's page.
"""

from __future__ import annotations

import copy
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any, NamedTuple

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.tool_events import LIVE_FINISHED, LIVE_STARTED, publish
from fives_engine.validate import HandStart
from games.models import Match, Upload, UploadItem
from games.ratelimit import parse_rate, throttle_rate
from games.services.uploads import upload_create

from . import table
from .models import PLAYING_FOR, LiveMatch, LiveStep

logger = logging.getLogger(__name__)

# What a phone may send: bounds on a set-up and on the steps of one match (a long match of
# four players to 500 has about 1,500 steps).
SETUP_MAX_BYTES = 8_000
STEP_MAX_BYTES = 600
STEPS_MAX = 5_000
# A step as the phone sends it and the match keeps it (``LiveStep.step``): a JSON object of
# one of ``record_of``'s kinds (``kind_of``), walked before it is kept.
PhoneStep = dict[str, Any]
# How long a finished table stays on the club night's page, with its match's link (and an
# abandoned one, saying so).
RECENT = timedelta(hours=1)
# The fields of a record's head the set-up may carry (recorder.js ``start``).
HEAD_FIELDS = (
    "format",
    "record",
    "id",
    "ruleset",
    "players",
    "teams",
    "club",
    "event",
    "played_at",
    "source",
)
# What a watcher draws of the table after a step: the engine's replay state, trimmed.
VIEW_FIELDS = (
    "hand",
    "move",
    "action",
    "seat",
    "placed",
    "count",
    "points",
    "scores",
    "layout",
    "open_ends",
    "turn",
    "hand_end",
    "settlement",
)


class LiveRefused(Exception):
    """Steps the archive will not take (the message says why, in the reader's language)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


class LiveGap(Exception):
    """Steps from a number past those the archive has: the phone sends again from ``have``."""

    def __init__(self, have: int):
        super().__init__(have)
        self.have = have


@dataclass(frozen=True)
class Put:
    """What a send of steps did: the live match, its step count and revision now, whether
    anything changed, and whether the match is over (its last tile recorded)."""

    live: LiveMatch
    changed: bool
    over: bool


# --- the record from its steps ---------------------------------------------------------------


def setup_clean(setup: Any) -> dict[str, Any]:
    """Return the set-up a phone sent, checked: ``{"doc": head, "leader": seat}``."""
    if not isinstance(setup, dict) or not isinstance(setup.get("doc"), dict):
        raise LiveRefused(_("The match's set-up could not be read."))
    if len(json.dumps(setup)) > SETUP_MAX_BYTES:
        raise LiveRefused(_("The match's set-up is too long."))
    head = {key: setup["doc"][key] for key in HEAD_FIELDS if key in setup["doc"]}
    leader = setup.get("leader")
    if not isinstance(leader, int) or isinstance(leader, bool):
        raise LiveRefused(_("The match's set-up could not be read."))
    return {"doc": head, "leader": leader}


def record_of(setup: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """Return the ``fives/1`` record the steps make (recorder.js ``rebuild``: one step is a
    move ``{m}``, the lead turned round ``{turn}``, a tile shown at a hand's end ``{seat,
    shown}``, the hand's ``left`` ``{left}`` or the next hand ``{hand: leader}``). A step of
    no known shape raises ``LiveRefused``."""
    doc = copy.deepcopy(setup["doc"])
    hands: list[dict[str, Any]] = [{"leader": setup["leader"], "moves": []}]
    doc["hands"] = hands
    for step in steps:
        hand = hands[-1]
        kind = kind_of(step)
        if kind == "m":
            # A copy: a later step turning the lead round changes the record, not the step.
            hand["moves"].append(dict(step["m"]))
        elif kind == "turn":
            first = hand["moves"][0] if hand["moves"] else {}
            if not isinstance(first.get("play"), str):
                raise LiveRefused(_("A step could not be read."))
            first["play"] = "-".join(reversed(first["play"].split("-")))
        elif kind == "left":
            hand["left"] = step["left"]
        elif kind == "hand":
            hands.append({"leader": step["hand"], "moves": []})
        # (A tile shown: being entered, the record changes once all are, ``left``.)
    return doc


def kind_of(step: Any) -> str:
    """Return which of ``record_of``'s steps ``step`` is: ``m``, ``turn``, ``shown``,
    ``left`` or ``hand``; raise ``LiveRefused`` for none."""
    if isinstance(step, dict):
        if isinstance(step.get("m"), dict):
            return "m"
        if step.get("turn"):
            return "turn"
        if "shown" in step:
            return "shown"
        if isinstance(step.get("left"), list):
            return "left"
        if isinstance(step.get("hand"), int) and not isinstance(step["hand"], bool):
            return "hand"
    raise LiveRefused(_("A step could not be read."))


def steps_of(doc: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Return the set-up and steps a phone would have kept of a record (recorder.js
    ``setupOf`` and ``stepsOf``): each hand's moves and ``left``, then the next hand's."""
    head = {key: doc[key] for key in HEAD_FIELDS if key in doc}
    steps: list[Any] = []
    for index, hand in enumerate(doc["hands"]):
        if index:
            steps.append({"hand": hand["leader"]})
        steps.extend({"m": move} for move in hand["moves"])
        if "left" in hand:
            steps.append({"left": hand["left"]})
    return {"doc": head, "leader": doc["hands"][0]["leader"]}, steps


def view_of(answer: dict[str, Any]) -> dict[str, Any]:
    """Return what watchers draw of the table from the engine's answer (``table.analyse``)."""
    state = answer.get("state") or {}
    view = {field: state.get(field) for field in VIEW_FIELDS}
    if not state:
        view["scores"] = answer["report"].get("scores")
    view["phase"] = answer["phase"]
    view["held"] = answer.get("held")
    view["winner"] = answer["report"].get("winner")
    view["bust"] = answer.get("bust")
    view["bonus"] = answer.get("bonus")
    return view


def views_walked_whole(setup: dict[str, Any], steps: list[Any], start: int) -> list[dict[str, Any]]:
    """Return the view after each step from ``start`` on, each the engine's answer to the
    record cut there, walked from the match's start: what a view is (``_views`` must give
    the same, which the tests hold it to; ``bench.live --steps`` times both)."""
    views = []
    for number in range(start, len(steps)):
        answer = table.analyse(record_of(setup, steps[: number + 1]))
        if answer["phase"] == "error":
            raise _refused(number, answer)
        views.append(view_of(answer))
    return views


def _refused(number: int, answer: dict[str, Any]) -> LiveRefused:
    error = answer["report"]["errors"][0]
    return LiveRefused(
        _("Step %(number)s is refused by the engine: %(reason)s")
        % {"number": number + 1, "reason": error["message"]}
    )


@dataclass(frozen=True)
class HandSoFar:
    """Where a send's walk starts: the start of the hand its first new step is in or
    follows (``start``, where the match stood then, None at the match's start; ``leader``,
    the hand's leader) and that hand's steps before the new ones (``steps``). Each new step
    is walked from there: a step costs what its hand's steps cost, not the match's."""

    start: HandStart | None
    leader: int
    steps: list[Any]


class StepView(NamedTuple):
    """What a step walked makes, kept with it (``LiveStep``): the view after it (``view_of``,
    JSON as stored and sent to watchers) and, of a step that starts a hand, where the match
    stood then (``HandStart`` as JSON), else None."""

    view: dict[str, Any]
    hand_start: dict[str, Any] | None


def _views(
    setup: dict[str, Any],
    before: HandSoFar,
    new: list[Any],
    first: int,
    earlier: Callable[[], list[Any]],
) -> list[StepView]:
    """Return the view after each of the steps ``new`` (numbered from ``first``), each
    checked by the engine, and, of a step that starts a hand, where the match stood then
    (``HandStart`` as JSON, kept with it). A refusal is worded from the whole match's walk
    (``earlier()``: the steps before ``first``): a path in its words names the match's
    hand, not the walk's."""
    start, hand = before.start, list(before.steps)
    cut = {"doc": setup["doc"], "leader": before.leader}
    out = []
    for offset, step in enumerate(new):
        hand.append(step)
        answer, began = table.analyse_resumed(record_of(cut, hand), start)
        if answer["phase"] == "error":
            whole = earlier() + new[: offset + 1]
            raise _refused(first + offset, table.analyse(record_of(setup, whole)))
        kept = None
        if kind_of(step) == "hand" and began is not None:
            start, hand, kept = began, [], began.as_json()
            cut = {"doc": setup["doc"], "leader": step["hand"]}
        out.append(StepView(view_of(answer), kept))
    return out


def _hand_so_far(live: LiveMatch, first: int) -> HandSoFar:
    """Return where a walk of the steps from ``first`` on starts (``HandSoFar``): the last
    step before them that started a hand and kept where the match stood (none: the match's
    start, for the first hand or steps kept before hand starts were)."""
    began = (
        live.step_rows.filter(number__lt=first, hand_start__isnull=False)
        .order_by("-number")
        .values_list("number", "step", "hand_start")
        .first()
    )
    if began is None:
        since, start, leader = 0, None, live.setup["leader"]
    else:
        number, step, kept = began
        since, start, leader = number + 1, HandStart.from_json(kept), step["hand"]
    rows = live.step_rows.filter(number__gte=since, number__lt=first).order_by("number")
    return HandSoFar(start, leader, list(rows.values_list("step", flat=True)))


def setup_public(setup: dict[str, Any]) -> dict[str, Any]:
    """Return what a watcher is shown of a set-up: players, sides (a partnership's names
    joined), the ruleset and what the match counts for."""
    doc = setup["doc"]
    players = [str(name) for name in doc.get("players", [])]
    teams = doc.get("teams")
    sides = (
        [" & ".join(players[seat] for seat in team) for team in teams]
        if isinstance(teams, list)
        else players
    )
    ruleset = doc.get("ruleset")
    return {
        "players": players,
        "sides": sides,
        "ruleset": ruleset.get("base") if isinstance(ruleset, dict) else ruleset,
        "target": ruleset.get("target") if isinstance(ruleset, dict) else None,
        "event": str(doc.get("event") or ""),
    }


def summary_of(
    setup: dict[str, Any], view: dict[str, Any] | None, steps: int, undone: bool = False
) -> dict[str, Any]:
    """Return what the club night's page shows of a table: its sides, scores, hand, count,
    and whether the last change took a tap back (``undone``: a score going down would
    otherwise read as the page's mistake)."""
    public = setup_public(setup)
    players, sides = public["players"], public["sides"]
    view = view or {}
    return {
        "sides": sides,
        "scores": view.get("scores") or [0] * len(sides),
        "hand": (view.get("hand") or 0) + 1,
        "count": view.get("count") or 0,
        "phase": view.get("phase") or "play",
        "turn": players[view["turn"]] if view.get("turn") is not None else None,
        "ruleset": public["ruleset"],
        "steps": steps,
        "undone": undone,
    }


# --- the phone's sends -----------------------------------------------------------------------


def live_table_exists(*, user: Any, record_id: str) -> bool:
    """Whether ``user``'s phone has already opened the table of ``record_id``."""
    return LiveMatch.objects.filter(recorder=user, record_id=str(record_id)[:100]).exists()


def live_steps_put(
    *, user: Any, club: Any, record_id: str, setup: Any, start: int, steps: list[Any]
) -> Put:
    """Take the steps ``steps`` as the match's from number ``start`` on (see the module's
    words). Raises ``LiveGap`` when ``start`` is past the steps kept, ``LiveRefused`` for
    steps the engine refuses or too many.

    The engine walks the steps before the match's row is locked, against the match as it
    was read; under the lock, a match that moved meanwhile (another revision) is walked
    again. The lock is held to write, so a phone's send waits on no other's walk."""
    record_id = str(record_id)[:100]
    if not record_id or not isinstance(steps, list) or not isinstance(start, int) or start < 0:
        raise LiveRefused(_("The steps could not be read."))
    if start + len(steps) > STEPS_MAX or any(
        len(json.dumps(step)) > STEP_MAX_BYTES for step in steps
    ):
        raise LiveRefused(_("The match has too many steps, or a step too long."))
    clean = setup_clean(setup)
    seen = LiveMatch.objects.filter(recorder=user, record_id=record_id).first()
    plan = None
    if seen is not None and seen.finished_at is None and start <= seen.steps:
        plan = _plan(seen, start, steps)
    with transaction.atomic():
        # A table has its sides from its set-up on: a watcher who comes before the first
        # tile sees it, at 0 (with no summary, the club night's page had none to draw).
        live, created = LiveMatch.objects.select_for_update().get_or_create(
            recorder=user,
            record_id=record_id,
            defaults={"club": club, "setup": clean, "summary": summary_of(clean, None, 0)},
        )
        if created:
            publish(LIVE_STARTED, [live.pk])  # tools are told (clubs.tool_events)
        if live.finished_at is not None:
            return Put(live=live, changed=False, over=True)
        if start > live.steps:
            raise LiveGap(live.steps)
        if plan is None or plan.revision != live.revision:
            plan = _plan(live, start, steps)
        if live.abandoned:
            # Taken back from the phone's draft: at the table again.
            live.abandoned = False
            _bump(live, "abandoned")
        return _write(live, plan, created)


@dataclass(frozen=True)
class Plan:
    """What a send makes of a live match as it stood at ``revision``: its steps from
    ``first`` on are the send's ``steps`` (with their views and kept hand starts), and it
    has ``count`` steps; or nothing changes (``first`` None); or the engine refuses them
    (``refused``, raised once the match is found unmoved)."""

    revision: int
    first: int | None = None
    count: int = 0
    steps: tuple[PhoneStep, ...] = ()
    views: tuple[StepView, ...] = ()
    refused: LiveRefused | None = None


def _plan(live: LiveMatch, start: int, steps: list[Any]) -> Plan:
    """Return what taking ``steps`` from number ``start`` on makes of ``live`` (``Plan``)."""
    kept = list(live.step_rows.filter(number__gte=start).values_list("step", flat=True))
    same = 0
    while same < min(len(kept), len(steps)) and kept[same] == steps[same]:
        same += 1
    if same == len(kept) == len(steps):
        return Plan(revision=live.revision)
    first = start + same

    def earlier() -> list[Any]:
        return list(live.step_rows.filter(number__lt=first).values_list("step", flat=True))

    new = steps[same:]
    try:
        views = _views(live.setup, _hand_so_far(live, first), new, first, earlier)
    except LiveRefused as refused:
        return Plan(revision=live.revision, refused=refused)
    return Plan(live.revision, first, start + len(steps), tuple(new), tuple(views))


def _write(live: LiveMatch, plan: Plan, created: bool) -> Put:
    """Write ``plan`` to ``live``, locked: its steps, views and a revision; tell the
    watchers after the commit."""
    if plan.refused is not None:
        raise plan.refused
    if plan.first is None:
        if created:
            # A set-up with no tile yet is a new table for the club night's streams (told
            # only from its first tile, a watcher waited for it or the next poll).
            transaction.on_commit(partial(publish_change, live.pk, live.revision))
        return Put(live=live, changed=created, over=False)
    # Fewer steps than before: the phone's undo (a tap taken back), said to the watchers.
    undone = plan.count < live.steps
    previous = live.revision
    live.revision += 1
    live.step_rows.filter(number__gte=plan.first).delete()
    LiveStep.objects.bulk_create(
        LiveStep(
            live=live,
            number=plan.first + i,
            step=step,
            view=view,
            hand_start=hand_start,
            revision=live.revision,
        )
        for i, (step, (view, hand_start)) in enumerate(zip(plan.steps, plan.views, strict=True))
    )
    live.steps = plan.count
    last = plan.views[-1].view if plan.views else _last_view(live)
    live.summary = summary_of(live.setup, last, live.steps, undone=undone)
    live.save(update_fields=["revision", "steps", "summary", "updated_at"])
    transaction.on_commit(partial(publish_change, live.pk, previous))
    return Put(live=live, changed=True, over=bool(last and last["phase"] == "over"))


def _last_view(live: LiveMatch) -> dict[str, Any] | None:
    return live.step_rows.order_by("-number").values_list("view", flat=True).first()


def live_finish(*, live_id: int) -> LiveMatch:
    """Send a live match whose last tile is recorded through the upload pipeline, as the
    phone's "Save the match" does (the same record: the phone's later send of it is the same
    upload). Done once: a second call finds it finished. The match is not walked again
    here: its last step's view is the engine's answer to the whole record (its phase, and
    the scores the walk ended with, the report's), and ingest checks the upload as any."""
    with transaction.atomic():
        live = LiveMatch.objects.select_for_update().get(pk=live_id)
        if live.finished_at is not None:
            return live
        last = _last_view(live)
        if last is None or last["phase"] != "over":
            return live
        doc = record_of(live.setup, list(live.step_rows.values_list("step", flat=True)))
        doc["final_scores"] = last["scores"]
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        live.upload = upload_create(
            uploader=live.recorder, data=text.encode(), kind=Upload.Kind.JSON, club=live.club
        )
        live.finished_at = timezone.now()
        _bump(live, "upload", "finished_at")
        publish(LIVE_FINISHED, [live.pk])  # tools are told (clubs.tool_events)
    return live


def live_send(*, user: Any, doc: Any, send: Callable[[], Upload]) -> Upload:
    """The phone's own "Save the match" of ``doc``: the upload its live match became, if
    its last tile reached the archive first; else ``send()``'s upload, which the live match
    (made now if the phone never reached the archive live) then is, so steps that come after
    never store the match a second time. The live match's row is locked meanwhile: a last
    step arriving at the same moment (``live_finish``) waits, and finds it finished."""
    record_id = str(doc.get("id") or "")[:100] if isinstance(doc, dict) else ""
    if not record_id:
        return send()
    with transaction.atomic():
        # No join: PostgreSQL locks no row of a join's nullable side (the upload).
        current = (
            LiveMatch.objects.select_for_update().filter(recorder=user, record_id=record_id).first()
        )
        if current is not None and current.upload_id is not None:
            return current.upload
        try:
            upload = send()
        except Exception as refused:  # the refusal's upload is kept (committed), then told
            failure = refused
        else:
            failure = None
            live_saved(user=user, doc=doc, upload=upload)
    if failure is not None:
        raise failure
    return upload


def live_saved(*, user: Any, doc: Any, upload: Upload) -> None:
    """Finish the live match of the record ``doc`` as ``upload`` (see ``live_send``)."""
    if not isinstance(doc, dict) or not doc.get("id") or upload.club_id is None:
        return
    try:
        setup, steps = steps_of(doc)
    except (KeyError, TypeError, IndexError, AttributeError):
        return  # no record: nothing was followed live
    with transaction.atomic():
        current, _ = LiveMatch.objects.select_for_update().get_or_create(
            recorder=user,
            record_id=str(doc["id"])[:100],
            defaults={"club_id": upload.club_id, "setup": setup_clean(setup)},
        )
        if current.finished_at is not None:
            return
        if current.steps < len(steps):
            answer = table.analyse({k: v for k, v in doc.items() if k != "final_scores"})
            if answer["phase"] != "error":
                current.summary = summary_of(current.setup, view_of(answer), len(steps))
        current.upload = upload
        current.finished_at = timezone.now()
        _bump(current, "summary", "upload", "finished_at")


def live_abandon(*, user: Any, record_id: str) -> bool:
    """Mark a live match of ``user``'s abandoned (the phone's "Abandon the match"): the club
    night's page says so for an hour, as it shows where a finished table went, then drops it
    (gone at once, its watchers could not tell an abandoned table from a page gone wrong).
    Return whether there was one."""
    with transaction.atomic():
        live = (
            LiveMatch.objects.select_for_update()
            .filter(recorder=user, record_id=str(record_id)[:100], finished_at=None)
            .first()
        )
        if live is None:
            return False
        live.abandoned = True
        _bump(live, "abandoned")
    return True


def _bump(live: LiveMatch, *fields: str) -> None:
    """Save ``fields`` of ``live`` as a new revision, and tell its watchers after the commit."""
    previous = live.revision
    live.revision += 1
    live.save(update_fields=[*fields, "revision", "updated_at"])
    transaction.on_commit(partial(publish_change, live.pk, previous))


def live_unrated(*, match_ids: tuple[int, ...]) -> list[int]:
    """Send the watchers of the live matches stored as these matches, which will not be
    rated (awaiting approval), to the stored match's page; return their ids."""
    lives = LiveMatch.objects.filter(
        finished_at__isnull=False,
        settled_at__isnull=True,
        upload__items__match_id__in=match_ids,
    ).exclude(upload__items__match__approval=Match.Approval.APPROVED)
    return _settle(lives.values_list("pk", flat=True))


def live_rated(*, club_id: int) -> list[int]:
    """Mark the club's finished live matches whose stored matches are rated now, and send
    their watchers to the stored match's page; return their ids. (Told by
    ``games.events.MatchesRated`` once a recomputation of the club's ratings committed: every
    stored match of the club then has its ratings.)"""
    waiting = LiveMatch.objects.filter(
        club_id=club_id, finished_at__isnull=False, settled_at__isnull=True
    )
    return _settle(waiting.values_list("pk", flat=True))


def _settle(live_ids: Any) -> list[int]:
    """Mark these finished live matches settled, their stored match found."""
    done = []
    for live_id in list(live_ids):
        with transaction.atomic():
            live = LiveMatch.objects.select_for_update().get(pk=live_id)
            match = stored_match(live)
            if live.settled_at is not None or match is None:
                continue
            live.match = match
            live.settled_at = timezone.now()
            _bump(live, "match", "settled_at")
            done.append(live.pk)
    return done


# --- what a watcher is told ------------------------------------------------------------------


def stored_match(live: LiveMatch) -> Match | None:
    """Return the match a finished live match was stored as, once its upload is processed."""
    if live.match_id is not None:
        return live.match
    if live.upload_id is None:
        return None
    item = UploadItem.objects.filter(upload_id=live.upload_id).exclude(match=None).first()
    return item.match if item else None


def ending_of(live: LiveMatch) -> dict[str, Any] | None:
    """Return how a live match ended, for its watchers: abandoned, or stored (with the
    stored match's page, once its ratings are in or it is not rated: awaiting approval),
    or refused by the pipeline (its upload's page)."""
    if live.abandoned:
        return {"abandoned": True}
    if live.finished_at is None:
        return None
    if live.settled_at is not None and live.match_id is not None:
        return _stored(live.match)
    upload = live.upload
    if upload is not None and upload.status in (Upload.Status.REJECTED, Upload.Status.FAILED):
        return {"upload": upload.pk, "url": upload.get_absolute_url(), "refused": True}
    match = stored_match(live)
    if match is not None and (match.approval != Match.Approval.APPROVED or match.errors):
        return _stored(match)
    return {"storing": True}


def _stored(match: Match) -> dict[str, Any]:
    """A stored match, for its watchers: its page, and whether it waits for a club admin's
    approval (its page is then its uploader's and the admins' alone: a 404 to the rest, whom
    the page tells instead of sending them there)."""
    return {
        "match": match.pk,
        "url": match.get_absolute_url(),
        "waiting": match.approval != Match.Approval.APPROVED,
    }


def live_since(live: LiveMatch, after: int) -> dict[str, Any]:
    """Return what changed in ``live`` after revision ``after``: the steps written since (each
    with its number and view), the number of steps now (an undo lowers it: a watcher drops
    those past it), whether the last change took a tap back (``undone``) and, once over,
    how it ended."""
    rows = live.step_rows.filter(revision__gt=after).values_list("number", "view")
    return {
        "revision": live.revision,
        "count": live.steps,
        "steps": [{"n": number, "view": view} for number, view in rows],
        "undone": bool((live.summary or {}).get("undone")),
        "end": ending_of(live),
    }


def club_tables(club: Any) -> list[dict[str, Any]]:
    """Return the club's tables now playing, and those finished or abandoned in the last hour
    (with where their matches went), for the club night's page: of each recorder's, at most
    as many as the ``live-table`` budget lets one open (the latest), so that a page's length
    is bounded by its recorders, whatever a script tried."""
    now = timezone.now()
    most = tables_one_may_open()
    lives = (
        LiveMatch.objects.filter(club=club)
        .filter(
            Q(finished_at__isnull=True, abandoned=False, updated_at__gte=now - PLAYING_FOR)
            | Q(finished_at__isnull=True, abandoned=True, updated_at__gte=now - RECENT)
            | Q(finished_at__gte=now - RECENT)
        )
        .select_related("match", "upload")
        .order_by("-started_at")
    )
    shown: list[LiveMatch] = []
    per_recorder: dict[int, int] = {}
    for live in lives:
        per_recorder[live.recorder_id] = per_recorder.get(live.recorder_id, 0) + 1
        if per_recorder[live.recorder_id] <= most:
            shown.append(live)
    return [table_of(live) for live in reversed(shown)]


def tables_one_may_open() -> int:
    """How many tables the ``live-table`` budget lets one recorder open in its period."""
    rate = throttle_rate("live-table")
    return parse_rate(rate)[0] if rate else sys.maxsize  # no budget: no bound


def table_of(live: LiveMatch) -> dict[str, Any]:
    """Return one table of the club night's page."""
    return {
        "id": live.pk,
        "url": live.get_absolute_url(),
        **live.summary,
        "revision": live.revision,
        "end": ending_of(live),
    }


# --- telling the streams ---------------------------------------------------------------------


def channel_of(live_id: int) -> str:
    return f"fives:live:{live_id}"


def club_channel_of(club_id: int) -> str:
    return f"fives:live-club:{club_id}"


_clients: dict[str, Any] = {}


def _client() -> Any:
    """A Redis client of this process for the broker's address (one a URL: tests move it)."""
    if settings.REDIS_URL not in _clients:
        _clients[settings.REDIS_URL] = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    return _clients[settings.REDIS_URL]


def publish_change(live_id: int, previous: int) -> None:
    """Tell the streams of a live match and of its club night what changed after revision
    ``previous`` (with Redis; without, the pages ask again). Each message carries the
    revision it follows: a watcher that missed one reads what it lacks from the database."""
    if not settings.REDIS_URL:
        return
    live = LiveMatch.objects.select_related("match", "upload").get(pk=live_id)
    change = {"previous": previous, **live_since(live, previous)}
    try:
        client = _client()
        client.publish(channel_of(live.pk), json.dumps(change))
        client.publish(club_channel_of(live.club_id), json.dumps(table_of(live)))
    except Exception as exc:  # the broker away: watchers catch up when it is back
        logger.warning("live match %s not told: %s", live_id, exc)
