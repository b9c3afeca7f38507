from django.db import migrations, models

import clubs.presets


class Migration(migrations.Migration):
    """A club's default ruleset takes its choices from the engine's preset table, read
    each time (a callable): a new preset needs no migration after this one."""

    dependencies = [
        ("games", "0017_upload_lease"),
    ]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="default_ruleset",
            field=models.CharField(
                choices=clubs.presets.ruleset_choices,
                default="all-fives",
                max_length=20,
                verbose_name="default ruleset",
            ),
        ),
    ]
