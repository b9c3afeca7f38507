"""The club models' content types follow them from ``games`` to ``clubs``: the admin's log
entries and the permissions given on them stay attached (the same rows, renamed)."""

from django.db import migrations

MODELS = ("club", "membership", "invitation", "joinrequest", "handleclaim", "auditentry")


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
    _move(apps, "games", "clubs")


def backwards(apps, schema_editor) -> None:
    _move(apps, "clubs", "games")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
