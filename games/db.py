"""Database helpers shared by the services."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models
from psycopg.types.json import Jsonb


def insert_rows(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[tuple[Any, ...]]
) -> None:
    """Insert plain rows into ``model``'s table: with COPY on PostgreSQL (the fastest way
    in, with no model objects), else with ``bulk_create``."""
    if connection.vendor == "postgresql":
        names = ", ".join(connection.ops.quote_name(name) for name in columns)
        table = connection.ops.quote_name(model._meta.db_table)
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                # Lists and objects go to jsonb columns, not arrays.
                copy.write_row(
                    tuple(
                        Jsonb(value) if isinstance(value, list | dict) else value for value in row
                    )
                )
        return
    model._default_manager.bulk_create(
        [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=2000
    )
