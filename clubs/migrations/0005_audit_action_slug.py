"""An audit entry's action is a slug each app registers with its words (``clubs.audit``):
no choices here, so a new kind of entry needs no migration of clubs. The values stay as
they were (they were slugs already); the column is the same (choices are not in the
database)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_handle_claims_moved"),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(max_length=30, verbose_name="action"),
        ),
    ]
