"""The README is one screen's door (issue 58): at most 200 lines, its first screen saying what
the archive is, with its two pictures and the two commands; the rest is in docs/."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIRST_SCREEN = 40  # lines: a laptop's terminal or a repository page's first screen


def test_the_readme_is_at_most_200_lines():
    count = len(README.read_text(encoding="utf-8").splitlines())
    print(f"README.md: {count} lines (at most 200)")
    assert count <= 200


def test_its_first_screen_has_the_two_commands_what_the_archive_is_and_two_pictures():
    first = "\n".join(README.read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN])
    assert re.findall(r"^    (make \S+)$", first, flags=re.MULTILINE) == ["make run", "make test"]
    assert "domino" in first and "Fives" in first
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", first)
    assert pictures == ["docs/img/readme-match.png", "docs/img/readme-recorder-phone.png"]
    for picture in pictures:
        assert (ROOT / picture).is_file(), picture


def test_it_draws_the_layers_and_says_where_to_read_next():
    text = README.read_text(encoding="utf-8")
    assert "## The layers" in text and "clubs -> games -> recorder -> replays" in text
    for page in (
        "guides/players.md",
        "guides/organisers.md",
        "guides/recording.md",
        "api.md",
        "deploy.md",
        "development.md",
    ):
        assert f"](docs/{page}" in text, page
