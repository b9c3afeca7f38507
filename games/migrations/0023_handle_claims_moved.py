"""Handle claims belong with the players they claim: ``HandleClaim`` comes (back) into the
state of games from clubs (``clubs`` 0004). Its table stays, with its rows
(``games_handleclaim``, by db_table): nothing in the database changes but the content type,
which follows the model (the admin's log entries and the permissions given on it stay
attached). Depends on clubs, never the other way."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("handleclaim",)


def _move(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    # A type already made for the target (by a migrate that stopped between the two apps'
    # migrations) carries nothing yet: the old one, with what points at it, is kept.
    there = set(
        ContentType.objects.filter(app_label=target, model__in=MODELS).values_list(
            "model", flat=True
        )
    )
    ContentType.objects.filter(app_label=target, model__in=there).filter(
        model__in=ContentType.objects.filter(app_label=source).values("model")
    ).delete()
    ContentType.objects.filter(app_label=source, model__in=MODELS).update(app_label=target)


def forwards(apps, schema_editor) -> None:
    _move(apps, "clubs", "games")


def backwards(apps, schema_editor) -> None:
    _move(apps, "games", "clubs")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_handle_claims_moved"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0022_clubs_moved"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # State only: the table keeps its name (db_table) and its rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="HandleClaim",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="sent"),
                        ),
                        (
                            "decided_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="decided"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "pending"),
                                    ("confirmed", "confirmed"),
                                    ("declined", "declined"),
                                ],
                                default="pending",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="claims",
                                to="games.player",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="handle_claims",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "handle claim",
                        "verbose_name_plural": "handle claims",
                        "db_table": "games_handleclaim",
                        "ordering": ["-created_at"],
                        "abstract": False,
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "pending")),
                                fields=("player", "user"),
                                name="handle_claim_one_pending",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards),
    ]
