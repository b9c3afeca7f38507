"""What the recorder page offers and where its matches go: the person's clubs, their players
and rulesets, the engine packed for the phone, and the upload of a finished record."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import json
import pathlib
import pkgutil
import zipfile
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.utils import timezone
from django.utils.translation import gettext

import fives_engine as engine
from clubs.models import Club, Membership
from clubs.presets import RULESETS
from clubs.zones import zone_of
from fives_engine import PRESETS
from games.event_names import event_names
from games.models import Player, Upload
from games.presentation import ERROR_TITLES, end_names
from games.services.uploads import upload_create

from . import table

# What the phone runs: the engine and the recorder's one call into it, nothing of Django.
# The engine's modules are the package's own list (whatever it holds, wherever installed).
TABLE_MODULE = "recorder.table"


def engine_modules() -> list[str]:
    """Return the dotted names of the modules the phone runs: every module of
    ``fives_engine`` and ``recorder.table``."""
    names = sorted(module.name for module in pkgutil.iter_modules(engine.__path__))
    return [engine.__name__, *(f"{engine.__name__}.{name}" for name in names), TABLE_MODULE]


def _module_source(name: str) -> tuple[str, bytes]:
    """Return a module's path in the archive (``fives_engine/rules.py``) and its source.

    A module the server runs compiled (``fives_engine/compiled.py``: its origin is a shared
    library) is sent as its source, found beside the package's other sources: Pyodide runs
    the same source as Python.
    """
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise LookupError(f"module {name} not found")
    path = name.replace(".", "/")
    path += "/__init__.py" if spec.submodule_search_locations is not None else ".py"
    origin = pathlib.Path(spec.origin)
    if origin.suffix != ".py":
        package, _, leaf = name.rpartition(".")
        folders = importlib.import_module(package).__path__
        sources = [pathlib.Path(folder) / f"{leaf}.py" for folder in folders]
        origin = next((source for source in sources if source.is_file()), origin)
        if origin.suffix != ".py":
            raise LookupError(f"no source of module {name}")
    return path, origin.read_bytes()


@functools.cache
def engine_archive() -> tuple[bytes, str]:
    """Return the zip the phone unpacks into Pyodide (``fives_engine`` and
    ``recorder.table``, under an empty package stub) and its version (a content hash)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("recorder/__init__.py", (1980, 1, 1, 0, 0, 0)), "")
        for module in engine_modules():
            name, source = _module_source(module)
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), source)
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


# What loadPyodide fetches (scripts/build_pyodide.py puts them in one directory named by their
# content, with a standard library of the modules the engine imports alone).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


class PyodideMissing(Exception):
    """Pyodide was not built (``make venv`` runs scripts/build_pyodide.py)."""


def pyodide_name() -> str:
    """Return the static name of the built Pyodide directory, ``recorder/pyodide/<digest>/``
    (from the build, or from what collectstatic copied of it)."""
    for root in (
        settings.PYODIDE_BUILD,
        pathlib.Path(settings.STATIC_ROOT) / "recorder" / "pyodide",
    ):
        if root.is_dir():
            built = sorted(
                path.name for path in root.iterdir() if (path / "pyodide.asm.wasm").exists()
            )
            if built:
                return f"recorder/pyodide/{built[-1]}/"
    raise PyodideMissing(
        "run `make venv` (scripts/build_pyodide.py) to build the recorder's Pyodide"
    )


def _static_path(name: str) -> pathlib.Path | None:
    if settings.FIVES_STATIC_SOURCES:
        found = finders.find(name)
        return pathlib.Path(found) if found else None
    path = pathlib.Path(settings.STATIC_ROOT) / name
    return path if path.exists() else None


def built_sizes() -> dict[str, dict[str, int]]:
    """What each file of the built Pyodide costs on the wire, by encoding, as the build
    measured it (``build/pyodide.sizes.json``, scripts/build_pyodide.py), by static name;
    empty when the build measured none or another directory."""
    try:
        measured = json.loads((settings.PYODIDE_BUILD.parent / "pyodide.sizes.json").read_text())
    except (OSError, ValueError):
        return {}
    base = f"recorder/pyodide/{measured.get('directory')}/"
    return {base + name: sizes for name, sizes in measured.get("files", {}).items()}


def wire_size(name: str, accept_encoding: str) -> int:
    """Return the bytes the static file ``name`` takes on the wire to a browser that accepts
    ``accept_encoding``: its brotli or gzip copy as WhiteNoise would choose, else itself.
    Served from the sources (``make run``, the tests: no copies), a file of the built Pyodide
    counts as the build measured its copies: what the production way sends."""
    path = _static_path(name)
    if path is None:
        return 0
    measured = built_sizes().get(name, {})
    for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
        compressed = path.with_name(path.name + suffix)
        if encoding in accept_encoding and compressed.exists():
            return compressed.stat().st_size
        if encoding in accept_encoding and encoding in measured:
            return measured[encoding]
    return path.stat().st_size


