"""The archive's glossary (locale/glossary.toml): its page, and its checks of the catalogues.

    .venv/bin/python scripts/glossary.py           # writes docs/glossary.md
    .venv/bin/python scripts/glossary.py --check   # lists what the catalogues say otherwise

The checks are tests/test_glossary.py's: a catalogue entry whose English says a term holds
the term's one rendering, no entry holds another rendering of it, and no Russian entry glues
a number to a fixed form of a noun outside the plural machinery."""

from __future__ import annotations

import ast
import pathlib
import re
import sys
import tomllib
from dataclasses import dataclass, field
from functools import cached_property

ROOT = pathlib.Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "locale" / "glossary.toml"
PAGE = ROOT / "docs" / "glossary.md"
LANGUAGES = ("ru", "ka")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}|%[sd]")
WORD_START = r"(?<!\w)"


@dataclass
class Entry:
    msgid: str
    plural: str | None
    msgstrs: list[str]
    context: str | None = None

    @cached_property
    def english(self) -> str:
        """The msgid (and its plural) without placeholders, as the checks read it."""
        return PLACEHOLDER.sub(" ", f"{self.msgid} {self.plural or ''}")

    @cached_property
    def text(self) -> str:
        return " | ".join(self.msgstrs)


@dataclass
class Term:
    key: str
    en: str
    ru: str
    ka: str
    why: str
    stems: dict[str, str]
    others: dict[str, list[str]]
    not_here: dict[str, list[str]]
    here_unless: str | None
    not_unless: str | None
    exceptions: dict[str, str] = field(default_factory=dict)

    def says(self, entry: Entry) -> bool:
        return entry.msgid not in self.exceptions and bool(
            re.search(self.en, entry.english, re.IGNORECASE)
        )


def terms() -> list[Term]:
    data = tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))
    return [
        Term(
            key=term["key"],
            en=term["en"],
            ru=term["ru"],
            ka=term["ka"],
            why=" ".join(term["why"].split()),
            stems={language: term[f"{language}_stem"] for language in LANGUAGES},
            others={language: term.get(f"{language}_not", []) for language in LANGUAGES},
            not_here={language: term.get(f"{language}_not_here", []) for language in LANGUAGES},
            here_unless=term.get("here_unless"),
            not_unless=term.get("not_unless"),
            exceptions={
                ast.literal_eval(f'"{e["msgid"]}"'): e["why"] for e in term.get("except", [])
            },
        )
        for term in data["term"]
    ]


def unquote(text: str) -> str:
    """A PO string's content as Python reads it (\\n, \\", \\\\)."""
    return ast.literal_eval(f'"{text}"')


def catalogue(language: str) -> list[Entry]:
    """Every live entry of a language's catalogue, plural forms each in its msgstr."""
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            found = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) \"(.*)\"$", line)
            if found:
                key = found.group(1)
                fields[key] = unquote(found.group(2))
            elif line.startswith('"') and key:
                fields[key] += unquote(line[1:-1])
            elif not line.startswith("#"):
                key = None
        if fields.get("msgid"):
            msgstrs = [value for name, value in sorted(fields.items()) if name.startswith("msgstr")]
            entries.append(
                Entry(fields["msgid"], fields.get("msgid_plural"), msgstrs, fields.get("msgctxt"))
            )
    return entries


