"""Analyses are counted and served by asker (issue 34): a person, or a club through its own
setting "analyse every match". The analyses asked for before get theirs: the person who asked,
else the match's club."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def askers_given(apps, schema_editor):
    Asker = apps.get_model("replays", "AnalysisAsker")
    Analysis = apps.get_model("replays", "MatchAnalysis")
    askers: dict[tuple[str, int], int] = {}
    rows = Analysis.objects.values_list("pk", "requested_by_id", "match__club_id")
    for pk, user_id, club_id in rows.iterator():
        key = ("user", user_id) if user_id is not None else ("club", club_id)
        if key not in askers:
            asker, _ = Asker.objects.get_or_create(**{key[0] + "_id": key[1]})
            askers[key] = asker.pk
        Analysis.objects.filter(pk=pk).update(asker_id=askers[key])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_league_invitations_audited"),
        ("games", "0022_clubs_moved"),
        ("replays", "0011_clubs_moved"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AnalysisAsker",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "counted_at",
                    models.DateTimeField(
                        blank=True, null=True, verbose_name="last request counted"
                    ),
                ),
                (
                    "refused_at",
                    models.DateTimeField(
                        blank=True, null=True, verbose_name="last request refused"
                    ),
                ),
            ],
            options={
                "verbose_name": "analysis asker",
                "verbose_name_plural": "analysis askers",
            },
        ),
        migrations.RemoveIndex(
            model_name="matchanalysis",
            name="analysis_asker",
        ),
        migrations.AddField(
            model_name="analysisasker",
            name="club",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="analysis_asker",
                to="clubs.club",
            ),
        ),
        migrations.AddField(
            model_name="analysisasker",
            name="user",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="analysis_asker",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="matchanalysis",
            name="asker",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="analyses",
                to="replays.analysisasker",
                verbose_name="asker",
            ),
        ),
        migrations.AddIndex(
            model_name="matchanalysis",
            index=models.Index(fields=["asker", "requested_at"], name="analysis_asker"),
        ),
        migrations.AddIndex(
            model_name="matchanalysis",
            index=models.Index(
                condition=models.Q(("status__in", ["queued", "running"])),
                fields=["asker", "requested_at"],
                name="analysis_waiting",
            ),
        ),
        migrations.AddConstraint(
            model_name="analysisasker",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("club__isnull", True), ("user__isnull", False)),
                    models.Q(("club__isnull", False), ("user__isnull", True)),
                    _connector="OR",
                ),
                name="analysis_asker_one",
            ),
        ),
        migrations.RunPython(askers_given, migrations.RunPython.noop),
    ]
