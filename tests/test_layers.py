"""The layers, as the data runs: fives_engine -> clubs -> games -> recorder -> replays ->
competitions -> api, the site (fivesite) on top (docs/development.md: "Where things live").
No file refers to a layer after its own, by any kind of reference the checker reads
(tests/layers.py: imports, models named by string, URL names, template tag libraries,
management commands, templates), and no import hidden inside a function works around that;
no modules import each other round. The planted tests below prove the checker refuses each
kind where one is written."""

from __future__ import annotations

import ast
import pathlib
import textwrap

import pytest

from fives_engine.codes import Code
from games.presentation import ERROR_TITLES
from tests.layers import KINDS, LAYERS, ROOT, Project, allowed, imports, layer_of


@pytest.fixture(scope="module")
def project() -> Project:
    return Project(ROOT)


@pytest.mark.parametrize("kind", KINDS)
def test_no_reference_goes_up_the_layers(project, kind):
    """Each line is `file:line (its layer) refers to <kind> <name> of <the layer above>`."""
    assert [str(r) for r in project.wrong(kind)] == []


@pytest.mark.parametrize(
    ("kind", "at_least"), [("import", 300), ("url", 50), ("tag library", 5), ("template", 20)]
)
def test_the_checker_reads_the_project(project, kind, at_least):
    """The zeros above are counted over references found: the readers see the project's own
    (downward) references in their hundreds. (Models named by string and commands called by
    name are few, and may go: the planted tests below prove those readers.)"""
    assert len(project.references(kind)) >= at_least


def test_every_url_name_in_a_namespace_of_the_project_is_found(project):
    """A URL name the checker cannot place would pass unchecked: every one in a namespace the
    project declares (``games:``, ``replays:``, ``v1:``...) is defined by a route of an app."""
    assert project.unresolved() == []


def test_no_modules_import_each_other_round(project):
    """No import circle, within a layer either: each is listed as its modules."""
    assert project.import_circles() == []


def test_an_import_circle_is_found(tmp_path):
    """Two modules of one app importing each other (as ``clubs.audit`` and its words did,
    by ``from . import``), and three round through a package, are each a circle."""
    project = fake_project(
        tmp_path,
        {
            "clubs/audit.py": "from .models import Club\n\nfrom . import audit_words\n",
            "clubs/audit_words.py": "from .audit import register\n",
            "clubs/models.py": "",
            "games/a.py": "import games.b\n",
            "games/b.py": "from games.c import x\n",
            "games/c.py": "from games import a\n",
        },
    )
    assert project.import_circles() == [
        ["clubs.audit", "clubs.audit_words"],
        ["games.a", "games.b", "games.c"],
    ]


def test_an_unknown_url_name_is_listed(tmp_path):
    project = fake_project(tmp_path, {"games/planted.py": "u = reverse('replays:nowhere')\n"})
    assert project.unresolved() == ["games/planted.py:1 replays:nowhere"]


