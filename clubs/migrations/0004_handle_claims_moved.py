"""A handle claim is the archive's now (``games`` 0023 takes it into its state): it leaves
the state of clubs. Its table stays, with its rows (``games_handleclaim``, by db_table):
nothing in the database changes. This migration depends on no app above clubs."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_league_invitations_audited"),
    ]

    operations = [
        # State only: the table keeps its name and its rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(
                    model_name="handleclaim",
                    name="handle_claim_one_pending",
                ),
                migrations.DeleteModel(
                    name="HandleClaim",
                ),
            ],
            database_operations=[],
        ),
    ]
