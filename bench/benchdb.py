"""The database a benchmark writes into: never the one DATABASE_URL names itself."""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
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
        migrated = migrated_sqlite()
        if migrated is not None:
            shutil.copyfile(migrated, path)
        return f"sqlite:///{path}", "SQLite"
    server = urlparse(url)
    if not reuse:
        import psycopg

        admin = urlunparse(server._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    return urlunparse(server._replace(path=f"/{name}")), "PostgreSQL"


ROOT = pathlib.Path(__file__).resolve().parents[1]


def _schema_key() -> str:
    """A digest of what a fresh database's schema is made from: the archive's migrations and
    every installed distribution's version (Django's and the other apps' migrations)."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(versions).encode())
    return digest.hexdigest()[:20]


def migrated_sqlite() -> pathlib.Path | None:
    """A SQLite file migrated from nothing, as ``migrate`` leaves a fresh one, made once per
    schema (``_schema_key``) and kept beside the other builds (scripts/build_cache.py's
    folder; ``FIVES_BUILD_CACHE=off``: None, each bench migrates its own). A fresh migrate
    renders every migration's models: 10 to 20 s each time, in a bench smoke run most of its
    time. A bench's own ``migrate`` then finds nothing to do."""
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    import build_cache

    folder = build_cache.root()
    if folder is None:
        return None
    kept = folder / "sqlite" / f"{_schema_key()}.sqlite3"
    if kept.exists():
        return kept
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f".{kept.name}.{os.getpid()}")
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{partial}",
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-only-" + "k" * 50,
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v0"],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        return None
    partial.replace(kept)
    return kept
