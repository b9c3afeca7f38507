"""Where the engine's compiled walk is, when ``scripts/build_engine.py`` has built one.

The modules of ``COMPILED`` are the walk (the hand's state, scoring, the parser and the
validator) and the ratings' arithmetic (``plackett_luce``); compiled by mypyc from this very
source they run about twice as fast. A build
lives under ``engine/build/<digest>/``, the digest taken over the source of every module of
the engine and the Python version: the engine loads it only when it matches the
files on disk, else it runs as pure Python (``FIVES_ENGINE=pure`` asks for that too).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import sys

COMPILED = (
    "tiles",
    "scoring",
    "game",
    "report",
    "log",
    "packed",
    "validate",
    "replay",
    "plackett_luce",  # the ratings' arithmetic (replays/ratings.py)
)

_HERE = pathlib.Path(__file__).resolve().parent
_BUILDS = _HERE.parent / "build"  # engine/build/, beside the package


def build_folder() -> pathlib.Path:
    """Return the folder a build of the engine's source as it is on disk lives in."""
    digest = hashlib.sha256()
    # (A build is self-contained, mypyc's runtime included: a later mypy need not rebuild it.)
    digest.update(sys.implementation.cache_tag.encode())
    for source in sorted(_HERE.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return _BUILDS / digest.hexdigest()[:20]


def compiled_folder() -> pathlib.Path | None:
    """Return the build to load for the source on disk, or None (pure Python).

    ``FIVES_ENGINE=pure`` asks for pure Python; ``FIVES_ENGINE=compiled`` for the build,
    and raises ``ImportError`` when none matches the source (a test run of the compiled
    engine must not pass on the pure one).
    """
    asked = os.environ.get("FIVES_ENGINE")
    if asked == "pure":
        return None
    folder = build_folder()
    if (folder / "fives_engine").is_dir():
        return folder
    if asked == "compiled":
        raise ImportError(f"FIVES_ENGINE=compiled, but no build of this source: {folder}")
    return None
