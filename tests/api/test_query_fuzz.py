"""No query parameter answers 500 (issue 34, item 6): a cursor whose position was not a
number gave a 500 (``ValueError``) on seven lists, 28 of 2,353 crafted requests, reachable
signed out. Every list of the API (every GET address of its schema, with the parameters the
schema gives it) and every page of the site is asked with crafted values, signed out and
signed in; a bad cursor is a 400 ``invalid-cursor`` in the one error shape.

One archive for all of it (the demo's clubs, matches, uploads, season, events and league),
asked in-process: the whole run is one test."""

from __future__ import annotations

import base64
import re
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from clubs.models import AuditEntry, Club
from competitions.models import Fixture, League, Season, Team, Tournament
from games.models import Match, Player, Upload

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def b64(text: str | bytes) -> str:
    data = text.encode("latin-1") if isinstance(text, str) else text
    return base64.b64encode(data).decode("ascii")


# What a person or a script might write anywhere (NULs are refused before any view: 400).
VALUES = [
    "",
    "abc",
    "-1",
    "1.5",
    "1e9",
    "NaN",
    "99999999999999999999999999",
    "-99999999999999999999999999",
    "２",  # a full-width digit
    "ნინო",
    "🁡🁢",
    "\u200b",
    "x" * 3000,
    "%%25",
    "'; --",
    "../../etc/passwd",
    "2026-13-45",
    "0000-01-01",
    "99999-01-01",
    "2026-11-20T25:61:00",
]
# Cursors: not base64, base64 of nothing the API writes, and positions of every kind that
# are no value of the ordering's field.
CURSORS = [
    "!!!",
    "====",
    "cD0x",  # p=1, a cursor the API could give
    "\u00e9t\u00e9",
    b64("p=abc"),
    b64("p=abc&r=1"),
    b64("p=1&r=x"),
    b64("o=abc"),
    b64("o=-5&p=1"),
    b64("o=99999999999"),
    b64("p="),
    b64("p=-1"),
    b64("p=1.5"),
    b64("p=1e5"),
    b64("p=99999999999999999999999999"),
    b64("p=-99999999999999999999999999"),
    b64("p=2026-13-01 00:00:00"),
    b64("p=2026-11-20 19:00:00+04:00"),
    b64("p=None"),
    b64("p=" + "9" * 400),
    b64("p=" + "x" * 3000),
    b64("p=\x00"),
    b64("p=1\x00"),
    b64("p=%ff%fe"),
    b64(b"p=\xff\xfe"),
    b64("p=ნინო".encode()),
    b64("r=1&p=[]"),
    b64("p=1&p=abc"),
]
PAGE_SIZES = ["0", "-1", "1", "200", "201", "99999999999999999999", "abc", "1.0", ""]
ORDERINGS = ["id", "-id", "handle", "-played_at", "played_at", "nonsense", "-", ",", "id,-x"]
ORDERINGS += ["__class__", "club__name", "password", "-uploader__password"]


def api_lists() -> list[tuple[str, list[str]]]:
    """Every GET address of the API's schema with its query parameters' names."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        names = [p["name"] for p in get.get("parameters", []) if p["in"] == "query"]
        found.append((path, names))
    return found


def page_routes(resolver=None, prefix="") -> list[str]:
    """Every page address of the site (not the API, the admin or static files)."""
    resolver = resolver or get_resolver()
    routes = []
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes.extend(page_routes(pattern, route))
        elif isinstance(pattern, URLPattern) and not route.startswith(("api/", "admin/")):
            routes.append("/" + route.lstrip("^").rstrip("$"))
    return routes


MATCH_FILTERS = ["q", "club", "player", "ruleset", "outcome", "date_from", "date_to", "sort"]
RANKING = ["ruleset", "period", "sort", "order"]
# The pages that read parameters (grep request.GET), with them: the match list's filters and
# ``page``, the club page's and the audit trail's ``page``, My uploads' status, the names
# suggested, the ranking's options (its CSV too), a new event's season, the sign-in pages'
# ``next``. Every other page is asked with all of them at once.
PAGE_LISTS = {
    "/": [*MATCH_FILTERS, "page", "cursor"],
    "/uploads/": ["status", "page", "cursor"],
    "/players/names/": ["q"],
    "/clubs/<str:slug>/": ["page", "cursor"],
    "/clubs/<str:slug>/audit/": ["page", "cursor"],
    "/clubs/<str:slug>/ranking/": RANKING,
    "/clubs/<str:slug>/ranking.csv": RANKING,
    "/clubs/<str:slug>/events/": ["season"],
    "/accounts/login/": ["next"],
    "/accounts/signup/": ["next"],
}
PAGE_PARAMETERS = sorted({name for names in PAGE_LISTS.values() for name in names} | {"lang"})
# The API's lists and the orderings they take (OrderingFilter's fields).
ORDERED = {"/api/v1/matches/": ["played_at"], "/api/v1/players/": ["handle"]}


class Archive:
    """The ids the addresses take, from the demo's archive."""

    def __init__(self):
        self.club = Club.objects.get(slug="tbilisi-fives-club")
        self.match = Match.objects.filter(club=self.club).order_by("id").first()
        self.player = Player.objects.filter(club=self.club).order_by("id").first()
        self.upload = Upload.objects.order_by("id").first()
        self.season = Season.objects.order_by("id").first()
        self.event = Tournament.objects.order_by("id").first()
        self.league = League.objects.order_by("id").first()
        self.team = Team.objects.order_by("id").first()
        self.fixture = Fixture.objects.order_by("id").first()
        assert AuditEntry.objects.filter(club=self.club).exists()

    def fill(self, path: str) -> str:
        """The address with its parameters filled in, by what each names."""
        ids = {
            "matches": self.match.pk,
            "players": self.player.pk,
            "uploads": self.upload.pk,
            "seasons": self.season.pk,
            "events": self.event.pk,
            "leagues": self.league.pk,
            "teams": self.team.pk,
            "fixtures": self.fixture.pk,
            "members": self.club.memberships.order_by("id").first().user_id,
            "claims": 1,
            "invitations": 1,
            "join-requests": 1,
        }

        def one(found: re.Match) -> str:
            before, name = found.group(1), found.group(2)
            if name == "slug":
                return f"{before}/{self.club.slug}"
            if name == "token":
                return f"{before}/no-such-token"
            if name in ("team",):
                return f"{before}/{self.team.pk}"
            if name in ("fixture",):
                return f"{before}/{self.fixture.pk}"
            segment = before.rsplit("/", 1)[-1]
            return f"{before}/{ids.get(segment, 1)}"

        # API: /clubs/{slug}/  pages: /clubs/<str:slug>/
        path = re.sub(r"(/[^/{<]*)/(?:\{|<(?:\w+:)?)(\w+)[}>]", one, path)
        path = re.sub(r"(/[^/{<]*)/(?:\{|<(?:\w+:)?)(\w+)[}>]", one, path)
        return path


