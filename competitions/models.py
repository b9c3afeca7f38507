"""The competitions of clubs: seasons, their tournaments (called events on the pages and in
the API) and team leagues (tables ``competitions_*``)."""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match, Player


class Season(models.Model):
    """A season of a club: its days (in the club's time zone), the presets it counts (none
    listed: all) and how a match scores in its table. Closing it stores the table as it
    stood (``frozen``); a later merge or deletion then shows as a note beside it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    presets = models.JSONField(_("rulesets counted"), default=list, blank=True)
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=3)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    # Three or four players alone: league points by place, the first for the winner.
    place_points = models.JSONField(_("points by place"), default=list, blank=True)
    created_at = models.DateTimeField(_("opened"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    frozen = models.JSONField(_("table when closed"), null=True, blank=True)

    class Meta:
        ordering = ["-first_day", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """An event of a season (a club night, a cup) and the players drawn into it.

    Its schedule is not stored: a round-robin's rounds and a knockout's bracket are worked out
    from the players in their seed order (``TournamentEntry.seed``, fixed when the event is made or
    its players changed), and its results from the club's matches as they arrive
    (``competitions.tournaments``)."""

    class Kind(models.TextChoices):
        ROUND_ROBIN = "round-robin", _("round-robin")
        KNOCKOUT = "knockout", _("knockout cup")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    # A round-robin's pairs meet once or twice (the second time in rounds of their own).
    legs = models.PositiveSmallIntegerField(_("times each pair meets"), default=1)
    players = models.ManyToManyField(
        Player, through="TournamentEntry", related_name="events", verbose_name=_("players")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        ordering = ["-first_day", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="event_name_unique_in_season")
        ]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    """A player of an event and their seed: the order the schedule is drawn in (by rating)."""

    event = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="event_entries")
    seed = models.PositiveSmallIntegerField(_("seed"))

    class Meta:
        ordering = ["event", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_entry_unique"),
            models.UniqueConstraint(fields=["event", "seed"], name="event_entry_seed_unique"),
        ]
        verbose_name = _("event player")
        verbose_name_plural = _("event players")


class League(models.Model):
    """A team league (issue 28), made by a signed-in person who becomes its organiser: clubs
    are invited to it, its teams come from those clubs, and its fixtures are sets of legs,
    each leg a stored match (``competitions.league_services``)."""

    class LegKind(models.TextChoices):
        SINGLES = "singles", _("singles")
        PAIRS = "pairs", _("pairs")

    name = models.CharField(_("name"), max_length=100, unique=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_leagues",
        verbose_name=_("organiser"),
    )
    # The kinds of a fixture's legs in their order, e.g. four singles and two pairs.
    legs = models.JSONField(_("legs of a fixture"))
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    draw_points = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    # The rest of the league's scoring (``competitions.league_points``): a point a leg won,
    # and a close loss's points (a loss by ``close_margin`` legs or fewer; 0: none).
    leg_points = models.PositiveSmallIntegerField(_("points for each leg won"), default=0)
    close_margin = models.PositiveSmallIntegerField(_("a close loss: by at most"), default=0)
    close_points = models.PositiveSmallIntegerField(_("points for a close loss"), default=0)

    class Withdrawn(models.TextChoices):
        EXPUNGED = "expunged", _("expunged: none of its fixtures counts")
        KEPT = "kept", _("kept: its results stand, its fixtures to play do not count")

    # What becomes of a withdrawn team's results (``competitions.league_forfeits``).
    withdrawn_results = models.CharField(
        _("a withdrawn team's results"),
        max_length=10,
        choices=Withdrawn.choices,
        default=Withdrawn.EXPUNGED,
    )
    # When a fixture starts on its day, in its home club's time zone (a fixture has a day
    # only): the start the calendar feeds give it (``competitions.calendars``).
    match_time = models.TimeField(_("match night starts"), default=time(19, 30))
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name


class LeagueClub(models.Model):
    """A club invited to a league by its organiser; its teams may play once one of the
    club's owner and admins accepted (a private club so agrees to show its teams)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="league_places")
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        ordering = ["league", "club__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "club"], name="league_club_unique")
        ]