def test_the_order_of_the_layers():
    assert LAYERS == (
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
    assert allowed("webhooks", "competitions") and not allowed("competitions", "webhooks")
    assert allowed("api", "webhooks") and not allowed("webhooks", "api")
    assert allowed("games", "clubs") and not allowed("clubs", "games")
    assert allowed("games", "fives_engine") and not allowed("fives_engine", "games")
    assert allowed("fivesite", "api") and allowed("competitions", "recorder")
    assert not allowed("replays", "recorder") and not allowed("recorder", "replays")


# A tiny project: every kind of thing a reference can name, in two layers (games below replays),
# with clubs' routes in games' namespace (a list included under another app's namespace, as
# the site had them before issue 57), and the API's in "v1".
FAKE = {
    "games/__init__.py": "",
    "games/apps.py": "class GamesConfig(AppConfig):\n    name = 'games'\n",
    "games/models.py": "class Match(models.Model):\n    pass\n",
    "games/urls.py": (
        "app_name = 'games'\nurlpatterns = [path('', views.match_list, name='match-list')]\n"
    ),
    "games/views.py": "",
    "engine/fives_engine/__init__.py": "",
    "engine/fives_engine/rules.py": "",
    "games/templatetags/__init__.py": "",
    "games/templatetags/fives.py": "",
    "games/management/__init__.py": "",
    "games/management/commands/__init__.py": "",
    "games/management/commands/rescore.py": "",
    "templates/base.html": "{% url 'games:match-list' %}{% url 'replays:match-detail' 1 %}\n",
    "templates/games/_table.html": "{% load fives %}\n",
    "clubs/__init__.py": "",
    "clubs/apps.py": "class ClubsConfig(AppConfig):\n    name = 'clubs'\n    label = 'clubs'\n",
    "clubs/urls.py": "urlpatterns = [path('clubs/<slug>/', views.detail, name='club-detail')]\n",
    "recorder/__init__.py": "",
    "recorder/views.py": "",
    "replays/__init__.py": "",
    "replays/apps.py": "class ReplaysConfig(AppConfig):\n    name = 'replays'\n",
    "replays/models.py": "class SeatResult(models.Model):\n    pass\n",
    "replays/tasks.py": "",
    "replays/urls.py": (
        "app_name = 'replays'\n"
        "urlpatterns = [path('matches/<int:pk>/', views.match_detail, name='match-detail')]\n"
    ),
    "replays/templatetags/__init__.py": "",
    "replays/templatetags/club_leagues.py": "",
    "replays/management/__init__.py": "",
    "replays/management/commands/__init__.py": "",
    "replays/management/commands/demo_season.py": "",
    "replays/templates/replays/_replay.html": (
        "{% load i18n fives %}{% include 'games/_table.html' %}\n"
    ),
    "api/__init__.py": "",
    "api/urls.py": (
        "v1 = ([path('matches/<int:pk>/', views.Match, name='match-detail'), "
        "path('matches/', views.Matches, name='match-list')], 'v1')\n"
    ),
    "fivesite/__init__.py": "",
    "fivesite/urls.py": (
        "urlpatterns = [path('accounts/login/', LoginView.as_view(), name='login')]\n"
    ),
}


def fake_project(root: pathlib.Path, planted: dict[str, str]) -> Project:
    for name, text in {**FAKE, **planted}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Project(root)


def test_the_fake_project_is_in_order(tmp_path):
    """The tree the plants go into has references (one of each kind the plants need), and
    none of them wrong."""
    project = fake_project(tmp_path, {})
    assert {r.kind for r in project.references()} >= {"url", "tag library", "template"}
    assert project.wrong() == []


# (file, what is planted in it, what the checker must say: the one wrong reference)
PLANTED = {
    # imports
    "absolute import": (
        "games/planted.py",
        "from replays.models import SeatResult\n",
        "games/planted.py:1 (games) refers to import replays.models of replays",
    ),
    "module imported from a package": (
        "games/planted.py",
        "from replays import tasks\n",
        "games/planted.py:1 (games) refers to import replays.tasks of replays",
    ),
    "import a.b": (
        "clubs/planted.py",
        "import os\nimport games.models\n",
        "clubs/planted.py:2 (clubs) refers to import games.models of games",
    ),
    "the engine, a distribution of its own, importing an app": (
        "engine/fives_engine/planted.py",
        "from games import models\n",
        "engine/fives_engine/planted.py:1 (fives_engine) refers to import games.models of games",
    ),
    "import_module": (
        "games/planted.py",
        "import importlib\n\nimportlib.import_module('replays.tasks')\n",
        "games/planted.py:3 (games) refers to import replays.tasks of replays",
    ),
    "import_module of a module yet to be written": (
        "games/planted.py",
        "from importlib import import_module\n\nimport_module('competitions.tournaments')\n",
        "games/planted.py:3 (games) refers to import competitions.tournaments of competitions",
    ),
    "task sent by name": (
        "games/planted.py",
        "def send(app):\n    app.send_task('replays.tasks.analyse', args=[1])\n",
        "games/planted.py:2 (games) refers to import replays.tasks.analyse of replays",
    ),
    "replays imports the recorder": (
        "replays/planted.py",
        "from recorder import views\n",
        "replays/planted.py:1 (replays) refers to import recorder.views of recorder",
    ),
    "import in a migration": (
        "clubs/migrations/0002_planted.py",
        "import games.models\n",
        "clubs/migrations/0002_planted.py:1 (clubs) refers to import games.models of games",
    ),
    # models named by string
    "ForeignKey": (
        "clubs/planted.py",
        "class Club(models.Model):\n    last = models.ForeignKey('games.Match', on_delete=1)\n",
        "clubs/planted.py:2 (clubs) refers to model games.Match of games",
    ),
    "OneToOneField to=": (
        "games/planted.py",
        "class A(models.Model):\n    b = models.OneToOneField(to='replays.SeatResult')\n",
        "games/planted.py:2 (games) refers to model replays.SeatResult of replays",
    ),
    "ManyToManyField through=": (
        "games/planted.py",
        "class A(models.Model):\n    b = models.ManyToManyField(Match, through='replays.Entry')\n",
        "games/planted.py:2 (games) refers to model replays.Entry of replays",
    ),
    "get_model with two names": (
        "games/planted.py",
        "def f(apps):\n    return apps.get_model('replays', 'SeatResult')\n",
        "games/planted.py:2 (games) refers to model replays.SeatResult of replays",
    ),
    "get_model with one": (
        "games/planted.py",
        "def f():\n    return apps.get_model('replays.SeatResult')\n",
        "games/planted.py:2 (games) refers to model replays.SeatResult of replays",
    ),
    # URL names
    "reverse": (
        "games/planted.py",
        "x = 1\nurl = reverse('replays:match-detail', args=[1])\n",
        "games/planted.py:2 (games) refers to url replays:match-detail of replays",
    ),
    "reverse_lazy": (
        "games/planted.py",
        "success_url = reverse_lazy('replays:match-detail')\n",
        "games/planted.py:1 (games) refers to url replays:match-detail of replays",
    ),
    "redirect": (
        "games/planted.py",
        "def f(request):\n    return redirect('replays:match-detail', pk=1)\n",
        "games/planted.py:2 (games) refers to url replays:match-detail of replays",
    ),
    "url tag": (
        "games/templates/games/planted.html",
        "{% load i18n %}\n<a href=\"{% url 'replays:match-detail' 1 %}\">x</a>\n",
        "games/templates/games/planted.html:2 (games) refers to url replays:match-detail "
        "of replays",
    ),
    "url tag in the project's templates of an app": (
        "templates/games/planted.html",
        '{% url "replays:match-detail" match.pk as there %}\n',
        "templates/games/planted.html:1 (games) refers to url replays:match-detail of replays",
    ),
    "url by the module that defines it, not by namespace": (
        "engine/fives_engine/planted.py",
        "url = reverse('games:club-detail', args=['x'])\n",
        "engine/fives_engine/planted.py:1 (fives_engine) refers to url games:club-detail of clubs",
    ),
    "url in a namespace of its own": (
        "replays/planted.py",
        "url = reverse('v1:match-list', args=[1])\n",
        "replays/planted.py:1 (replays) refers to url v1:match-list of api",
    ),
    "url of the site": (
        "games/planted.py",
        "url = reverse('login')\n",
        None,  # the sign-in page is the site's to every app (tests.layers.SITE)
    ),
    # template tag libraries
    "load": (
        "games/templates/games/planted.html",
        "{% extends 'base.html' %}\n{% load i18n club_leagues %}\n",
        "games/templates/games/planted.html:2 (games) refers to tag library club_leagues "
        "of replays",
    ),
    "load from": (
        "clubs/templates/clubs/planted.html",
        "{% load leagues from club_leagues %}\n",
        "clubs/templates/clubs/planted.html:1 (clubs) refers to tag library club_leagues "
        "of replays",
    ),
    # management commands
    "call_command": (
        "games/planted.py",
        "def f():\n    call_command('demo_season')\n",
        "games/planted.py:2 (games) refers to command demo_season of replays",
    ),
    "management.call_command": (
        "clubs/planted.py",
        "def f(out):\n    management.call_command('rescore', stdout=out)\n",
        "clubs/planted.py:2 (clubs) refers to command rescore of games",
    ),
    # templates
    "include": (
        "games/templates/games/planted.html",
        "{% include 'replays/_replay.html' with match=match %}\n",
        "games/templates/games/planted.html:1 (games) refers to template replays/_replay.html "
        "of replays",
    ),
    "template rendered in Python": (
        "games/planted.py",
        "def f(request):\n    return render(request, 'replays/_replay.html', {})\n",
        "games/planted.py:2 (games) refers to template replays/_replay.html of replays",
    ),
}


@pytest.mark.parametrize("case", PLANTED)
def test_a_planted_wrong_reference_is_refused(tmp_path, case):
    file, text, expected = PLANTED[case]
    project = fake_project(tmp_path, {file: text})
    wrong = [str(r) for r in project.wrong()]
    assert wrong == ([expected] if expected else [])
    seen = [r for r in project.references() if r.file == file]
    assert seen, "the checker read nothing of the planted file"


# (file, a reference down the layers, how the checker sees it: seen, not refused)
DOWNWARD = {
    "import": ("replays/planted.py", "from games.models import Match\n", "import games.models"),
    "relative import": (
        "engine/fives_engine/planted.py",
        "from .rules import PRESETS\n",
        "import fives_engine.rules",
    ),
    "model": (
        "replays/planted.py",
        "class A(models.Model):\n    m = models.ForeignKey('games.Match', on_delete=1)\n",
        "model games.Match",
    ),
    "url": ("replays/planted.py", "u = reverse('games:match-list')\n", "url games:match-list"),
    "url of a lower app in a higher app's namespace": (
        "games/planted.py",
        "u = reverse('games:club-detail', args=['x'])\n",
        "url games:club-detail",
    ),
    "url tag": (
        "templates/base.html",
        "{% url 'games:match-list' %}\n",
        "url games:match-list",
    ),
    "tag library": (
        "replays/templates/replays/planted.html",
        "{% load i18n fives %}\n",
        "tag library fives",
    ),
    "command": ("replays/planted.py", "call_command('rescore')\n", "command rescore"),
    "template": (
        "replays/planted.py",
        "t = 'games/_table.html'\n",
        "template games/_table.html",
    ),
    "the frame every page extends": (
        "games/templates/games/planted.html",
        "{% extends 'base.html' %}\n",
        "template base.html",
    ),
}


@pytest.mark.parametrize("case", DOWNWARD)
def test_a_reference_down_the_layers_is_seen_and_allowed(tmp_path, case):
    file, text, expected = DOWNWARD[case]
    project = fake_project(tmp_path, {file: text})
    seen = [f"{r.kind} {r.name}" for r in project.references() if r.file == file]
    assert expected in seen
    assert project.wrong() == []


def test_a_migration_names_models_of_its_day(tmp_path):
    """A migration's dependencies and the models its operations name are history (why:
    tests/layers.py): they are not read, though the same text in a module is refused."""
    text = (
        "class Migration(migrations.Migration):\n"
        "    dependencies = [('replays', '0001_initial')]\n"
        "    operations = [migrations.AddField('match', 'x', models.ForeignKey(\n"
        "        to='replays.seatresult', on_delete=1))]\n"
    )
    assert fake_project(tmp_path, {"games/migrations/0002_x.py": text}).wrong() == []
    moved = fake_project(tmp_path / "module", {"games/planted.py": text}).wrong()
    assert [str(r) for r in moved] == [
        "games/planted.py:3 (games) refers to model replays.seatresult of replays"
    ]


def project_files() -> list[pathlib.Path]:
    return [p for p in Project(ROOT).python_files if "migrations" not in p.parts]


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


def test_an_import_hidden_in_a_function_is_seen(tmp_path):
    (tmp_path / "games").mkdir()
    path = tmp_path / "games" / "planted.py"
    path.write_text("import os\n\n\ndef f():\n    from . import models\n", encoding="utf-8")
    found = [
        (m, node.lineno, [type(n).__name__ for n in e]) for m, node, e in imports(path, tmp_path)
    ]
    assert found == [("os", 1, []), ("games", 5, ["FunctionDef"])]


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
    assert imports_of("games/services")
    wrong = [(f, m) for f, m in imports_of("games/services") if m.startswith("games.tasks")]
    assert wrong == []


def is_page_view(module: str) -> bool:
    """A module of the project's HTML pages: ``<app>.views``, ``<app>.league_views``..."""
    return layer_of(module) not in (None, "api") and module.split(".")[-1].endswith("views")


def test_the_api_uses_no_html_view():
    assert [m for _, m in imports_of("api") if layer_of(m) == "replays"]
    assert is_page_view("replays.views") and is_page_view("competitions.league_views")
    assert not is_page_view("rest_framework.views") and not is_page_view("api.views")
    wrong = [(f, m) for f, m in imports_of("api") if is_page_view(m)]
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
    """The pages' titles are keyed by the engine's codes (engine/fives_engine/codes.py), not a copy
    of them: every code a stored upload can carry has a title."""
    assert set(Code) <= set(ERROR_TITLES)
