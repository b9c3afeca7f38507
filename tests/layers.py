"""The layer checker: every reference one part of the project makes to another, read from the
files, and those that go up the layers (tests/test_layers.py runs it; docs/development.md,
"Where things live").

The layers, as the data runs, each using itself and those before it::

    fives_engine -> clubs -> games -> recorder -> replays -> competitions -> webhooks -> api
    -> fivesite

``recorder`` and ``replays`` do not use each other. ``fivesite`` (settings, the URL map, the
Celery app) sits on top and may use all. ``bench/``, ``tests/``, ``scripts/`` and ``deploy/``
are outside the layers and not read. An app that has no folder (yet) has no files.

A file's layer is the folder it is in: ``engine/fives_engine/`` is the engine, ``<app>/`` the app,
templates included (``<app>/templates/``). The project's own ``templates/`` folder is read
as Django finds templates by name: ``templates/<app>/`` holds that app's pages (the views of
``<app>`` render them) and is the app's layer; the rest of it (``base.html``, the error
pages, ``registration/``, ``drf_spectacular/``) is the site's, ``fivesite``, on top.

The kinds of reference read:

``import``
    Python imports (absolute, relative, ``import a.b``), ``importlib.import_module("...")``
    with a literal, and any string that is a dotted path into a module of the project (a task
    sent by name, ``include("app.urls")``, a setting naming a class).
``model``
    A model named by a string: ``"app_label.Model"`` as the target of a ``ForeignKey``,
    ``OneToOneField`` or ``ManyToManyField`` (first argument, ``to=``, ``through=``),
    ``apps.get_model("app_label", "Model")`` and ``get_model("app_label.Model")``. The label
    is the app's ``AppConfig.label`` (its folder's name without one). Models of Django and
    other libraries (``settings.AUTH_USER_MODEL``, ``"auth.User"``) are not the project's.
``url``
    A URL name in ``reverse``, ``reverse_lazy``, ``redirect``, ``resolve_url`` and the
    templates' ``{% url %}``. The name belongs to the app whose ``urls.py`` (any module of
    the app) defines it with ``path(..., name=...)``, whatever namespace the site's URL map
    includes it under: a namespaced name is looked for first among the routes declared in
    that namespace (``app_name``, or an ``(patterns, "ns")`` pair), then among those declared
    in none (a list some other ``urls.py`` includes under a namespace). Names no module of the
    project defines (Django's ``logout``, ``set_language``, ``admin:...``) are not the
    project's.
``tag library``
    ``{% load a b %}`` and ``{% load x from a %}``: the library belongs to the app whose
    ``templatetags/`` defines it. Django's own (``i18n``, ``static``...) are not the project's.
``command``
    ``call_command("name")``: the app whose ``management/commands/`` defines it.
``template``
    A template named in a template (``{% extends %}``, ``{% include %}``) or in Python (any
    string that is the name of one of the project's templates: ``render``, ``template_name``),
    found where Django looks first: the project's ``templates/``, then each app's.

Strings are read in code, never in docstrings. Two things are the site's to every app, as its
settings are (``SITE``): the frame ``base.html`` every page extends, and the sign-in page
``login`` (``settings.LOGIN_URL``, the name Django's auth gives it) any page may send a reader
to. Naming them does not go up the layers; anything else of the site's does. One more kind of
name is the site's: the versioned API's address of the very match a page shows (its fives/1
log, its replay, its analysis; docs/api.md), which the match page links tool authors to and
``replay.js``/``analysis.js`` read. Those addresses are the public, versioned map of the
archive, written down as such, not code of the API's the page depends on; any other API name
named by a page is refused.

A wrong reference reads ``file:line (its layer) refers to <kind> <name> of <layer>``.

Migrations: only their Python imports are read. A migration records history: its
``dependencies`` and the models its operations name are those of the day it was written
(a model that moves between apps is created in one and removed from the other by migrations
that must depend on both, so one of the two points up whichever way the layers run), and they
cannot change without rewriting the database's history. What a migration imports, though, is
today's code, run whenever the database is made.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import pathlib
import re
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parents[1]

# From the bottom up: each layer may use itself and those before it.
LAYERS = (
    "fives_engine",
    "clubs",
    "games",
    "recorder",
    "replays",
    "competitions",
    "webhooks",
    "api",
    "fivesite",
)
# Layers that may not use each other, whatever their order.
APART = (frozenset({"recorder", "replays"}),)
# The folders read (each an app, or the site), and the project's own templates.
ENGINE = "fives_engine"  # a distribution of its own, in engine/
FOLDERS = tuple(f"engine/{ENGINE}" if layer == ENGINE else layer for layer in LAYERS)
TOP = "fivesite"

# What the site supplies to every app, as it supplies the settings an app reads: the frame every
# page extends, and the sign-in page (settings.LOGIN_URL, as Django's auth names it) any page
# may send a reader to. An app naming them does not go up the layers.
SITE = {
    ("template", "base.html"),
    ("url", "login"),
    ("url", "v1:match-detail"),
    ("url", "v1:match-replay"),
    ("url", "v1:match-analysis"),
}

KINDS = ("import", "model", "url", "tag library", "command", "template")

FIELDS = {"ForeignKey", "OneToOneField", "ManyToManyField"}
URL_CALLS = {"reverse", "reverse_lazy", "redirect", "resolve_url"}
URL_TAG = re.compile(r"""{%\s*url\s+(["'])([^"']+)\1""")
LOAD_TAG = re.compile(r"{%\s*load\s+(.+?)\s*%}", re.S)
TEMPLATE_TAG = re.compile(r"""{%\s*(?:extends|include)\s+(["'])([^"']+)\1""")
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def allowed(mine: str, theirs: str) -> bool:
    """Whether a file of layer ``mine`` may refer to something of layer ``theirs``."""
    if frozenset({mine, theirs}) in APART:
        return False
    return LAYERS.index(theirs) <= LAYERS.index(mine)


def layer_of(module: str) -> str | None:
    """The layer a dotted module name belongs to (None: not the project's)."""
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


@dataclasses.dataclass(frozen=True)
class Reference:
    file: str  # relative to the project's root
    line: int
    layer: str  # the file's
    kind: str
    name: str
    target: str  # the layer of what it names

    @property
    def wrong(self) -> bool:
        return (self.kind, self.name) not in SITE and not allowed(self.layer, self.target)

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line} ({self.layer}) refers to {self.kind} {self.name} "
            f"of {self.target}"
        )


def module_parts(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """The dotted parts of a file's module: its path, less the engine's distribution folder
    (``engine/fives_engine/rules.py`` is ``fives_engine.rules``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[1:] if parts[:2] == ["engine", ENGINE] else parts


def imports(path: pathlib.Path, root: pathlib.Path = ROOT):
    """Every import statement of a Python file as (absolute module, node, enclosing nodes).
    ``from a import b`` gives ``a.b`` when ``a/b`` is a module of the project, else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = module_parts(path, root)
    package = ".".join(parts[:-1])  # of a module, and of a package's __init__
    found: list[tuple[str, ast.AST, list[ast.AST]]] = []

    def visit(node: ast.AST, enclosing: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name, child, enclosing) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".") if package else []
                    up = up[: len(up) - (child.level - 1)]
                    base = ".".join([*up, base] if base else up)
                found.append((base, child, enclosing))
            visit(child, [*enclosing, child])

    visit(tree, [])
    return found


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _text(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _arg(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in call.args):
        return call.args[index]
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return None


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


class Project:
    """The project's files under ``root``, what each defines and what each refers to."""

    def __init__(self, root: pathlib.Path = ROOT) -> None:
        self.root = root
        self._url_names: list[tuple[str, int, str]] = []  # every URL name read

    # Files and their layers

    def layer_of_file(self, path: pathlib.Path) -> str | None:
        parts = path.relative_to(self.root).parts
        if parts[0] == "templates":
            if len(parts) > 2 and parts[1] in FOLDERS and parts[1] != TOP:
                return parts[1]
            return TOP
        if parts[:2] == ("engine", ENGINE):
            return ENGINE
        if parts[0] in FOLDERS and len(parts) > 1:
            return parts[0]
        return None

    def _files(self, suffix: str) -> list[pathlib.Path]:
        found = []
        for folder in (*FOLDERS, "templates"):
            base = self.root / folder
            if base.is_dir():
                found.extend(
                    p
                    for p in sorted(base.rglob(f"*{suffix}"))
                    if "__pycache__" not in p.parts and "node_modules" not in p.parts
                )
        return found

    @functools.cached_property
    def python_files(self) -> list[pathlib.Path]:
        return self._files(".py")

    @functools.cached_property
    def template_files(self) -> list[pathlib.Path]:
        """Every file under a ``templates/`` folder (the project's, or an app's)."""
        return [
            p
            for p in self._files("")
            if p.is_file() and "templates" in p.relative_to(self.root).parts
        ]

    @functools.cached_property
    def _trees(self) -> dict[pathlib.Path, ast.Module]:
        return {p: ast.parse(p.read_text(encoding="utf-8")) for p in self.python_files}

    def _apps(self) -> list[pathlib.Path]:
        """The folders of the apps (and the engine's folder, which is a layer of its own)."""
        return [self.root / f for f in FOLDERS if (self.root / f).is_dir()]

    # What the project defines

    @functools.cached_property
    def modules(self) -> set[str]:
        """The dotted names of the project's Python modules and packages."""
        names = set()
        for path in self.python_files:
            parts = module_parts(path, self.root)
            if parts[-1] == "__init__":
                parts.pop()
            names.add(".".join(parts))
        return names

    @functools.cached_property
    def labels(self) -> dict[str, str]:
        """App label -> layer (``AppConfig.label``, else the folder's name)."""
        found = {}
        for app in self._apps():
            found[app.name] = self.layer_of_file(app / "x")
            config = app / "apps.py"
            if config.exists():
                for node in ast.walk(self._trees[config]):
                    if (
                        isinstance(node, ast.Assign)
                        and any(isinstance(t, ast.Name) and t.id == "label" for t in node.targets)
                        and _text(node.value)
                    ):
                        del found[app.name]
                        found[_text(node.value)] = self.layer_of_file(config)
        return found

    @functools.cached_property
    def urls(self) -> list[tuple[str | None, str, str]]:
        """Every route name the project defines as (namespace or None, name, layer)."""
        found = []
        for path, tree in self._trees.items():
            if "migrations" in path.parts:
                continue
            app_name = None
            for node in tree.body:
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "app_name" for t in node.targets)
                    and _text(node.value)
                ):
                    app_name = _text(node.value)
            layer = self.layer_of_file(path)

            def visit(node: ast.AST, namespace: str | None, layer: str | None = layer) -> None:
                if (
                    isinstance(node, ast.Tuple)
                    and len(node.elts) == 2
                    and _text(node.elts[1]) is not None
                ):
                    namespace = _text(node.elts[1])
                if isinstance(node, ast.Call) and _name(node.func) in ("path", "re_path"):
                    for kw in node.keywords:
                        if kw.arg == "name" and _text(kw.value):
                            found.append((namespace, _text(kw.value), layer))
                for child in ast.iter_child_nodes(node):
                    visit(child, namespace, layer)

            visit(tree, app_name)
        return found

    def url_layers(self, reference: str) -> set[str]:
        """The layers of the apps that define a URL name (``"ns:name"`` or ``"name"``)."""
        *namespaces, name = reference.split(":")
        named = [(ns, layer) for ns, n, layer in self.urls if n == name]
        if namespaces:
            steps = [
                [layer for ns, layer in named if ns == namespaces[-1]],
                [layer for ns, layer in named if ns is None],
                # Declared in another namespace the site's URL map includes under this one.
                [layer for ns, layer in named],
            ]
        else:
            steps = [[layer for ns, layer in named if ns is None]]
        for step in steps:
            if step:
                return set(step)
        return set()

    def unresolved(self) -> list[str]:
        """URL names in a namespace of the project's that no route of it defines (a name the
        checker would pass over), as ``file:line name``."""
        declared = {ns for ns, _, _ in self.urls if ns}
        self._references  # noqa: B018 (read the files first)
        return [
            f"{file}:{line} {name}"
            for file, line, name in self._url_names
            if ":" in name and name.split(":")[0] in declared and not self.url_layers(name)
        ]

    def _url(self, file: str, line: int, layer: str, name: str) -> Iterator[Reference]:
        self._url_names.append((file, line, name))
        for target in sorted(self.url_layers(name), key=LAYERS.index):
            yield Reference(file, line, layer, "url", name, target)

    def _defined(self, folder: str, suffix: str = ".py") -> dict[str, str]:
        """Name -> layer of the files under each app's ``folder`` (``templatetags``...)."""
        found = {}
        for app in self._apps():
            base = app / folder
            if base.is_dir():
                for p in sorted(base.glob(f"*{suffix}")):
                    if p.stem != "__init__":
                        found[p.stem] = self.layer_of_file(p)
        return found

    @functools.cached_property
    def libraries(self) -> dict[str, str]:
        return self._defined("templatetags")

    @functools.cached_property
    def commands(self) -> dict[str, str]:
        return self._defined("management/commands")

    @functools.cached_property
    def templates(self) -> dict[str, str]:
        """Template name -> layer of the file Django finds by that name (the project's
        templates first, then the apps')."""
        found: dict[str, str] = {}
        bases = [self.root / "templates"] + [app / "templates" for app in self._apps()]
        for base in bases:
            if base.is_dir():
                for p in sorted(base.rglob("*")):
                    if p.is_file():
                        found.setdefault(p.relative_to(base).as_posix(), self.layer_of_file(p))
        return found

    def module_layer(self, dotted: str) -> str | None:
        """The layer of a string naming a module of the project (or something in one), else
        None: ``"games.tasks.upload_process_task"`` is games', ``"clubs.Club"`` no module."""
        parts = dotted.split(".")
        for end in range(len(parts), 1, -1):
            if ".".join(parts[:end]) in self.modules:
                return layer_of(dotted)
        return None

    # What each file refers to

    def references(self, kind: str | None = None) -> list[Reference]:
        return [r for r in self._references if kind is None or r.kind == kind]

    def wrong(self, kind: str | None = None) -> list[Reference]:
        return [r for r in self.references(kind) if r.wrong]

    def import_circles(self) -> list[list[str]]:
        """Every circle of Python imports among the project's modules (migrations aside):
        the modules of each, sorted, that import one another round. Layers that hold keep
        circles inside one layer; this finds those too (``clubs.audit`` and its words did)."""
        graph: dict[str, set[str]] = {}
        for path in self.python_files:
            if "migrations" in path.parts or self.layer_of_file(path) is None:
                continue
            parts = module_parts(path, self.root)
            me = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            graph[me] = set()
            for module, node, _ in imports(path, self.root):
                names = [module]
                if isinstance(node, ast.ImportFrom):  # `from a import b`: a.b if a module
                    names = [f"{module}.{a.name}" for a in node.names]
                for name in names:
                    while name and name not in self.modules:
                        name = name.rpartition(".")[0]
                    if name and name != me:
                        graph[me].add(name)
        return _strong_parts(graph)

    @functools.cached_property
    def _references(self) -> list[Reference]:
        found: list[Reference] = []
        for path in self.python_files:
            layer = self.layer_of_file(path)
            if layer is not None:
                found.extend(self._python(path, layer))
        for path in self.template_files:
            layer = self.layer_of_file(path)
            if layer is not None:
                found.extend(self._template(path, layer))
        return sorted(found, key=lambda r: (r.file, r.line, r.kind, r.name, r.target))

    def _python(self, path: pathlib.Path, layer: str) -> Iterator[Reference]:
        file = path.relative_to(self.root).as_posix()

        def ref(node: ast.AST, kind: str, name: str, target: str | None):
            if target is not None:
                yield Reference(file, node.lineno, layer, kind, name, target)

        for module, node, _ in imports(path, self.root):
            if isinstance(node, ast.ImportFrom):
                # `from games import services`: the module imported is games.services.
                names = {f"{module}.{alias.name}" for alias in node.names}
                for name in sorted({n if n in self.modules else module for n in names}):
                    yield from ref(node, "import", name, layer_of(name))
            else:
                yield from ref(node, "import", module, layer_of(module))
        if "migrations" in path.parts:
            return
        tree = self._trees[path]
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body
            and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield from self._call(node, ref, file, layer)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                text = node.value
                if DOTTED.fullmatch(text):
                    yield from ref(node, "import", text, self.module_layer(text))
                if text in self.templates:
                    yield from ref(node, "template", text, self.templates[text])

    def _call(self, call: ast.Call, ref, file: str, layer: str) -> Iterator[Reference]:
        name = _name(call.func)
        if name == "import_module":
            module = _text(_arg(call, 0, "name"))
            # A dotted string is read as such (above) when it names a module of the project;
            # one that does not (a module yet to be written) still names a layer.
            if module and not module.startswith(".") and self.module_layer(module) is None:
                yield from ref(call, "import", module, layer_of(module))
        elif name in FIELDS:
            through = next((kw.value for kw in call.keywords if kw.arg == "through"), None)
            for target in (_arg(call, 0, "to"), through):
                yield from self._model(call, _text(target), ref)
        elif name == "get_model":
            first, second = _text(_arg(call, 0, "app_label")), _text(_arg(call, 1, "model_name"))
            if first and second:
                yield from self._model(call, f"{first}.{second}", ref)
            elif first:
                yield from self._model(call, first, ref)
        elif name in URL_CALLS:
            url = _text(_arg(call, 0, "viewname" if name != "redirect" else "to"))
            if url:
                yield from self._url(file, call.lineno, layer, url)
        elif name == "call_command":
            command = _text(_arg(call, 0, "command_name"))
            if command in self.commands:
                yield from ref(call, "command", command, self.commands[command])

    def _model(self, call: ast.Call, label: str | None, ref) -> Iterator[Reference]:
        if label and "." in label:
            app = label.split(".")[0]
            if app in self.labels:
                yield from ref(call, "model", label, self.labels[app])

    def _template(self, path: pathlib.Path, layer: str) -> Iterator[Reference]:
        file = path.relative_to(self.root).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return
        for match in URL_TAG.finditer(text):
            yield from self._url(file, _line(text, match.start()), layer, match[2])
        for match in LOAD_TAG.finditer(text):
            words = match[1].split()
            names = words[words.index("from") + 1 :] if "from" in words else words
            for library in names:
                if library in self.libraries:
                    yield Reference(
                        file,
                        _line(text, match.start()),
                        layer,
                        "tag library",
                        library,
                        self.libraries[library],
                    )
        for match in TEMPLATE_TAG.finditer(text):
            if match[2] in self.templates:
                yield Reference(
                    file,
                    _line(text, match.start()),
                    layer,
                    "template",
                    match[2],
                    self.templates[match[2]],
                )


def _strong_parts(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected parts of more than one node of ``graph`` (Tarjan's),
    each sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while not part or part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)
