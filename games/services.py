"""Services: uploads in, matches stored move by move, rescoring. Views and tasks call these.

The engine (``games.engine``) decides everything about the rules; these functions only
store what it says, atomically, and never twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.engine import MatchLog, Report, SchemaError, load_json, parse_log, validate_traced
from games.engine.validate import MoveTrace, schema_report

from .cache import archive_changed
from .db import insert_rows
from .models import Club, Hand, Match, Move, Player, Seat, Upload, UploadItem

DEFAULT_CLUB = "Independent"
NDJSON_SUFFIXES = (".ndjson", ".jsonl")


# --- uploads --------------------------------------------------------------------------------


def upload_kind(data: bytes, filename: str = "") -> str:
    """Return ``ndjson`` for a file of many logs, else ``json``."""
    if filename.lower().endswith(NDJSON_SUFFIXES):
        return Upload.Kind.NDJSON
    if filename.lower().endswith(".json"):
        return Upload.Kind.JSON
    lines = [line for line in data.splitlines() if line.strip()]
    if len(lines) <= 1:
        return Upload.Kind.JSON
    try:
        load_json(data)
    except SchemaError:
        return Upload.Kind.NDJSON
    return Upload.Kind.JSON


def upload_documents(upload: Upload) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line number, text)`` of each log of an upload (line 1 for a JSON upload)."""
    raw = bytes(upload.raw)
    if upload.kind == Upload.Kind.JSON:
        yield 1, raw
        return
    for number, line in enumerate(raw.splitlines(), start=1):
        if line.strip():
            yield number, line


def upload_create(
    *,
    uploader: Any,
    data: bytes,
    filename: str = "",
    club: Club | None = None,
    size: int | None = None,
) -> Upload:
    """Store what was sent and queue its processing; return the upload.

    Nothing sent is lost: an empty, oversized or overfull document is stored as a rejected
    upload saying why. The same document sent again by the same person is the same upload.
    ``size`` is the size sent when the caller read no more than the limit of it.
    """
    limit = settings.FIVES_UPLOAD_MAX_BYTES
    size = max(len(data), size or 0)
    problem = ""
    if size > limit:
        problem = _("The file is %(size)s bytes; the limit is %(limit)s bytes.") % {
            "size": size,
            "limit": limit,
        }
        data = b""  # beyond the limit nothing is kept but the fact and the size
    elif not data.strip():
        problem = _("The document is empty.")
    kind = upload_kind(data, filename)
    if not problem and kind == Upload.Kind.NDJSON:
        count = sum(1 for line in data.splitlines() if line.strip())
        if count > settings.FIVES_UPLOAD_MAX_MATCHES:
            problem = _("The file holds %(count)s matches; the limit is %(limit)s.") % {
                "count": count,
                "limit": settings.FIVES_UPLOAD_MAX_MATCHES,
            }
    content_hash = hashlib.sha256(data).hexdigest()
    with transaction.atomic():
        if not problem:
            existing = (
                Upload.objects.filter(uploader=uploader, content_hash=content_hash, size=size)
                .order_by("id")
                .first()
            )
            if existing is not None:
                return existing
        upload = Upload.objects.create(
            uploader=uploader,
            club=club,
            kind=kind,
            filename=filename[:255],
            raw=data,
            size=size,
            content_hash=content_hash,
            problem=problem,
        )
        if problem:
            upload.status = Upload.Status.REJECTED
            upload.processed_at = timezone.now()
            upload.save(update_fields=["status", "processed_at"])
        else:
            from .tasks import upload_process_task

            transaction.on_commit(lambda: upload_process_task.delay(upload.pk))
    return upload


@dataclass
class _Valid:
    """A log the engine accepted, ready to store."""

    index: int
    log: MatchLog
    report: Report
    trace: MoveTrace
    content_hash: str


def upload_process(*, upload_id: int) -> Upload:
    """Validate every log of an upload and store the valid ones; return the upload.

    Works in batches, each one transaction; a batch already stored is skipped, so a task
    that runs again (a worker killed half-way) finishes the work without doubling it.
    """
    upload = Upload.objects.get(pk=upload_id)
    if upload.is_done:
        return upload
    batch: list[tuple[int, bytes]] = []
    for item in upload_documents(upload):
        batch.append(item)
        if len(batch) >= settings.FIVES_INGEST_BATCH:
            _process_batch(upload, batch)
            batch = []
    if batch:
        _process_batch(upload, batch)
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload_id)
        if upload.is_done:
            return upload
        items = upload.items.all()
        upload.item_count = items.count()
        upload.rejected_count = items.filter(status=UploadItem.Status.REJECTED).count()
        upload.accepted_count = upload.item_count - upload.rejected_count
        if upload.rejected_count == 0:
            upload.status = Upload.Status.ACCEPTED
        elif upload.accepted_count == 0:
            upload.status = Upload.Status.REJECTED
        else:
            upload.status = Upload.Status.PARTIAL
        upload.processed_at = timezone.now()
        upload.save()
        new_matches = list(
            upload.items.filter(status=UploadItem.Status.ACCEPTED).values_list(
                "match_id", flat=True
            )
        )
        if new_matches:
            _after_commit_review(new_matches)
    return upload


