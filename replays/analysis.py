"""The expected-value analysis of stored matches (issue 26; the figures are the engine's,
``fives_engine.expected``, documented in docs/analysis.md).

It costs far more than validation, so it runs when asked: by a signed-in person (within a
daily quota, ``FIVES_ANALYSES_PER_DAY``) or by a club for every match stored for it (within
the site's daily bound for a club, ``FIVES_CLUB_ANALYSES_PER_DAY``). Each request is counted
with its asker's row locked (``AnalysisAsker``), so parallel requests never pass the bound.

The ``MatchAnalysis`` row is the record of the work and a task only its prompt: a request
stores its row queued and sends ``analysis_next_task`` (on the ``analysis`` queue), which
runs whichever queued analysis's turn it is (``analysis_claim``): each asker's first before
anyone's second, then the oldest, so one asker's flood never holds anyone else back. A run
takes the row, writes its progress as it goes, and stores the result with the match; run
twice it does nothing the second time; a run whose worker died, or a prompt lost with the
broker, is handed back to the queue and prompted again (``analyses_requeue_stuck``). A stored
analysis is done again only once the engine's ``ANALYSIS_VERSION`` changes.
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from kombu.exceptions import OperationalError as BrokerError

from clubs.models import Club
from clubs.tool_events import ANALYSIS_DONE, publish
from fives_engine.expected import (
    ANALYSIS_VERSION,
    BLUNDER,
    CHANCE_BLUNDER,
    CHANCE_INACCURACY,
    CHANCE_MISTAKE,
    INACCURACY,
    MISTAKE,
    review_match,
)
from games.leases import Lease, LeaseLost
from games.models import Match, Seat
from games.numbering import shown
from games.presentation import end_names

from .charts import chance_chart, loss_chart
from .models import AnalysisAsker, MatchAnalysis, SeatAnalysis

logger = logging.getLogger(__name__)

Status = MatchAnalysis.Status
VERSION = str(ANALYSIS_VERSION)
# The tasks, sent by name: replays.tasks calls these services, so they do not import it back
# (replays.apps registers it when Django starts). A request sends the prompt to run the next
# analysis in turn; the task that runs a given analysis is for a hand, or an older message.
NEXT_TASK = "replays.tasks.analysis_next_task"
ANALYSE_TASK = "replays.tasks.match_analyse_task"
# How many analyses, first in turn, a run tries to claim before it looks at the queue again
# (other workers may claim them meanwhile).
CLAIM_CANDIDATES = 8
# Progress is written at most this often (seconds): a page polls it, a row need not be
# written for every play.
PROGRESS_EVERY = 0.5
MARKS = ("inaccuracy", "mistake", "blunder")
# A player's average expected loss is over this many of their latest analysed matches.
RECENT_MATCHES = 20
# The performance figure's bands, by the winning chances lost per play with a choice (the
# upper bound of each, not included), set from the bots' own figures over 200 simulated
# matches of every preset (``bench.analysis``, docs/analysis.md): the expected bot (0.47)
# is an expert, the greedy bot (1.10) a club player, the random bot (2.04) a beginner.
PERFORMANCE_BANDS = (
    ("expert", 0.6),
    ("strong", 0.9),
    ("club", 1.4),
    ("casual", 2.0),
    ("beginner", math.inf),
)


class QuotaExceeded(Exception):
    """The person (or the club's own setting) asked for more analyses than a day allows;
    ``retry_after`` seconds until one of them leaves the day and frees a place."""

    def __init__(self, *, limit: int, retry_after: int) -> None:
        super().__init__(f"{limit} analyses a day")
        self.limit = limit
        self.retry_after = retry_after


def quota_refusal(*, limit: int, retry_after: int) -> str:
    """Return, in words, why a person may ask for no more analyses and when they may again
    ("in 23 hours, 58 minutes", in the reader's language), for the page and the API."""
    if retry_after > 3600:  # in whole hours, rounded up: the next is never sooner than said
        hours = math.ceil(retry_after / 3600)
        return ngettext(
            "Your analyses for the day are used up (%(limit)s a day): you may ask for the "
            "next in %(count)d hour.",
            "Your analyses for the day are used up (%(limit)s a day): you may ask for the "
            "next in %(count)d hours.",
            hours,
        ) % {"limit": limit, "count": hours}
    minutes = max(1, math.ceil(retry_after / 60))
    return ngettext(
        "Your analyses for the day are used up (%(limit)s a day): you may ask for the next "
        "in %(count)d minute.",
        "Your analyses for the day are used up (%(limit)s a day): you may ask for the next "
        "in %(count)d minutes.",
        minutes,
    ) % {"limit": limit, "count": minutes}


class RunTakenOver(LeaseLost):
    """Another run holds the analysis now (this one was taken for dead): this one stops."""


# The analysis's lease (games.leases): its run's sign of life is ``heartbeat_at``, or, before
# any, when it was asked for; it runs out after ``FIVES_ANALYSIS_STUCK_AFTER``.
ANALYSIS_LEASE = Lease(
    holder="holder", life="heartbeat_at", setting="FIVES_ANALYSIS_STUCK_AFTER", since="requested_at"
)


def analysis_is_stale(analysis: MatchAnalysis) -> bool:
    """Return whether the analysis was made (or started) by an earlier engine version."""
    return analysis.version != VERSION


def analysis_is_stuck(analysis: MatchAnalysis, *, now: Any = None) -> bool:
    """Return whether a queued or running analysis has shown no sign of life for longer than
    ``FIVES_ANALYSIS_STUCK_AFTER``: its task or its worker was lost."""
    if analysis.status not in (Status.QUEUED, Status.RUNNING):
        return False
    return ANALYSIS_LEASE.has_run_out(analysis, now)


def analysis_may_run_again(analysis: MatchAnalysis) -> bool:
    """Return whether asking again starts a new run: the analysis is stale, failed or stuck.
    (A current one, done or under way, is simply returned.)"""
    return (
        analysis_is_stale(analysis)
        or analysis.status == Status.FAILED
        or analysis_is_stuck(analysis)
    )


def asker_of(*, user: Any = None, club_id: int | None = None) -> AnalysisAsker:
    """Return the asker row of a person, or (``user`` None) of the club's own setting; made
    the first time it asks."""
    if user is not None:
        return AnalysisAsker.objects.get_or_create(user=user)[0]
    return AnalysisAsker.objects.get_or_create(club_id=club_id)[0]


def asker_limit(asker: AnalysisAsker) -> int:
    """Return how many analyses the asker may ask for in a day: a person's quota, or the
    site's bound for a club's own setting."""
    if asker.club_id is not None:
        return settings.FIVES_CLUB_ANALYSES_PER_DAY
    return settings.FIVES_ANALYSES_PER_DAY


def quota_of(*, asker_id: int, limit: int, now: Any) -> tuple[int, int]:
    """Return how many more analyses the asker may ask for now, and the seconds until one
    counted leaves the day: the oldest (0 when none is counted) or, with none left, the one
    whose leaving frees a place. A request counts for a day from when it was made."""
    since = now - timedelta(days=1)
    asked = list(
        MatchAnalysis.objects.filter(asker_id=asker_id, requested_at__gte=since)
        .order_by("requested_at")
        .values_list("requested_at", flat=True)
    )
    left = max(limit - len(asked), 0)
    if not asked:
        return left, 0
    if left == 0 and limit <= 0:
        return 0, 86400
    leaving = asked[0] if left else asked[len(asked) - limit]
    return left, max(math.ceil((leaving + timedelta(days=1) - now).total_seconds()), 1)


def quota_left(*, user: Any, now: Any = None) -> tuple[int, int]:
    """Return how many analyses ``user`` may still ask for today, and the seconds until the
    oldest one counted leaves the day (0 when none is counted)."""
    now = now or timezone.now()
    asker = AnalysisAsker.objects.filter(user=user).first()
    if asker is None:
        return settings.FIVES_ANALYSES_PER_DAY, 0
    return quota_of(asker_id=asker.pk, limit=settings.FIVES_ANALYSES_PER_DAY, now=now)


def club_bound_reached(*, club: Club, now: Any = None) -> dict[str, Any] | None:
    """Return the club's bound of automatic analyses and when it last refused one, when that
    was within the last day (its admins read it on their club's match pages), else None."""
    now = now or timezone.now()
    refused_at = (
        AnalysisAsker.objects.filter(club=club, refused_at__gte=now - timedelta(days=1))
        .values_list("refused_at", flat=True)
        .first()
    )
    if refused_at is None:
        return None
    return {"limit": settings.FIVES_CLUB_ANALYSES_PER_DAY, "refused_at": refused_at}


def analysis_request(*, match: Match, user: Any = None, earlier: bool = False) -> MatchAnalysis:
    """Return the match's analysis, queued to be run unless a current one is done or under
    way. ``user`` is the person asking, whose daily quota a new run counts in; None is the
    club's own setting, counted in the club's daily bound. Past either: ``QuotaExceeded``,
    nothing queued. ``earlier``: a club's look back at its earlier matches, served last.

    The asker's row is written first thing in the transaction that counts and stores the
    request: the same asker's parallel requests wait for it, so each counts the others'.
    A stuck run is handed back to the queue without counting: its loss was not the asker's
    doing."""
    existing = MatchAnalysis.objects.filter(match=match).first()
    if existing is not None and not analysis_may_run_again(existing):
        return existing
    asker = asker_of(user=user, club_id=match.club_id)
    limit = asker_limit(asker)
    refused: QuotaExceeded | None = None
    try:
        with transaction.atomic():
            now = timezone.now()
            # Written first: the asker's row is held until this request is counted and stored.
            AnalysisAsker.objects.filter(pk=asker.pk).update(counted_at=now)
            analysis = MatchAnalysis.objects.select_for_update().filter(match=match).first()
            if analysis is not None and not analysis_may_run_again(analysis):
                return analysis  # another request queued it meanwhile
            counts = analysis is None or not (
                analysis_is_stuck(analysis, now=now) and not analysis_is_stale(analysis)
            )
            if counts:
                left, retry_after = quota_of(asker_id=asker.pk, limit=limit, now=now)
                if left <= 0:
                    AnalysisAsker.objects.filter(pk=asker.pk).update(refused_at=now)
                    refused = QuotaExceeded(limit=limit, retry_after=retry_after)
            if refused is None:
                analysis = queued(
                    analysis, match=match, user=user, asker=asker, counts=counts, now=now
                )
                if analysis.earlier != earlier:
                    analysis.earlier = earlier
                    analysis.save(update_fields=["earlier"])
                transaction.on_commit(analysis_send)
    except IntegrityError:  # made by a request at the same moment: that one is queued
        return MatchAnalysis.objects.get(match=match)
    if refused is not None:
        raise refused
    return analysis


def queued(
    analysis: MatchAnalysis | None,
    *,
    match: Match,
    user: Any,
    asker: AnalysisAsker,
    counts: bool,
    now: Any,
) -> MatchAnalysis:
    """Store the match's analysis queued (``analysis``, the row it has, run again), asked for
    now by ``asker`` when it ``counts``; a stuck run keeps its asker and its place in turn."""
    if analysis is None:
        return MatchAnalysis.objects.create(
            match=match, version=VERSION, requested_by=user, asker=asker, requested_at=now
        )
    if counts:
        analysis.requested_by = user
        analysis.asker = asker
        analysis.requested_at = now
        analysis.heartbeat_at = None
    else:
        analysis.heartbeat_at = now  # handed back now: not stuck again at once
    analysis.status = Status.QUEUED
    analysis.version = VERSION
    analysis.holder = ""  # a dead run, should it wake, may write nothing more
    analysis.failure = ""
    analysis.done = analysis.total = 0
    analysis.save()
    return analysis


def analysis_send() -> None:
    """Prompt a worker to run the next analysis in turn (in-process when there is no broker).
    With the broker away nothing is lost: the row stays queued and the periodic sweep
    prompts again."""
    try:
        current_app.tasks[NEXT_TASK].delay()
    except (BrokerError, ConnectionError, TimeoutError) as exc:
        logger.warning("no analysis prompted, the broker is unreachable: %s", exc)


def analyses_in_turn(*, limit: int = CLAIM_CANDIDATES) -> list[int]:
    """Return the ids of the first ``limit`` queued analyses in the order they are served.

    An analysis's turn is 1 + how many of its asker's analyses went before it: asked for
    earlier, and either still queued or running, or run since it was asked for. The lowest
    turn goes first, then the oldest request: each asker's first before anyone's second (a
    round by asker), so a person's first analysis waits behind at most one analysis of each
    other asker, however many they queued. (An asker's analyses run before it was asked for
    do not count: the round starts when it waits.)"""
    ahead = (
        MatchAnalysis.objects.filter(
            Q(requested_at__lt=OuterRef("requested_at"))
            | Q(requested_at=OuterRef("requested_at"), pk__lt=OuterRef("pk")),
            Q(status__in=[Status.QUEUED, Status.RUNNING])
            | Q(started_at__gte=OuterRef("requested_at")),
            asker=OuterRef("asker"),
            # A day back at most: the asker's count for the day, at most, is read.
            requested_at__gte=OuterRef("requested_at") - timedelta(days=1),
        )
        .order_by()
        .values("asker")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return list(
        MatchAnalysis.objects.filter(status=Status.QUEUED)
        .annotate(turn=Coalesce(Subquery(ahead), 0))
        .order_by("earlier", "turn", "requested_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def analysis_claim(*, holder: str) -> int | None:
    """Claim for the run ``holder`` the queued analysis whose turn it is (``analyses_in_turn``)
    and return its id, or None when none is queued.

    Parallel runs never claim the same one: on PostgreSQL each skips the rows another is
    claiming (SKIP LOCKED) and takes the next in turn; the claim itself is an update of a row
    still queued, so a row already claimed is never claimed again (SQLite, one writer)."""
    for _look in range(3):
        candidates = analyses_in_turn()
        if not candidates:
            return None
        for analysis_id in candidates:
            with transaction.atomic():
                free = (
                    MatchAnalysis.objects.select_for_update(skip_locked=True)
                    .filter(pk=analysis_id, status=Status.QUEUED)
                    .values_list("pk", flat=True)
                    .first()
                )
                if free is None:
                    continue
                now = timezone.now()
                taken = ANALYSIS_LEASE.grant(
                    MatchAnalysis.objects.filter(pk=analysis_id, status=Status.QUEUED),
                    holder,
                    now=now,
                    status=Status.RUNNING,
                    version=VERSION,
                    started_at=now,
                    done=0,
                    total=0,
                    failure="",
                )
            if taken:
                return analysis_id
    return None


def analysis_take(*, analysis_id: int, holder: str) -> MatchAnalysis | None:
    """Take the analysis for the run ``holder`` and return it, or None when there is nothing
    to do: it is gone with its match, done with this version already, or held by another
    run that is alive (a message delivered twice)."""
    now = timezone.now()
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None:
            return None
        current = not analysis_is_stale(analysis)
        if current and analysis.status == Status.DONE:
            return None
        if (
            current
            and analysis.status == Status.RUNNING
            and ANALYSIS_LEASE.held_elsewhere(analysis, holder, now)
        ):
            return None
        analysis.status = Status.RUNNING
        analysis.version = VERSION
        ANALYSIS_LEASE.hold(analysis, holder, now)
        analysis.started_at = now
        analysis.done = analysis.total = 0
        analysis.failure = ""
        analysis.save()
    return analysis


def progress_writer(*, analysis_id: int, holder: str) -> Callable[[int, int], None]:
    """Return the engine's progress callback: it writes the plays reviewed so far (at most
    every ``PROGRESS_EVERY`` seconds, and the last) as the run's sign of life, and stops the
    run (``RunTakenOver``) when another run has taken the analysis."""
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY and done < total:
            return
        last[0] = now
        this = MatchAnalysis.objects.filter(pk=analysis_id)
        if not ANALYSIS_LEASE.write(this, holder, done=done, total=total):
            raise RunTakenOver(analysis_id)

    return progress


def analysis_run(*, analysis_id: int, holder: str | None = None) -> MatchAnalysis | None:
    """Run the analysis ``analysis_id`` and store its result with the match; return it, or
    None when there was nothing to do (see ``analysis_take``). Safe to call twice: the second
    call finds it done. ``holder`` names the run (a retry passes its own on)."""
    holder = holder or uuid.uuid4().hex
    analysis = analysis_take(analysis_id=analysis_id, holder=holder)
    if analysis is None:
        return None
    match = Match.objects.with_log().get(pk=analysis.match_id)
    options: dict[str, Any] = {}
    if settings.FIVES_ANALYSIS_SAMPLES:
        options["samples"] = settings.FIVES_ANALYSIS_SAMPLES
    if not match.errors:
        # The scores before each play from the figures ingest stored: no second walk (a
        # match a rescore found no longer valid is walked, and refused).
        options["facts"] = [hand.facts for hand in match.hands]
        options["results"] = [hand.result for hand in match.hands]
    try:
        review = review_match(
            match.log(),
            progress=progress_writer(analysis_id=analysis_id, holder=holder),
            **options,
        )
    except RunTakenOver:
        logger.warning("analysis %s: taken over by another run; this one stops", analysis_id)
        return None
    result = finite(review.as_dict())
    total = len(result.get("plays", []))
    with transaction.atomic():
        stored = ANALYSIS_LEASE.write(
            MatchAnalysis.objects.filter(pk=analysis_id),
            holder,
            status=Status.DONE,
            result=result,
            done=total,
            total=total,
            finished_at=timezone.now(),
        )
        if stored:
            seats_store(match=match, result=result)
            publish(ANALYSIS_DONE, [match.pk])  # tools are told (clubs.tool_events)
    analysis.refresh_from_db()
    return analysis


def analysis_fail(*, analysis_id: int, reason: str) -> None:
    """Leave the analysis failed with its reason, shown on the match page (and run again
    when asked)."""
    MatchAnalysis.objects.filter(pk=analysis_id).update(
        status=Status.FAILED, failure=reason[:2000], finished_at=timezone.now()
    )


def finite(value: Any) -> Any:
    """Return a JSON value with every float that is not finite (no play reviewed: no mean)
    written as null: PostgreSQL's JSON has no NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


def seats_store(*, match: Match, result: dict[str, Any]) -> None:
    """Store each seat's sums over its reviewed plays: the expected loss of them all, the
    winning chances lost over those with a choice, and its side's luck and skill (a seat with
    no play reviewed, a table record's hidden hand, gets no row)."""
    losses: dict[int, list[float]] = {}
    chance_losses: dict[int, list[float]] = {}
    for play in result.get("plays", []):
        losses.setdefault(play["seat"], []).append(play["loss"] or 0.0)
        if len(play.get("alternatives") or ()) > 1 and play.get("chance_loss") is not None:
            chance_losses.setdefault(play["seat"], []).append(play["chance_loss"])
    accuracy = result.get("accuracy") or []
    chances = result.get("unit") == "chance"
    sides = {seat: side for side in result.get("sides", []) for seat in side["seats"]}
    players = {seat.seat: seat.player_id for seat in match.seats.all()}
    SeatAnalysis.objects.filter(match=match).delete()
    SeatAnalysis.objects.bulk_create(
        SeatAnalysis(
            match=match,
            seat=seat,
            player_id=players[seat],
            club_id=match.club_id,
            played_at=match.played_at or match.created_at,
            loss=sum(values),
            plays=len(values),
            accuracy=(accuracy[seat] if seat < len(accuracy) else None) or 0.0,
            chance_loss=sum(chance_losses.get(seat, [])) if chances else None,
            decisions=len(chance_losses.get(seat, [])),
            luck=sides[seat]["luck"] if seat in sides else None,
            skill=sides[seat]["skill"] if seat in sides else None,
            version=VERSION,
        )
        for seat, values in sorted(losses.items())
        if seat in players
    )


def analyses_follow_matches(*, match_ids: Iterable[int]) -> int:
    """After matches were stored or changed: give the seats' summaries their players again
    (a merge of handles moves seats) and ask for the analysis of each new match of a club
    that analyses every match, within the club's daily bound (past it the match is simply
    not analysed automatically: a person may ask for it); return how many were asked for."""
    match_ids = list(match_ids)
    for seat in Seat.objects.filter(match_id__in=match_ids).only("match_id", "seat", "player_id"):
        SeatAnalysis.objects.filter(match_id=seat.match_id, seat=seat.seat).exclude(
            player_id=seat.player_id
        ).update(player_id=seat.player_id)
    clubs = Club.objects.filter(analyse_every_match=True).values("pk")
    wanted = (
        Match.objects.filter(pk__in=match_ids, club__in=clubs, errors=[])
        .exclude(analysis__version=VERSION)
        .order_by("pk")
    )
    asked = 0
    past_bound: set[int] = set()
    for match in wanted:
        if match.club_id in past_bound:
            continue
        try:
            analysis_request(match=match, user=None)
        except QuotaExceeded:
            logger.info("club %s: its daily bound of analyses is reached", match.club_id)
            past_bound.add(match.club_id)
            continue
        asked += 1
    return asked


def analyses_earlier(*, per_club: int | None = None) -> int:
    """For each club that analyses every match and asked for its earlier matches too, ask for
    the analysis of its matches stored before (the newest first, never analysed with the
    current version), served after every other request, until the club's daily bound is
    reached: the rest wait for the next run of this (the periodic job). A club with none left
    has the setting turned off. Return how many were asked for."""
    asked = 0
    for club in Club.objects.filter(analyse_every_match=True, analyse_earlier=True):
        waiting = (
            Match.objects.counted()
            .filter(club=club, errors=[])
            .exclude(analysis__version=VERSION)
            .order_by("-played_at", "-pk")
        )
        if per_club is not None:
            waiting = waiting[:per_club]
        left = False
        for match in waiting:
            try:
                analysis_request(match=match, user=None, earlier=True)
            except QuotaExceeded:
                left = True
                break
            asked += 1
        if not left and per_club is None:
            Club.objects.filter(pk=club.pk).update(analyse_earlier=False)
    return asked


def analyses_requeue_stuck(*, limit: int = 500) -> int:
    """Hand back to the queue the analyses queued or running without a sign of life for
    longer than ``FIVES_ANALYSIS_STUCK_AFTER`` (a dead worker's run, a prompt lost with the
    broker), each with a prompt of its own; return how many.

    A run handed back loses its hold (should its worker wake, it may write nothing more), and
    the row keeps its place in turn. A queued one's sign of life is the archive's last prompt
    for it: a long queue is prompted again once in a while, which costs a look at the queue."""
    now = timezone.now()
    quiet = ANALYSIS_LEASE.ran_out(now)
    waiting = MatchAnalysis.objects.filter(quiet, status__in=[Status.QUEUED, Status.RUNNING])
    ids = list(waiting.order_by("pk").values_list("pk", flat=True)[:limit])
    # Those that showed life since they were read are left alone (the update's own test).
    handed = waiting.filter(pk__in=ids).update(status=Status.QUEUED, holder="", heartbeat_at=now)
    for _prompt in range(handed):
        analysis_send()
    return handed


@dataclass(slots=True)
class _LossSums:
    """A player's analysed seats summed (``players_expected_loss``): the expected loss and
    the plays, the matches, the winning chances lost and the plays with a choice, and each
    match's luck and skill."""

    loss: float = 0.0
    plays: int = 0
    matches: int = 0
    lost: float = 0.0
    decisions: int = 0
    luck: list[tuple[float, float]] = field(default_factory=list)


def players_expected_loss(
    *, player_ids: Iterable[int], recent: int = RECENT_MATCHES
) -> dict[int, dict[str, Any]]:
    """Return, by player, over their latest ``recent`` matches analysed with the current
    version: the average expected loss per play, the performance (the winning chances lost
    per play with a choice, forced plays left out, and its band), the mean luck and skill
    per match, and how many matches that is."""
    player_ids = list(player_ids)
    analysed = SeatAnalysis.objects.filter(player_id__in=player_ids, version=VERSION)
    if len(player_ids) == 1:
        # One player (their page): their latest, read backwards from the index (player,
        # played_at) and stopped, not numbered over every match of theirs analysed.
        analysed = analysed.order_by("-played_at")[:recent]
    else:
        analysed = analysed.annotate(
            latest=Window(
                RowNumber(), partition_by=[F("player_id")], order_by=F("played_at").desc()
            )
        ).filter(latest__lte=recent)
    rows = analysed.values_list(
        "player_id", "loss", "plays", "chance_loss", "decisions", "luck", "skill"
    )
    sums: dict[int, _LossSums] = {}
    for player_id, loss, plays, chance_loss, decisions, luck, skill in rows:
        total = sums.setdefault(player_id, _LossSums())
        total.loss += loss
        total.plays += plays
        total.matches += 1
        if chance_loss is not None:
            total.lost += chance_loss
            total.decisions += decisions
        if luck is not None and skill is not None:
            total.luck.append((luck, skill))
    out: dict[int, dict[str, Any]] = {}
    for player_id, total in sums.items():
        performance = round(total.lost / total.decisions, 2) if total.decisions else None
        lucks = total.luck
        out[player_id] = {
            "expected_loss": round(total.loss / total.plays, 2) if total.plays else None,
            "performance": performance,
            "band": performance_band(performance),
            "luck": round(sum(luck for luck, _ in lucks) / len(lucks), 1) if lucks else None,
            "skill": round(sum(skill for _, skill in lucks) / len(lucks), 1) if lucks else None,
            "analysed_matches": total.matches,
        }
    return out


def performance_band(performance: float | None) -> str | None:
    """Return the band of a performance figure (``PERFORMANCE_BANDS``), or None."""
    if performance is None:
        return None
    for band, below in PERFORMANCE_BANDS:
        if performance < below:
            return band
    return PERFORMANCE_BANDS[-1][0]


def analysis_state(*, match: Match) -> dict[str, Any]:
    """Return what the API and the page say of a match's analysis: its status ("none" when
    never asked for), version, progress, whether it is stale, and its result once done."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None:
        return {
            "match": match.pk,
            "status": "none",
            "version": None,
            "current_version": VERSION,
            "stale": False,
            "stuck": False,
            "done": 0,
            "total": 0,
            "requested_at": None,
            "finished_at": None,
            "failure": "",
            "result": None,
        }
    return {
        "match": match.pk,
        "status": analysis.status,
        "version": analysis.version,
        "current_version": VERSION,
        "stale": analysis_is_stale(analysis),
        # Only a run is said to be stuck: a queued analysis may rightly wait longer in a long
        # queue, and the sweep prompts it again should its prompt have been lost.
        "stuck": analysis.status == Status.RUNNING and analysis_is_stuck(analysis),
        "done": analysis.done,
        "total": analysis.total,
        "requested_at": analysis.requested_at,
        "finished_at": analysis.finished_at,
        "failure": analysis.failure,
        "result": analysis.result if analysis.status == Status.DONE else None,
    }


def skipped_reason(reason: str) -> str:
    """Return why a play was not reviewed, in words (the engine's reason code otherwise)."""
    words = {
        "hand-unknown": _(
            "the player's hand is not known at that moment (the table record hides a draw)"
        ),
    }
    return str(words.get(reason, reason))


def analysis_page(*, match: Match, players: list[str], user: Any) -> dict[str, Any]:
    """Return what the match page shows of the analysis: its state, and once there is a
    result (current or stale), each player's accuracy, mean loss and marks, the chart of
    expected loss by hand and the plays not reviewed. The figures of every play are read
    from the API when asked for (the page stays light)."""
    state = analysis_state(match=match)
    page = _page_state(state=state, user=user)
    page |= _page_quota(page=page, user=user)
    page |= _page_club_bound(match=match, state=state, user=user)
    result = state["result"]
    if not result:
        return page
    page["seats"] = _page_seats(result=result, players=players)
    page["chart"] = loss_chart(players=players, hands=result.get("loss_by_hand") or [])
    page["skipped"] = _page_skipped(result=result, players=players)
    page["unit"] = result.get("unit", "points")
    page |= _page_chances(result=result, players=players)
    page["marks"] = replay_marks(result=result)
    return page


def replay_marks(*, result: dict[str, Any]) -> list[list[Any]]:
    """Return what the replay shows of the review at each reviewed play that lost something:
    ``[hand, move, mark or None, loss, best play, unit]`` (hand and move from 1, as the
    replay's addresses: ``games.numbering``; the loss and the best play the mark's: in winning
    chances where the review has them, else points), compact, for the move list, the last
    move's line and the board."""
    marks = []
    for play in result.get("plays", []):
        chance = play.get("unit") == "chance" and play.get("chance_loss") is not None
        loss = play["chance_loss"] if chance else play["loss"]
        if loss < 0.05:
            continue
        best = play["chance_best"] if chance else play["best"]
        marks.append(
            [
                shown(play["hand"]),
                shown(play["move"]),
                play["mark"],
                round(loss, 1),
                best,
                play.get("unit"),
            ]
        )
    return marks


def _page_chances(*, result: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """Return each side's result, chance at the start, luck, skill and luck-adjusted result,
    and the chart of the winning chances, where the review has them."""
    sides = [
        {
            **side,
            "name": " & ".join(players[seat] for seat in side["seats"] if seat < len(players)),
            "colour": f"team-{side['side']}",
        }
        for side in result.get("sides", [])
    ]
    if result.get("unit") != "chance":
        return {}
    names = [side["name"] for side in sides] or [" & ".join(players[seat::2]) for seat in range(2)]
    start = sides[0]["expected_start"] if sides else 50.0
    return {
        "sides": sides,
        "chance_chart": chance_chart(names=names, start=start, points=result.get("chances", [])),
    }


def _page_state(*, state: dict[str, Any], user: Any) -> dict[str, Any]:
    """Return the page's state, thresholds and whether the reader may ask or run one."""
    return {
        "state": state,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "chance_thresholds": {
            "inaccuracy": CHANCE_INACCURACY,
            "mistake": CHANCE_MISTAKE,
            "blunder": CHANCE_BLUNDER,
        },
        "may_ask": bool(user and user.is_authenticated),
        "may_run": state["status"] == "none"
        or state["stale"]
        or state["status"] == Status.FAILED
        or state["stuck"],
        "under_way": state["status"] in (Status.QUEUED, Status.RUNNING) and not state["stuck"],
    }


def _page_quota(*, page: dict[str, Any], user: Any) -> dict[str, Any]:
    """Return what a signed-in reader who may run an analysis has left of their quota."""
    if not (user and user.is_authenticated and page["may_run"]):
        return {}
    left, retry_after = quota_left(user=user)
    said: dict[str, Any] = {"quota_left": left}
    if not left:  # said instead of "0 more", the button off
        limit = settings.FIVES_ANALYSES_PER_DAY
        said["quota_refusal"] = quota_refusal(limit=limit, retry_after=retry_after)
    return said


def _page_club_bound(*, match: Match, state: dict[str, Any], user: Any) -> dict[str, Any]:
    # A match the club's own setting did not analyse: its admins read whether the club's
    # daily bound was why.
    club = match.club
    if state["status"] == "none" and club.analyse_every_match and club.is_admin(user):
        return {"club_bound": club_bound_reached(club=club)}
    return {}


def _page_seats(*, result: dict[str, Any], players: list[str]) -> list[dict[str, Any]]:
    """Return each seat's player, plays reviewed, accuracy, mean loss and marks."""
    reviewed, marks = _plays_by_seat(result.get("plays", []))
    accuracy = result.get("accuracy") or []
    mean_loss = result.get("mean_loss") or []
    return [
        {
            "seat": seat,
            "player": name,
            "colour": f"team-{seat}",
            "plays": reviewed.get(seat, 0),
            "accuracy": accuracy[seat] if seat < len(accuracy) else None,
            "mean_loss": mean_loss[seat] if seat < len(mean_loss) else None,
            **{mark: marks.get(seat, {}).get(mark, 0) for mark in MARKS},
        }
        for seat, name in enumerate(players)
    ]


def _plays_by_seat(
    plays: Iterable[dict[str, Any]],
) -> tuple[dict[int, int], dict[int, dict[str, int]]]:
    """Return the plays reviewed by seat, and each seat's count of every mark."""
    marks: dict[int, dict[str, int]] = {}
    reviewed: dict[int, int] = {}
    for play in plays:
        reviewed[play["seat"]] = reviewed.get(play["seat"], 0) + 1
        if play.get("mark"):
            counts = marks.setdefault(play["seat"], {})
            counts[play["mark"]] = counts.get(play["mark"], 0) + 1
    return reviewed, marks


def _page_skipped(*, result: dict[str, Any], players: list[str]) -> list[dict[str, Any]]:
    """Return the plays not reviewed, each with its hand, move, player and why."""
    return [
        {
            "hand": shown(play["hand"]),
            "move": shown(play["move"]),
            "player": players[play["seat"]] if play["seat"] < len(players) else "?",
            "reason": skipped_reason(play["reason"]),
        }
        for play in result.get("skipped", [])
    ]


def analysis_text() -> dict[str, str]:
    """Return the words the analysis script shows, in the language of the request."""
    return {
        "count": _("%(done)s of %(total)s plays"),
        "waiting": _("waiting for a worker"),
        "loading": _("Loading…"),
        "load_failed": _("The analysis could not be loaded. Try again in a moment."),
        "position": _("Hand %(hand)s, move %(move)s"),
        "best_same": _("the same"),
        # Under a figure in winning chances, the same in points (the list of every play).
        "in_points": _("in points: %(points)s"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
        "on_end": _("on %(end)s"),
    } | end_names()
