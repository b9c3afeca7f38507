"""Shared fixtures: users, tasks in-process by default, and the real services when asked."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest
from hypothesis import settings as hypothesis_settings

# `make test` is deterministic: every Hypothesis test (and schemathesis, built on it) draws the
# same examples each run. `make fuzz` loads the randomized profile with ten times the examples.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
hypothesis_settings.register_profile("fuzz", derandomize=False, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
FUZZ_FACTOR = 10


# Files of one long test (minutes, measured with --durations in `make test`): handed out
# first, beside the files of many short tests. xdist's own order (files with the most tests
# first) handed them out last, and one worker ran the write fuzz alone for two minutes at the
# end. (All long files first ran the servers and browsers of both workers at once: slower.)
FIRST = (
    "tests/api/test_write_fuzz.py",
    "tests/test_readme_commands.py",
    "tests/docs/test_guide_shots.py",
)


def _file_order(items) -> None:
    """Order ``items`` by file as xdist would (most tests first), ``FIRST`` before all; the
    Makefile's ``--no-loadscope-reorder`` keeps this order."""
    counts: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        counts[path] = counts.get(path, 0) + 1
    first = {path: index for index, path in enumerate(FIRST)}

    def rank(item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        return (first.get(path, len(first)), -counts[path])

    items.sort(key=rank)


def pytest_collection_modifyitems(config, items):
    """Order the files (``FIRST``, then by how many tests each holds); skip the spies when
    the engine is compiled, and the tests of modules it does not
    compile (``uncompiled``: the same code again); under the fuzz profile, multiply the
    examples of every Hypothesis test (most name their own max_examples, which a profile
    cannot override)."""
    from fives_engine import COMPILED_FROM

    _file_order(items)
    if COMPILED_FROM is not None:
        reason = pytest.mark.skip(reason="the engine is compiled: its calls do not see spies")
        again = pytest.mark.skip(
            reason="runs only modules mypyc does not compile: the pure pass ran this same code"
        )
        for item in items:
            if "spies" in item.keywords:
                item.add_marker(reason)
            if "uncompiled" in item.keywords:
                item.add_marker(again)
    if hypothesis_settings.get_current_profile_name() != "fuzz":
        return
    seen = set()
    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is None or id(test) in seen:
            continue
        seen.add(id(test))
        test._hypothesis_internal_use_settings = hypothesis_settings(
            current, max_examples=current.max_examples * FUZZ_FACTOR
        )


def pytest_configure(config):
    """Passwords hashed the fast way, as Django advises for tests: the production hasher
    (PBKDF2, half a second a password here) made a user, or a sign-in, the slowest part of
    most tests. The servers a test starts in a process of its own keep the production
    settings; none signs in there with a user the test made."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """pytest-xdist knows a test by its node id alone: of tests sharing one (schemathesis
    gives each case of a test the same), it runs one and never runs the rest, saying
    nothing. Such tests are marked ``serial`` and run in one process (`make test`); under
    xdist, any left after deselection stop the run before it starts."""
    seen: set[str] = set()
    twins = sorted({nodeid for nodeid in ids if nodeid in seen or seen.add(nodeid)})
    if twins:
        raise pytest.UsageError(
            "tests sharing a node id cannot run under pytest-xdist: mark them serial and "
            f"run them with -m serial ({', '.join(twins)})"
        )


REQUIRE_SERVICES = os.environ.get("FIVES_REQUIRE_SERVICES") == "1"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 1
        ):
            return True
    except OSError:
        return False


def services_missing() -> str | None:
    """Return why the real services cannot be used here, or None when they can."""
    database = os.environ.get("DATABASE_URL", "")
    redis = os.environ.get("REDIS_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    if not redis.startswith("redis://"):
        return "needs Redis: set REDIS_URL=redis://..."
    if not _reachable(database, 5432):
        return f"PostgreSQL at {urlparse(database).hostname} does not answer"
    if not _reachable(redis, 6379):
        return f"Redis at {urlparse(redis).hostname} does not answer"
    return None


@pytest.fixture
def real_services():
    """Skip (or fail, where FIVES_REQUIRE_SERVICES=1) unless PostgreSQL and Redis are here."""
    reason = services_missing()
    if reason:
        if REQUIRE_SERVICES:
            pytest.fail(f"FIVES_REQUIRE_SERVICES=1 but the services are missing: {reason}")
        pytest.skip(reason)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: the database it sees is new, too."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def english_again():
    """Each test ends in the default language: a request with another Accept-Language leaves
    its language active in the test's thread, and the next test would speak it."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def tasks_in_process():
    """Run Celery tasks in-process unless a test starts a real worker."""
    from fivesite.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


# The clubs the test logs name. Clubs are made on purpose, never by a log: ``owner`` makes them.
TEST_CLUBS = {"Tbilisi Fives Club": "tbilisi-fives-club", "Moscow": "moscow", "Kutaisi": "kutaisi"}


def join(user, slug: str, role: str = "member"):
    """Make ``user`` a member of the club ``slug`` with ``role``; return the membership."""
    from clubs.models import Club, Membership

    membership, _ = Membership.objects.update_or_create(
        club=Club.objects.get(slug=slug), user=user, defaults={"role": role}
    )
    return membership


@pytest.fixture
def owner(django_user_model):
    """Nino, who owns the clubs the test logs name (``TEST_CLUBS``)."""
    from clubs.services import club_create

    user = django_user_model.objects.create_user("nino", password="a-long-password-1")
    for name, slug in TEST_CLUBS.items():
        club_create(owner=user, name=name, slug=slug)
    return user


@pytest.fixture
def club_admin(django_user_model, owner):
    """Tamar, an admin of the Tbilisi Fives Club."""
    user = django_user_model.objects.create_user("tamar", password="a-long-password-3")
    join(user, "tbilisi-fives-club", "admin")
    return user


@pytest.fixture
def member(django_user_model, owner):
    """Levan, a member of the Tbilisi Fives Club."""
    user = django_user_model.objects.create_user("levan", password="a-long-password-5")
    join(user, "tbilisi-fives-club")
    return user


@pytest.fixture
def outsider(django_user_model):
    """Giorgi, a member of no club."""
    return django_user_model.objects.create_user("giorgi", password="a-long-password-2")


def home_club():
    """Return the Tbilisi Fives Club (``owner`` made it), for logs that name no club."""
    from clubs.models import Club

    return Club.objects.get(slug="tbilisi-fives-club")
