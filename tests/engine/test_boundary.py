"""The engine is a library of its own: it imports nothing from Django or the project."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine" / "fives_engine"


def test_the_engine_sources_import_only_the_standard_library_and_themselves():
    allowed = set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the engine
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, fives_engine, fives_engine.simulate, fives_engine.replay;"
        "print('django' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
