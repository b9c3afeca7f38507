"""Ingest: an upload's logs validated by the engine and stored, in batches, never twice.

Each log is walked by the engine once (``check_document``): the walk gives the report, the
count and points of every move and the review of every play, all stored here, so nothing
downstream walks the match again to show or count it.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import msgspec
from django.conf import settings
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from clubs.models import Club
from fives_engine import Checked, Issue, MatchLog, Report, check_document, played_at_moment
from fives_engine.scoring import team_of
from games.cache import lists_changed
from games.codec import PackedHand, pack_match
from games.db import insert_rows
from games.events import MatchesStored, announce
from games.guests import seat_guests
from games.leases import Lease, LeaseLost, new_holder
from games.models import (
    Match,
    Player,
    PlayerAlias,
    Seat,
    Upload,
    UploadItem,
    UploadWorkCopy,
)

logger = logging.getLogger(__name__)

# The archive's own error codes (not the engine's): a log the engine accepted that could not
# be stored, and logs refused because of their club. Clubs are made on purpose, never by a
# log: a log must land in a club that exists and whose member sent it.
NOT_STORED = "not-stored"
NOT_STORED_MESSAGE = gettext_noop(
    "the archive could not store this match (%(detail)s); the rest of the upload was stored"
)
CLUB_MISSING = "club-missing"
CLUB_UNKNOWN = "club-unknown"
CLUB_NOT_MEMBER = "club-not-member"
ARCHIVE_MESSAGES = {
    NOT_STORED: NOT_STORED_MESSAGE,
    CLUB_MISSING: gettext_noop(
        "this log names no club and no club was chosen for the upload: choose one of your "
        "clubs when you upload, or create a club first (Clubs, then New club)"
    ),
    CLUB_UNKNOWN: gettext_noop(
        "there is no club named “%(club)s” in the archive: a log never creates a club. "
        "Correct the name, or create the club first (Clubs, then New club) and upload again"
    ),
    CLUB_NOT_MEMBER: gettext_noop(
        "you are not a member of the club “%(club)s”: ask its admins for an invitation "
        "link, or ask to join on the club's page, then run this upload again"
    ),
}


@dataclass
class _Valid:
    """A log the engine accepted, with everything its one walk found, ready to store."""

    index: int
    checked: Checked
    content_hash: bytes  # the SHA-256 digest of the canonical log
    packed: bytes  # its hands as the match keeps them (games.codec)

    @property
    def log(self) -> MatchLog:
        assert self.checked.log is not None
        return self.checked.log

    @property
    def report(self) -> Report:
        return self.checked.report


def report_dict(report: Report) -> dict[str, Any]:
    """Return the report as stored: FORMAT.md's shape, each issue with its parameters so
    that pages and the API can say it in the reader's language."""
    return report.as_dict() | {
        "errors": issue_dicts(report.errors),
        "warnings": issue_dicts(report.warnings),
    }


def issue_dicts(issues: list[Issue]) -> list[dict[str, Any]]:
    """Return issues as the report writes them, each with its parameters."""
    return [issue.as_dict() | {"params": issue.params} for issue in issues]


class UploadHeld(Exception):
    """Another run holds the upload's lease: it is being processed elsewhere."""

    def __init__(self, upload_id: int, seconds_left: float) -> None:
        # Both arguments kept as the exception's: it is made again from them when it crosses
        # to another process (pickled), as a pool of loading processes sends it back.
        super().__init__(upload_id, seconds_left)
        self.upload_id = upload_id
        self.seconds_left = seconds_left

    def __str__(self) -> str:
        return f"upload {self.upload_id} is held by another run for {self.seconds_left:.0f} s"


# The upload's lease (games.leases): held until ``lease_until``, renewed with each batch.
UPLOAD_LEASE = Lease(
    holder="lease_holder", life="lease_until", setting="FIVES_LEASE_SECONDS", until=True
)


def lease_length() -> timedelta:
    """Return how long a run holds an upload without renewing its lease."""
    return UPLOAD_LEASE.length()


def lease_take(*, upload_id: int, holder: str) -> bool:
    """Take the upload's lease for ``holder``; return whether it was taken: it was free, ran
    out or already the holder's (one conditional UPDATE, ``Lease.take``)."""
    pending = Upload.objects.filter(pk=upload_id, status=Upload.Status.PENDING)
    return bool(UPLOAD_LEASE.take(pending, holder))


