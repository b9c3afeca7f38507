"""The competitions' tables take the names of the app that owns them (issue 57):
``replays_season`` -> ``competitions_season``, ``replays_event`` ->
``competitions_tournament``, ``replays_evententry`` -> ``competitions_tournamententry``, and
the same for leagues, their clubs, teams, fixtures and legs (their ``db_table`` had kept the
names of the days they lived in ``replays``). A team's roster and captains, tables Django makes
for the fields, follow their model's name (``AlterModelTable`` renames them too). A rename, no
row copied; backwards gives the old names again."""

from django.db import migrations


class Migration(migrations.Migration):
    # After the moves (clubs out of games, competitions out of replays): until they are done,
    # other apps' models name the old tables (a table SQLite rebuilds would point at them
    # again). migrate applies this before replays 0014 on (the apps in order of name), whose
    # data steps run today's code on the new names.
    dependencies = [
        ("competitions", "0008_leg_sides"),
        ("games", "0029_leg_sides"),
    ]

    operations = [
        migrations.AlterModelTable(name=name, table=None)
        for name in (
            "season",
            "tournament",
            "tournamententry",
            "league",
            "leagueclub",
            "team",
            "fixture",
            "leg",
        )
    ]
