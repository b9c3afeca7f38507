"""The documentation site's languages (mkdocs.yml's hook, issue 58): the three guides for
people at a club (and the home page that leads to them) are built in English, Russian and
Georgian; every other page in English alone.

mkdocs-static-i18n falls back to the English files (`fallback_to_default: true`) so that a
translated guide finds the pictures and English pages it links to; this hook then takes the
English pages out of the Russian and Georgian builds, points a translated guide's links to
them at the English site, and makes a guide without its translation an error of the build
(the English guide is never built under /ru/ or /ka/ in its place).
"""

from __future__ import annotations

import logging
import posixpath
import re

from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.hooks.docs_i18n")

GUIDES = ("guides/players.md", "guides/organisers.md", "guides/recording.md")
TRANSLATED = ("index.md", *GUIDES)
LINK = re.compile(r"\]\(([^)\s#]+\.md)(#[^)\s]*)?\)")


def _languages(config) -> tuple[str, str]:
    i18n = config.plugins["i18n"]
    return i18n.current_language, i18n.default_language


def _english_url(src_uri: str) -> str:
    """The English page's address, as mkdocs writes it (use_directory_urls)."""
    stem = src_uri[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem
    return stem + "/"


@event_priority(-110)  # after mkdocs-static-i18n's (-100) has chosen each language's files
def on_files(files, config):
    language, default = _languages(config)
    if language == default:
        # An English page alone has no Russian or Georgian page: the language menu leads to
        # that language's home instead.
        for page in files.documentation_pages():
            if getattr(page, "norm_src_uri", page.src_uri) not in TRANSLATED:
                page.alternates = {default: page}
        return files
    for page in list(files.documentation_pages()):
        if getattr(page, "locale", default) != language:
            name = getattr(page, "norm_src_uri", page.src_uri)
            if name in TRANSLATED:
                translation = name.replace(".md", f".{language}.md")
                log.error(f"{name} has no {language} translation: docs/{translation} is missing")
            files.remove(page)
    return files


def on_page_markdown(markdown, page, config, files):
    language, default = _languages(config)
    if language == default:
        return markdown
    here = posixpath.dirname(getattr(page.file, "norm_src_uri", page.file.src_uri))

    def english(match: re.Match) -> str:
        target = posixpath.normpath(posixpath.join(here, match.group(1)))
        if target in TRANSLATED:
            return match.group(0)
        address = posixpath.relpath(_english_url(target) or ".", page.url.rstrip("/") or ".")
        return f"]({address.rstrip('/')}/{match.group(2) or ''})"

    return LINK.sub(english, markdown)