def lease_renew(*, upload_id: int, holder: str) -> None:
    """Renew ``holder``'s lease; raise ``LeaseLost`` when another run took it over."""
    pending = Upload.objects.filter(pk=upload_id, status=Upload.Status.PENDING)
    if not UPLOAD_LEASE.write(pending, holder):
        raise LeaseLost(f"upload {upload_id}: the lease of {holder} was taken over")


def upload_process(*, upload_id: int, holder: str | None = None) -> Upload:
    """Validate every log of an upload and store the valid ones; return the upload.

    The run holds the upload's lease (``lease_take``) and renews it with each batch, so a
    run that dies is noticed within ``FIVES_LEASE_SECONDS`` and the upload handed over
    again (``uploads_requeue_stale``). Raises ``UploadHeld`` when another run holds it, and
    ``LeaseLost`` when its lease was taken over between two batches: the run stops before
    its next batch. Works in batches, each one transaction that first checks the lease; a
    batch already stored is skipped, so a task that runs again (a worker killed half-way)
    finishes the work without doubling it. ``holder`` names the run (a task retried after
    a transient fault passes its own again, to take its lease back at once).
    """
    holder = holder or new_holder()
    # The document as kept is read only when the upload has no work copy (documents()).
    upload = Upload.objects.defer("raw").get(pk=upload_id)
    if upload.is_done:
        return upload
    if not lease_take(upload_id=upload_id, holder=holder):
        upload = Upload.objects.defer("raw").get(pk=upload_id)
        if upload.is_done:
            return upload
        raise UploadHeld(upload_id, UPLOAD_LEASE.seconds_left(upload))
    batch: list[tuple[int, bytes]] = []
    for item in upload.documents():
        batch.append(item)
        if len(batch) >= settings.FIVES_INGEST_BATCH:
            _process_batch(upload, batch, holder)
            batch = []
    if batch:
        _process_batch(upload, batch, holder)
    with transaction.atomic():
        upload = Upload.objects.select_for_update().defer("raw").get(pk=upload_id)
        if upload.is_done:
            return upload
        if upload.lease_holder != holder:
            raise LeaseLost(f"upload {upload_id}: the lease of {holder} was taken over")
        upload.finish()
        lease_give_back(upload)
        UploadWorkCopy.drop(upload.pk)
        stored = tuple(
            upload.items.filter(status=UploadItem.Status.ACCEPTED)
            .exclude(match=None)
            .values_list("match_id", flat=True)
        )
        if stored:
            announce(MatchesStored(match_ids=stored))
    return upload


def upload_settle(*, upload_id: int, wait: float, every: float = 0.25) -> Upload:
    """Process the upload here, or wait for the run that holds it; return it done.

    For a caller that needs the matches before it goes on (the demo, on a deployment whose
    workers may take the prompt first): the lease decides who stores them, so they are
    stored once whoever does. A run held elsewhere is waited for; one that died leaves its
    lease to run out (``FIVES_LEASE_SECONDS``), and then this call takes it over. Raises
    ``UploadHeld`` when the upload is still held by another run after ``wait`` seconds.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            return upload_process(upload_id=upload_id)
        except UploadHeld:
            if time.monotonic() >= deadline:
                raise
        except LeaseLost:
            # This run was too slow and another took the upload over: wait for that one.
            if time.monotonic() >= deadline:
                raise UploadHeld(upload_id, 0) from None
        time.sleep(every)


def lease_give_back(upload: Upload) -> None:
    """Clear a finished upload's lease (the caller holds the row's lock)."""
    UPLOAD_LEASE.give_back(upload)


def upload_fail(*, upload_id: int, reason: str) -> None:
    """Record that an upload's processing broke on something other than its logs."""
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=upload_id)
        if not upload.is_done:
            upload.fail(reason)
            lease_give_back(upload)
            UploadWorkCopy.drop(upload.pk)


def _process_batch(upload: Upload, batch: list[tuple[int, bytes]], holder: str) -> None:
    # Renewed before validating too, so the lease covers the validation's time, and a run
    # taken over stops here, before walking a batch another run has.
    lease_renew(upload_id=upload.pk, holder=holder)
    # Validation needs no database: do it before taking the lock.
    checked = [log_checked(index, text) for index, text in batch]
    for attempt in range(3):
        try:
            with transaction.atomic():
                _store_batch(upload, checked, holder)
            return
        except IntegrityError:
            # Another worker stored one of these matches meanwhile: look again.
            if attempt == 2:
                raise
        except DatabaseError as exc:
            if isinstance(exc, OperationalError | InterfaceError):
                raise  # the database is away: the task retries the whole batch later
            # A log the engine accepted that the database still refuses: store the others
            # one by one, and reject that one alone, saying why.
            logger.warning("upload %s: a batch failed to store (%s); one by one", upload.pk, exc)
            for entry in checked:
                _store_alone(upload, entry, holder)
            return


