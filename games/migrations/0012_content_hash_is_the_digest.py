"""Step two of 0011: the digest takes the hex text's place and its unique constraint."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0011_binary_content_hash")]

    operations = [
        migrations.RemoveField(model_name="match", name="content_hash"),
        migrations.RenameField(
            model_name="match", old_name="content_digest", new_name="content_hash"
        ),
        migrations.AlterField(
            model_name="match",
            name="content_hash",
            field=models.BinaryField(max_length=32, verbose_name="SHA-256 of the log"),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                fields=("content_hash",), name="match_content_hash_unique"
            ),
        ),
    ]
