"""The builds ``make venv`` makes, kept by what they are made from, for the next checkout.

The recorder's Pyodide (``scripts/build_pyodide.py``: two runs of Pyodide in node and brotli
at its best, over a minute) and the compiled engine (``scripts/build_engine.py``: mypyc and a
C compiler, half a minute) are each a pure function of their sources: the same sources give
the same bytes. A second checkout on the same machine (a contributor's second clone, a
worktree, CI after a session, the README's `make run` test from a clean clone) takes them from
here instead of building them again, as pip takes a wheel from its cache. The key is the
build's own digest of everything it reads (its script included), so an edit to any of it
builds afresh.

Kept under ``$FIVES_BUILD_CACHE``, else ``$XDG_CACHE_HOME/fives-archive``, else
``~/.cache/fives-archive``; ``FIVES_BUILD_CACHE=off`` builds every time. A folder is written
beside its place and renamed into it, so a build cut short is never taken.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile


def root() -> pathlib.Path | None:
    """The cache's folder, or None when it is turned off."""
    chosen = os.environ.get("FIVES_BUILD_CACHE", "")
    if chosen.lower() in {"off", "0", "no"}:
        return None
    if chosen:
        return pathlib.Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
    return pathlib.Path(base) / "fives-archive"


def kept(kind: str, key: str) -> bool:
    """Whether the build of ``kind`` made from ``key`` is kept (or the cache is off)."""
    folder = root()
    return folder is None or (folder / kind / key).is_dir()


def restore(kind: str, key: str, target: pathlib.Path) -> bool:
    """Copy the build of ``kind`` made from ``key`` to ``target`` (a folder, replaced);
    return whether there was one."""
    folder = root()
    kept = folder / kind / key if folder else None
    if kept is None or not kept.is_dir():
        return False
    staging = target.with_name(target.name + ".part")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(kept, staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return True


def store(kind: str, key: str, source: pathlib.Path) -> None:
    """Keep a copy of the folder ``source`` as the build of ``kind`` made from ``key``. A
    cache that cannot be written (a read-only home) is skipped: the build stands."""
    folder = root()
    if folder is None:
        return
    kept = folder / kind / key
    if kept.is_dir():
        return
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{key}.", dir=kept.parent))
        shutil.copytree(source, staging, dirs_exist_ok=True)
        try:
            staging.rename(kept)
        except OSError:  # another build kept the same one meanwhile
            shutil.rmtree(staging, ignore_errors=True)
    except OSError:
        return
