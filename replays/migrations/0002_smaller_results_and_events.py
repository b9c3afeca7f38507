"""Seat results and rating events in fewer bytes: keyed by what identifies them, not an id.

``SeatResult`` is keyed by (match, seat): the id column, its index and the unique
constraint on (match, seat) become one primary key; the index on (match, team) and the
foreign key indexes of match, player and club go (the key, (player, played_at) and (club,
preset, played_at) start with those columns); (player, played_at) is ascending, as rows
arrive (read backwards for a player's latest); counts of hands become small integers (a
log has at most 32767 hands). ``RatingEvent`` is keyed by (rating, played_at, matches), which
was its index with the match in place of ``matches``: the id column, its index and the
rating's own index go, and so does ``ordinal`` (always mu - 3 sigma). Both tables are made
anew with their widest columns first, which leaves no alignment padding in a row, and the
rows copied across (PostgreSQL cannot reorder the columns of a table, and Django cannot
change a primary key into a composite one). Backwards, the old tables come back with the
same rows, ``ordinal`` computed again and new ids.
"""

import django.db.models.deletion
from django.db import migrations, models

SEAT_COLUMNS = (
    "match_id",
    "player_id",
    "club_id",
    "played_at",
    "plays",
    "scoring_plays",
    "points",
    "missed",
    "settlement_won",
    "settlement_lost",
    "claims_differ",
    "seat",
    "team",
    "rank",
    "hands",
    "dominoes",
    "blocked",
    "complete",
    "won",
    "preset",
)
EVENT_COLUMNS = ("rating_id", "match_id", "played_at", "mu", "sigma", "matches", "wins")
OLD_TABLES = {
    "replays_seatresult": "replays_seatresult_old",
    "replays_ratingevent": "replays_ratingevent_old",
}


def _copy(schema_editor, source, target, columns, values=None, order=()):
    quote = schema_editor.quote_name
    # In the order of the target's key: its index fills its pages as it is built.
    order_by = f" ORDER BY {', '.join(quote(c) for c in order)}" if order else ""
    schema_editor.execute(
        f"INSERT INTO {quote(target)} ({', '.join(quote(c) for c in columns)}) "
        f"SELECT {', '.join(values or [quote(c) for c in columns])} FROM {quote(source)}"
        f"{order_by}"
    )
    if schema_editor.connection.vendor == "postgresql":
        # Check the copied rows' foreign keys now: a table with deferred checks pending
        # cannot be altered or indexed later in this transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


def copy_forwards(apps, schema_editor):
    _copy(
        schema_editor,
        "replays_seatresult_old",
        "replays_seatresult",
        SEAT_COLUMNS,
        order=("match_id", "seat"),
    )
    _copy(
        schema_editor,
        "replays_ratingevent_old",
        "replays_ratingevent",
        EVENT_COLUMNS,
        order=("rating_id", "played_at", "matches"),
    )


def copy_backwards(apps, schema_editor):
    _copy(
        schema_editor,
        "replays_seatresult",
        "replays_seatresult_old",
        SEAT_COLUMNS,
        order=("match_id", "seat"),
    )
    quote = schema_editor.quote_name
    values = [quote(c) for c in EVENT_COLUMNS] + [f"{quote('mu')} - 3.0 * {quote('sigma')}"]
    _copy(
        schema_editor,
        "replays_ratingevent",
        "replays_ratingevent_old",
        (*EVENT_COLUMNS, "ordinal"),
        values,
        order=("played_at", "match_id", "rating_id"),
    )


