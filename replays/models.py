"""Statistics, ratings and analyses, precomputed as matches arrive or on request."""

from __future__ import annotations

import struct

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match, Player


class SeatResult(models.Model):
    """What one seat did in one match: the figures statistics add up.

    The row is known by its match and seat (no id column): every reader asks by match,
    player or club, and a match's rows are found (and deleted) by the key's first column.
    The columns go widest first (8, 4, 2, 1 bytes, then the text): PostgreSQL aligns each
    value to its own width, so in that order no row carries padding.
    """

    pk = models.CompositePrimaryKey("match", "seat")
    # Indexed by the key (match first), by (player, played_at) and by (club, preset,
    # played_at): an index of its own would repeat one of those.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seat_results", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="results", db_index=False
    )
    # Copied from the match so statistics filter without a join.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seat_results", db_index=False
    )
    played_at = models.DateTimeField(_("played at"))
    # Counts over every play of a match: a match may have up to 32767 hands of many plays
    # each, more than a small integer holds.
    plays = models.PositiveIntegerField(_("plays"))
    scoring_plays = models.PositiveIntegerField(_("plays that scored"))
    points = models.IntegerField(_("points from plays"))
    missed = models.PositiveIntegerField(_("points missed"))
    settlement_won = models.IntegerField(_("settlement points won"))
    settlement_lost = models.IntegerField(_("settlement points lost"))
    claims_differ = models.PositiveIntegerField(_("claimed points that differ"))
    # The match's final scores as a table of results reads them: the seat's side's score
    # and the other sides' added up (points for and against), copied so a season's table
    # adds columns instead of reading every match's JSON scores.
    score = models.IntegerField(_("points for"))
    scored_against = models.IntegerField(_("points against"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    team = models.PositiveSmallIntegerField(_("team"))
    # How many sides the match had: with three or four a table counts places, not wins.
    sides = models.PositiveSmallIntegerField(_("sides"))
    # The team's place by final score: 1 for the best, equal scores sharing a place.
    rank = models.PositiveSmallIntegerField(_("place"))
    # Counts of hands: a log has at most MAX_HANDS (32767, engine/fives_engine/limits.py) of them.
    hands = models.PositiveSmallIntegerField(_("hands"))
    dominoes = models.PositiveSmallIntegerField(_("hands gone out"))
    blocked = models.PositiveSmallIntegerField(_("blocked hands"))
    complete = models.BooleanField(_("complete"))
    won = models.BooleanField(_("won"))
    # Whether the match counts in its club (its season tables, ranking and rating): every
    # seat a player of the club. A league's leg between two clubs seats the visiting players
    # as their own club's (``games.guests``) and counts in neither club, only in the
    # league's table and on each player's own page (docs/leagues.md).
    in_club = models.BooleanField(_("counts in its club"), default=True)
    preset = models.CharField(_("ruleset"), max_length=20)

    class Meta:
        indexes = [
            # Ascending: rows arrive in playing order, so each player's newest goes last
            # and pages fill up (PostgreSQL reads the index backwards for the newest first).
            models.Index(fields=["player", "played_at"], name="seat_result_player"),
            models.Index(fields=["club", "preset", "played_at"], name="seat_result_club"),
        ]


class RatingScope(models.Model):
    """The ratings of one club (or, with no club, across all clubs), and what needs redoing.

    The row is locked while its ratings are recomputed, so two recomputations of the same
    scope never run at once.
    """

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_scope"
    )
    # The earliest play time whose matches changed since the ratings were last computed.
    dirty_from = models.DateTimeField(null=True, blank=True)
    # Whose matches changed (player ids), when every change named them; null: anyone's.
    # A recomputation then re-rates only what these players' changes reach (``ratings``).
    dirty_players = models.JSONField(null=True, blank=True)
    # Counts the marks: a recomputation clears the scope only if none came meanwhile.
    dirty_marks = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)


class Rating(models.Model):
    """A player's current rating in a scope (openskill Plackett-Luce)."""

    scope = models.ForeignKey(RatingScope, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    last_played = models.DateTimeField(_("last played"), null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "player"], name="rating_unique")]


class RatingHistory(models.Model):
    """A club rating's history as a chart shows it, kept as it is rated: the points of the
    matches any chart of the career may show, packed (``rating_history``)."""

    rating = models.OneToOneField(
        Rating, on_delete=models.CASCADE, primary_key=True, related_name="history"
    )
    points = models.BinaryField(default=b"")


# One seat of a ``RatingChange``: its subject's mu and sigma after the match (float8, exact:
# a recomputation starts from them and must give the floats a full one gives), then the
# subject's rated matches and wins so far.
SEAT = struct.Struct("<ddII")


