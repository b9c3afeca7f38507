"""Rating events without their match (nothing reads an event by it; a deleted match's events
go with the recomputation its deletion sets off). Backwards, the column comes back empty:
every event is dropped and every scope marked to be recomputed from the start, which writes
the events again with their matches (the periodic catch-up does it, or ``ratings_recompute``)."""

import datetime

import django.db.models.deletion
from django.db import migrations, models


def forget_events(apps, schema_editor):
    RatingEvent = apps.get_model("replays", "RatingEvent")
    RatingScope = apps.get_model("replays", "RatingScope")
    RatingEvent.objects.all().delete()
    RatingScope.objects.update(dirty_from=datetime.datetime(1, 1, 1, tzinfo=datetime.UTC))


class Migration(migrations.Migration):
    dependencies = [("replays", "0002_smaller_results_and_events")]

    operations = [
        # Nullable first, so that the way back can add the column again to a full table.
        migrations.AlterField(
            model_name="ratingevent",
            name="match",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_events",
                to="games.match",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, forget_events),
        migrations.RemoveField(model_name="ratingevent", name="match"),
    ]