def pyodide_download(accept_encoding: str) -> dict[str, Any]:
    """Return what the recorder downloads before its engine runs: each file's static name
    and size as the browser's reader counts it (uncompressed), and the bytes on the wire in
    all (what the page says it costs)."""
    base = pyodide_name()
    files = []
    wire = 0
    for name in PYODIDE_FILES:
        path = _static_path(base + name)
        files.append({"name": base + name, "size": path.stat().st_size if path else 0})
        wire += wire_size(base + name, accept_encoding)
    engine = len(engine_archive()[0])
    return {"files": files, "engine_size": engine, "wire": wire + engine}


# The engine's worker: a static file, served by a view of its own (views.engine_worker).
ENGINE_WORKER = "recorder/engine-worker.js"


def engine_worker_source() -> bytes:
    """Return the engine worker's script, as collectstatic or the app keeps it."""
    path = _static_path(ENGINE_WORKER) or pathlib.Path(finders.find(ENGINE_WORKER))
    return path.read_bytes()


# The recorder's own static files, which the service worker keeps with the engine.
OWN_ASSETS = (
    "recorder/recorder.js",
    "recorder/engine-worker.js",
    "recorder/live-send.js",
    "recorder/recorder.css",
    "replays/layout.js",
    "recorder/board.js",
    "replays/cribbage.js",
    "css/site.css",
    "js/site.js",
)


def offline_version() -> str:
    """Return the version of what the service worker keeps: the engine and the recorder's
    own static files. A change to any of them gives the worker a new cache, so a phone
    fetches them again (kept under the engine's version alone, a phone that had the page
    kept an old script or stylesheet until the engine changed). Pyodide's files are named
    by their own version."""
    digest = hashlib.sha256(engine_archive()[1].encode())
    for name in OWN_ASSETS:
        path = finders.find(name)
        digest.update(name.encode() + b"\0" + (pathlib.Path(path).read_bytes() if path else b""))
    return digest.hexdigest()[:16]


def recorder_clubs(user: Any) -> list[Club]:
    """Return the clubs ``user`` may record for: those they are a member of (a log is stored
    only in a club of its uploader's)."""
    ids = Membership.objects.filter(user=user).values("club_id")
    return list(Club.objects.filter(pk__in=ids).order_by("name"))


# The targets a table may play to instead of its ruleset's (seed 001 names 100, 250 and 500).
TARGETS = (50, 100, 150, 200, 250, 300, 500)


def recorder_setup(user: Any) -> dict[str, Any]:
    """Return what the set-up offers: each club with its players, default ruleset and what
    its matches may count for around its today (``games.event_names``: events, cup ties,
    league legs), and the presets (the club's default first)."""
    clubs = recorder_clubs(user)
    handles: dict[int, list[str]] = {club.pk: [] for club in clubs}
    for club_id, handle in Player.objects.filter(club__in=clubs).values_list("club_id", "handle"):
        handles[club_id].append(handle)
    return {
        "clubs": [
            {
                "slug": club.slug,
                "name": club.name,
                "ruleset": club.default_ruleset,
                "rulesets": [club.default_ruleset]
                + [name for name in PRESETS if name != club.default_ruleset],
                "players": sorted(handles[club.pk], key=str.casefold),
                "events": [
                    {"value": name.value, "label": name.label}
                    for name in event_names(
                        club, user, timezone.localdate(timezone=zone_of(club.time_zone))
                    )
                ],
            }
            for club in clubs
        ],
        "rulesets": list(PRESETS),
        # The names people know the presets by, in the page's language (the options' text).
        "preset_names": {name: str(label) for name, label in RULESETS},
    }


def engine_catalogue() -> dict[str, str]:
    """Return the engine's message templates said in the request's language (only those
    that differ): the phone words the engine's reports as the upload page does."""
    catalogue = {}
    for template in table.templates():
        said = gettext(template)
        if said != template:
            catalogue[template] = said
    # And the ends' letters, by the keys the replay uses ("end_W"...): no template is so named.
    catalogue.update(end_names())
    return catalogue


def error_titles() -> dict[str, str]:
    """Return the title in words of each error code, as the upload page names them."""
    return {str(code): str(title) for code, title in ERROR_TITLES.items()}


class SendRefused(Exception):
    """A record the archive will not take from this person into the club it names (no such
    club of theirs). What was sent is kept all the same: ``upload`` is it, stored without a
    club and refused by the pipeline for the club its log names, saying why."""

    def __init__(self, upload: Upload):
        super().__init__(upload.pk)
        self.upload = upload


def record_send(*, user: Any, club_slug: str, text: str) -> Upload:
    """Store a recorded match through the upload pipeline, as an upload of one JSON log.

    ``text`` is the record exactly as the phone wrote it: the same text sent again (the
    connection came back after a send whose answer was lost) is the same upload. Text that
    is no log is kept too, as the API keeps it: a rejected upload whose report says why.
    """
    club = next((club for club in recorder_clubs(user) if club.slug == club_slug), None)
    if club is None:
        raise SendRefused(record_unread(user=user, data=text.encode()))
    return upload_create(uploader=user, data=text.encode(), kind=Upload.Kind.JSON, club=club)


def record_unread(*, user: Any, data: bytes) -> Upload:
    """Keep what the phone sent that could not be taken as a record (an unreadable body, or
    a club not the sender's) as an upload of its own: the pipeline refuses it, with a report."""
    return upload_create(uploader=user, data=data, kind=Upload.Kind.JSON)
