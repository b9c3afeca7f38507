"""Benchmark section: the Georgian pages as chromium shows them on a phone (issue 23).

    python -m bench.phone --only georgian

Opens the pages a Georgian club night goes through (the match list, the club form, the club's
manage page, the upload form, sign-in, sign-up, the tokens page, a match, the ranking, the
recorder's set-up) in Georgian, and reads the text chromium shows (``innerText``, styles
applied) of every label, heading, button, link, table heading and option. Counted: those that
begin with a Mtavruli letter (U+1C90 to U+1CBF, which Georgian does not write and chromium
draws as a box), the Mtavruli letters in all the pages' text, and the places where a case
ending is glued onto a club's name ("Tbilisi Fives Club-ის"), which reads as no Georgian.
"""

from __future__ import annotations

import json
import re

from clubs.capitals import MTAVRULI

SHOWN = """() => ({
  labels: [...document.querySelectorAll(
      'label, h1, h2, h3, legend, button, a, th, summary, option, input[type=submit]'
    )].map(node => (node.innerText || node.value || node.textContent || '').trim()),
  all: document.body.innerText + ' ' + document.title,
})"""


def club_night(kit) -> dict:
    """The first club's slug and name, and one of its matches."""
    return json.loads(
        kit.shell(
            "import json\n"
            "from clubs.models import Club\n"
            "from games.models import Match\n"
            "club = Club.objects.order_by('pk').first()\n"
            "match = Match.objects.filter(club=club).order_by('pk').first()\n"
            "print(json.dumps({'slug': club.slug, 'name': club.name, 'match': match.pk}))"
        ).splitlines()[-1]
    )


def run(kit) -> list[tuple[str, str, str]]:
    night = club_night(kit)
    slug = night["slug"]
    signed_in = [
        "/",
        "/clubs/new/",
        f"/clubs/{slug}/manage/",
        "/uploads/new/",
        "/settings/tokens/",
        f"/matches/{night['match']}/",
        f"/clubs/{slug}/ranking/",
        "/record/",
    ]
    signed_out = ["/accounts/login/", "/accounts/signup/"]
    glued = re.compile(re.escape(night["name"]) + r"-[\u10d0-\u10ff]")
    starting, letters, gluings, labels = 0, 0, 0, 0
    with kit.chromium() as browser:
        for user, paths in (("bench-georgian", signed_in), (None, signed_out)):
            context = kit.context(browser, phone=True, user=user, language="ka")
            page = kit.page(context)
            for path in paths:
                page.goto(path, wait_until="load")
                if not page.url.endswith(path):
                    raise RuntimeError(f"{path} went to {page.url}")
                shown = page.evaluate(SHOWN)
                labels += len(shown["labels"])
                starting += sum(1 for text in shown["labels"] if text and ord(text[0]) in MTAVRULI)
                letters += sum(ord(char) in MTAVRULI for char in shown["all"])
                gluings += len(glued.findall(shown["all"]))
            context.close()
    pages = len(signed_in) + len(signed_out)
    return [
        (
            "labels starting with a Mtavruli letter in the Georgian pages",
            str(starting),
            "0",
        ),
        (f"Mtavruli letters in the text of {pages} Georgian pages", str(letters), "0"),
        ("case endings glued onto a club's name (Georgian pages)", str(gluings), "0"),
    ]
