"""Each seat result keeps its side's final score, the other sides' added up and the number
of sides, so a season's table adds columns instead of reading every match's JSON scores.
Existing rows are filled from their match's scores (back: the columns are dropped)."""

from django.db import migrations, models

BATCH = 2000


def fill(apps, schema_editor):
    SeatResult = apps.get_model("replays", "SeatResult")
    Match = apps.get_model("games", "Match")
    match_ids = list(SeatResult.objects.values_list("match_id", flat=True).distinct())
    for start in range(0, len(match_ids), BATCH):
        batch = match_ids[start : start + BATCH]
        scores = dict(Match.objects.filter(pk__in=batch).values_list("pk", "scores"))
        rows = list(SeatResult.objects.filter(match_id__in=batch))
        for row in rows:
            sides = scores[row.match_id]
            row.score = sides[row.team]
            row.scored_against = sum(sides) - sides[row.team]
            row.sides = len(sides)
        SeatResult.objects.bulk_update(rows, ["score", "scored_against", "sides"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_league_audit_actions"),
        ("replays", "0009_stored_replays"),
    ]

    operations = [
        migrations.AddField(
            model_name="seatresult",
            name="score",
            field=models.IntegerField(default=0, verbose_name="points for"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seatresult",
            name="scored_against",
            field=models.IntegerField(default=0, verbose_name="points against"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seatresult",
            name="sides",
            field=models.PositiveSmallIntegerField(default=2, verbose_name="sides"),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