class Team(models.Model):
    """A team of a league: a club, or a team inside one, with its roster of the club's
    players and its captains (members of the club)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="league_teams")
    name = models.CharField(_("name"), max_length=100)
    roster = models.ManyToManyField(Player, related_name="league_teams", verbose_name=_("roster"))
    captains = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="captained_teams", verbose_name=_("captains")
    )
    # A team withdrawn from the league plays no more; its results count as the league's
    # ``withdrawn_results`` says, and it sits at the foot of the table.
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_name_unique_in_league")
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name


class Fixture(models.Model):
    """A meeting of two teams of a league on a day: its legs are submitted by a captain of
    one side and confirmed or disputed by a captain of the other; only a confirmed fixture
    counts in the table (a disputed one waits for the organiser)."""

    class Status(models.TextChoices):
        TO_PLAY = "to-play", _("to play")
        SUBMITTED = "submitted", _("awaiting confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        # Conceded by a captain, or a walkover the organiser recorded: every leg is the
        # other side's (``competitions.league_forfeits``).
        CONCEDED = "conceded", _("conceded")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fixtures")
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="away_fixtures")
    day = models.DateField(_("day"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.TO_PLAY
    )
    # The side whose captain submitted the legs: a captain of the other side confirms.
    submitted_for = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    dispute_reason = models.CharField(_("why it is disputed"), max_length=500, blank=True)
    # The side that conceded (a conceded fixture), or did not turn up (a walkover).
    conceded_by = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    walkover = models.BooleanField(_("a walkover"), default=False)
    # A postponement (``competitions.postponements``): the days the home captain offered
    # (one to three, ISO dates), waiting for the other side to accept one.
    offered_days = models.JSONField(_("days offered"), default=list, blank=True)
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    offered_at = models.DateTimeField(_("offered"), null=True, blank=True)

    class Meta:
        ordering = ["day", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="fixture_two_teams"
            )
        ]
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")


class Leg(models.Model):
    """One leg of a submitted fixture: the stored match chosen for it and its result as
    submitted (a later rescore of the match does not change a confirmed fixture)."""

    class Side(models.TextChoices):
        HOME = "home", _("home")
        AWAY = "away", _("away")
        DRAW = "draw", _("a draw")

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="legs")
    number = models.PositiveSmallIntegerField(_("leg"))
    kind = models.CharField(_("kind"), max_length=10, choices=League.LegKind.choices)
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="league_legs"
    )
    winner = models.CharField(_("winner"), max_length=4, choices=Side.choices)
    home_score = models.IntegerField(_("home score"))
    away_score = models.IntegerField(_("away score"))
    home_names = models.CharField(_("home players"), max_length=500)
    away_names = models.CharField(_("away players"), max_length=500)

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="leg_number_unique"),
            # A match is one leg of one fixture, never two.
            models.UniqueConstraint(fields=["match"], name="leg_match_unique"),
        ]


class NoticeSettings(models.Model):
    """What emails a person gets and in which language (issue 36): the kinds they turned
    off (``competitions.inbox.EMAIL_KINDS``; "all" for every one) and the language of their
    latest signed-in page (``competitions.middleware``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    language = models.CharField(_("language"), max_length=10, blank=True)
    off = models.JSONField(_("emails turned off"), default=list, blank=True)
    # The times (ISO) of the emails sent to the person within the last hour, their budget
    # (``FIVES_EMAILS_PER_HOUR``): kept here, read and written under ``select_for_update``,
    # so neither a restart nor a second worker starts the count again.
    emailed = models.JSONField(_("emails of the last hour"), default=list, blank=True)

    class Meta:
        verbose_name = _("email settings")
        verbose_name_plural = _("email settings")


class Notice(models.Model):
    """An email to a person about one waiting item (or a reminder), by the item's key: the
    row is taken before the email is sent, so a retry or a second worker never sends it
    twice; ``sent_at`` says it went. ``held``: the person's emails of the hour were spent,
    and the item waits for their digest (``competitions.inbox.notices_digest_send``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(_("item"), max_length=120)
    created_at = models.DateTimeField(_("taken"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    held = models.BooleanField(_("held for the digest"), default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_person")
        ]
        # The digest looks for the held rows every minute: a few among every email sent.
        indexes = [models.Index(fields=["user"], condition=models.Q(held=True), name="notice_held")]
        verbose_name = _("email sent")
        verbose_name_plural = _("emails sent")


class UnsubscribeKey(models.Model):
    """The secret of a person's unsubscribe link for one kind of email (or "all"). The
    link is the nonce and its signature with the site's secret
    (``competitions.inbox.unsubscribe_token``): it names no person, the table alone gives
    no link, and deleting the row (a new address) makes the old links answer 404."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unsubscribe_keys"
    )
    kind = models.CharField(max_length=40)
    nonce = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="unsubscribe_key_per_kind")
        ]
        verbose_name = _("unsubscribe link")
        verbose_name_plural = _("unsubscribe links")


class CalendarKey(models.Model):
    """A member's secret link to the calendar feeds of a private club (its events, its
    teams' and its players' fixtures). The link's key is worked out from ``nonce`` with the
    site's secret (``competitions.calendars.calendar_key``), so the table alone gives no
    link; resetting draws a new nonce, and the old link answers 404."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="calendar_keys")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_keys"
    )
    nonce = models.CharField(max_length=64)
    created_at = models.DateTimeField(_("made"), auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="calendar_key_unique")]
        verbose_name = _("calendar link")
        verbose_name_plural = _("calendar links")
