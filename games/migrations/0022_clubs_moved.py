"""The clubs moved to their own app (``clubs`` 0001): the archive's relations to a club
point at ``clubs.Club`` and the club models leave games' state. Their tables stay, with
their rows (``db_table``): nothing in the database changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("games", "0021_league_audit_actions"),
        # No relation of replays still points at games.Club when it leaves the state.
        ("replays", "0011_clubs_moved"),
    ]

    operations = [
        # State only: the tables keep their names (db_table) and their rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="auditentry",
                    name="actor",
                ),
                migrations.RemoveField(
                    model_name="auditentry",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="auditentry",
                    name="subject",
                ),
                migrations.RemoveField(
                    model_name="club",
                    name="members",
                ),
                migrations.AlterField(
                    model_name="match",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="matches",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="playeralias",
                    name="club",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="aliases",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="player",
                    name="club",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="players",
                        to="clubs.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="upload",
                    name="club",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="uploads",
                        to="clubs.club",
                    ),
                ),
                migrations.RemoveField(
                    model_name="invitation",
                    name="club",
                ),
                migrations.RemoveConstraint(
                    model_name="handleclaim",
                    name="handle_claim_one_pending",
                ),
                migrations.RemoveField(
                    model_name="invitation",
                    name="created_by",
                ),
                migrations.RemoveConstraint(
                    model_name="joinrequest",
                    name="join_request_one_pending",
                ),
                migrations.RemoveConstraint(
                    model_name="membership",
                    name="membership_unique",
                ),
                migrations.RemoveConstraint(
                    model_name="membership",
                    name="membership_one_owner",
                ),
                migrations.DeleteModel(
                    name="AuditEntry",
                ),
                migrations.RemoveField(
                    model_name="handleclaim",
                    name="decided_by",
                ),
                migrations.RemoveField(
                    model_name="handleclaim",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="handleclaim",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="Invitation",
                ),
                migrations.RemoveField(
                    model_name="joinrequest",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="joinrequest",
                    name="decided_by",
                ),
                migrations.RemoveField(
                    model_name="joinrequest",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="HandleClaim",
                ),
                migrations.DeleteModel(
                    name="JoinRequest",
                ),
                migrations.DeleteModel(
                    name="Club",
                ),
                migrations.DeleteModel(
                    name="Membership",
                ),
            ],
            database_operations=[],
        ),
    ]
