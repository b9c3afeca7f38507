"""The clubs' tables take the names of the app that owns them (issue 57): ``games_club`` ->
``clubs_club``, and the same for memberships, invitations, join requests and the audit trail
(their ``db_table`` had kept the names of the days they lived in ``games``). A rename, no
row copied; backwards gives the old names again."""

from django.db import migrations


class Migration(migrations.Migration):
    # After the moves (clubs out of games, competitions out of replays): until they are done,
    # other apps' models name the old tables (a table SQLite rebuilds would point at them
    # again). migrate applies this before replays 0014 on (the apps in order of name), whose
    # data steps run today's code on the new names.
    dependencies = [
        ("clubs", "0007_club_analyse_earlier"),
        ("competitions", "0008_leg_sides"),
        ("games", "0029_leg_sides"),
    ]

    operations = [
        migrations.AlterModelTable(name=name, table=None)
        for name in ("club", "membership", "invitation", "joinrequest", "auditentry")
    ]
