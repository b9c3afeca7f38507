"""The club models as they were in ``games`` (0001 to 0021), now the clubs app's: the
same tables (``db_table``), so nothing in the database changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import clubs.presets


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0021_league_audit_actions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # State only: the tables keep their names (db_table) and their rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Club",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "name",
                            models.CharField(max_length=200, unique=True, verbose_name="name"),
                        ),
                        (
                            "slug",
                            models.SlugField(
                                allow_unicode=True, max_length=200, unique=True, verbose_name="slug"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created"),
                        ),
                        (
                            "time_zone",
                            models.CharField(
                                default="UTC", max_length=64, verbose_name="time zone"
                            ),
                        ),
                        (
                            "language",
                            models.CharField(
                                choices=[("en", "English"), ("ru", "Russian"), ("ka", "Georgian")],
                                default="en",
                                max_length=10,
                                verbose_name="language",
                            ),
                        ),
                        (
                            "default_ruleset",
                            models.CharField(
                                choices=clubs.presets.ruleset_choices,
                                default="all-fives",
                                max_length=20,
                                verbose_name="default ruleset",
                            ),
                        ),
                        ("is_private", models.BooleanField(default=False, verbose_name="private")),
                        (
                            "requires_approval",
                            models.BooleanField(
                                default=False, verbose_name="uploads need an admin's approval"
                            ),
                        ),
                        (
                            "analyse_every_match",
                            models.BooleanField(default=False, verbose_name="analyse every match"),
                        ),
                    ],
                    options={
                        "verbose_name": "club",
                        "verbose_name_plural": "clubs",
                        "db_table": "games_club",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("club-created", "created the club"),
                                    ("settings-changed", "changed the club's settings"),
                                    ("invitation-created", "made an invitation link"),
                                    ("invitation-revoked", "revoked an invitation link"),
                                    ("member-joined", "joined with an invitation"),
                                    ("join-accepted", "accepted a join request"),
                                    ("join-declined", "declined a join request"),
                                    ("member-left", "left the club"),
                                    ("member-removed", "removed a member"),
                                    ("role-changed", "changed a member's role"),
                                    ("ownership-transferred", "handed the ownership over"),
                                    ("match-approved", "approved a match"),
                                    ("match-rejected", "rejected a match"),
                                    ("claim-confirmed", "confirmed a handle claim"),
                                    ("claim-declined", "declined a handle claim"),
                                    ("handle-renamed", "renamed a handle"),
                                    ("handles-merged", "merged two handles"),
                                    ("upload-deleted", "deleted an upload"),
                                    ("upload-rerun", "ran an upload again"),
                                    ("event-created", "made an event"),
                                    ("event-changed", "changed an event"),
                                    ("event-deleted", "deleted an event"),
                                    ("league-changed", "changed a league"),
                                    ("league-deleted", "deleted a league"),
                                    ("team-created", "made a league team"),
                                    ("team-changed", "changed a league team"),
                                    ("team-deleted", "deleted a league team"),
                                    ("fixture-created", "made a league fixture"),
                                    ("fixture-changed", "changed a league fixture"),
                                    ("fixture-reset", "reset a league fixture"),
                                    ("fixture-deleted", "deleted a league fixture"),
                                ],
                                max_length=30,
                                verbose_name="action",
                            ),
                        ),
                        (
                            "detail",
                            models.JSONField(blank=True, default=dict, verbose_name="details"),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(
                                auto_now_add=True, db_index=True, verbose_name="when"
                            ),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "subject",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="audit_entries",
                                to="clubs.club",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "audit entry",
                        "verbose_name_plural": "audit trail",
                        "db_table": "games_auditentry",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="Invitation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("token", models.CharField(max_length=64, unique=True)),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="created"),
                        ),
                        ("expires_at", models.DateTimeField(verbose_name="expires")),
                        (
                            "max_uses",
                            models.PositiveIntegerField(default=1, verbose_name="uses allowed"),
                        ),
                        ("uses", models.PositiveIntegerField(default=0, verbose_name="used")),
                        (
                            "revoked_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="revoked"),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="invitations",
                                to="clubs.club",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "invitation",
                        "verbose_name_plural": "invitations",
                        "db_table": "games_invitation",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[
                                    ("owner", "owner"),
                                    ("admin", "admin"),
                                    ("member", "member"),
                                ],
                                default="member",
                                max_length=10,
                                verbose_name="role",
                            ),
                        ),
                        (
                            "joined_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="joined"),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="memberships",
                                to="clubs.club",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="memberships",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "membership",
                        "verbose_name_plural": "memberships",
                        "db_table": "games_membership",
                        "ordering": ["club", "user__username"],
                    },
                ),
                migrations.AddField(
                    model_name="club",
                    name="members",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="clubs",
                        through="clubs.Membership",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.CreateModel(
                    name="HandleClaim",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="sent"),
                        ),
                        (
                            "decided_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="decided"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "pending"),
                                    ("confirmed", "confirmed"),
                                    ("declined", "declined"),
                                ],
                                default="pending",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="claims",
                                to="games.player",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="handle_claims",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "handle claim",
                        "verbose_name_plural": "handle claims",
                        "db_table": "games_handleclaim",
                        "ordering": ["-created_at"],
                        "abstract": False,
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "pending")),
                                fields=("player", "user"),
                                name="handle_claim_one_pending",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="JoinRequest",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="sent"),
                        ),
                        (
                            "decided_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="decided"),
                        ),
                        (
                            "message",
                            models.CharField(blank=True, max_length=500, verbose_name="message"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "pending"),
                                    ("accepted", "accepted"),
                                    ("declined", "declined"),
                                ],
                                default="pending",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="join_requests",
                                to="clubs.club",
                            ),
                        ),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="join_requests",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "join request",
                        "verbose_name_plural": "join requests",
                        "db_table": "games_joinrequest",
                        "ordering": ["-created_at"],
                        "abstract": False,
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "pending")),
                                fields=("club", "user"),
                                name="join_request_one_pending",
                            )
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="membership",
                    constraint=models.UniqueConstraint(
                        fields=("club", "user"), name="membership_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="membership",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("role", "owner")),
                        fields=("club",),
                        name="membership_one_owner",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
