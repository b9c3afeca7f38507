"""The database a benchmark writes into: never the one DATABASE_URL names itself."""

from __future__ import annotations

import os
import pathlib
import tempfile
from urllib.parse import urlparse, urlunparse


def bench_database(url: str | None, name: str, *, reuse: bool = False) -> tuple[str, str]:
    """Return (DATABASE_URL, kind) of the benchmark's own database.

    On the PostgreSQL server of ``url``, the database ``name`` made anew (kept as it is with
    ``reuse``); without a PostgreSQL ``url``, a fresh SQLite file.
    """
    # A benchmark is a local run with DEBUG off: a key of its own, plain HTTP.
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 50)
    os.environ.setdefault("FIVES_HTTPS", "0")
    if not url or not url.startswith(("postgres://", "postgresql://")):
        path = pathlib.Path(tempfile.mkdtemp()) / "bench.sqlite3"
        return f"sqlite:///{path}", "SQLite"
    server = urlparse(url)
    if not reuse:
        import psycopg

        admin = urlunparse(server._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    return urlunparse(server._replace(path=f"/{name}")), "PostgreSQL"