def _after_commit_review(match_ids: list[int]) -> None:
    """Queue the statistics and ratings of these matches once they are committed."""
    from replays.tasks import matches_review_task

    transaction.on_commit(lambda: matches_review_task.delay(match_ids))


def _process_batch(upload: Upload, batch: list[tuple[int, bytes]]) -> None:
    # Validation needs no database: do it before taking the lock.
    checked = [_check(index, text) for index, text in batch]
    for attempt in range(3):
        try:
            with transaction.atomic():
                _store_batch(upload, checked)
            return
        except IntegrityError:
            # Another worker stored one of these matches meanwhile: look again.
            if attempt == 2:
                raise


def _check(index: int, text: bytes) -> tuple[int, Report, _Valid | None]:
    try:
        doc = load_json(text)
    except SchemaError as exc:
        return index, schema_report(exc), None
    report, trace = validate_traced(doc)
    if not report.valid:
        return index, report, None
    log = parse_log(doc)
    canonical = json.dumps(log.as_json(), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    return index, report, _Valid(index, log, report, trace, digest)


def _store_batch(upload: Upload, checked: list[tuple[int, Report, _Valid | None]]) -> None:
    Upload.objects.select_for_update().filter(pk=upload.pk).first()
    done = set(
        upload.items.filter(index__in=[index for index, _, _ in checked]).values_list(
            "index", flat=True
        )
    )
    todo = [entry for entry in checked if entry[0] not in done]
    if not todo:
        return
    valid = [entry[2] for entry in todo if entry[2] is not None]
    clubs = _clubs_for(upload, valid)
    known = dict(
        Match.objects.filter(content_hash__in=[item.content_hash for item in valid]).values_list(
            "content_hash", "id"
        )
    )
    ids = {(clubs[item.index].pk, item.log.id) for item in valid if item.log.id is not None}
    for club_id, external_id, match_id in Match.objects.filter(
        club_id__in={club_id for club_id, _eid in ids},
        external_id__in={external_id for _cid, external_id in ids},
    ).values_list("club_id", "external_id", "id"):
        known[f"{club_id}:{external_id}"] = match_id

    fresh: list[_Valid] = []
    # Index of an item -> the stored match it repeats, or the item of this batch it repeats.
    repeats: dict[int, int | _Valid] = {}
    taken: dict[str, _Valid] = {}
    for item in valid:
        keys = _identity(item, clubs)
        match_id = next((known[key] for key in keys if key in known), None)
        twin = next((taken[key] for key in keys if key in taken), None)
        if match_id is not None or twin is not None:
            repeats[item.index] = match_id if match_id is not None else twin
            continue
        taken.update((key, item) for key in keys)
        fresh.append(item)
    stored = _store_matches(upload, fresh, clubs)
    outcome: dict[int, tuple[str, int]] = {
        item.index: (UploadItem.Status.ACCEPTED, stored[item.index].pk) for item in fresh
    }
    for index, repeated in repeats.items():
        match_id = repeated if isinstance(repeated, int) else stored[repeated.index].pk
        outcome[index] = (UploadItem.Status.DUPLICATE, match_id)

    if fresh:
        archive_changed()
    UploadItem.objects.bulk_create(
        [
            UploadItem(
                upload=upload,
                index=index,
                status=outcome[index][0] if index in outcome else UploadItem.Status.REJECTED,
                match_id=outcome[index][1] if index in outcome else None,
                report=report.as_dict(),
            )
            for index, report, _ in todo
        ]
    )


def _identity(item: _Valid, clubs: dict[int, Club]) -> list[str]:
    """Return the keys that make a match the same one: its content, its club and id."""
    keys = [item.content_hash]
    if item.log.id is not None:
        keys.append(f"{clubs[item.index].pk}:{item.log.id}")
    return keys


def _clubs_for(upload: Upload, items: list[_Valid]) -> dict[int, Club]:
    """Return each log's club (by item index): the upload's, else the one the log names."""
    if upload.club is not None:
        return {item.index: upload.club for item in items}
    named: dict[str, Club] = {}
    clubs: dict[int, Club] = {}
    for item in items:
        name = (item.log.club or "").strip()[:200] or DEFAULT_CLUB
        if name not in named:
            named[name] = _club_named(name)
        clubs[item.index] = named[name]
    return clubs


def _club_named(name: str) -> Club:
    club = Club.objects.filter(name=name).first()
    if club is not None:
        return club
    base = slugify(name, allow_unicode=True)[:190] or "club"
    slug = base
    number = 1
    while Club.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return Club.objects.create(name=name, slug=slug)


def _played_at(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = datetime.combine(date.fromisoformat(text), time())
        except ValueError:
            return None  # not ISO 8601: kept as text only
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=UTC)
    return moment


def _players_for(pairs: set[tuple[int, str]]) -> dict[tuple[int, str], Player]:
    """Return the players of ``(club id, handle)`` pairs, creating the missing ones."""

    def fetch() -> dict[tuple[int, str], Player]:
        found: dict[tuple[int, str], Player] = {}
        for club_id in {club_id for club_id, _handle in pairs}:
            handles = [handle for cid, handle in pairs if cid == club_id]
            for player in Player.objects.filter(club_id=club_id, handle__in=handles):
                found[(club_id, player.handle)] = player
        return found

    found = fetch()
    missing = [Player(club_id=c, handle=h) for c, h in pairs if (c, h) not in found]
    if missing:
        Player.objects.bulk_create(missing, ignore_conflicts=True)
        found = fetch()
    return found


def _store_matches(upload: Upload, items: list[_Valid], clubs: dict[int, Club]) -> dict[int, Match]:
    """Insert the matches of one batch with their seats, hands and moves (bulk inserts)."""
    if not items:
        return {}
    players = _players_for(
        {(clubs[item.index].pk, name) for item in items for name in item.log.players}
    )
    matches = [_match_row(upload, item, clubs[item.index]) for item in items]
    Match.objects.bulk_create(matches)
    by_index = {item.index: match for item, match in zip(items, matches, strict=True)}

    seats: list[Seat] = []
    hands: list[Hand] = []
    for item, match in zip(items, matches, strict=True):
        team_of = _team_of(item.log)
        for seat, name in enumerate(item.log.players):
            player = players[(match.club_id, name)]
            seats.append(Seat(match=match, seat=seat, team=team_of[seat], player=player))
        for number, (hand_log, result) in enumerate(
            zip(item.log.hands, item.report.hands, strict=True)
        ):
            hands.append(
                Hand(
                    match=match,
                    index=number,
                    leader=hand_log.leader,
                    deal=[list(tiles) for tiles in hand_log.deal],
                    end=result.end,
                    points=result.points,
                    settlement=result.settlement,
                    scores=result.scores,
                )
            )
    Seat.objects.bulk_create(seats)
    Hand.objects.bulk_create(hands, batch_size=1000)

    rows: list[tuple[Any, ...]] = []
    hand_rows = iter(hands)
    for item in items:
        for hand_log, hand_trace in zip(item.log.hands, item.trace, strict=True):
            hand_id = next(hand_rows).pk
            for number, (move, (count, points)) in enumerate(
                zip(hand_log.moves, hand_trace, strict=True)
            ):
                rows.append(
                    (
                        hand_id,
                        number,
                        move.seat,
                        move.kind,
                        move.tile or "",
                        move.end or "",
                        count,
                        points,
                        move.points,
                    )
                )
    insert_rows(Move, MOVE_COLUMNS, rows)
    return by_index


MOVE_COLUMNS = ("hand_id", "index", "seat", "kind", "tile", "end", "count", "points", "claimed")


def _team_of(log: MatchLog) -> list[int]:
    if log.teams is None:
        return list(range(len(log.players)))
    team_of = [0] * len(log.players)
    for team, seats in enumerate(log.teams):
        for seat in seats:
            team_of[seat] = team
    return team_of


def _match_row(upload: Upload, item: _Valid, club: Club) -> Match:
    log = item.log
    report = item.report
    assert report.ruleset is not None
    warnings = [issue.as_dict() for issue in report.warnings]
    return Match(
        club=club,
        upload=upload,
        external_id=log.id,
        content_hash=item.content_hash,
        preset=report.ruleset.base,
        ruleset=log.ruleset,
        rules=report.ruleset.as_dict(),
        player_count=len(log.players),
        teams=[list(team) for team in log.teams] if log.teams is not None else None,
        event=log.event or "",
        source=log.source or "",
        played_at_text=log.played_at or "",
        played_at=_played_at(log.played_at),
        outcome=report.outcome,
        scores=report.scores,
        winner=report.winner,
        final_scores=list(log.final_scores) if log.final_scores is not None else None,
        warnings=warnings,
        warning_count=len(warnings),
        move_count=sum(len(hand.moves) for hand in log.hands),
    )


# --- matches --------------------------------------------------------------------------------


def match_log(*, match: Match) -> dict[str, Any]:
    """Return the stored match as a ``fives/1`` log, rebuilt from its rows."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    doc: dict[str, Any] = {"format": "fives/1"}
    if match.external_id is not None:
        doc["id"] = match.external_id
    doc["ruleset"] = match.ruleset
    doc["players"] = [seat.player.handle for seat in seats]
    doc["teams"] = match.teams
    doc["club"] = match.club.name
    if match.event:
        doc["event"] = match.event
    if match.played_at_text:
        doc["played_at"] = match.played_at_text
    if match.source:
        doc["source"] = match.source
    hands = []
    for hand in sorted(match.hands.all(), key=lambda hand: hand.index):
        moves = []
        for move in sorted(hand.moves.all(), key=lambda move: move.index):
            out: dict[str, Any] = {"seat": move.seat}
            out[move.kind] = True if move.kind == Move.Kind.PASS else move.tile
            if move.end:
                out["end"] = move.end
            if move.claimed is not None:
                out["points"] = int(move.claimed) if move.claimed.is_integer() else move.claimed
            moves.append(out)
        hands.append({"leader": hand.leader, "deal": hand.deal, "moves": moves})
    doc["hands"] = hands
    if match.final_scores is not None:
        doc["final_scores"] = match.final_scores
    return doc


def upload_delete(*, upload_id: int) -> None:
    """Delete an upload and the matches it brought into the archive."""
    for match_id in Match.objects.filter(upload_id=upload_id).values_list("id", flat=True):
        match_delete(match_id=match_id)
    Upload.objects.filter(pk=upload_id).delete()


def upload_rerun(*, upload_id: int) -> Upload:
    """Queue an upload's rejected logs to be processed again; return the upload."""
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload_id)
        if upload.problem:  # nothing was read from it: nothing to run again
            return upload
        upload.items.filter(status=UploadItem.Status.REJECTED).delete()
        upload.status = Upload.Status.PENDING
        upload.processed_at = None
        upload.save(update_fields=["status", "processed_at"])
        from .tasks import upload_process_task

        transaction.on_commit(lambda: upload_process_task.delay(upload.pk))
    return upload


