"""A match's hands move into one packed value on the match (``games/codec.py``, format 2);
step one of three: the column. 0009 fills it, 0010 drops the hand rows (each step is its own
transaction, so the way back never alters a table with row checks pending)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0007_packed_hands")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="packed",
            field=models.BinaryField(default=b"", verbose_name="hands, packed"),
        ),
        # A default, so that the way back can add the column again before filling it.
        migrations.AlterField(
            model_name="match",
            name="rules",
            field=models.JSONField(default=dict, verbose_name="ruleset, every option resolved"),
        ),
    ]
