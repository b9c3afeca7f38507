"""No function or method of the project is past a reviewer's patience: radon's cyclomatic
complexity of each is 20 or less (`radon cc -n D` lists none), outside migrations, the tests
and the benches (issue 35's goal)."""

from __future__ import annotations

import pathlib

from radon.complexity import cc_visit

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMIT = 20  # radon's rank C ends at 20; D starts at 21
OUTSIDE = {"migrations", "tests", "bench", ".venv", "build", "node_modules", ".git"}


def project_files(root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    return [
        path
        for path in sorted(root.rglob("*.py"))
        if not OUTSIDE & set(path.relative_to(root).parts)
    ]


def too_complex(root: pathlib.Path = ROOT) -> list[str]:
    """Every block radon measures (functions, methods, classes) past the limit, as
    ``file:line name complexity``."""
    found = []
    for path in project_files(root):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if block.complexity > LIMIT:
                found.append(
                    f"{path.relative_to(root)}:{block.lineno} {block.fullname} {block.complexity}"
                )
    return found


def test_no_function_is_too_complex():
    assert too_complex() == []


def test_the_project_is_read():
    files = {str(p.relative_to(ROOT)) for p in project_files()}
    assert {"engine/fives_engine/game.py", "clubs/models.py", "fivesite/settings.py"} <= files
    assert not [f for f in files if f.startswith(("tests/", "bench/")) or "/migrations/" in f]


def branches(count: int, indent: str = "    ") -> str:
    return "".join(f"{indent}if x == {i}:\n{indent}    return {i}\n" for i in range(count))


def test_a_complex_function_is_seen(tmp_path):
    """A function of 21 paths is listed, and a method of 22; one of 20 is not, nor a
    migration's."""
    (tmp_path / "games" / "migrations").mkdir(parents=True)
    tangled = f"def tangled(x):\n{branches(20)}    return -1\n"
    (tmp_path / "games" / "planted.py").write_text(
        tangled
        + "\n\nclass Board:\n"
        + "    def tangled(self, x):\n"
        + "        y = x and x > 1\n"
        + branches(20, "        ")
        + "        return y\n\n"
        + "    def plain(self):\n"
        + "        return 1\n\n\n"
        + f"def plain(x):\n{branches(19)}    return -1\n",
        encoding="utf-8",
    )
    (tmp_path / "games" / "migrations" / "0002_x.py").write_text(tangled, encoding="utf-8")
    assert too_complex(tmp_path) == [
        "games/planted.py:1 tangled 21",
        "games/planted.py:46 Board.tangled 22",
    ]