def _store_alone(upload: Upload, entry: Checked_, holder: str) -> None:
    try:
        with transaction.atomic():
            _store_batch(upload, [entry], holder)
    except DatabaseError as exc:
        if isinstance(exc, OperationalError | InterfaceError):
            raise
        with transaction.atomic():
            _store_batch(upload, [(entry[0], not_stored_report(exc), None)], holder)


def not_stored_report(exc: Exception) -> dict[str, Any]:
    """Return the report of a log the engine accepted but the database refused: the
    archive's own error ``not-stored`` (README), not one of the engine's."""
    return archive_report(NOT_STORED, {"detail": type(exc).__name__})


def archive_report(code: str, params: dict[str, Any]) -> dict[str, Any]:
    """Return the report of a log refused by the archive itself (one of
    ``ARCHIVE_MESSAGES``), in FORMAT.md's shape with the error's parameters."""
    return {
        "valid": False,
        "outcome": "unfinished",
        "ruleset": None,
        "errors": [
            {
                "code": code,
                "hand": None,
                "move": None,
                "seat": None,
                "message": ARCHIVE_MESSAGES[code] % params,
                "params": params,
            }
        ],
        "warnings": [],
        "scores": [],
        "winner": None,
        "hands": [],
    }


def read_document(text: bytes) -> Any:
    """Return a log's JSON object read from ``text``, or ``text`` itself for the engine to
    read (``check_document``): msgspec reads a log about twice as fast as the engine's
    reader (the standard library's, the definition: the engine imports nothing else), and
    gives the same value for every text it reads, whole numbers of any size included.
    Whatever it refuses (a byte-order mark, NaN, a lone surrogate, a number out of a
    float's range, a value nested deeper than it goes...) or reads as anything but an
    object (a JSON string would be taken for JSON text) goes to the engine as text, which
    gives its value or its error (tests/archive/test_ingest_read.py)."""
    try:
        doc = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return text
    return doc if type(doc) is dict else text


def log_checked(index: int, text: bytes) -> tuple[int, Report, _Valid | None]:
    """Return what ingest makes of the ``index``-th log of an upload before it meets the
    database: its report and, for a valid log, everything its row needs that is worked
    out from the log (``bench.ingest`` times it as ingest's own read and walk)."""
    # One walk gives the report, the parsed log and each move's facts; the codec packs the
    # log and its facts. Neither needs the database: both are done before the batch's lock.
    checked = check_document(read_document(text))
    if not checked.report.valid:
        return index, checked.report, None
    log = checked.log
    assert log is not None
    digest = hashlib.sha256(log.canonical_text().encode()).digest()
    hands = zip(log.hands, checked.moves, checked.report.hands, strict=True)
    packed = pack_match([PackedHand(*hand) for hand in hands], len(log.players))
    return index, checked.report, _Valid(index, checked, digest, packed)


Checked_ = tuple[int, Report | dict[str, Any], _Valid | None]


def _store_batch(upload: Upload, checked: list[Checked_], holder: str | None = None) -> None:
    _lock_upload(upload, holder)
    todo = _not_done(upload, checked)
    if not todo:
        return
    clubs, todo = _with_clubs(upload, todo)
    valid = [entry[2] for entry in todo if entry[2] is not None]
    known = _known_matches(valid, clubs)
    fresh, repeats = _split_repeats(valid, clubs, known)
    stored = _store_matches(upload, fresh, clubs)
    outcome = _outcomes(fresh, repeats, stored)
    if fresh:
        lists_changed()
    _insert_items(upload, todo, outcome)


def _lock_upload(upload: Upload, holder: str | None) -> None:
    # The upload's own row is the lock: two runs of one upload never store a batch twice,
    # while uploads of other clubs go on in parallel. Under that lock the run's lease is
    # checked and renewed, in the batch's transaction: a run whose lease was taken over
    # stores nothing more.
    Upload.objects.select_for_update().filter(pk=upload.pk).values_list("pk").first()
    if holder is not None:
        lease_renew(upload_id=upload.pk, holder=holder)


def _not_done(upload: Upload, checked: list[Checked_]) -> list[Checked_]:
    """Return the entries of a batch the upload has no item for yet."""
    done = set(
        upload.items.filter(index__in=[index for index, _, _ in checked]).values_list(
            "index", flat=True
        )
    )
    return [entry for entry in checked if entry[0] not in done]


