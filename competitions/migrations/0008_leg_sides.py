"""Each league team's side, as ingest reads it to seat a leg's visiting players
(``games.models.LegSide``): written here for the teams made before, then kept by
``competitions.leg_seats`` with each change."""

from django.db import migrations


def forwards(apps, schema_editor):
    Team = apps.get_model("competitions", "Team")
    LegSide = apps.get_model("games", "LegSide")
    for team in Team.objects.select_related("league").prefetch_related("roster"):
        side = LegSide.objects.create(
            team_id=team.pk, league=team.league.name, name=team.name, club_id=team.club_id
        )
        side.players.set(team.roster.all())


def backwards(apps, schema_editor):
    apps.get_model("games", "LegSide").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0007_notices_digest_unsubscribe_keys"),
        ("games", "0029_leg_sides"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
