"""The documentation site (issue 58): ``mkdocs build --strict`` with no warning, and a link
checker of its own over what it built: every local ``href`` and ``src`` of every page (the
three club guides in English, Russian and Georgian among them) is a built file, every
fragment an id of its page, and every link of README.md a file of the repository. A guide
whose translation is missing is an error of the build, never an English page in its place.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDES = ("players", "organisers", "recording")
LANGUAGES = ("", "ru/", "ka/")


def mkdocs_build(config: pathlib.Path, site: pathlib.Path) -> subprocess.CompletedProcess:
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}  # Material's notice of its successor
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(config),
            "--site-dir",
            str(site),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> pathlib.Path:
    where = tmp_path_factory.mktemp("site") / "site"
    built = mkdocs_build(ROOT / "mkdocs.yml", where)
    said = built.stdout + built.stderr
    warnings = [line for line in said.splitlines() if re.match(r"\s*(WARNING|ERROR)\b", line)]
    print(f"mkdocs build --strict: exit {built.returncode}, {len(warnings)} warnings")
    assert built.returncode == 0 and not warnings, said
    return where


class Page(HTMLParser):
    """The ids of a page, and the local addresses its links and pictures point to."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.pictures: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        if tag == "a" and found.get("name"):
            self.ids.add(found["name"])
        if tag in ("a", "link") and found.get("href"):
            self.links.append(found["href"])
        if tag in ("img", "script", "source") and found.get("src"):
            self.pictures.append(found["src"])


def local(address: str) -> bool:
    parts = urlsplit(address)
    return not (parts.scheme or parts.netloc or address.startswith(("mailto:", "data:")))


def target(site: pathlib.Path, page: pathlib.Path, address: str) -> pathlib.Path:
    path = unquote(urlsplit(address).path)
    if not path:
        return page
    base = site if path.startswith("/") else page.parent
    found = (base / path.lstrip("/")).resolve()
    return found / "index.html" if found.is_dir() or path.endswith("/") else found


def read(page: pathlib.Path) -> Page:
    parsed = Page()
    parsed.feed(page.read_text(encoding="utf-8"))
    return parsed


def test_the_site_builds_strict_with_no_broken_link_and_no_missing_picture(site):
    pages = sorted(site.rglob("*.html"))
    parsed = {page: read(page) for page in pages}
    broken, missing, checked, pictures = [], [], 0, 0
    for page, found in parsed.items():
        for address in found.links:
            if not local(address):
                continue
            checked += 1
            linked = target(site, page, address)
            fragment = unquote(urlsplit(address).fragment)
            if not linked.is_file():
                broken.append(f"{page.relative_to(site)}: {address}")
            elif fragment and linked.suffix == ".html":
                ids = parsed[linked].ids if linked in parsed else read(linked).ids
                if fragment not in ids:
                    broken.append(f"{page.relative_to(site)}: {address} (no such id)")
        for address in found.pictures:
            if local(address):
                pictures += 1
                if not target(site, page, address).is_file():
                    missing.append(f"{page.relative_to(site)}: {address}")
    print(
        f"{len(pages)} pages, {checked} local links, {pictures} pictures and scripts: "
        f"{len(broken)} broken links, {len(missing)} missing"
    )
    assert not broken, broken
    assert not missing, missing


def test_each_club_guide_is_built_in_each_language_and_the_rest_in_english_alone(site):
    for language in LANGUAGES:
        for guide in GUIDES:
            page = site / language / "guides" / guide / "index.html"
            assert page.is_file(), page
            lang = re.search(r'<html[^>]* lang="([a-z]+)"', page.read_text(encoding="utf-8"))
            assert lang.group(1) == (language.strip("/") or "en"), page
    assert (site / "deploy" / "index.html").is_file()
    assert not (site / "ru" / "deploy").exists() and not (site / "ka" / "api").exists()


def test_every_link_of_the_readme_is_a_file_of_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert len(links) >= 15
    broken = [
        link
        for link in links
        if local(link) and not (ROOT / unquote(urlsplit(link).path)).is_file()
    ]
    print(f"README.md: {len(links)} links, {len(broken)} broken")
    assert not broken, broken


def test_a_guide_without_its_translation_fails_the_build(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "docs_i18n.py", copy / "scripts" / "docs_i18n.py")
    # The guides as stubs, so that only the languages' setting is tried here.
    for guide in (copy / "docs" / "guides").glob("*.md"):
        guide.write_text(f"# {guide.stem}\n", encoding="utf-8")
    built = mkdocs_build(copy / "mkdocs.yml", tmp_path / "whole")
    assert built.returncode == 0, built.stdout + built.stderr
    (copy / "docs" / "guides" / "recording.ka.md").unlink()
    built = mkdocs_build(copy / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0
    said = built.stdout + built.stderr
    assert "guides/recording.md has no ka translation" in said, said
    assert not (tmp_path / "site" / "ka" / "guides" / "recording").exists()
