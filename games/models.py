"""Players, the handles they claim, uploads, and matches with their hands packed in a few
bytes a move (each of a club: the clubs app, below this one, owns those)."""

from __future__ import annotations

import bz2
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import zstandard
from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Upper
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubRequest
from clubs.tool_events import UPLOAD_FINISHED, publish
from fives_engine import HandLog, HandResult, MatchLog, MoveFacts, resolve_ruleset
from games.codec import unpack_match


class PlayerQuerySet(models.QuerySet):
    def visible_to(self, user) -> PlayerQuerySet:
        """Return the players ``user`` may see: in the clubs they may see, those that sat in
        an approved match or were claimed by a person, and, to the club's owner and admins,
        staff and whoever uploaded a match of theirs, every one. A handle that only a match
        awaiting approval brought is no one else's to read: no admin has seen it yet."""
        clubs = Club.objects
        players = self.filter(club__in=clubs.visible_to(user).values("pk"))
        if user is not None and user.is_authenticated and user.is_staff:
            return players
        seats = Seat.objects.filter(player=OuterRef("pk"))
        shown = Q(user__isnull=False) | Exists(
            seats.filter(match__approval=Match.Approval.APPROVED)
        )
        if user is not None and user.is_authenticated:
            shown |= Q(club__in=clubs.administered_by(user.pk).values("pk")) | Exists(
                seats.filter(match__upload__uploader=user)
            )
        return players.filter(shown)


class Player(models.Model):
    """A name as it appears in logs, unique within a club; optionally a user's."""

    objects = PlayerQuerySet.as_manager()

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    handle = models.CharField(_("handle"), max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )

    class Meta:
        ordering = ["club", "handle"]
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_handle_unique_in_club")
        ]
        # A name asked for in any club, whatever its case (``selectors.players_named``: the
        # match list's player filter), found by key, not by reading every handle.
        indexes = [
            models.Index(Upper("handle"), name="player_handle_upper"),
            models.Index(fields=["handle"], name="player_handle"),
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.handle} ({self.club})"


class HandleClaim(ClubRequest):
    """A member says a handle is theirs; an admin of the club confirms or declines. (The
    table kept the name it had in ``games`` before, ``db_table``.)"""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        CONFIRMED = "confirmed", _("confirmed")
        DECLINED = "declined", _("declined")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="handle_claims"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )

    class Meta(ClubRequest.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(status="pending"),
                name="handle_claim_one_pending",
            )
        ]
        verbose_name = _("handle claim")
        db_table = "games_handleclaim"
        verbose_name_plural = _("handle claims")


