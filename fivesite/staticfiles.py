"""How static files are stored by ``collectstatic`` (production) and cached by browsers.

Every file gets a name with a hash of its content and a brotli and a gzip copy (WhiteNoise's
``CompressedManifestStaticFilesStorage``), so WhiteNoise serves it compressed and cached for a
year. Pyodide's files are the exception to the renaming: Pyodide asks for them by their own
names beside ``pyodide.mjs``; they live under ``recorder/pyodide/<digest>/``, a directory
named by a hash of their content (``scripts/build_pyodide.py``), which is their fingerprint.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from pathlib import Path

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

# Pyodide's directory (its names kept: settings.WHITENOISE_IMMUTABLE_FILE_TEST caches it a year).
PYODIDE_PREFIX = "recorder/pyodide/"
# Compressed copies kept by content: brotli at its best takes ~20 s for Pyodide's 9.6 MB wasm,
# paid once per Pyodide version rather than at every collectstatic.
CACHE = Path(__file__).resolve().parents[1] / "build" / "compressed"


class CachedCompressor(Compressor):
    def _cached(self, data: bytes, suffix: str, make) -> bytes:
        if len(data) < 64 * 1024:
            return make(data)
        path = CACHE / (hashlib.sha256(data).hexdigest() + suffix)
        if path.exists():
            return path.read_bytes()
        CACHE.mkdir(parents=True, exist_ok=True)
        # A file and its hashed copy have the same content and are compressed at once, in
        # threads of their own, and two collectstatic runs may go at once (the test suite's
        # processes): the first to take the content's lock compresses it, the others wait
        # and read what it wrote, instead of each compressing it again.
        with open(path.with_name(path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if path.exists():
                return path.read_bytes()
            compressed = make(data)
            partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
            partial.write_bytes(compressed)
            partial.replace(path)
        return compressed

    def compress_brotli(self, data: bytes) -> bytes:
        return self._cached(data, ".br", Compressor.compress_brotli)

    def compress_gzip(self, data: bytes) -> bytes:
        return self._cached(data, ".gz", Compressor.compress_gzip)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed and compressed copies; Pyodide's files keep their names (their directory is
    their hash), and zip files are compressed too (the recorder's standard library is stored
    uncompressed so that brotli and gzip take it as one text)."""

    def hashed_name(self, name, content=None, filename=None):
        if name.startswith(PYODIDE_PREFIX):
            return name
        return super().hashed_name(name, content, filename)

    def create_compressor(self, **kwargs):
        kwargs["extensions"] = [ext for ext in Compressor.SKIP_COMPRESS_EXTENSIONS if ext != "zip"]
        return CachedCompressor(**kwargs)
