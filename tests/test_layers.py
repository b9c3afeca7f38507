"""The layers import one way: api -> competitions -> replays -> recorder -> games -> clubs ->
games.engine (README: "Where things live"), and no import hidden inside a function works
around that."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Each layer may import itself and the layers after it, never one before it.
LAYERS = [
    "fivesite",
    "api",
    "competitions",
    "replays",
    "recorder",
    "games",
    "clubs",
    "games.engine",
]
PACKAGES = ["fivesite", "api", "competitions", "recorder", "replays", "games", "clubs"]


def layer_of(module: str) -> str | None:
    """Return the layer a dotted module name belongs to (None: not the project's)."""
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: pathlib.Path) -> list[tuple[str, ast.AST, list[ast.AST]]]:
    """Return every import of a file as (absolute module, node, the nodes enclosing it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[str, ast.AST, list[ast.AST]]] = []

    def visit(node: ast.AST, enclosing: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name, child, enclosing) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - (child.level - 1)]
                    base = ".".join([*parts, base] if base else parts)
                found.append((base, child, enclosing))
            visit(child, [*enclosing, child])

    visit(tree, [])
    return found


def project_files() -> list[pathlib.Path]:
    return [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]


def test_every_import_goes_down_the_layers():
    wrong = []
    for path in project_files():
        mine = layer_of(module_name(path))
        for module, node, _ in imports(path):
            theirs = layer_of(module)
            if theirs is not None and LAYERS.index(theirs) < LAYERS.index(mine):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} ({mine}) imports {module}")
    assert wrong == []


def test_no_import_hides_inside_a_function():
    """Imports sit at the top of a module. The one exception is Django's own: an app
    config's ``ready()`` subscribing to events once the models are loaded."""
    hidden = []
    for path in project_files():
        for module, node, enclosing in imports(path):
            functions = [
                n for n in enclosing if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            if not functions:
                continue
            if path.name == "apps.py" and functions[-1].name == "ready":
                continue
            hidden.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
    assert hidden == []


def test_the_layer_test_sees_a_wrong_import(tmp_path):
    """The checks above can fail: an upward import is found where one is written."""
    for source, here in (
        ("from replays.models import SeatResult\n", "games.models"),
        ("from games.models import Match\n", "clubs.models"),
    ):
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.ImportFrom)
        assert LAYERS.index(layer_of(node.module)) < LAYERS.index(layer_of(here))


def imports_of(package: str) -> list[tuple[str, str]]:
    """Return every import under a folder as (file, absolute module)."""
    return [
        (str(path.relative_to(ROOT)), module)
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        for module, _node, _ in imports(path)
    ]


def test_the_services_send_tasks_by_name():
    """games.tasks calls the services; the services do not import the tasks back."""
    wrong = [(f, m) for f, m in imports_of("games/services") if m.startswith("games.tasks")]
    assert wrong == []


def test_the_api_uses_no_html_view():
    wrong = [(f, m) for f, m in imports_of("api") if m.startswith(("replays.views", "games.views"))]
    assert wrong == []


def test_the_core_app_serves_no_http_but_its_views():
    """HTTP responses and DRF belong to the views and the API, not to games' caching,
    services or presentation."""
    wrong = [
        (f, m)
        for f, m in imports_of("games")
        if m.startswith(("django.http", "rest_framework")) and f not in ("games/views.py",)
    ]
    assert wrong == []


def test_every_engine_code_has_a_title():
    """The pages' titles are keyed by the engine's codes (games/engine/codes.py), not a copy
    of them: every code a stored upload can carry has a title."""
    from games.engine.codes import Code
    from games.presentation import ERROR_TITLES

    assert set(Code) <= set(ERROR_TITLES)
