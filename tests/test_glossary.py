"""One word for each thing, in each language (issue 56, item 6): the catalogues read against
the glossary (locale/glossary.toml, docs/glossary.md).

- Every Russian and Georgian entry whose English says a term of the glossary holds the term's
  one rendering (by its stem, so any case or number counts), and no entry holds another
  rendering of it: no «событие» for an event, no გადათამაშება (a rematch) for a replay, no
  «с базара» beside «из базара».
- No Russian entry glues a number to a fixed form of a noun outside the plural machinery:
  "%(points)s очков" says "61 очков", "%(count)s костей" says "2 костей". A number is
  counted by ngettext's (blocktranslate's) forms, or stands after its label ("очков: 61").
- docs/glossary.md is the page the glossary makes."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("glossary", ROOT / "scripts" / "glossary.py")
glossary = importlib.util.module_from_spec(_spec)
sys.modules["glossary"] = glossary  # its dataclasses look their module up
_spec.loader.exec_module(glossary)


@pytest.fixture(scope="module")
def catalogues():
    return {language: glossary.catalogue(language) for language in glossary.LANGUAGES}


@pytest.mark.parametrize("language", glossary.LANGUAGES)
def test_each_term_is_rendered_one_way(catalogues, language):
    entries = catalogues[language]
    terms = glossary.terms()
    unrendered, otherwise, saying = [], [], 0
    for term in terms:
        saying += sum(1 for entry in entries if entry.text and term.says(entry))
        unrendered += [(term.key, m) for m in glossary.unrendered(term, language, entries)]
        otherwise += [(term.key, h) for h in glossary.rendered_otherwise(term, language, entries)]
    print(
        f"{language}: {len(terms)} terms over {len(entries)} entries, {saying} times an entry "
        f"says a term; {len(unrendered)} not rendered, {len(otherwise)} rendered otherwise"
    )
    assert len(terms) >= 16 and len(entries) > 1500
    assert unrendered == []
    assert otherwise == []


def test_no_russian_number_is_glued_to_a_noun(catalogues):
    entries = catalogues["ru"]
    numbers = [
        hit
        for entry in entries
        for msgstr in entry.msgstrs
        for hit in re.finditer(r"%\(\w+\)[sd]|\{\w+\}", msgstr)
    ]
    glued = glossary.glued_numbers(entries)
    plural = sum(1 for entry in entries if entry.plural)
    print(
        f"ru: {len(numbers)} placeholders in {len(entries)} entries ({plural} plural) read; "
        f"{len(glued)} numbers glued to a noun"
    )
    assert glued == []


def test_the_checks_catch_what_they_are_for():
    entry = glossary.Entry
    terms = {term.key: term for term in glossary.terms()}
    # A number glued to a noun, outside and inside the plural machinery.
    assert glossary.glued_numbers([entry("%(points)s points", None, ["%(points)s очков"])])
    assert glossary.glued_numbers([entry("%(n)s tiles", None, ["осталось %(n)s кости"])])
    assert not glossary.glued_numbers([entry("%(points)s points", None, ["очков: %(points)s"])])
    counted = entry("%(count)s match", "%(count)s matches", ["%(count)s матч", "%(count)s матча"])
    assert not glossary.glued_numbers([counted])
    # One placeholder is counted by the forms, the other is glued all the same.
    both = entry(
        "%(count)s hand of %(size)s tiles",
        "%(count)s hands of %(size)s tiles",
        ["%(count)s кон по %(size)s костей", "%(count)s кона по %(size)s костей"],
    )
    assert glossary.glued_numbers([both]) == [f"{both.msgid!r}: '%(size)s костей'"] * 2
    # A term rendered another way, inflected, and a term not rendered at all.
    replay = entry("See it in the replay", None, ["ნახეთ გადათამაშებაში"])
    assert glossary.rendered_otherwise(terms["replay"], "ka", [replay])
    assert glossary.unrendered(terms["replay"], "ka", [replay]) == [replay.msgid]
    event = entry("Back to the event", None, ["Назад к событию"])
    assert glossary.rendered_otherwise(terms["event"], "ru", [event])
    chance = entry("the sum of the luck of every chance event", None, ["случайных событий"])
    assert not glossary.rendered_otherwise(terms["event"], "ru", [chance])
    boneyard = entry("Drew", None, ["Взял с базара"])
    assert glossary.rendered_otherwise(terms["boneyard"], "ru", [boneyard])
    leg = entry("Confirm the legs", None, ["Подтвердить встречи"])
    assert glossary.rendered_otherwise(terms["leg"], "ru", [leg])
    hand = entry("Hands", None, ["ხელები"])
    assert glossary.rendered_otherwise(terms["hand"], "ka", [hand])
    assert not glossary.rendered_otherwise(terms["hand"], "ka", [entry("x", None, ["ხელში: 3"])])


def test_the_words_the_reviewer_asked_for(catalogues):
    ru = {entry.msgid: entry.text for entry in catalogues["ru"]}
    ka = {entry.msgid: entry.text for entry in catalogues["ka"]}
    assert ka["Replay"] == "გადახედვა"
    assert ka["knockout cup"] == "გამოსავარდნი თასი"
    assert ka["seed"] == "განთესვა"
    assert ka["Hands"] == "დარიგებები"
    assert ru["Blocked hands"] == "Рыбы"
    assert ru["event"] == "турнир" and ka["event"] == "ტურნირი"
    assert ru["fixture"] == "встреча" and ka["fixture"] == "შეხვედრა"
    assert ru["leg"] == "матч" and ka["leg"] == "მატჩი"
    assert ru["a bye: through to the next round"].endswith("в следующий тур")
    assert "с розыгрыша лиги" in ru["withdrew the team %(team)s from the league “%(league)s”"]


def test_the_glossary_page_is_made_from_the_glossary():
    page = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert page == glossary.page(), "run: .venv/bin/python scripts/glossary.py"
    for term in glossary.terms():
        assert f"| {term.key} | {term.ru} | {term.ka} |" in page