class PlayerAlias(models.Model):
    """A handle a player was known by (before a rename or a merge): logs that still write it
    are stored under the player."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="aliases")
    handle = models.CharField(_("handle"), max_length=100)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        ordering = ["handle"]
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_alias_unique_in_club")
        ]
        verbose_name = _("former handle")
        verbose_name_plural = _("former handles")


class LegSide(models.Model):
    """A team of a team league as a log naming one of its legs names it: the league's name
    and its own, its club and its roster. ``competitions`` keeps one for each of its teams,
    in the change's transaction (``competitions.leg_seats``), so that ingest seats a leg's
    visiting players from data of its own layer (``games.guests``), not by asking the app
    above."""

    # The competitions team it stands for: an id, not a key, since games sits below.
    team_id = models.BigIntegerField(unique=True)
    league = models.CharField(max_length=100)
    name = models.CharField(max_length=100)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    players = models.ManyToManyField(Player, related_name="+")

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class Upload(models.Model):
    """What someone sent, kept verbatim with its status and report, valid or not."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        PARTIAL = "partial", _("partly accepted")
        REJECTED = "rejected", _("rejected")
        # Processing broke on something other than the logs (a bug, a fault that outlasted
        # every retry): the reason is kept and the upload may be run again.
        FAILED = "failed", _("failed")

    class Kind(models.TextChoices):
        JSON = "json", _("one match (JSON)")
        NDJSON = "ndjson", _("many matches (NDJSON)")

    uploader = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="uploads"
    )
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="uploads"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # What its logs count for when they name nothing themselves (a log's ``event``, chosen on
    # the upload form or given as ``?event=``; docs/format.md).
    event = models.CharField(_("counts for"), max_length=1000, blank=True)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    # The document exactly as sent, compressed (``raw_codec`` "bz2"; "" for documents stored
    # before compression). ``content_hash`` and ``size`` are of the bytes as sent.
    raw = models.BinaryField(_("document as sent"))
    raw_codec = models.CharField(_("compression"), max_length=8, blank=True)
    size = models.PositiveIntegerField(_("size in bytes"))
    content_hash = models.CharField(_("SHA-256 of the document"), max_length=64, db_index=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    # For a document that could not be read at all (empty, too large, not text): why.
    problem = models.TextField(_("problem"), blank=True)
    item_count = models.PositiveIntegerField(_("matches in the document"), default=0)
    accepted_count = models.PositiveIntegerField(_("accepted"), default=0)
    rejected_count = models.PositiveIntegerField(_("rejected"), default=0)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)
    processed_at = models.DateTimeField(_("processed"), null=True, blank=True)
    # When its processing was last handed to the queue: a pending upload whose hand-over is
    # old was lost (broker outage, dead worker) and is handed over again.
    queued_at = models.DateTimeField(_("queued"), null=True, blank=True, db_index=True)
    # The lease of the run processing it: taken atomically when a run starts, renewed with
    # each batch, given back at the end. A lease that ran out means its run died (a worker
    # killed, a machine lost): the periodic sweep hands the upload over again without
    # waiting for the broker's visibility timeout. Never set: never started.
    lease_until = models.DateTimeField(_("held until"), null=True, blank=True)
    lease_holder = models.CharField(_("held by"), max_length=100, blank=True)
    failure = models.TextField(_("why processing failed"), blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["uploader", "-created_at"])]
        constraints = [
            # The same document sent twice by one person is one upload, even when both
            # arrive at the same moment (a check before the insert cannot promise that).
            models.UniqueConstraint(
                fields=["uploader", "content_hash", "size"],
                condition=Q(problem=""),
                name="upload_unique_per_uploader",
            )
        ]
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")

    def __str__(self) -> str:
        return f"upload {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:upload-detail", args=[self.pk])

    @property
    def is_done(self) -> bool:
        return self.status != self.Status.PENDING

    @staticmethod
    def compress(data: bytes) -> tuple[bytes, str]:
        """Return a document as stored, and its codec."""
        return bz2.compress(data, 9), "bz2"

    @property
    def document(self) -> bytes:
        """Return the document exactly as it was sent."""
        raw = bytes(self.raw)
        return bz2.decompress(raw) if self.raw_codec == "bz2" else raw

    def documents(self) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line number, text)`` of each log sent (line 1 for a JSON upload): read
        from the upload's work copy while it has one, else from the document as kept."""
        raw = UploadWorkCopy.document_of(self.pk)
        if raw is None:
            raw = self.document
        if self.kind == self.Kind.JSON:
            yield 1, raw
            return
        for number, line in enumerate(raw.splitlines(), start=1):
            if line.strip():
                yield number, line

    def finish(self) -> None:
        """Count what became of each log and settle the status (the caller holds the lock)."""
        items = self.items.all()
        self.item_count = items.count()
        self.rejected_count = items.filter(status=UploadItem.Status.REJECTED).count()
        self.accepted_count = self.item_count - self.rejected_count
        if self.rejected_count == 0:
            self.status = self.Status.ACCEPTED
        elif self.accepted_count == 0:
            self.status = self.Status.REJECTED
        else:
            self.status = self.Status.PARTIAL
        self.failure = ""
        self.processed_at = timezone.now()
        # Named fields: a plain save() would write the document again (and leave its old
        # copy behind in PostgreSQL's TOAST until a vacuum).
        self.save(
            update_fields=[
                "item_count",
                "rejected_count",
                "accepted_count",
                "status",
                "failure",
                "processed_at",
            ]
        )
        publish(UPLOAD_FINISHED, [self.pk])  # tools are told (clubs.tool_events)

    def fail(self, reason: str) -> None:
        """Record that processing broke, and why; the upload can be run again."""
        self.status = self.Status.FAILED
        self.failure = reason[:2000]
        self.processed_at = timezone.now()
        self.save(update_fields=["status", "failure", "processed_at"])

    def reject(self, problem: str) -> None:
        """Keep a document that could not be read at all as rejected, saying why."""
        self.problem = problem
        self.status = self.Status.REJECTED
        self.processed_at = timezone.now()
        self.save(update_fields=["problem", "status", "processed_at"])


