"""Statistics and ratings, precomputed as matches arrive."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Club, Match, Player


class SeatResult(models.Model):
    """What one seat did in one match: the figures statistics add up."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_results")
    seat = models.PositiveSmallIntegerField(_("seat"))
    team = models.PositiveSmallIntegerField(_("team"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    # Copied from the match so statistics filter without a join.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seat_results")
    preset = models.CharField(_("ruleset"), max_length=20)
    played_at = models.DateTimeField(_("played at"))
    complete = models.BooleanField(_("complete"))
    won = models.BooleanField(_("won"))
    # The team's place by final score: 1 for the best, equal scores sharing a place.
    rank = models.PositiveSmallIntegerField(_("place"))
    hands = models.PositiveIntegerField(_("hands"))
    plays = models.PositiveIntegerField(_("plays"))
    scoring_plays = models.PositiveIntegerField(_("plays that scored"))
    points = models.IntegerField(_("points from plays"))
    missed = models.PositiveIntegerField(_("points missed"))
    dominoes = models.PositiveIntegerField(_("hands gone out"))
    blocked = models.PositiveIntegerField(_("blocked hands"))
    settlement_won = models.IntegerField(_("settlement points won"))
    settlement_lost = models.IntegerField(_("settlement points lost"))
    claims_differ = models.PositiveIntegerField(_("claimed points that differ"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="seat_result_unique")]
        indexes = [
            models.Index(fields=["player", "-played_at"]),
            models.Index(fields=["club", "preset", "played_at"]),
            models.Index(fields=["match", "team"]),
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
    """A rating after one match: the history charts and recomputations start from these."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="events")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_events")
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()

    class Meta:
        indexes = [models.Index(fields=["rating", "played_at", "match"])]
