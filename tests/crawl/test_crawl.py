# ruff: noqa: F811 (the browser fixture imported from test_georgian is an argument here)
"""Every page in every state, in a real browser (issue 56, item 1).

The world (``world.py``) holds each state a club night passes through; the crawl opens the
pages of the URL conf in it, in English, Russian and Georgian, signed out and as a member, a
captain, an organiser and a club admin, at a phone's size and a laptop's, and asserts on each
visit what ``browse.Visit`` lists: no page, console or server error, no overflow at 390 px, no
serious or critical axe-core violation, no English message on a Russian or Georgian page.

``make test`` runs a sample Hypothesis draws afresh each run: each page once, in a state, a
language, a role and a size of its choosing. ``make crawl`` (FIVES_CRAWL=all) runs the whole
product: every page in every state, language, role and size."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.test_doors import routes
from tests.test_georgian import browser  # noqa: F401 (the fixture: chromium, launched once)

from .browse import ARTIFACTS, LANGUAGES, SIZES, Crawler, Visit, english_shown
from .pages import NOT_PAGES, WRITES, page_routes
from .world import ROLES, addresses_empty, people_make, world_build

# The world is built while playwright's loop runs in this thread: the ORM is called from the
# test's own code between the browser's calls, never from the loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def page_names() -> list[str]:
    """The URL names of the pages (``pages.py`` says why each other route is not one)."""
    return sorted(name for _route, name in page_routes())


def test_every_route_is_a_page_or_says_why():
    """Each name ``pages.py`` sets apart is a route still, and a write among them answers a
    GET with a 405 (it has a door in fivesite.doors, tests/test_doors.py holds)."""
    from fivesite.doors import DOORS

    names = {name for route, name, _view in routes() if not route.startswith(("api/", "admin/"))}
    assert set(NOT_PAGES) - names == set()
    assert WRITES - names == set()
    assert {name for name in WRITES if name not in DOORS} == set()
    assert len(page_names()) >= 45


def test_the_english_check_finds_a_message_left_in_english_but_not_a_name():
    """The check of Russian and Georgian pages: a message of the catalogue shown in English is
    found, alone or inside a sentence; its translation is not; a name the world holds (a
    club's, in English) is taken out first."""
    from django.utils import translation

    with translation.override("ru"):
        russian = str(translation.gettext("Your password was changed."))
    texts = ["Sign in", "Вчера: Your password was changed. Ура", russian, "Sign in Club"]
    assert english_shown(texts, "ru", ()) == ["Sign in", "Your password was changed"]
    assert english_shown(["Sign in Club"], "ka", ("Sign in Club",)) == []
    assert english_shown(["Войти"], "ru", ()) == []


# POLLING: the live pages follow by polling here. The test's server is Django's (WSGI): the
# event streams are served by uvicorn, where Redis is (tests/recorder/test_live_stream.py and
# test_live_states_browser.py open them so); with REDIS_URL set, as in CI, the pages would ask
# this server for a stream it does not serve.


def crawl(crawler: Crawler, visits: list[Visit]) -> dict[str, list[str]]:
    found = {}
    for visit in visits:
        problems = crawler.visit(visit)
        if problems:
            found[str(visit)] = problems
    return found


def report(found: dict[str, list[str]], visits: int, label: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{label}: {visits} page visits, {len(found)} with a fault"]
    lines += [f"{visit}\n  " + "\n  ".join(problems) for visit, problems in found.items()]
    (ARTIFACTS / f"{label}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(lines[0])


@pytest.mark.django_db(transaction=True)
@settings(
    # Afresh each run, unlike the suite's other Hypothesis tests (profile "ci"): over runs,
    # the sample reaches every state, language, role and size.
    derandomize=False,
    max_examples=1,
    phases=[Phase.generate],
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_a_sample_of_every_page_in_a_state_a_language_a_role_and_a_size(
    data, browser, live_server, settings
):
    """Each page once: Hypothesis draws its state (the empty archive among them, for the
    pages that have one), language, role and size."""
    settings.FIVES_LIVE_STREAMS = False  # see POLLING
    if get_user_model().objects.exists():
        # Hypothesis runs a failing example once more to report it, in the same database
        # (transaction=True empties it only after the test): what the first run made goes,
        # so that the report is the first run's fault, not "a club of that name exists".
        call_command("flush", interactive=False, verbosity=0)
    people = people_make()
    crawler = Crawler(browser, live_server.url, people, set())
    roles, sizes = sorted(ROLES), sorted(SIZES)
    empty = addresses_empty()

    def drawn(url_name: str, state: str, address: str) -> Visit:
        return Visit(
            url_name,
            state,
            address,
            data.draw(st.sampled_from(LANGUAGES), label=f"{url_name} language"),
            data.draw(st.sampled_from(roles), label=f"{url_name} role"),
            data.draw(st.sampled_from(sizes), label=f"{url_name} size"),
        )

    first = []
    for url_name, pairs in sorted(empty.addresses.items()):
        if data.draw(st.integers(0, 3), label=f"{url_name} in the empty archive") == 0:
            first.append(drawn(url_name, *pairs[0]))
    found = crawl(crawler, first)
    world = world_build()
    crawler.names_add(world.names)
    opened = {visit.url_name for visit in first}
    missing = [name for name in page_names() if name not in world.addresses]
    assert missing == [], f"pages with no state in the crawl's world: {missing}"
    later = []
    for url_name in page_names():
        if url_name in opened:
            continue
        pairs = world.addresses[url_name]
        state, address = pairs[data.draw(st.integers(0, len(pairs) - 1), label=url_name)]
        later.append(drawn(url_name, state, address))
    found |= crawl(crawler, later)
    crawler.close()
    report(found, crawler.visits, "sample")
    assert found == {}


def chosen(kind: str, every) -> list[str]:
    """Every role or size, or those FIVES_CRAWL_ROLES / FIVES_CRAWL_SIZES name (comma
    separated), to look again at a few after a fix."""
    named = os.environ.get(f"FIVES_CRAWL_{kind}", "")
    return [one for one in every if not named or one in named.split(",")]


@pytest.mark.crawl
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_state_role_and_size(language, browser, live_server, settings):
    """The whole product in one language (``make crawl``: the three run side by side)."""
    settings.FIVES_LIVE_STREAMS = False  # see POLLING
    people = people_make()
    crawler = Crawler(browser, live_server.url, people, set())
    roles, sizes = chosen("ROLES", ROLES), chosen("SIZES", SIZES)
    visits = [
        Visit(url_name, state, address, language, role, size)
        for url_name, pairs in sorted(addresses_empty().addresses.items())
        for state, address in pairs
        for role in roles
        for size in sizes
    ]
    found = crawl(crawler, visits)
    world = world_build()
    crawler.names_add(world.names)
    missing = [name for name in page_names() if name not in world.addresses]
    assert missing == [], f"pages with no state in the crawl's world: {missing}"
    visits = [
        Visit(url_name, state, address, language, role, size)
        for url_name in page_names()
        for state, address in world.addresses[url_name]
        for role in roles
        for size in sizes
    ]
    found |= crawl(crawler, visits)
    crawler.close()
    report(found, crawler.visits, f"all-{language}")
    assert found == {}
