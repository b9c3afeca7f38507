"""A match's content hash as the 32 bytes of its SHA-256 digest instead of 64 hex characters
(half the room in the row and in its unique index); step one of two: the digest is filled in
beside the hex text. Backwards, the hex text comes back from the digest."""

import hashlib

from django.db import migrations, models

BATCH = 2000


def to_digest(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("id", "content_hash").iterator(chunk_size=BATCH):
        text = match.content_hash
        try:
            digest = bytes.fromhex(text) if len(text) == 64 else None
        except ValueError:
            digest = None
        if digest is None:  # never written by the archive: kept apart all the same
            digest = hashlib.sha256(text.encode()).digest()
        Match.objects.filter(pk=match.pk).update(content_digest=digest)


def to_hex(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("id", "content_digest").iterator(chunk_size=BATCH):
        Match.objects.filter(pk=match.pk).update(content_hash=bytes(match.content_digest).hex())


class Migration(migrations.Migration):
    dependencies = [("games", "0010_one_row_per_match")]

    operations = [
        migrations.RemoveConstraint(model_name="match", name="match_content_hash_unique"),
        migrations.AddField(
            model_name="match",
            name="content_digest",
            field=models.BinaryField(default=b"", max_length=32),
        ),
        # A default, so that the way back can add the column again before filling it.
        migrations.AlterField(
            model_name="match",
            name="content_hash",
            field=models.CharField(default="", max_length=64, verbose_name="SHA-256 of the log"),
        ),
        migrations.RunPython(to_digest, to_hex),
    ]
