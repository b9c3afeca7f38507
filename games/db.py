"""Database helpers shared by the services."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.db import connection, models
from psycopg.types.json import Jsonb

# A column's value as these helpers take it, the way Django and psycopg do: a JSONField's as
# its JSON (a dict or list), a binary field's as bytes, NULL as None.
DbValue = (
    int
    | float
    | str
    | bool
    | bytes
    | datetime
    | date
    | Decimal
    | UUID
    | dict[str, object]
    | list[object]
    | None
)
# A row of a table: its columns' values in the order the columns are named.
DbRow = tuple[DbValue, ...]


def insert_rows(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Iterable[DbRow],
    *,
    new_ids: int = 0,
) -> list[int]:
    """Insert plain rows into ``model``'s table: with COPY on PostgreSQL (the fastest way
    in, with no model objects), else with ``bulk_create``.

    With ``new_ids`` (the number of rows), the rows get new primary keys, returned in order:
    taken from the table's sequence first on PostgreSQL, since COPY returns nothing.
    """
    rows = list(rows)
    fields = model._meta.concrete_fields
    json_fields = {field.attname for field in fields if isinstance(field, models.JSONField)}
    json_at = [index for index, name in enumerate(columns) if name in json_fields]
    if connection.vendor != "postgresql":
        objects = [model(**dict(zip(columns, row, strict=True))) for row in rows]
        model._default_manager.bulk_create(objects, batch_size=2000)
        return [obj.pk for obj in objects] if new_ids else []
    ids: list[int] = []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if new_ids:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [table, new_ids],
            )
            ids = [row[0] for row in cursor.fetchall()]
            columns = ("id", *columns)
            json_at = [index + 1 for index in json_at]
            rows = [(pk, *row) for pk, row in zip(ids, rows, strict=True)]
        names = ", ".join(connection.ops.quote_name(name) for name in columns)
        quoted = connection.ops.quote_name(table)
        with cursor.cursor.copy(f"COPY {quoted} ({names}) FROM STDIN") as copy:
            for row in rows:
                if json_at:
                    row = list(row)
                    for index in json_at:
                        if row[index] is not None:  # None is SQL NULL, as Django stores it
                            row[index] = Jsonb(row[index])
                copy.write_row(row)
    return ids


def update_rows(model: type[models.Model], columns: Sequence[str], rows: Iterable[DbRow]) -> None:
    """Set the fields ``columns`` of existing rows of ``model``, each row given as
    ``(primary key, *values)``: on PostgreSQL one ``UPDATE ... FROM (VALUES ...)`` a
    thousand rows, else with ``bulk_update``.

    Why: ``bulk_update`` writes a ``CASE`` per row and field, which Django takes longer to
    build than the database to run (a re-rating's thousand ratings: about 0.25 s).
    """
    rows = list(rows)
    if not rows:
        return
    meta = model._meta
    fields = [meta.pk, *(meta.get_field(name) for name in columns)]
    if connection.vendor != "postgresql":
        objects = [
            model(**{fields[0].attname: pk}, **dict(zip(columns, values, strict=True)))
            for pk, *values in rows
        ]
        model._default_manager.bulk_update(objects, list(columns), batch_size=1000)
        return
    quote = connection.ops.quote_name
    names = [quote(field.column) for field in fields]
    typed = "(" + ", ".join(f"%s::{field.db_type(connection)}" for field in fields) + ")"
    sets = ", ".join(f"{name} = v.{name}" for name in names[1:])
    key = names[0]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 1000):
            batch = rows[start : start + 1000]
            cursor.execute(
                f"UPDATE {quote(meta.db_table)} AS t SET {sets}"
                f" FROM (VALUES {', '.join([typed] * len(batch))}) AS v({', '.join(names)})"
                f" WHERE t.{key} = v.{key}",
                [value for row in batch for value in row],
            )


class AnyOf(models.Lookup):
    """``field__any_of=ids``: the rows whose field is one of ``ids``, a list of any length.

    Why not ``__in``: Django writes a placeholder per value and psycopg parses the query
    for each, which for the thousands of ids of a re-rating costs more than the database
    takes to answer (at 100,000 matches, a tenth of a merge's all-clubs re-rating). On
    PostgreSQL this is ``= ANY(%s)`` with the ids as one array; on SQLite ``IN``, past 999
    ids from one JSON array.
    """

    lookup_name = "any_of"
    prepare_rhs = False
    can_use_none_as_rhs = False

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = [self.lhs.output_field.get_prep_value(value) for value in self.rhs]
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(%s)", [*lhs_params, values]
        if not values:
            return "0 = 1", list(lhs_params)
        if len(values) > 999 and all(isinstance(value, int | str) for value in values):
            # SQLite caps the parameters of a query (32,766 in most builds): one JSON array.
            return f"{lhs} IN (SELECT value FROM json_each(%s))", [*lhs_params, json.dumps(values)]
        return f"{lhs} IN ({', '.join(['%s'] * len(values))})", [*lhs_params, *values]


# On every field, keys included (a foreign key's lookups are its own class's).
models.Field.register_lookup(AnyOf)
models.ForeignObject.register_lookup(AnyOf)


def rows_table(
    rows: Sequence[DbRow], fields: Sequence[models.Field], names: Sequence[str]
) -> tuple[str, list[Any]]:
    """Return the SQL of a table of ``rows`` to read FROM, named ``given`` (its columns
    ``names``, typed as ``fields``), and its parameters: on PostgreSQL ``unnest`` of one
    array a column, on SQLite one JSON array of the rows.

    Why: a query that asks one thing of each of thousands of keys (a player's last match
    before a time of their own) joins them as a table; a ``CASE`` a key, as Django writes
    it, costs more to build than the database takes to answer.
    """
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(fields)
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
        return f"unnest({arrays}) AS given({', '.join(names)})", [list(c) for c in columns]
    values = [
        [
            field.get_db_prep_value(value, connection)
            for field, value in zip(fields, row, strict=True)
        ]
        for row in rows
    ]
    picked = ", ".join(f"json_extract(value, '$[{at}]') AS {name}" for at, name in enumerate(names))
    return f"(SELECT {picked} FROM json_each(%s)) AS given", [json.dumps(values)]