def requests_of(archive: Archive):
    """Every crafted request: (path, query as a list of pairs)."""
    for path, names in api_lists():
        address = archive.fill(path)
        if path in ("/api/v1/matches/", "/api/v1/matches/export"):
            names = sorted(set(names) | set(MATCH_FILTERS))
        for name in names:
            # The export reads the match list's filters (one queryset): fewer values there.
            values = {
                "cursor": CURSORS + VALUES[:8],
                "page_size": PAGE_SIZES,
                "ordering": ORDERINGS,
            }.get(name, VALUES[:8] if path.endswith("export") else VALUES[:14])
            for value in values:
                yield address, [(name, value)]
        for ordering in ORDERED.get(path, []):
            # A bad cursor with each ordering: positions of another field's type.
            for cursor in CURSORS:
                yield address, [("ordering", ordering), ("cursor", cursor)]
        if "cursor" in names:
            yield address, [("cursor", CURSORS[4]), ("cursor", "cD0x")]
            yield address, [("page_size", "0"), ("page_size", "1e3"), ("cursor", "")]
        # Every parameter at once, each a wrong value, and one the API does not know.
        yield address, [(name, "\u00e9" * 40) for name in names] + [("unknown", "1")]
    for route in page_routes():
        address = archive.fill(route)
        for name in PAGE_LISTS.get(route, []):
            for value in VALUES[:14] + ([] if name != "cursor" else CURSORS[4:8]):
                yield address, [(name, value)]
        yield address, [(name, "2026-13-45") for name in PAGE_PARAMETERS]
        yield address, [("page", "2"), ("page", "x"), ("cursor", CURSORS[4]), ("lang", "xx")]


@pytest.fixture
def demo_archive(django_capture_on_commit_callbacks):
    with override_settings(DEBUG=True), django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=9, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Archive()


@pytest.fixture
def no_read_limit(settings):
    """Reading and exports unthrottled: thousands of requests in a few seconds are the
    test's own (a 429 would hide what the view answers)."""
    from rest_framework.settings import api_settings

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "read": "1000000/min",
            "upload": "60/min",
            "export": "1000000/min",
        },
    }
    api_settings.reload()
    yield
    api_settings.reload()


def test_no_query_parameter_answers_500_on_any_list(demo_archive, django_user_model, no_read_limit):
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(django_user_model.objects.get(username="demo"))
    clients = {"anonymous": Client(raise_request_exception=False), "demo": signed_in}
    crafted = list(requests_of(demo_archive))
    statuses: Counter[int] = Counter()
    failures = []
    for who, client in clients.items():
        for path, query in crafted:
            answer = client.get(path, query, HTTP_ACCEPT="application/json")
            statuses[answer.status_code] += 1
            if answer.status_code >= 500:
                failures.append((who, answer.status_code, path, [q[:60] for _, q in query[:3]]))
    sent = sum(statuses.values())
    print(f"{sent} crafted requests: {dict(sorted(statuses.items()))}")
    assert sent >= 2500
    assert failures == [], f"{len(failures)} of {sent} answered 5xx: {failures[:10]}"


CURSOR_LISTS = [
    "/api/v1/matches/",
    "/api/v1/players/",
    "/api/v1/clubs/",
    "/api/v1/uploads/",
    "/api/v1/clubs/{slug}/audit/",
    "/api/v1/clubs/{slug}/members/",
    "/api/v1/uploads/{id}/items/",
]


def test_a_position_that_is_no_number_is_a_400_invalid_cursor(demo_archive, django_user_model):
    """The seven lists of the issue, signed in as the demo user (the owner of the club)."""
    client = Client()
    client.force_login(django_user_model.objects.get(username="demo"))
    for path in CURSOR_LISTS:
        address = demo_archive.fill(path)
        for cursor in (b64("p=abc"), b64("p=99999999999999999999999999"), "\u00e9", b64("o=x")):
            answer = client.get(address, {"cursor": cursor})
            assert answer.status_code == 400, (address, cursor, answer.status_code)
            error = answer.json()["error"]
            assert error["code"] == "invalid-cursor"
            assert "cursor" in error["message"]
        # The cursors the list gives still lead on, both ways.
        first = client.get(address, {"page_size": 1}).json()
        assert first["next"], address
        second = client.get(first["next"])
        assert second.status_code == 200
        assert client.get(second.json()["previous"]).status_code == 200


def test_the_guide_names_the_code():
    guide = (ROOT / "docs" / "api.md").read_text()
    assert "`invalid-cursor`" in guide
