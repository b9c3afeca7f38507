"""Compile the engine's walk with mypyc, where this machine has a C compiler (``make venv``).

The same source, typed strictly (``mypy --strict`` in ``make test``), compiled to C: the
modules of ``COMPILED`` become extension modules under ``engine/build/<digest>/``, named by
the digest of their source, the Python and mypy; ``engine/fives_engine/__init__.py`` puts that
folder first on the engine's path only when the digest matches the source on disk, so an
edited module is never shadowed by a stale build. No compiler, no mypyc, or a build that
fails: the engine stays pure Python, as it is in the recorder's Pyodide, and this says so.

    python scripts/build_engine.py [--check]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))  # the engine alone, not the archive

import build_cache  # noqa: E402 (scripts/, beside this script)

from fives_engine.compiled import COMPILED, build_folder  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="say whether a build is in place")
    args = parser.parse_args()
    folder = build_folder()
    if (folder / "fives_engine").is_dir():
        if not args.check:
            build_cache.store("engine", folder.name, folder)
        print(f"the compiled engine is up to date: {folder.relative_to(ROOT)}")
        return 0
    if args.check:
        print("no compiled engine for this source: it runs as pure Python")
        return 1
    # The same build made in another checkout of this machine (scripts/build_cache.py): the
    # folder's name is the digest of the source, the Python and mypy.
    if build_cache.restore("engine", folder.name, folder):
        _remove_others(folder)
        print(f"the compiled engine, kept from an earlier build: {folder.relative_to(ROOT)}")
        return 0
    if shutil.which(os.environ.get("CC", "cc")) is None:
        print("no C compiler: the engine runs as pure Python")
        return 0
    with tempfile.TemporaryDirectory() as temp:
        work = pathlib.Path(temp)
        (work / "fives_engine").mkdir(parents=True)
        for source in (ROOT / "engine" / "fives_engine").glob("*.py"):
            shutil.copy(source, work / "fives_engine" / source.name)
        command = [sys.executable, "-m", "mypyc", *(f"fives_engine/{name}.py" for name in COMPILED)]
        done = subprocess.run(command, cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
            print("mypyc failed: the engine runs as pure Python", file=sys.stderr)
            return 0
        staging = folder.with_name(folder.name + ".part")
        shutil.rmtree(staging, ignore_errors=True)
        (staging / "fives_engine").mkdir(parents=True)
        for built in work.glob("*.so"):  # mypyc's shared runtime of the group
            shutil.copy(built, staging / built.name)
        for built in (work / "fives_engine").glob("*.so"):
            shutil.copy(built, staging / "fives_engine" / built.name)
        _remove_others(staging)
        staging.rename(folder)
    build_cache.store("engine", folder.name, folder)
    print(f"compiled {', '.join(COMPILED)} with mypyc into {folder.relative_to(ROOT)}")
    return 0


def _remove_others(kept: pathlib.Path) -> None:
    """Old builds go: only the one matching the source is ever loaded."""
    for old in kept.parent.glob("*"):
        if old != kept:
            shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