def match_delete(*, match_id: int) -> None:
    """Delete a match; the ratings of its club are recomputed without it."""
    from replays.services import matches_forget

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        club_id, since = match.club_id, match.played_at or match.created_at
        match.delete()
        archive_changed()
        matches_forget(club_id=club_id, since=since)


def match_queryset_for_log():
    """Return the queryset that loads everything ``match_log`` reads, in four queries."""
    return Match.objects.select_related("club").prefetch_related("seats__player", "hands__moves")


def match_rescore(*, match_id: int) -> Match:
    """Validate a stored match again with the current engine and update what it computed."""
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match_id).first()
        match = match_queryset_for_log().get(pk=match_id)
        report, trace = validate_traced(match_log(match=match))
        hands = sorted(match.hands.all(), key=lambda hand: hand.index)
        changed_moves: list[Move] = []
        for hand, result, hand_trace in zip(hands, report.hands, trace, strict=False):
            hand.end = result.end
            hand.points = result.points
            hand.settlement = result.settlement
            hand.scores = result.scores
            moves = sorted(hand.moves.all(), key=lambda move: move.index)
            for move, (count, points) in zip(moves, hand_trace, strict=False):
                move.count = count
                move.points = points
                changed_moves.append(move)
        Hand.objects.bulk_update(hands, ["end", "points", "settlement", "scores"])
        Move.objects.bulk_update(changed_moves, ["count", "points"], batch_size=2000)
        match.warnings = [issue.as_dict() for issue in report.warnings]
        match.errors = [issue.as_dict() for issue in report.errors]
        match.warning_count = len(match.warnings)
        if report.ruleset is not None:
            match.rules = report.ruleset.as_dict()
        match.outcome = report.outcome
        match.scores = report.scores
        match.winner = report.winner
        match.rescored_at = timezone.now()
        _after_commit_review([match.pk])
        archive_changed()
        match.save(
            update_fields=[
                "warnings",
                "errors",
                "warning_count",
                "rules",
                "outcome",
                "scores",
                "winner",
                "rescored_at",
            ]
        )
    return match
