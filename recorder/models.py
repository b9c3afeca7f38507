"""A match being recorded at a table, as its phone sends it tap by tap (``live.py``).

A live match is kept beside its club, seen by whoever may see the club, and is never a
stored match: when its last tile is recorded it is sent through the upload pipeline like any
finished record (``Upload``), and the stored match is what the archive keeps. Its steps are
the phone's own log (recorder.js, "storage"): the set-up, then one step a tap.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match, Upload

# A table whose phone has sent nothing for this long no longer counts as playing (a phone put
# away mid-match, its match never finished).
PLAYING_FOR = timedelta(hours=6)


class LiveMatchQuerySet(models.QuerySet):
    def visible_to(self, user) -> LiveMatchQuerySet:
        """Return the live matches ``user`` may watch: those of the clubs they may see."""
        return self.filter(club__in=Club.objects.visible_to(user))

    def playing(self) -> LiveMatchQuerySet:
        """Return the matches still at their tables: not finished, and touched within the
        last hours (``PLAYING_FOR``)."""
        return self.filter(
            finished_at__isnull=True, abandoned=False, updated_at__gte=timezone.now() - PLAYING_FOR
        )


class LiveMatch(models.Model):
    """A match at a table, followed step by step (see the module's words)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="live_matches", verbose_name=_("club")
    )
    recorder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="live_matches",
        verbose_name=_("recorded by"),
    )
    # The phone's own id of the record ("rec-<uuid>"): a step sent twice is one step.
    record_id = models.CharField(_("record id"), max_length=100)
    # The record's head as the phone set it up (players, teams, ruleset, event, played_at)
    # and the first hand's leader: ``live.setup_clean`` keeps only those fields.
    setup = models.JSONField(_("set-up"))
    # Each change (steps added, or taken back by an undo) is one revision: watchers ask for
    # what changed after the last revision they saw.
    revision = models.PositiveIntegerField(_("revision"), default=0)
    steps = models.PositiveIntegerField(_("steps"), default=0)
    # What the club night's page shows of the table (players, scores, hand, count, phase):
    # the last step's, kept here so that page reads one row a table.
    summary = models.JSONField(_("summary"), default=dict)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last step"), auto_now=True, db_index=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    abandoned = models.BooleanField(_("abandoned"), default=False)
    upload = models.ForeignKey(
        Upload, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # When the watchers were sent to the stored match: its ratings in, or it waits on an
    # admin's approval (not rated then).
    settled_at = models.DateTimeField(_("sent to the stored match"), null=True, blank=True)

    objects = LiveMatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("live match")
        verbose_name_plural = _("live matches")
        constraints = [
            models.UniqueConstraint(fields=["recorder", "record_id"], name="live_record_unique")
        ]
        indexes = [models.Index(fields=["club", "finished_at"], name="live_club_playing")]

    def __str__(self) -> str:
        return self.record_id

    def get_absolute_url(self) -> str:
        return reverse("recorder:live-match", args=[self.pk])


class LiveStep(models.Model):
    """One step of a live match: the phone's step and what the table looked like after it
    (``view``: the board, scores, count and turn the watchers draw)."""

    live = models.ForeignKey(LiveMatch, on_delete=models.CASCADE, related_name="step_rows")
    number = models.PositiveIntegerField(_("step"))
    step = models.JSONField(_("step"))
    view = models.JSONField(_("the table after it"))
    # The revision that wrote it: a watcher back after revision r is sent the steps of later
    # revisions (and the number of steps, which an undo lowered).
    revision = models.PositiveIntegerField(_("revision"))
    # Of a step that starts a hand, where the match stood then (the engine's
    # ``validate.HandStart``: the hand, the scores, who may lead): a later send walks its
    # steps from the start of their hand, not from the match's. An undo past the step takes
    # it with it. (Never shown: no name to translate.)
    hand_start = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["live", "number"], name="live_step_unique")]
        # A watcher's catch-up reads the steps of later revisions: found, not scanned.
        indexes = [models.Index(fields=["live", "revision"], name="live_step_revision")]
        ordering = ["number"]