def _with_clubs(upload: Upload, todo: list[Checked_]) -> tuple[dict[int, Any], list[Checked_]]:
    """Return each log's club (by item index), and the entries with the logs refused for
    their club given their refusal as report and no item to store."""
    clubs, refused = _clubs_for(upload, [entry[2] for entry in todo if entry[2] is not None])
    todo = [
        (index, refused.get(index, report), None if index in refused else item)
        for index, report, item in todo
    ]
    return clubs, todo


def _known_matches(valid: list[_Valid], clubs: dict[int, Any]) -> dict[bytes | str, int]:
    """Return the stored matches these logs repeat, by key (``_identity``): by content
    hash, and by club and external id."""
    known: dict[bytes | str, int] = {
        bytes(digest): match_id
        for digest, match_id in Match.objects.filter(
            content_hash__in=[item.content_hash for item in valid]
        ).values_list("content_hash", "id")
    }
    ids = {(clubs[item.index].pk, item.log.id) for item in valid if item.log.id is not None}
    for club_id, external_id, match_id in Match.objects.filter(
        club_id__in={club_id for club_id, _eid in ids},
        external_id__in={external_id for _cid, external_id in ids},
    ).values_list("club_id", "external_id", "id"):
        known[f"{club_id}:{external_id}"] = match_id
    return known


def _split_repeats(
    valid: list[_Valid], clubs: dict[int, Any], known: dict[bytes | str, int]
) -> tuple[list[_Valid], dict[int, int | _Valid]]:
    """Return the logs to store as new matches, and the ones that repeat a match."""
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
    return fresh, repeats


def _outcomes(
    fresh: list[_Valid], repeats: dict[int, int | _Valid], stored: dict[int, int]
) -> dict[int, tuple[str, int]]:
    """Return each stored or repeated log's status and match id, by item index."""
    outcome: dict[int, tuple[str, int]] = {
        item.index: (UploadItem.Status.ACCEPTED, stored[item.index]) for item in fresh
    }
    for index, repeated in repeats.items():
        match_id = repeated if isinstance(repeated, int) else stored[repeated.index]
        outcome[index] = (UploadItem.Status.DUPLICATE, match_id)
    return outcome


def _insert_items(
    upload: Upload, todo: list[Checked_], outcome: dict[int, tuple[str, int]]
) -> None:
    """Insert the upload's items of a batch: accepted, duplicate or rejected."""
    insert_rows(
        UploadItem,
        ("upload_id", "index", "status", "match_id", "report"),
        (
            (
                upload.pk,
                index,
                str(outcome[index][0] if index in outcome else UploadItem.Status.REJECTED),
                outcome[index][1] if index in outcome else None,
                _item_report(report, outcome.get(index)),
            )
            for index, report, _ in todo
        ),
    )


def _item_report(report: Report | dict[str, Any], outcome: tuple[str, int] | None) -> Any:
    """Return the report an upload item keeps: none for an accepted log, whose report is its
    stored match's (``UploadItem.full_report``), else the log's own."""
    if outcome is not None and outcome[0] == UploadItem.Status.ACCEPTED:
        return None
    return report_dict(report) if isinstance(report, Report) else report


def _identity(item: _Valid, clubs: dict[int, Any]) -> list[bytes | str]:
    """Return the keys that make a match the same one: its content, its club and id."""
    keys: list[bytes | str] = [item.content_hash]
    if item.log.id is not None:
        keys.append(f"{clubs[item.index].pk}:{item.log.id}")
    return keys


def _clubs_for(
    upload: Upload, items: list[_Valid]
) -> tuple[dict[int, Any], dict[int, dict[str, Any]]]:
    """Return each log's club (by item index): the upload's, else the one the log names;
    and the reports of the logs refused for their club (none named, no such club, or one
    the uploader is not a member of)."""
    member_of = set(Club.objects.with_member(upload.uploader_id).values_list("pk", flat=True))
    named: dict[str, Any | None] = {}
    clubs: dict[int, Any] = {}
    refused: dict[int, dict[str, Any]] = {}
    for item in items:
        club = upload.club
        if club is None:
            name = (item.log.club or "").strip()
            if not name:
                refused[item.index] = archive_report(CLUB_MISSING, {})
                continue
            if name not in named:
                named[name] = club_named(name)
            club = named[name]
            if club is None:
                refused[item.index] = archive_report(CLUB_UNKNOWN, {"club": name})
                continue
        if club.pk not in member_of:
            # A private club is its members' business: to anyone else it does not exist, and
            # a log naming it is answered as one naming no club at all.
            if club.is_private:
                written = (item.log.club or "").strip() or club.name
                refused[item.index] = archive_report(CLUB_UNKNOWN, {"club": written})
            else:
                refused[item.index] = archive_report(CLUB_NOT_MEMBER, {"club": club.name})
            continue
        clubs[item.index] = club
    return clubs, refused


