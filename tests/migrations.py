"""What the migration tests share: migrating the test database to a point and reading rows
back in a form that compares the same on PostgreSQL and SQLite."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target):
    """Migrate to ``target`` (None: every app to its newest migration); return its models."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    target = target or executor.loader.graph.leaf_nodes()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def table_rows(apps, app: str, name: str, fields: tuple[str, ...]) -> list[tuple]:
    """Return the model's rows as sorted tuples of ``fields``; binary values as bytes
    (PostgreSQL gives them as memoryview)."""
    found = apps.get_model(app, name).objects.values_list(*fields)
    return sorted(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in found)