def seat_values(packed: bytes | memoryview, seat: int) -> tuple[float, float, int, int]:
    """Return (mu, sigma, matches, wins) of one seat of a ``RatingChange.seats``."""
    return SEAT.unpack_from(packed, seat * SEAT.size)


class RatingChange(models.Model):
    """What one match left the ratings of one scope at: the history, the change over 30
    days and every recomputation read these. Two tables of this shape: ``ClubRatingChange``
    for the club's scope of the match, ``AllClubsRatingChange`` for the all-clubs scope.

    One row per match and scope, not one per rating: ``seats`` packs, seat by seat (seat
    ``i`` at byte ``24 * i``), the values of the seat's subject after the match: mu and
    sigma as float8, exactly as computed (a recomputation starts from them), then its
    rated matches and wins so far as uint32 (``SEAT``, above). A rating's rows are found
    from its player's seat results (indexed by (player, played_at)), which also give each
    row's time and seat; the rating shown, openskill's ordinal, is mu - 3 sigma
    (``ratings.ordinal``), not stored.

    A match is in exactly one club, so a table per kind of scope is keyed by the match
    alone: an 8-byte key, no scope column, and a deleted match's rows found by their key
    and deleted with it. Matches are numbered as they arrive, so a recomputation's rows
    (written in key order) go at the index's end, whose pages PostgreSQL leaves 90% full
    (one table for both kinds, keyed (match, scope), had the second kind's rows land
    between the first's and split those pages in halves). No played_at column: the seat
    results have it.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    seats = models.BinaryField()

    class Meta:
        abstract = True


class ClubRatingChange(RatingChange):
    """The ratings of a match's club after it (see ``RatingChange``)."""


class AllClubsRatingChange(RatingChange):
    """The ratings across all clubs after a match (see ``RatingChange``)."""


class MatchAnalysis(models.Model):
    """The expected-value review of a match (``fives_engine.expected``, issue 26), asked for
    by a person or by the club, and stored with the match.

    The row is the record of the work: a task is only the prompt to do it. It is made
    ``queued``; a run takes it (``running``, a ``holder`` name and a sign of life in
    ``heartbeat_at`` written with the progress), and only that holder may write its progress
    and its result. A run whose worker died leaves it ``running`` without a sign of life: the
    periodic sweep, or a person asking again, sends it again. It is done again only when the
    engine's analysis version changes (``version``): an older one is shown as stale.

    Queued rows wait in turn (``replays.analysis.analysis_claim``): each asker's (a person's, or
    a club's own setting) first before anyone's second, then by time, so one asker's flood
    never holds anyone else back.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # The engine's ANALYSIS_VERSION the figures were (or are being) made with.
    version = models.CharField(_("analysis version"), max_length=20)
    done = models.PositiveIntegerField(_("plays reviewed"), default=0)
    total = models.PositiveIntegerField(_("plays to review"), default=0)
    # MatchReview.as_dict(): every play's figures, what was not reviewed, each seat's summary.
    result = models.JSONField(_("result"), null=True, blank=True)
    failure = models.TextField(_("why it failed"), blank=True)
    # Whose quota the request counted in: a person's; none for a club's own setting.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses",
        verbose_name=_("asked by"),
    )
    # Whose turn and whose daily bound the request counts in: the person's, or the club's when
    # its own setting asked (none for a request made before askers were kept).
    asker = models.ForeignKey(
        "AnalysisAsker",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses",
        verbose_name=_("asker"),
    )
    requested_at = models.DateTimeField(_("asked"), db_index=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    holder = models.CharField(_("run"), max_length=64, blank=True)
    # Asked for by a club's look back at its earlier matches (``analyses_earlier``): served
    # after every other request, whatever its turn.
    earlier = models.BooleanField(_("an earlier match"), default=False)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [
            # An asker's analyses of the last day, counted by the quota.
            models.Index(fields=["asker", "requested_at"], name="analysis_asker"),
            # The queue: the few rows waiting or running among every analysis ever made.
            models.Index(
                fields=["asker", "requested_at"],
                condition=models.Q(status__in=["queued", "running"]),
                name="analysis_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"


class AnalysisAsker(models.Model):
    """Who asks for analyses, counted and served in turn: a person, or a club through its own
    setting "analyse every match" (its daily bound is the site's, FIVES_CLUB_ANALYSES_PER_DAY).

    A request writes its asker's row first thing in its transaction (``counted_at``): that
    write locks the row (on PostgreSQL the row, on SQLite the database) until the request is
    counted and stored, so the same asker's parallel requests are counted one after another
    and never pass the bound. ``refused_at`` is when a request was last refused past it: a
    club's admins read it beside their club's matches.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="analysis_asker",
    )
    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="analysis_asker"
    )
    counted_at = models.DateTimeField(_("last request counted"), null=True, blank=True)
    refused_at = models.DateTimeField(_("last request refused"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis asker")
        verbose_name_plural = _("analysis askers")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, club__isnull=True)
                | models.Q(user__isnull=True, club__isnull=False),
                name="analysis_asker_one",
            )
        ]

    def __str__(self) -> str:
        return f"club {self.club_id}" if self.club_id else f"user {self.user_id}"


