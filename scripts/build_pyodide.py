"""Build the recorder's Pyodide: the files the phone fetches, under a directory named by
their content, with a standard library of our own holding only what the engine imports.

Pyodide's ``python_stdlib.zip`` is 2.5 MB (deflated: no HTTP compression shrinks it) while
Pyodide's start and the engine import a small part of it. This script runs Pyodide in node
with the whole library, does what ``recorder.js`` does (unpack the engine, import
``recorder.table``, ``analyse_ahead`` records tap by tap, refused ones too, with a catalogue:
each answer with its answers to the taps that may come next, as the worker gives it) and keeps
every module of the library that was imported, compiled by that Pyodide's Python
(``.pyc`` alone: a phone's start compiles none of it, about 1 s less on a laptop), stored
uncompressed so that the server's brotli or gzip compresses it as one text. It then runs the
same records again with the lean library alone and fails unless every answer is the same.
Two builds of the same sources write the same bytes.

Writes ``build/pyodide/<digest>/`` (``pyodide.mjs``, ``pyodide.asm.mjs``,
``pyodide.asm.wasm``, ``pyodide-lock.json`` from node_modules/pyodide, and the lean
``python_stdlib.zip``), the digest being a hash of those five files, and removes older
digests. ``make venv`` runs it; settings serve the directory as ``recorder/pyodide/``.

It then measures what each file costs on the wire, as the production way sends it: itself,
and the brotli and gzip copies ``collectstatic`` will write (the same compressor,
``fivesite.staticfiles``, whose cache of copies it fills; a copy only where it is at least
5 % smaller, as WhiteNoise keeps them), into ``build/pyodide.sizes.json``. The recorder's page
says its download from these figures (``recorder.services.wire_size``), never from a figure
typed in.

    .venv/bin/python scripts/build_pyodide.py [--check]

``--check`` says whether the build is current (exit 1 if not) without writing.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))  # the engine, where no venv installed it

import build_cache  # noqa: E402 (scripts/, beside this script)

from fives_engine import PRESETS, to_table_record  # noqa: E402
from fives_engine.simulate import simulate_match  # noqa: E402

PYODIDE = ROOT / "node_modules" / "pyodide"
OUT = ROOT / "build" / "pyodide"
# What the build was made from (outside the served directory).
STAMP = ROOT / "build" / "pyodide.source.sha256"
# What each built file costs on the wire, by encoding (measured by ``measure``).
SIZES = ROOT / "build" / "pyodide.sizes.json"
# What loadPyodide fetches, copied as they are (the standard library is ours).
COPIED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
STDLIB = "python_stdlib.zip"
# What the engine sends to the phone (recorder/services.py ENGINE_FILES, same layout).
ENGINE_FILES = {
    **{
        f"fives_engine/{p.name}": p for p in sorted((ROOT / "engine" / "fives_engine").glob("*.py"))
    },
    "recorder/table.py": ROOT / "recorder" / "table.py",
}
# Codecs a text may be asked for by name although the traced runs used utf-8 alone.
CODECS = ("ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_32", "aliases")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

NODE_RUN = r"""
import { loadPyodide } from %(pyodide)s;
const job = JSON.parse(await (await import("node:fs/promises")).readFile(process.argv[2], "utf8"));
// Compiled without the column tables (-X no_debug_ranges) and, below, without docstrings and
// asserts (optimize 2): a third smaller, and the engine's answers are checked the same.
const options = { indexURL: job.indexURL, args: job.compile ? ["-X", "no_debug_ranges"] : [] };
if (job.stdLibURL) options.stdLibURL = job.stdLibURL;
const py = await loadPyodide(options);
const fs = await import("node:fs");
// As recorder.js does: the engine unpacked from its zip, then recorder.table.
const bytes = fs.readFileSync(job.engine);
const engine = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
py.unpackArchive(engine, "zip", { extractDir: "/home/pyodide/fives" });
py.globals.set("catalogue_json", JSON.stringify(job.catalogue));
py.runPython(
  "import sys, json\nsys.path.insert(0, '/home/pyodide/fives')\n" +
  "from recorder.table import analyse_ahead\nCATALOGUE = json.loads(catalogue_json)\n" +
  "def analyse_json(text):\n    return json.dumps(analyse_ahead(json.loads(text), CATALOGUE))\n"
);
const call = py.globals.get("analyse_json");
const answers = job.docs.map((doc) => call(JSON.stringify(doc)));
const modules = JSON.parse(py.runPython(
  "import sys, json\njson.dumps(sorted({m.__spec__.origin for m in list(sys.modules.values())" +
  " if getattr(m, '__spec__', None) and m.__spec__.origin and '.zip/' in m.__spec__.origin}))"
));
// Each module kept, compiled by this Pyodide's own Python (a .pyc of an unchecked hash: the
// same bytes at every build, and the phone never compiles the library at its start).
let compiled = {};
if (job.compile) {
  py.globals.set("kept_json", JSON.stringify(job.extra.concat(
    modules.map((origin) => origin.split(".zip/")[1]))));
  compiled = JSON.parse(py.runPython([
    "import base64, json, sys, zipfile, importlib.util",
    "from importlib._bootstrap_external import _code_to_hash_pyc",
    "zip_path = '/lib/python%%d%%d.zip' %% sys.version_info[:2]",
    "library = zipfile.ZipFile(zip_path)",
    "compiled = {}",
    "for name in json.loads(kept_json):",
    "    source = library.read(name)",
    "    code = compile(source, zip_path + '/' + name, 'exec', dont_inherit=True, optimize=2)",
    "    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), False)",
    "    compiled[name + 'c'] = base64.b64encode(bytes(pyc)).decode()",
    "json.dumps(compiled)",
  ].join("\n")));
}
fs.writeFileSync(job.out, JSON.stringify({ answers, modules, compiled }));
"""


def _engine_zip(path: pathlib.Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("recorder/__init__.py", ZIP_TIME), "")
        for name, file in ENGINE_FILES.items():
            archive.writestr(zipfile.ZipInfo(name, ZIP_TIME), file.read_bytes())


def _prefixes(doc: dict) -> list[dict]:
    """Return the record as the phone has it tap by tap (every few moves, each hand's end
    before and after its ``left``, and the whole match)."""
    found = []
    final = {k: v for k, v in doc.items() if k != "final_scores"}
    for index, hand in enumerate(doc["hands"]):
        for cut in [*range(0, len(hand["moves"]), 5), len(hand["moves"])]:
            partial = copy.deepcopy(final)
            partial["hands"] = [
                *copy.deepcopy(doc["hands"][:index]),
                dict(hand, moves=hand["moves"][:cut]),
            ]
            partial["hands"][-1].pop("left", None)
            found.append(partial)
        found.append({**final, "hands": copy.deepcopy(doc["hands"][: index + 1])})
    found.append(doc)
    return found


def _broken(doc: dict) -> list[dict]:
    """Return records the engine refuses, one for each kind of refusal the table meets."""
    found: list = [None, [], "text", {}, {**doc, "format": "fives/0"}, {**doc, "ruleset": "nope"}]
    found.append({**doc, "ruleset": {"base": doc["ruleset"], "target": 150}})
    found.append({**doc, "ruleset": {"base": doc["ruleset"], "target": -5}})
    found.append({**doc, "players": [doc["players"][0]] * len(doc["players"])})
    found.append({**doc, "played_at": "yesterday"})
    bad = copy.deepcopy(doc)
    for hand in bad["hands"]:
        for move in hand["moves"]:
            if "play" in move:
                move["play"] = "9-9"
                break
    found.append(bad)
    wrong = copy.deepcopy(doc)
    plays = [m for h in wrong["hands"] for m in h["moves"] if "play" in m]
    if len(plays) > 3:
        plays[3]["play"], plays[1]["play"] = plays[1]["play"], plays[3]["play"]
    found.append(wrong)
    ended = copy.deepcopy(doc)
    ended["hands"][0]["left"] = [["0-0"] for _ in ended["players"]]
    found.append(ended)
    found.append({**doc, "final_scores": [1, 2, 3, 4][: len(doc["players"])]})
    return found


def _records() -> list:
    docs: list = []
    for preset in PRESETS:
        for players, teams, seed in ((2, False, 3), (3, False, 5), (4, True, 7)):
            doc = to_table_record(simulate_match(preset, players, teams=teams, seed=seed))
            docs.extend(_prefixes(doc))
            docs.extend(_broken(doc))
    return docs


def _run(
    node_dir: pathlib.Path,
    docs: list,
    catalogue: dict,
    stdlib: pathlib.Path | None,
    extra: list[str] | None = None,
) -> dict:
    script = node_dir / "run.mjs"
    script.write_text(NODE_RUN % {"pyodide": json.dumps((PYODIDE / "pyodide.mjs").as_posix())})
    engine = node_dir / "engine.zip"
    _engine_zip(engine)
    job = node_dir / "job.json"
    out = node_dir / "out.json"
    job.write_text(
        json.dumps(
            {
                "indexURL": PYODIDE.as_posix() + "/",
                "stdLibURL": stdlib.as_posix() if stdlib else None,
                "engine": engine.as_posix(),
                "catalogue": catalogue,
                "docs": docs,
                "out": out.as_posix(),
                "compile": extra is not None,
                "extra": extra or [],
            }
        )
    )
    done = subprocess.run(
        ["node", str(script), str(job)], cwd=node_dir, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit("Pyodide in node failed: " + done.stderr[-3000:])
    return json.loads(out.read_text())


def lean_stdlib(node_dir: pathlib.Path) -> bytes:
    """Return the lean standard library, checked against the whole one."""
    from recorder.table import templates

    docs = _records()
    # Every template said otherwise, as a page in another language has them.
    catalogue = {template: "«" + template + "»" for template in templates()}
    extra = [f"encodings/{codec}.py" for codec in CODECS]
    traced = _run(node_dir, docs, catalogue, None, extra)
    names = set(zipfile.ZipFile(PYODIDE / STDLIB).namelist())
    for origin in traced["modules"]:
        if origin.split(".zip/", 1)[1] not in names:
            raise SystemExit(f"traced module {origin} is not in {STDLIB}")
    compiled = traced["compiled"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(compiled):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            archive.writestr(info, base64.b64decode(compiled[name]))
    data = buffer.getvalue()
    lean = node_dir / STDLIB
    lean.write_bytes(data)
    again = _run(node_dir, docs, catalogue, lean)
    if again["answers"] != traced["answers"]:
        raise SystemExit("the engine answers differently with the lean standard library")
    if any(not origin.endswith(".pyc") for origin in again["modules"]):
        raise SystemExit("a module of the lean standard library was not taken compiled")
    print(
        f"lean {STDLIB}: {len(compiled)} of {len(names)} files, compiled, {len(data):,} bytes "
        f"(Pyodide's: {(PYODIDE / STDLIB).stat().st_size:,}); {len(docs)} records answered alike"
    )
    return data


def _source_key() -> str:
    """A hash of everything the build reads: a change to any of it means building again."""
    digest = hashlib.sha256()
    for path in [
        *(PYODIDE / name for name in (*COPIED, STDLIB)),
        *ENGINE_FILES.values(),
        pathlib.Path(__file__),
    ]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def current() -> pathlib.Path | None:
    """Return the built directory if it was built from the present sources."""
    stamp = STAMP
    if not stamp.exists() or stamp.read_text().strip() != _source_key():
        return None
    dirs = [path for path in OUT.iterdir() if path.is_dir()]
    return dirs[0] if len(dirs) == 1 else None


def build() -> pathlib.Path:
    if not (PYODIDE / "pyodide.mjs").exists():
        raise SystemExit("node_modules/pyodide is missing: run `npm ci` (make venv does)")
    key = _source_key()
    # The same build made in another checkout of this machine (scripts/build_cache.py): its
    # folder and its sizes on the wire, both functions of the sources alone.
    if build_cache.restore("pyodide", key, OUT):
        shutil.move(OUT / SIZES.name, SIZES)
        STAMP.write_text(key + "\n")
        target = current()
        assert target is not None, "a kept build holds one directory"
        print(f"built {target.relative_to(ROOT)}, kept from an earlier build")
        return target
    with tempfile.TemporaryDirectory() as tmp:
        files = {name: (PYODIDE / name).read_bytes() for name in COPIED}
        files[STDLIB] = lean_stdlib(pathlib.Path(tmp))
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    target = OUT / digest.hexdigest()[:16]
    if OUT.exists():
        shutil.rmtree(OUT)
    target.mkdir(parents=True)
    for name, data in files.items():
        (target / name).write_bytes(data)
    STAMP.write_text(key + "\n")
    print(f"built {target.relative_to(ROOT)}")
    measure(target)
    keep(key)
    return target


def keep(key: str) -> None:
    """Keep the build made from ``key`` for another checkout (scripts/build_cache.py)."""
    if build_cache.kept("pyodide", key):
        return  # not copied again on every `make venv` that finds the build current
    with tempfile.TemporaryDirectory() as tmp:
        kept = pathlib.Path(tmp) / "kept"
        shutil.copytree(OUT, kept)
        shutil.copy(SIZES, kept / SIZES.name)
        build_cache.store("pyodide", key, kept)


def wire_sizes(target: pathlib.Path) -> dict[str, dict[str, int]]:
    """Each built file's bytes as sent: ``identity``, and ``br`` and ``gzip`` where
    ``collectstatic`` keeps such a copy (WhiteNoise's rule: 5 % smaller at least, and no gzip
    copy where brotli was not)."""
    from whitenoise.compress import Compressor

    from fivesite.staticfiles import CachedCompressor

    skipped = [ext for ext in Compressor.SKIP_COMPRESS_EXTENSIONS if ext != "zip"]
    compressor = CachedCompressor(extensions=skipped, quiet=True)
    sizes = {}
    for path in sorted(target.iterdir()):
        data = path.read_bytes()
        found = {"identity": len(data)}
        if compressor.should_compress(path.name):
            for encoding, make in (
                ("br", compressor.compress_brotli),
                ("gzip", compressor.compress_gzip),
            ):
                packed = len(make(data))
                if not packed <= 0.95 * len(data):
                    break
                found[encoding] = packed
        sizes[path.name] = found
    return sizes


def measure(target: pathlib.Path) -> dict:
    """Write (and return) ``build/pyodide.sizes.json``: the built directory's name and its
    files' sizes on the wire."""
    measured = {"directory": target.name, "files": wire_sizes(target)}
    SIZES.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
    brotli = sum(sizes.get("br", sizes["identity"]) for sizes in measured["files"].values())
    print(f"measured {SIZES.relative_to(ROOT)}: {brotli / 1e6:.2f} MB in brotli")
    return measured


def measured_current(target: pathlib.Path) -> bool:
    """Whether ``build/pyodide.sizes.json`` measures ``target``."""
    try:
        return json.loads(SIZES.read_text())["directory"] == target.name
    except (OSError, ValueError, KeyError):
        return False


def main() -> None:
    if "--check" in sys.argv:
        built = current()
        print(f"current: {built.relative_to(ROOT)}" if built else "not built or out of date")
        raise SystemExit(0 if built else 1)
    built = current()
    if built is None:
        build()
        return
    print(f"current: {built.relative_to(ROOT)}")
    if not measured_current(built):
        measure(built)
    keep(_source_key())


if __name__ == "__main__":
    main()
