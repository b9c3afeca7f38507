"""The seasons, events (``Tournament``) and team leagues, moved from ``replays`` (its 0013):
the models enter this app's state on the tables they had (``db_table``), with their rows:
nothing in the database changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("clubs", "0003_league_invitations_audited"),
        # The models left replays' state first (the tables stay where they are).
        ("replays", "0013_competitions_moved"),
        ("games", "0022_clubs_moved"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # State only: the tables keep their names (db_table) and their rows.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="League",
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
                            models.CharField(max_length=100, unique=True, verbose_name="name"),
                        ),
                        ("legs", models.JSONField(verbose_name="legs of a fixture")),
                        (
                            "win_points",
                            models.PositiveSmallIntegerField(
                                default=2, verbose_name="points for a win"
                            ),
                        ),
                        (
                            "draw_points",
                            models.PositiveSmallIntegerField(
                                default=1, verbose_name="points for a draw"
                            ),
                        ),
                        (
                            "loss_points",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="points for a loss"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="made"),
                        ),
                        (
                            "organiser",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="organised_leagues",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="organiser",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "league",
                        "verbose_name_plural": "leagues",
                        "db_table": "replays_league",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="Season",
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
                        ("name", models.CharField(max_length=100, verbose_name="name")),
                        ("first_day", models.DateField(verbose_name="first day")),
                        ("last_day", models.DateField(verbose_name="last day")),
                        (
                            "presets",
                            models.JSONField(
                                blank=True, default=list, verbose_name="rulesets counted"
                            ),
                        ),
                        (
                            "win_points",
                            models.PositiveSmallIntegerField(
                                default=3, verbose_name="points for a win"
                            ),
                        ),
                        (
                            "loss_points",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="points for a loss"
                            ),
                        ),
                        (
                            "place_points",
                            models.JSONField(
                                blank=True, default=list, verbose_name="points by place"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="opened"),
                        ),
                        (
                            "closed_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="closed"),
                        ),
                        (
                            "frozen",
                            models.JSONField(
                                blank=True, null=True, verbose_name="table when closed"
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="seasons",
                                to="clubs.club",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "season",
                        "verbose_name_plural": "seasons",
                        "db_table": "replays_season",
                        "ordering": ["-first_day", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="Team",
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
                        ("name", models.CharField(max_length=100, verbose_name="name")),
                        (
                            "captains",
                            models.ManyToManyField(
                                related_name="captained_teams",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="captains",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="league_teams",
                                to="clubs.club",
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="teams",
                                to="competitions.league",
                            ),
                        ),
                        (
                            "roster",
                            models.ManyToManyField(
                                related_name="league_teams",
                                to="games.player",
                                verbose_name="roster",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "team",
                        "verbose_name_plural": "teams",
                        "db_table": "replays_team",
                        "ordering": ["league", "name"],
                    },
                ),
                migrations.CreateModel(
                    name="Fixture",
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
                        ("day", models.DateField(verbose_name="day")),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("to-play", "to play"),
                                    ("submitted", "awaiting confirmation"),
                                    ("confirmed", "confirmed"),
                                    ("disputed", "disputed"),
                                ],
                                default="to-play",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "submitted_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="submitted"),
                        ),
                        (
                            "decided_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="decided"),
                        ),
                        (
                            "dispute_reason",
                            models.CharField(
                                blank=True, max_length=500, verbose_name="why it is disputed"
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
                            "submitted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="fixtures",
                                to="competitions.league",
                            ),
                        ),
                        (
                            "away",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="away_fixtures",
                                to="competitions.team",
                            ),
                        ),
                        (
                            "home",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="home_fixtures",
                                to="competitions.team",
                            ),
                        ),
                        (
                            "submitted_for",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="competitions.team",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "fixture",
                        "verbose_name_plural": "fixtures",
                        "db_table": "replays_fixture",
                        "ordering": ["day", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Tournament",
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
                        ("name", models.CharField(max_length=100, verbose_name="name")),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("round-robin", "round-robin"),
                                    ("knockout", "knockout cup"),
                                ],
                                max_length=12,
                                verbose_name="kind",
                            ),
                        ),
                        ("first_day", models.DateField(verbose_name="first day")),
                        ("last_day", models.DateField(verbose_name="last day")),
                        (
                            "legs",
                            models.PositiveSmallIntegerField(
                                default=1, verbose_name="times each pair meets"
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="made"),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="made by",
                            ),
                        ),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="events",
                                to="competitions.season",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "event",
                        "verbose_name_plural": "events",
                        "db_table": "replays_event",
                        "ordering": ["-first_day", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="TournamentEntry",
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
                        ("seed", models.PositiveSmallIntegerField(verbose_name="seed")),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="entries",
                                to="competitions.tournament",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="event_entries",
                                to="games.player",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "event player",
                        "verbose_name_plural": "event players",
                        "db_table": "replays_evententry",
                        "ordering": ["event", "seed"],
                    },
                ),
                migrations.AddField(
                    model_name="tournament",
                    name="players",
                    field=models.ManyToManyField(
                        related_name="events",
                        through="competitions.TournamentEntry",
                        to="games.player",
                        verbose_name="players",
                    ),
                ),
                migrations.CreateModel(
                    name="LeagueClub",
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
                            "accepted_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="accepted"),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="league_places",
                                to="clubs.club",
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="clubs",
                                to="competitions.league",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "replays_leagueclub",
                        "ordering": ["league", "club__name"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("league", "club"), name="league_club_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Leg",
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
                        ("number", models.PositiveSmallIntegerField(verbose_name="leg")),
                        (
                            "kind",
                            models.CharField(
                                choices=[("singles", "singles"), ("pairs", "pairs")],
                                max_length=10,
                                verbose_name="kind",
                            ),
                        ),
                        (
                            "winner",
                            models.CharField(
                                choices=[("home", "home"), ("away", "away"), ("draw", "a draw")],
                                max_length=4,
                                verbose_name="winner",
                            ),
                        ),
                        ("home_score", models.IntegerField(verbose_name="home score")),
                        ("away_score", models.IntegerField(verbose_name="away score")),
                        (
                            "home_names",
                            models.CharField(max_length=500, verbose_name="home players"),
                        ),
                        (
                            "away_names",
                            models.CharField(max_length=500, verbose_name="away players"),
                        ),
                        (
                            "fixture",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="legs",
                                to="competitions.fixture",
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="league_legs",
                                to="games.match",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "replays_leg",
                        "ordering": ["fixture", "number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("fixture", "number"), name="leg_number_unique"
                            ),
                            models.UniqueConstraint(fields=("match",), name="leg_match_unique"),
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="team",
                    constraint=models.UniqueConstraint(
                        fields=("league", "name"), name="team_name_unique_in_league"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fixture",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("home", models.F("away")), _negated=True),
                        name="fixture_two_teams",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournamententry",
                    constraint=models.UniqueConstraint(
                        fields=("event", "player"), name="event_entry_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournamententry",
                    constraint=models.UniqueConstraint(
                        fields=("event", "seed"), name="event_entry_seed_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournament",
                    constraint=models.UniqueConstraint(
                        fields=("season", "name"), name="event_name_unique_in_season"
                    ),
                ),
            ],
        ),
    ]