class SeatAnalysis(models.Model):
    """One seat's summary of a finished analysis: what the player page and the ranking table
    average over a player's recent analysed matches, without reading every analysis's JSON.
    Known by its match and seat, like ``SeatResult``; its player follows the match's seats
    (a merge of handles moves the rows in its transaction, ``pipeline.handles_merged``)."""

    pk = models.CompositePrimaryKey("match", "seat")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seat_analyses", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="analyses", db_index=False
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    played_at = models.DateTimeField(_("played at"), null=True, blank=True)
    # The sum of the expected losses of the seat's reviewed plays, and how many there were.
    loss = models.FloatField(_("expected loss"))
    plays = models.PositiveIntegerField(_("plays reviewed"))
    accuracy = models.FloatField(_("accuracy"))
    # The winning chances (percentage points) lost over the plays that had a choice, and
    # how many those were: the performance figure, forced plays left out. Null where the
    # match has no equity table (three or four sides).
    chance_loss = models.FloatField(_("winning chances lost"), null=True, blank=True)
    decisions = models.PositiveIntegerField(_("plays with a choice"), default=0)
    # The seat's side's luck and skill in the match (percentage points; docs/analysis.md).
    luck = models.FloatField(_("luck"), null=True, blank=True)
    skill = models.FloatField(_("skill"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    version = models.CharField(_("analysis version"), max_length=20)

    class Meta:
        indexes = [models.Index(fields=["player", "played_at"], name="seat_analysis_player")]


class StoredReplay(models.Model):
    """A long match's replay, made once when the match is stored (or first asked for) and
    kept with it, so its first request reads it instead of walking thousands of moves.

    Only what no rename changes is kept: ``body`` is the tail of the replay API's answer
    (``rules``, ``valid`` and every state, as JSON) and ``page`` what the replay page embeds
    beside the players (the packed states, each hand's layout and missed points), both
    compressed with zstandard. ``version`` is the match's ``cache_version`` they were made
    for, with the API's numbering (``replay_cache.kept_version``): a rescore makes them
    stale, and they are made again.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="stored_replay"
    )
    version = models.CharField(max_length=64)
    body = models.BinaryField()
    page = models.BinaryField()

    class Meta:
        verbose_name = _("stored replay")
        verbose_name_plural = _("stored replays")


class PracticeAttempt(models.Model):
    """A person's tries at one position of their practice drill (a mistake or blunder of
    theirs, ``replays.practice``): whether the last try found a good play, how many tries
    and right answers in a row, and when the position is due again (a miss soon, a solve
    later, each solve in a row twice as late as the one before)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_attempts"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    # The play's hand and move as the review counts them (from 0).
    hand = models.PositiveIntegerField(_("hand"))
    move = models.PositiveIntegerField(_("move"))
    solved = models.BooleanField(_("solved"), default=False)
    tries = models.PositiveIntegerField(_("tries"), default=0)
    streak = models.PositiveIntegerField(_("solved in a row"), default=0)
    tried_at = models.DateTimeField(_("last tried"))
    due_at = models.DateTimeField(_("due again"))

    class Meta:
        verbose_name = _("practice attempt")
        verbose_name_plural = _("practice attempts")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "hand", "move"], name="practice_attempt_unique"
            )
        ]

    def __str__(self) -> str:
        return f"practice of user {self.user_id}: match {self.match_id} h{self.hand} m{self.move}"