def club_named(name: str) -> Any | None:
    """Return the club a log names (by its name, else its slug), or None."""
    clubs = Club.objects
    return clubs.filter(name=name).first() or clubs.filter(slug=name).first()


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
    # A handle renamed or merged away still finds its player.
    for alias in PlayerAlias.objects.filter(
        club_id__in={c for c, _h in pairs}, handle__in={h for _c, h in pairs}
    ).select_related("player"):
        if (alias.club_id, alias.handle) in pairs and (alias.club_id, alias.handle) not in found:
            found[(alias.club_id, alias.handle)] = alias.player
    missing = [Player(club_id=c, handle=h) for c, h in pairs if (c, h) not in found]
    if missing:
        Player.objects.bulk_create(missing, ignore_conflicts=True)
        found = found | fetch()
    return found


def _store_matches(upload: Upload, items: list[_Valid], clubs: dict[int, Any]) -> dict[int, int]:
    """Insert the matches of one batch (their hands packed in their rows) and their seats;
    return each match's id by the index of its item."""
    if not items:
        return {}
    # A league's leg seats its visiting players as their own club's (games.guests): no
    # handle of theirs is made in the club that stores it. The leg is the one the log
    # names, else the one its upload counts for (the match's ``event``, as stored).
    guests = {
        item.index: seat_guests(clubs[item.index], item.log.event or upload.event, item.log.players)
        for item in items
    }
    players = _players_for(
        {
            (clubs[item.index].pk, name)
            for item in items
            for name in item.log.players
            if name not in guests[item.index]
        }
    )
    admin_of = set(Club.objects.administered_by(upload.uploader_id).values_list("pk", flat=True))
    now = timezone.now()
    rows = [_match_row(upload, item, clubs[item.index], admin_of, now) for item in items]
    columns = tuple(rows[0])
    ids = insert_rows(Match, columns, (tuple(row.values()) for row in rows), new_ids=len(rows))
    seats: list[tuple[int, int, int, int, datetime | None]] = []
    for item, match_id, row in zip(items, ids, rows, strict=True):
        club_id = clubs[item.index].pk
        teams = team_of(item.log.teams, len(item.log.players))[0]
        guest = guests[item.index]
        for seat, name in enumerate(item.log.players):
            player = guest[name] if name in guest else players[(club_id, name)]
            seats.append((match_id, seat, teams[seat], player.pk, row["played_at"]))
    insert_rows(Seat, ("match_id", "seat", "team", "player_id", "played_at"), seats)
    return {item.index: match_id for item, match_id in zip(items, ids, strict=True)}


def _match_row(
    upload: Upload, item: _Valid, club: Any, admin_of: set[int], now: datetime
) -> dict[str, Any]:
    """Return a new match's row by column, for COPY (no model object is built)."""
    log = item.log
    # In a club that approves uploads, a match waits for an admin unless an admin sent it.
    waits = club.requires_approval and club.pk not in admin_of
    report = item.report
    assert report.ruleset is not None
    warnings = issue_dicts(report.warnings)
    move_count = report.moves_checked
    return {
        "club_id": club.pk,
        "upload_id": upload.pk,
        "external_id": log.id,
        "content_hash": item.content_hash,
        "preset": report.ruleset.base,
        "ruleset": log.ruleset,
        "player_count": len(log.players),
        "teams": [list(team) for team in log.teams] if log.teams is not None else None,
        "event": log.event or upload.event,
        "source": log.source or "",
        "played_at_text": log.played_at or "",
        "played_at": played_at_moment(log.played_at),
        "outcome": report.outcome,
        "scores": report.scores,
        "winner": report.winner,
        "final_scores": list(log.final_scores) if log.final_scores is not None else None,
        "warnings": warnings,
        "errors": [],
        "warning_count": len(warnings),
        "move_count": move_count,
        "record": log.record or "",
        "created_at": now,
        "approval": str(Match.Approval.PENDING if waits else Match.Approval.APPROVED),
        "approval_reason": "",
        "packed": item.packed,
    }