class MatchQuerySet(models.QuerySet):
    def with_log(self) -> MatchQuerySet:
        """Load everything ``Match.log`` reads (the hands are in the match's own row)."""
        return self.select_related("club").prefetch_related("seats__player")

    def counted(self) -> MatchQuerySet:
        """Return the matches that count (in lists, statistics, ratings): approved ones."""
        return self.filter(approval=Match.Approval.APPROVED)

    def visible_to(self, user) -> MatchQuerySet:
        """Return the matches ``user`` may see: the approved matches of the clubs they may see
        (public ones and their own), and, awaiting approval or rejected, those they uploaded
        and those of the clubs they administer. Staff see every match."""
        if user is not None and user.is_authenticated and user.is_staff:
            return self
        clubs = Club.objects
        visible = Q(approval=Match.Approval.APPROVED) & Q(
            club__in=clubs.visible_to(user).values("pk")
        )
        if user is not None and user.is_authenticated:
            visible |= Q(club__in=clubs.administered_by(user.pk).values("pk")) | Q(
                upload__uploader=user
            )
        return self.filter(visible)


class Match(models.Model):
    """A valid match log, stored with what the engine computed for it."""

    objects = MatchQuerySet.as_manager()

    class Outcome(models.TextChoices):
        COMPLETE = "complete", _("complete")
        UNFINISHED = "unfinished", _("unfinished")

    class Approval(models.TextChoices):
        APPROVED = "approved", _("counted")
        PENDING = "pending", _("awaiting an admin's approval")
        REJECTED = "rejected", _("rejected by an admin")

    # Indexes cost bytes on every match: a column gets one only when no other index starts
    # with it (the club's and the preset's lists use the composite ones in Meta).
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="matches", db_index=False)
    upload = models.ForeignKey(
        Upload, on_delete=models.SET_NULL, null=True, blank=True, related_name="matches"
    )
    external_id = models.CharField(_("uploader's id"), max_length=200, null=True, blank=True)
    # The 32 bytes of the digest (half the room of its hex text, in the row and the index).
    content_hash = models.BinaryField(_("SHA-256 of the log"), max_length=32)
    preset = models.CharField(_("ruleset"), max_length=20)
    ruleset = models.JSONField(_("ruleset as written"))
    player_count = models.PositiveSmallIntegerField(_("players"))
    teams = models.JSONField(_("partnerships"), null=True, blank=True)
    event = models.CharField(_("event"), max_length=1000, blank=True)
    source = models.CharField(_("source"), max_length=1000, blank=True)
    played_at_text = models.CharField(_("played at, as written"), max_length=100, blank=True)
    played_at = models.DateTimeField(_("played at"), null=True, blank=True, db_index=True)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    scores = models.JSONField(_("scores"))
    winner = models.PositiveSmallIntegerField(_("winning team"), null=True, blank=True)
    final_scores = models.JSONField(_("final scores written"), null=True, blank=True)
    # The engine's findings: warnings (claimed points that differ), and errors should a
    # rescore under a changed engine ever find the stored log no longer valid.
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    warning_count = models.PositiveIntegerField(_("warnings"), default=0)
    move_count = models.PositiveIntegerField(_("moves"), default=0)
    # "table" for a table record (FORMAT.md), "full" when the log said so, "" when it was silent.
    record = models.CharField(_("record"), max_length=5, blank=True)
    created_at = models.DateTimeField(_("stored"), auto_now_add=True)
    rescored_at = models.DateTimeField(_("rescored"), null=True, blank=True)
    # In a club that approves uploads, a member's match waits for an admin: stored, shown to
    # its uploader and the club's admins, but neither listed nor rated until approved.
    approval = models.CharField(
        _("approval"),
        max_length=10,
        choices=Approval.choices,
        default=Approval.APPROVED,
    )
    approval_reason = models.CharField(_("why it was rejected"), max_length=500, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    reviewed_at = models.DateTimeField(_("reviewed"), null=True, blank=True)
    # Every hand: its deal, moves, tiles left, the engine's figures for each move and what the
    # hand gave each team, in a few bytes a move (``games/codec.py``); read through ``hands``.
    packed = models.BinaryField(_("hands, packed"), default=b"")

    class Meta:
        ordering = ["-played_at", "-id"]
        constraints = [
            # A constraint, not unique=True: the same index without a second one for LIKE.
            models.UniqueConstraint(fields=["content_hash"], name="match_content_hash_unique"),
            models.UniqueConstraint(
                fields=["club", "external_id"],
                condition=Q(external_id__isnull=False),
                name="match_external_id_unique_in_club",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "-played_at"]),
            models.Index(fields=["preset", "-played_at"]),
            # The few unfinished matches, newest first: the list filtered by them would
            # otherwise walk every match looking for them (175 ms at 1,000,000 matches with
            # none unfinished; bench.scale). Finished ones are nearly all: the list's own
            # order finds them at once.
            models.Index(
                fields=["-played_at", "-id"],
                condition=Q(outcome="unfinished"),
                name="match_unfinished",
            ),
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"match {self.pk}"

    @property
    def counted(self) -> bool:
        """Whether the match counts: listed publicly, in statistics and ratings."""
        return self.approval == self.Approval.APPROVED

    @property
    def winner_names(self) -> str:
        """Return the handles of the winning team ("" while nobody has won)."""
        if self.winner is None:
            return ""
        seats = sorted(self.seats.all(), key=lambda seat: seat.seat)
        return " & ".join(seat.player.handle for seat in seats if seat.team == self.winner)

    @cached_property
    def rules(self) -> dict[str, Any]:
        """Return the ruleset with every option resolved (worked out, not stored)."""
        return resolve_ruleset(self.ruleset, self.player_count).as_dict()

    @cached_property
    def hands(self) -> list[StoredHand]:
        """Return the hands, decoded from ``packed`` once per loaded match."""
        return [
            StoredHand(index, *hand)
            for index, hand in enumerate(unpack_match(bytes(self.packed), self.player_count))
        ]

    @property
    def cache_version(self) -> str:
        """What changes whenever what was computed for this match changes (a rescore)."""
        return f"{self.pk}.{self.rescored_at.timestamp() if self.rescored_at else 0}"

    def report(self, *, hands: bool = True) -> dict[str, Any]:
        """Return the validation report of the stored log, as FORMAT.md writes it (each issue
        with its parameters), from what was stored: the same as at upload, or the newest
        rescore's. Without ``hands``, the hands are left out (nothing to decode)."""
        out = {
            "valid": not self.errors,
            "outcome": self.outcome,
            "ruleset": self.rules,
            "errors": self.errors,
            "warnings": self.warnings,
            "scores": self.scores,
            "winner": self.winner,
            "hands": [hand.result.as_dict() for hand in self.hands] if hands else [],
        }
        if self.record == "table":
            out["record"] = "table"
        return out

    def log(self) -> MatchLog:
        """Return the stored match as a parsed ``fives/1`` log, rebuilt from its rows.

        Reads the seats and the club: load them with ``Match.objects.with_log()``.
        """
        seats = sorted(self.seats.all(), key=lambda seat: seat.seat)
        return MatchLog(
            ruleset=self.ruleset,
            players=tuple(seat.player.handle for seat in seats),
            hands=tuple(hand.log for hand in self.hands),
            teams=tuple(tuple(team) for team in self.teams) if self.teams is not None else None,
            final_scores=tuple(self.final_scores) if self.final_scores is not None else None,
            id=self.external_id,
            club=self.club.name,
            event=self.event or None,
            played_at=self.played_at_text or None,
            source=self.source or None,
            record=self.record or None,
        )


class Seat(models.Model):
    """Who sat where in a match, and in which team."""

    # Known by its match and seat (no id column, no second unique index); the foreign keys
    # have no index of their own: the key starts with the match, the index in Meta with the
    # player, then the match's time and id. A player's matches are read from that index in
    # the match list's order, newest (or oldest) first, a page at a time: without the time,
    # PostgreSQL walked every match of the archive by time to find one player's page (issue
    # 39: 14,712 matches read for 51 shown, up to 970 ms at 1,000,000 matches). A second
    # index, (player, match), gives the API's order, the newest stored first (``-id``): a
    # player's page (and the matches they won or lost) is read from it a page at a time,
    # where PostgreSQL sorted all of a player's matches, or walked every seat of the archive
    # backwards to find theirs (the API by player and result: p95 165 ms at 1,000,000).
    pk = models.CompositePrimaryKey("match", "seat")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    # The match's ``played_at``, copied when the match is stored (it is never edited after):
    # the index above orders a player's seats by it.
    played_at = models.DateTimeField(_("played at"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    team = models.PositiveSmallIntegerField(_("team"))

    class Meta:
        ordering = ["match", "seat"]
        indexes = [
            models.Index(fields=["player", "played_at", "match"], name="seat_player_played"),
            models.Index(fields=["player", "match"], name="seat_player_match"),
        ]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One hand of a stored match (decoded from ``Match.packed``): as logged, the engine's
    figures for each move, and what it gave each team."""

    index: int
    log: HandLog
    facts: list[MoveFacts]
    result: HandResult

    @property
    def leader(self) -> int:
        return self.log.leader

    @property
    def end(self) -> str:
        return self.result.end

    @property
    def points(self) -> list[int]:
        return self.result.points

    @property
    def settlement(self) -> list[int]:
        return self.result.settlement

    @property
    def scores(self) -> list[int]:
        return self.result.scores

    @property
    def move_count(self) -> int:
        return len(self.log.moves)

    def moves(self) -> list[dict[str, Any]]:
        """Return each move with what the engine computed for it (the API's hands answer)."""
        return [
            {
                "index": index,
                "seat": move.seat,
                "kind": move.kind,
                "tile": move.tile or "",
                "end": move.end or "",
                "count": fact.count,
                "points": fact.points,
                "claimed": move.points,
                "best": fact.best,
                "best_play": fact.best_play or "",
            }
            for index, (move, fact) in enumerate(zip(self.log.moves, self.facts, strict=True))
        ]


class UploadWorkCopy(models.Model):
    """An upload's document in a form a worker reads fast, kept from the upload until it
    is processed.

    bz2, as ``Upload.raw`` keeps documents, takes a third less room than zstd but longer to
    read back than the engine takes to validate what it reads; a worker reads this copy
    (zstd, with its checksum) instead, written with the upload in one transaction. A table
    of its own, emptied as uploads are processed: the room its rows took is given back
    (VACUUM truncates a table that deletes emptied, not a table still in use). An upload
    without one (processed before, or run again) is read from ``Upload.raw``.
    """

    upload = models.OneToOneField(
        Upload, on_delete=models.CASCADE, primary_key=True, related_name="work_copy"
    )
    data = models.BinaryField()

    class Meta:
        verbose_name = _("work copy of an upload")
        verbose_name_plural = _("work copies of uploads")

    @staticmethod
    def compress(document: bytes) -> bytes:
        """Return a document as its work copy stores it."""
        return zstandard.ZstdCompressor(level=3, write_checksum=True).compress(document)

    @staticmethod
    def decompress(data: bytes) -> bytes:
        """Return the document a work copy stores (its checksum checked)."""
        return zstandard.ZstdDecompressor().decompress(data)

    @classmethod
    def keep(cls, upload: Upload, document: bytes) -> None:
        """Keep a work copy of ``upload``'s document until it is processed."""
        cls.objects.create(upload=upload, data=cls.compress(document))

    @classmethod
    def document_of(cls, upload_id: int) -> bytes | None:
        """Return the document of an upload's work copy, or None when it has none."""
        data = cls.objects.filter(upload_id=upload_id).values_list("data", flat=True).first()
        return None if data is None else cls.decompress(bytes(data))

    @classmethod
    def drop(cls, upload_id: int) -> None:
        """Drop an upload's work copy (it is processed: ``Upload.raw`` keeps the document)."""
        cls.objects.filter(upload_id=upload_id).delete()


class UploadItem(models.Model):
    """One log of an upload (a line of NDJSON) and what became of it."""

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("accepted")
        DUPLICATE = "duplicate", _("already in the archive")
        REJECTED = "rejected", _("rejected")

    # No index of its own: ``upload_item_unique`` starts with the upload.
    upload = models.ForeignKey(
        Upload, on_delete=models.CASCADE, related_name="items", db_index=False
    )
    index = models.PositiveIntegerField(_("line"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    # The report of a log refused or repeated; null for an accepted one, whose report is its
    # match's (``full_report``): kept once, not twice.
    report = models.JSONField(_("report"), null=True, blank=True)
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="upload_items"
    )

    class Meta:
        ordering = ["upload", "index"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "index"], name="upload_item_unique")
        ]

    @property
    def full_report(self) -> dict[str, Any]:
        """Return the report as stored (FORMAT.md's shape, each issue with its parameters);
        an accepted log's is its match's, as the archive keeps it now (rescores included).
        Load ``match`` with the items when listing many."""
        return self._report(hands=True)

    @property
    def report_summary(self) -> dict[str, Any]:
        """Return the report without its hands (what the upload's page shows)."""
        return self._report(hands=False)

    def _report(self, *, hands: bool) -> dict[str, Any]:
        if self.report is not None:
            return self.report
        if self.match is None:  # never so: deleting a match gives its items a copy
            raise ValueError(f"upload item {self.pk} has neither a report nor a match")
        return self.match.report(hands=hands)


class ApiToken(models.Model):
    """A personal API token: shown once when made, stored only as its SHA-256."""

    class Scope(models.TextChoices):
        READ = "read", _("read")
        UPLOAD = "upload", _("upload matches")
        MANAGE = "manage", _("manage uploads and clubs")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("starts with"), max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
