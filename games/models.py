"""Clubs, players, uploads, and matches stored hand by hand and move by move."""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import HandLog, MatchLog
from games.engine import Move as LogMove


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=200, unique=True, allow_unicode=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Who may delete or re-run any upload made for the club.
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="administered_clubs"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:club-detail", args=[self.slug])


class Player(models.Model):
    """A name as it appears in logs, unique within a club; optionally a user's."""

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
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.handle} ({self.club})"

    def get_absolute_url(self) -> str:
        return reverse("replays:player-detail", args=[self.pk])


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
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    raw = models.BinaryField(_("document as sent"))
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

    def documents(self) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line number, text)`` of each log sent (line 1 for a JSON upload)."""
        raw = bytes(self.raw)
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
        self.save()

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
        """Load everything ``Match.log`` reads, in four queries."""
        return self.select_related("club").prefetch_related("seats__player", "hands__moves")


class Match(models.Model):
    """A valid match log, stored with what the engine computed for it."""

    objects = MatchQuerySet.as_manager()

    class Outcome(models.TextChoices):
        COMPLETE = "complete", _("complete")
        UNFINISHED = "unfinished", _("unfinished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="matches")
    upload = models.ForeignKey(
        Upload, on_delete=models.SET_NULL, null=True, blank=True, related_name="matches"
    )
    external_id = models.CharField(_("uploader's id"), max_length=200, null=True, blank=True)
    content_hash = models.CharField(_("SHA-256 of the log"), max_length=64, unique=True)
    preset = models.CharField(_("ruleset"), max_length=20, db_index=True)
    ruleset = models.JSONField(_("ruleset as written"))
    rules = models.JSONField(_("ruleset, every option resolved"))
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
    created_at = models.DateTimeField(_("stored"), auto_now_add=True, db_index=True)
    rescored_at = models.DateTimeField(_("rescored"), null=True, blank=True)

    class Meta:
        ordering = ["-played_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "external_id"],
                condition=Q(external_id__isnull=False),
                name="match_external_id_unique_in_club",
            )
        ]
        indexes = [
            models.Index(fields=["club", "-played_at"]),
            models.Index(fields=["preset", "-played_at"]),
            models.Index(fields=["outcome", "-played_at"]),
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"match {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("replays:match-detail", args=[self.pk])

    @property
    def cache_version(self) -> str:
        """What changes whenever what was computed for this match changes (a rescore)."""
        return f"{self.pk}.{self.rescored_at.timestamp() if self.rescored_at else 0}"

    def log(self) -> MatchLog:
        """Return the stored match as a parsed ``fives/1`` log, rebuilt from its rows.

        Reads the seats, hands and moves: load them with ``Match.objects.with_log()``.
        """
        seats = sorted(self.seats.all(), key=lambda seat: seat.seat)
        hands = sorted(self.hands.all(), key=lambda hand: hand.index)
        return MatchLog(
            ruleset=self.ruleset,
            players=tuple(seat.player.handle for seat in seats),
            hands=tuple(hand.log() for hand in hands),
            teams=tuple(tuple(team) for team in self.teams) if self.teams is not None else None,
            final_scores=tuple(self.final_scores) if self.final_scores is not None else None,
            id=self.external_id,
            club=self.club.name,
            event=self.event or None,
            played_at=self.played_at_text or None,
            source=self.source or None,
        )


class Seat(models.Model):
    """Who sat where in a match, and in which team."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    team = models.PositiveSmallIntegerField(_("team"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="seat_unique")]
        indexes = [models.Index(fields=["player", "match"])]


class Hand(models.Model):
    """One hand: its deal, leader, and what it gave each team."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    index = models.PositiveSmallIntegerField(_("hand"))
    leader = models.PositiveSmallIntegerField(_("leader"))
    deal = models.JSONField(_("deal"))
    end = models.CharField(_("end"), max_length=10)
    points = models.JSONField(_("points"))
    settlement = models.JSONField(_("settlement"))
    scores = models.JSONField(_("scores after"))

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="hand_unique")]

    def log(self) -> HandLog:
        """Return the hand as logged (its moves loaded or not)."""
        moves = sorted(self.moves.all(), key=lambda move: move.index)
        return HandLog(
            leader=self.leader,
            deal=tuple(tuple(tiles) for tiles in self.deal),
            moves=tuple(move.log() for move in moves),
        )


class Move(models.Model):
    """One move, with the count after it and the points the rules gave and the log claimed."""

    class Kind(models.TextChoices):
        PLAY = "play", _("play")
        DRAW = "draw", _("draw")
        PASS = "pass", _("pass")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="moves")
    index = models.PositiveSmallIntegerField(_("move"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices)
    tile = models.CharField(_("tile"), max_length=3, blank=True)
    end = models.CharField(_("end"), max_length=1, blank=True)
    count = models.PositiveSmallIntegerField(_("count after"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"), default=0)
    claimed = models.FloatField(_("points claimed"), null=True, blank=True)
    # The review of a play, from the same engine walk: the most any legal play could have
    # scored here, and the first such play ("6-4 on N"). Null for draws and passes.
    best = models.PositiveSmallIntegerField(_("best points"), null=True, blank=True)
    best_play = models.CharField(_("best play"), max_length=12, blank=True)

    class Meta:
        ordering = ["hand", "index"]
        constraints = [models.UniqueConstraint(fields=["hand", "index"], name="move_unique")]

    def log(self) -> LogMove:
        """Return the move as logged."""
        claimed = self.claimed
        if claimed is not None and claimed.is_integer():
            claimed = int(claimed)
        return LogMove(
            seat=self.seat,
            kind=self.kind,
            tile=self.tile or None,
            end=self.end or None,
            points=claimed,
        )


class UploadItem(models.Model):
    """One log of an upload (a line of NDJSON) and what became of it."""

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("accepted")
        DUPLICATE = "duplicate", _("already in the archive")
        REJECTED = "rejected", _("rejected")

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="items")
    index = models.PositiveIntegerField(_("line"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    report = models.JSONField(_("report"))
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="upload_items"
    )

    class Meta:
        ordering = ["upload", "index"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "index"], name="upload_item_unique")
        ]


class ApiToken(models.Model):
    """A personal API token: shown once when made, stored only as its SHA-256."""

    class Scope(models.TextChoices):
        READ = "read", _("read")
        UPLOAD = "upload", _("upload matches")
        MANAGE = "manage", _("manage its own uploads")

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
