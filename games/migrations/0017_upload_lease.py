from django.db import migrations, models


class Migration(migrations.Migration):
    """The lease of the run processing an upload (games.services.ingest)."""

    dependencies = [
        ("games", "0016_upload_work_copy"),
    ]

    operations = [
        migrations.AddField(
            model_name="upload",
            name="lease_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="held until"),
        ),
        migrations.AddField(
            model_name="upload",
            name="lease_holder",
            field=models.CharField(blank=True, max_length=100, verbose_name="held by"),
        ),
    ]
