"""Ratings after each match in one row per match and scope (``ClubRatingChange`` for its
club's scope, ``AllClubsRatingChange`` for all clubs'), instead of a rating event per player
and scope: about a third of the bytes (see ``RatingChange``'s docstring).

The events are dropped, not converted (they have no match to key the new rows by), and every
scope is marked to be recomputed from the start, which writes the new rows and the very same
ratings (the periodic catch-up does it, or ``ratings_recompute``). Backwards the same: the
changes are dropped, the events' table comes back empty and every scope is marked again.
"""

import datetime

import django.db.models.deletion
from django.db import migrations, models


def recompute_everything(apps, schema_editor):
    RatingScope = apps.get_model("replays", "RatingScope")
    RatingScope.objects.update(dirty_from=datetime.datetime(1, 1, 1, tzinfo=datetime.UTC))


def change_fields():
    """The fields of both tables (``RatingChange``, abstract): keyed by the match alone."""
    return [
        (
            "match",
            models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                primary_key=True,
                related_name="+",
                serialize=False,
                to="games.match",
            ),
        ),
        ("seats", models.BinaryField()),
    ]


class Migration(migrations.Migration):
    dependencies = [
        # The latest of games: going back to an older match table first takes the changes'
        # foreign key to it away.
        ("games", "0013_seat_keyed_by_match_and_seat"),
        ("replays", "0003_events_without_match"),
    ]

    operations = [
        migrations.DeleteModel(name="RatingEvent"),
        migrations.CreateModel(
            name="ClubRatingChange",
            fields=change_fields(),
            options={"abstract": False},
        ),
        migrations.CreateModel(
            name="AllClubsRatingChange",
            fields=change_fields(),
            options={"abstract": False},
        ),
        migrations.RunPython(recompute_everything, recompute_everything),
    ]
