"""The content types of seasons, events and leagues follow them from ``replays`` to
``competitions`` (events and their entries are named tournaments here): the admin's log
entries and the permissions given on them stay attached (the same rows, renamed)."""

from django.db import migrations

# The model names in replays, and the names they have in competitions.
MODELS = {
    "season": "season",
    "event": "tournament",
    "evententry": "tournamententry",
    "league": "league",
    "leagueclub": "leagueclub",
    "team": "team",
    "fixture": "fixture",
    "leg": "leg",
}


def _move(apps, source: str, target: str, names: dict[str, str]) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for old, new in names.items():
        # A type already made for the target (by a migrate that stopped between the two apps'
        # migrations) carries nothing yet: the old one, with what points at it, is kept.
        if ContentType.objects.filter(app_label=source, model=old).exists():
            ContentType.objects.filter(app_label=target, model=new).delete()
        ContentType.objects.filter(app_label=source, model=old).update(app_label=target, model=new)


def forwards(apps, schema_editor) -> None:
    _move(apps, "replays", "competitions", MODELS)


def backwards(apps, schema_editor) -> None:
    _move(apps, "competitions", "replays", {new: old for old, new in MODELS.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
