"""Statistics and ratings, precomputed as matches arrive."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Club, Match, Player


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
    seat = models.PositiveSmallIntegerField(_("seat"))
    team = models.PositiveSmallIntegerField(_("team"))
    # The team's place by final score: 1 for the best, equal scores sharing a place.
    rank = models.PositiveSmallIntegerField(_("place"))
    # Counts of hands: a log has at most MAX_HANDS (32767, games/engine/limits.py) of them.
    hands = models.PositiveSmallIntegerField(_("hands"))
    dominoes = models.PositiveSmallIntegerField(_("hands gone out"))
    blocked = models.PositiveSmallIntegerField(_("blocked hands"))
    complete = models.BooleanField(_("complete"))
    won = models.BooleanField(_("won"))
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


class RatingEvent(models.Model):
    """A rating after one match: the history charts and recomputations start from these.

    ``matches`` counts the rating's matches so far, one more at each of its events, so a
    rating's events are told apart by it, and ordered by it as by (played_at, match): the
    key (rating, played_at, matches) is the one index reading a rating's history, its value
    at a time and its events from a time on. The rating shown, openskill's ordinal, is
    mu - 3 sigma (``ratings.EVENT_ORDINAL``), not stored. Widest columns first, as above.

    No match column (nor its index, a quarter of the table): nothing reads an event by its
    match, and a deleted match's events go with the recomputation its deletion sets off,
    which replaces every event of its scopes from the match's time on.
    """

    pk = models.CompositePrimaryKey("rating", "played_at", "matches")
    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
