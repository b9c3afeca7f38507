"""The hands live in the match's own row now: the Hand table goes, so do the resolved rules
(worked out from the ruleset as written) and the indexes another index already covers; an
accepted upload item keeps no report of its own (its match's is the report)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_fill_match_packed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="hand",
            name="hand_unique",
        ),
        migrations.RemoveIndex(
            model_name="match",
            name="games_match_outcome_15885f_idx",
        ),
        migrations.AlterField(
            model_name="match",
            name="approval",
            field=models.CharField(
                choices=[
                    ("approved", "counted"),
                    ("pending", "awaiting an admin's approval"),
                    ("rejected", "rejected by an admin"),
                ],
                default="approved",
                max_length=10,
                verbose_name="approval",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="matches",
                to="games.club",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="content_hash",
            field=models.CharField(max_length=64, verbose_name="SHA-256 of the log"),
        ),
        migrations.AlterField(
            model_name="match",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="stored"),
        ),
        migrations.AlterField(
            model_name="match",
            name="preset",
            field=models.CharField(max_length=20, verbose_name="ruleset"),
        ),
        migrations.AlterField(
            model_name="match",
            name="reviewed_by",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="games.player",
            ),
        ),
        migrations.AlterField(
            model_name="uploaditem",
            name="report",
            field=models.JSONField(blank=True, null=True, verbose_name="report"),
        ),
        migrations.AlterField(
            model_name="uploaditem",
            name="upload",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="items",
                to="games.upload",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                fields=("content_hash",), name="match_content_hash_unique"
            ),
        ),
        migrations.RemoveField(
            model_name="match",
            name="rules",
        ),
        migrations.DeleteModel(
            name="Hand",
        ),
    ]