class PlayerTotals(models.Model):
    """A player's figures added up as matches arrive (issue 39): what their seat results
    give for one (club, counts in the club, ruleset) in one month of the club's calendar, and
    the same over all time in the row whose ``month`` is ``ALL_TIME``.

    The ranking, a season's table and the player page read these rows by key instead of
    adding up the player's whole history: an all-time figure is a row a ruleset, a period
    or a season at most a row a month (and the seat results of the parts of months at its
    ends). ``totals.totals_apply`` keeps them, in the transaction that stores or removes the
    seat results; ``totals.totals_rebuild`` counts them again from the seat results
    (``manage.py totals_rebuild``).

    The columns are the sums of the seat results' figures (``stats.STATISTICS``) over every
    result, complete or not, as the ranking and the player page count them; and, over the
    complete ones (``rated_...``), what a season's table counts: played, won, points for and
    against, the two-sided matches won, and the places of the matches of three sides or
    more, from which a table's league points follow under any rules.
    """

    pk = models.CompositePrimaryKey("player", "month", "club", "in_club", "preset")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    # The match's club (a league leg between two clubs: the home club's, ``in_club`` false).
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    last_played = models.DateTimeField()
    # The month's first day in the club's time zone; ``totals.ALL_TIME`` for all time.
    month = models.DateField()
    matches = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    hands = models.IntegerField(default=0)
    plays = models.IntegerField(default=0)
    scoring_plays = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    missed = models.IntegerField(default=0)
    dominoes = models.IntegerField(default=0)
    blocked = models.IntegerField(default=0)
    settlement_won = models.IntegerField(default=0)
    settlement_lost = models.IntegerField(default=0)
    claims_differ = models.IntegerField(default=0)
    rated = models.IntegerField(default=0)
    rated_won = models.IntegerField(default=0)
    rated_score = models.IntegerField(default=0)
    rated_against = models.IntegerField(default=0)
    rated_two_sided = models.IntegerField(default=0)
    rated_two_sided_won = models.IntegerField(default=0)
    rated_place_1 = models.IntegerField(default=0)
    rated_place_2 = models.IntegerField(default=0)
    rated_place_3 = models.IntegerField(default=0)
    rated_place_4 = models.IntegerField(default=0)
    in_club = models.BooleanField()
    preset = models.CharField(max_length=20)

    class Meta:
        indexes = [models.Index(fields=["club", "month"], name="player_totals_club")]


class HeadToHead(models.Model):
    """What a player did against one opponent (a player on another side of a match they
    sat in), kept as matches arrive (issue 39): the matches they met in, and how many each
    won. The player page reads a player's rows by key, where it joined every seat result of
    theirs with their matches' other seats (a busy player's page grew with their history).

    ``head_to_head.head_to_head_apply`` keeps them in the transaction that stores or removes
    seat results (a merge moves them); ``head_to_head.head_to_head_rebuild`` counts them
    again from the seat results (``manage.py totals_rebuild``).
    """

    pk = models.CompositePrimaryKey("player", "opponent")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    # Indexed: a deleted player's rows as someone's opponent go by it.
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    matches = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    losses = models.IntegerField(default=0)


class Puzzle(models.Model):
    """A position of an analysed public match where the play made was a mistake or a blunder
    and one play is best by more than four standard errors of its gap, checked again over ten
    times the layouts (``fives_engine.puzzles``; ``replays.puzzles``). ``view`` is the
    position as its seat saw it (``fives_engine.practice.position_at``: no hidden tile, not
    the hand's outcome); ``document`` the same as a ``fives/1`` position; ``plays`` each legal
    play's figures, shown after the answer. Rated against its solvers (Glicko-2)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    # The play's hand and move as the review counts them (from 0).
    hand = models.PositiveIntegerField()
    move = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    view = models.JSONField()
    document = models.JSONField()
    plays = models.JSONField()
    best = models.CharField(max_length=40)
    played = models.CharField(max_length=40)
    unit = models.CharField(max_length=10)
    gap = models.FloatField()
    gap_se = models.FloatField()
    layouts = models.PositiveIntegerField()
    themes = models.JSONField(default=list)
    rating = models.FloatField(default=1500.0, db_index=True)
    rd = models.FloatField(default=350.0)
    vol = models.FloatField(default=0.06)
    attempts = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    made_at = models.DateTimeField()

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        constraints = [
            models.UniqueConstraint(fields=["match", "hand", "move"], name="puzzle_unique")
        ]

    def __str__(self) -> str:
        return f"puzzle {self.pk}: match {self.match_id} h{self.hand} m{self.move}"


class PuzzleScan(models.Model):
    """A match whose analysis was looked through for puzzles (``replays.puzzles``), so that
    the job reads each analysis once (again when the analysis is redone)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True)
    analysis_finished_at = models.DateTimeField(null=True)
    puzzles = models.PositiveSmallIntegerField(default=0)


class PuzzleSolver(models.Model):
    """A person's puzzle rating (Glicko-2) and their streak: puzzles solved in a row in the
    streak mode, and the best one."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_solver"
    )
    rating = models.FloatField(default=1500.0)
    rd = models.FloatField(default=350.0)
    vol = models.FloatField(default=0.06)
    attempts = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)


class PuzzleAttempt(models.Model):
    """A person's answer to a puzzle: the first one rates them both, later ones do not."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts_made")
    choice = models.CharField(max_length=40)
    solved = models.BooleanField()
    rated = models.BooleanField(default=True)
    rating_before = models.FloatField(null=True)
    rating_after = models.FloatField(null=True)
    tried_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "puzzle"], name="puzzle_attempt_user")]