def find(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(WORD_START + f"(?:{pattern})", text, re.IGNORECASE)


def unrendered(term: Term, language: str, entries: list[Entry]) -> list[str]:
    """The msgids that say the term whose translation does not hold its rendering."""
    return [
        entry.msgid
        for entry in entries
        if entry.text and term.says(entry) and not find(term.stems[language], entry.text)
    ]


def rendered_otherwise(term: Term, language: str, entries: list[Entry]) -> list[str]:
    """The translations holding another rendering of the term: anywhere (``*_not``), or in
    the term's own entries (``*_not_here``) unless they say ``here_unless`` too."""
    found = []
    for entry in entries:
        if entry.msgid in term.exceptions:
            continue
        patterns = list(term.others[language])
        if term.not_unless and re.search(term.not_unless, entry.english, re.IGNORECASE):
            patterns = []
        if (
            term.not_here[language]
            and term.says(entry)
            and not (term.here_unless and re.search(term.here_unless, entry.english, re.IGNORECASE))
        ):
            patterns += term.not_here[language]
        for pattern in patterns:
            hit = find(pattern, entry.text)
            if hit:
                found.append(f"{entry.msgid!r}: {hit.group(0)!r} in {entry.text!r}")
    return found


# --- numbers and nouns (Russian) ---------------------------------------------------------

# The nouns a number counts in the catalogue, in the forms a number puts them in: each
# form is right for some numbers only (1 очко, 2 очка, 5 очков), so a number glued to one
# of them outside the plural machinery is wrong for the others ("61 очков", "2 костей").
NOUNS = (
    r"очк(?:о|а|ов)|кост(?:ь|и|ей)|кон(?:а|ов)?|матч(?:а|ей)?|встреч(?:а|и)?|игрок(?:а|ов)?"
    r"|день|дн(?:я|ей)|час(?:а|ов)?|минут[уы]?|секунд[уы]?|пункт(?:а|ов)?|символ(?:а|ов)?"
    r"|знак(?:а|ов)?|лунк[иа]?|лунок|анализ(?:а|ов)?|позици[йяи]|стол(?:а|ов)?"
    r"|использовани[йяе]|уровн(?:ей|я|ь)|байт(?:а|ов)?|капитан(?:а|ов)?|команд[ыа]?"
    r"|мест(?:а|о)?|рук[иа]?|списк(?:а|ов)?|раз(?:а)?|тур(?:а|ов)?|сезон(?:а|ов)?"
    r"|недел[ьия]|недель|загруз(?:ок|ки|ка)|попыт(?:ок|ки|ка)|процент(?:а|ов)?|дубл(?:ь|я|ей)"
    r"|ход(?:а|ов)?"
)
# A number (a placeholder) and a noun after it, perhaps with an adjective between.
GLUED = re.compile(
    r"(%\((?P<name>\w+)\)[sd]|\{(?P<brace>\w+)\})\s+(?:[а-яё]+(?:ых|их|ого|ая|ой|ый|ий)\s+)?"
    rf"(?P<noun>{NOUNS})(?![а-яё])",
    re.IGNORECASE,
)


def glued_numbers(entries: list[Entry]) -> list[str]:
    """Translations that put a number placeholder right before a fixed noun form, outside
    a plural entry (whose forms are chosen by the number: ngettext, blocktranslate count).

    In a plural entry a number is counted by the machinery when its English noun changes
    between the two forms after it; another number of the same entry is glued as well."""
    found = []
    for entry in entries:
        counted = counted_names(entry)
        for msgstr in entry.msgstrs:
            for hit in GLUED.finditer(msgstr):
                name = hit.group("name") or hit.group("brace")
                if name not in counted:
                    found.append(f"{entry.msgid!r}: {hit.group(0)!r}")
    return found


def counted_names(entry: Entry) -> set[str]:
    """The placeholders of a plural entry whose noun its plural forms choose (the words
    after it differ between the two English forms)."""
    if entry.plural is None:
        return set()
    after = r"(?:%\((\w+)\)[sd]|\{(\w+)\})((?:\s+\w+){1,3})"
    one = {a or b: word for a, b, word in re.findall(after, entry.msgid)}
    many = {a or b: word for a, b, word in re.findall(after, entry.plural)}
    names = {name for name in one.keys() & many.keys() if one[name] != many[name]}
    # ngettext's own number, said alone ("%(count)s match", "%(count)s matches")
    return names or {"count"} & set(many)


# --- the page ------------------------------------------------------------------------------


def page() -> str:
    lines = [
        "# Glossary: one word for each thing, in each language",
        "",
        "The archive speaks English, Russian and Georgian. Each thing it speaks of has one",
        "word in each language, written in `locale/glossary.toml` beside the catalogues.",
        "This page is made from that file (`python scripts/glossary.py`), and",
        "`tests/test_glossary.py` reads the catalogues against it: an entry whose English",
        "says a term holds the term's rendering, and no entry holds another rendering of it.",
        "The same test refuses a Russian number glued to a fixed form of a noun outside the",
        "plural machinery (`ngettext`, `{% blocktranslate count %}`): such a string says",
        '"61 очков" or "2 костей"; a number is counted by the plural forms, or stands after',
        'its label ("очков: 61").',
        "",
        "| English | Russian | Georgian |",
        "|---|---|---|",
    ]
    every = terms()
    lines += [f"| {term.key} | {term.ru} | {term.ka} |" for term in every]
    lines += ["", "## Why these words", ""]
    for term in every:
        lines += [f"**{term.key}** ({term.ru}; {term.ka}). {term.why}", ""]
        for msgid, why in term.exceptions.items():
            said = " ".join(msgid.split())
            lines.append(f"- Not this term: “{said}”: {why}.")
        if term.exceptions:
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def problems() -> list[str]:
    found = []
    for language in LANGUAGES:
        entries = catalogue(language)
        for term in terms():
            found += [
                f"{language} {term.key}: not rendered: {msgid!r}"
                for msgid in unrendered(term, language, entries)
            ]
            found += [
                f"{language} {term.key}: rendered otherwise: {hit}"
                for hit in rendered_otherwise(term, language, entries)
            ]
    found += [f"ru number glued to a noun: {hit}" for hit in glued_numbers(catalogue("ru"))]
    return found


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        print("\n".join(found) or "the catalogues follow the glossary")
        return 1 if found else 0
    PAGE.write_text(page(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}: {len(terms())} terms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