def _rename_constraints(schema_editor, *, back):
    """On PostgreSQL, give the old tables' primary key and checks names of the old tables
    (forwards), or their own again (backwards): the new tables' take the names PostgreSQL
    gives a table's first ones (index names are the schema's, unique across tables)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    with schema_editor.connection.cursor() as cursor:
        for table, aside in OLD_TABLES.items():
            before, after = (aside, table) if back else (table, aside)
            cursor.execute(
                "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass "
                "AND contype IN ('p', 'c')",
                [aside],
            )
            for (name,) in cursor.fetchall():
                if name.startswith(f"{before}_") and (back or not name.startswith(f"{aside}_")):
                    schema_editor.execute(
                        f"ALTER TABLE {quote(aside)} RENAME CONSTRAINT {quote(name)} "
                        f"TO {quote(after + name[len(before) :])}"
                    )


def constraints_aside(apps, schema_editor):
    _rename_constraints(schema_editor, back=False)


def constraints_back(apps, schema_editor):
    _rename_constraints(schema_editor, back=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("replays", "0001_initial"),
    ]

    operations = [
        # The old tables step aside.
        migrations.AlterModelTable(name="seatresult", table="replays_seatresult_old"),
        migrations.AlterModelTable(name="ratingevent", table="replays_ratingevent_old"),
        migrations.RunPython(constraints_aside, constraints_back),
        # The new ones, widest columns first; their indexes come after the copy.
        migrations.CreateModel(
            name="NewSeatResult",
            fields=[
                ("pk", models.CompositePrimaryKey("match", "seat", serialize=False)),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.player",
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.club",
                    ),
                ),
                ("played_at", models.DateTimeField(verbose_name="played at")),
                ("plays", models.PositiveIntegerField(verbose_name="plays")),
                ("scoring_plays", models.PositiveIntegerField(verbose_name="plays that scored")),
                ("points", models.IntegerField(verbose_name="points from plays")),
                ("missed", models.PositiveIntegerField(verbose_name="points missed")),
                ("settlement_won", models.IntegerField(verbose_name="settlement points won")),
                ("settlement_lost", models.IntegerField(verbose_name="settlement points lost")),
                (
                    "claims_differ",
                    models.PositiveIntegerField(verbose_name="claimed points that differ"),
                ),
                ("seat", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("team", models.PositiveSmallIntegerField(verbose_name="team")),
                ("rank", models.PositiveSmallIntegerField(verbose_name="place")),
                ("hands", models.PositiveSmallIntegerField(verbose_name="hands")),
                ("dominoes", models.PositiveSmallIntegerField(verbose_name="hands gone out")),
                ("blocked", models.PositiveSmallIntegerField(verbose_name="blocked hands")),
                ("complete", models.BooleanField(verbose_name="complete")),
                ("won", models.BooleanField(verbose_name="won")),
                ("preset", models.CharField(max_length=20, verbose_name="ruleset")),
            ],
            options={"db_table": "replays_seatresult"},
        ),
        migrations.CreateModel(
            name="NewRatingEvent",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey("rating", "played_at", "matches", serialize=False),
                ),
                (
                    "rating",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="replays.rating",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                ("played_at", models.DateTimeField()),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("matches", models.PositiveIntegerField()),
                ("wins", models.PositiveIntegerField()),
            ],
            options={"db_table": "replays_ratingevent"},
        ),
        migrations.RunPython(copy_forwards, copy_backwards),
        migrations.DeleteModel(name="SeatResult"),
        migrations.DeleteModel(name="RatingEvent"),
        migrations.RenameModel(old_name="NewSeatResult", new_name="SeatResult"),
        migrations.RenameModel(old_name="NewRatingEvent", new_name="RatingEvent"),
        migrations.AlterModelTable(name="seatresult", table=None),
        migrations.AlterModelTable(name="ratingevent", table=None),
        migrations.AlterField(
            model_name="seatresult",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seat_results",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="seatresult",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="results",
                to="games.player",
            ),
        ),
        migrations.AlterField(
            model_name="seatresult",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seat_results",
                to="games.club",
            ),
        ),
        migrations.AlterField(
            model_name="ratingevent",
            name="rating",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="replays.rating",
            ),
        ),
        # A deleted match's events are found by this one.
        migrations.AlterField(
            model_name="ratingevent",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_events",
                to="games.match",
            ),
        ),
        migrations.AddIndex(
            model_name="seatresult",
            index=models.Index(fields=["player", "played_at"], name="seat_result_player"),
        ),
        migrations.AddIndex(
            model_name="seatresult",
            index=models.Index(fields=["club", "preset", "played_at"], name="seat_result_club"),
        ),
    ]
