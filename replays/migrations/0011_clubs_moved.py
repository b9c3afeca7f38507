"""The clubs moved from ``games`` to their own app: replays' relations to a club point at
``clubs.Club`` (the same table: nothing in the database changes)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("replays", "0010_seatresult_scores"),
    ]

    operations = [
        # State only: the tables keep their names (db_table) and their rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="leagueclub",
                    name="club",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="league_places",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="ratingscope",
                    name="club",
                    field=models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_scope",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="club",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seasons",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="seatanalysis",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="seatresult",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_results",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="team",
                    name="club",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="league_teams",
                        to="clubs.club",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
