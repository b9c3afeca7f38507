"""Ratings after each match in one row per (match, scope), ``RatingChange``, instead of a
rating event per player and scope: about a third of the bytes (see the model's docstring).

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


class Migration(migrations.Migration):
    dependencies = [
        # The latest of games: going back to an older match table first takes the changes'
        # foreign key to it away.
        ("games", "0013_seat_keyed_by_match_and_seat"),
        ("replays", "0003_events_without_match"),
    ]

    operations = [
        migrations.DeleteModel(name="RatingEvent"),
        # The 8-byte columns first, then the packed seats: no alignment padding in a row.
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                ("pk", models.CompositePrimaryKey("match", "scope", serialize=False)),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.match",
                    ),
                ),
                (
                    "scope",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="replays.ratingscope",
                    ),
                ),
                ("seats", models.BinaryField()),
            ],
        ),
        migrations.RunPython(recompute_everything, recompute_everything),
    ]
