"""One visit of the crawl: a page opened in chromium as a role, in a language, at a size, and
what is wrong with it (issue 56, item 1): a page error or a console error, a server error, a
page wider than a phone at 390 px, a serious or critical violation of axe-core (WCAG 2.2 AA),
and, on a Russian or Georgian page, an English message of the project's own catalogue shown
outside the world's names."""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.test import Client
from django.utils.translation import trans_real

ROOT = pathlib.Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "crawl"
LANGUAGES = ("en", "ru", "ka")
LOCALES = {"en": "en-GB", "ru": "ru-RU", "ka": "ka-GE"}
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@dataclass(frozen=True)
class Visit:
    url_name: str
    state: str
    address: str
    language: str
    role: str
    size: str

    def __str__(self) -> str:
        return (
            f"{self.address} [{self.url_name}: {self.state}] {self.language}, {self.role}, "
            f"{self.size}"
        )


# Every text a person reads on the page, in the page's own language: text nodes, and the
# labels of controls and pictures; not what a script or style holds, nor what is marked as
# being in another language (the language menu names each language in its own).
SHOWN = r"""() => {
  const page = document.documentElement.lang;
  const foreign = (node) => {
    const marked = node.closest('[lang]');
    return (marked && marked.lang !== page)
      || node.closest('[translate=no], script, style, noscript, template');
  };
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement || foreign(node.parentElement)) continue;
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  const labelled = '[aria-label], [title], [placeholder], [alt], input[type=submit], '
    + 'input[type=button]';
  for (const el of document.body.querySelectorAll(labelled)) {
    if (foreign(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) out.push(value.replace(/\s+/g, ' ').trim());
    }
    if (el.type === 'submit' || el.type === 'button') out.push(el.value || '');
  }
  return out.filter(Boolean);
}"""

OVERFLOW = """() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)
  - document.documentElement.clientWidth"""

AXE_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`
      + (v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : ''));
}"""

PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{[^}]*\}")
WORD = re.compile(r"[A-Za-z]{2,}")


@cache
def english_of(language: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The project's English messages that ``language`` renders otherwise: whole messages
    of one word (a text must be exactly one of them to be English), and the pieces of two
    words or more between placeholders (found inside any text)."""
    catalogue = trans_real.translation(language)._catalog
    whole: set[str] = set()
    pieces: set[str] = set()
    for key, shown in catalogue.items():
        plural = not isinstance(key, str)  # (singular, form): the English singular
        msgid = (key[0] if plural else key).split("\x04")[-1]
        if not msgid or (not plural and shown == msgid):
            continue
        for piece in PLACEHOLDER.split(msgid):
            piece = re.sub(r"\s+", " ", piece).strip(" .,:;!?()«»\"'")
            words = WORD.findall(piece)
            if len(words) >= 2:
                pieces.add(piece)
            elif len(words) == 1 and piece == msgid.strip(" .,:;!?") and len(piece) >= 4:
                whole.add(piece)
    return frozenset(whole), tuple(sorted(pieces, key=len, reverse=True))


def english_shown(texts: list[str], language: str, names: tuple[str, ...]) -> list[str]:
    """The English messages among ``texts`` once the world's names are taken out."""
    whole, pieces = english_of(language)
    found = []
    kept = []
    for text in texts:
        for name in names:
            if name in text:
                text = text.replace(name, " ")
        text = re.sub(r"\s+", " ", text).strip()
        if text.strip(" .,:;!?") in whole:
            found.append(text)
        kept.append(text)
    joined = "\n".join(kept)
    found += [piece for piece in pieces if piece in joined]
    return sorted(set(found))


class Crawler:
    """Opens visits in one chromium, a browser context for each role, language and size."""

    def __init__(self, browser, base_url: str, people: dict[str, Any], names: set[str]):
        self.browser = browser
        self.base_url = base_url
        self.people = people
        self.names = tuple(sorted((n for n in names if n), key=len, reverse=True))
        self.contexts: dict[tuple[str, str, str], Any] = {}
        self.sessions: dict[str, str] = {}
        self.visits = 0

    def names_add(self, names: set[str]) -> None:
        self.names = tuple(sorted(set(self.names) | {n for n in names if n}, key=len, reverse=True))

    def _session(self, role: str) -> str | None:
        user = self.people.get(role)
        if user is None:
            return None
        if role not in self.sessions:
            client = Client()
            client.force_login(user, backend=MODEL_BACKEND)
            assert client.session[BACKEND_SESSION_KEY] == MODEL_BACKEND
            self.sessions[role] = client.cookies["sessionid"].value
        return self.sessions[role]

    def _page(self, role: str, language: str, size: str):
        key = (role, language, size)
        if key not in self.contexts:
            context = self.browser.new_context(
                viewport=SIZES[size],
                locale=LOCALES[language],
                is_mobile=size == "phone",
                has_touch=size == "phone",
                # axe-core is put into the page by the test: the site's policy allows only
                # its own scripts, rightly.
                bypass_csp=True,
            )
            cookies = [{"name": "django_language", "value": language, "url": self.base_url}]
            session = self._session(role)
            if session:
                cookies.append({"name": "sessionid", "value": session, "url": self.base_url})
            context.add_cookies(cookies)
            page = context.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on(
                "console",
                lambda message: (
                    message.type == "error"
                    and problems.append(f"console error: {message.text} ({message.location})")
                ),
            )
            page.on(
                "response",
                lambda response: (
                    response.status >= 500
                    and problems.append(f"server error {response.status}: {response.url}")
                ),
            )
            self.contexts[key] = (context, page, problems)
        return self.contexts[key]

    def visit(self, visit: Visit) -> list[str]:
        """Open ``visit`` and return what is wrong with it (nothing, if all is well)."""
        _context, page, problems = self._page(visit.role, visit.language, visit.size)
        problems.clear()
        self.visits += 1
        answer = page.goto(self.base_url + visit.address, wait_until="load")
        status = answer.status if answer else 0
        if status >= 500:
            problems.append(f"answered {status}")
        # A page a role may not see says so (403, 404): chromium logs its status as a
        # console error of the page's own address, which is no fault of the page.
        problems[:] = [
            p
            for p in problems
            if not (
                p.startswith("console error: Failed to load resource")
                and 400 <= status < 500
                and f"'url': '{page.url}'" in p
            )
        ]
        if visit.size == "phone":
            wider = page.evaluate(OVERFLOW)
            if wider > 1:
                problems.append(f"{wider} px wider than the phone's 390")
        page.add_script_tag(path=str(AXE))
        problems += [f"axe: {v}" for v in page.evaluate(AXE_RUN, AXE_TAGS)]
        if visit.language != "en":
            shown = english_shown(page.evaluate(SHOWN), visit.language, self.names)
            problems += [f"English shown: {text!r}" for text in shown]
        if problems:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            name = re.sub(
                r"[^\w]+",
                "-",
                f"{visit.url_name}-{visit.state}-{visit.language}-{visit.role}-{visit.size}",
            )[:150]
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            # Written as found, to read while a long crawl goes on.
            with (ARTIFACTS / "faults.log").open("a", encoding="utf-8") as log:
                log.write(f"{visit}\n  " + "\n  ".join(problems) + "\n")
        return list(problems)

    def close(self) -> None:
        for context, _page, _problems in self.contexts.values():
            context.close()
        self.contexts.clear()
