"""A fuzz of every door that writes (issue 55, item 4): every write of the API's schema and
every page form of the URL map (``fivesite.doors``), signed out, as a member of no club, and
as a member, an admin and the owner of the demo's club, with what a person or a script might
send: nesting past any bound, NUL characters, strings of a megabyte, days in year 1 and 9999,
negative and huge numbers, wrong types, duplicate and unknown keys, empty bodies. Nothing
answers 5xx, and nothing refused is stored (the rows of every table the archive writes are
counted around each refused request), but at the doors of match logs, which keep what they
refuse as a rejected upload with its report.

``make test`` runs it small (at least 3,000 requests); ``make fuzz`` at ten times
(``FIVES_FUZZ_SCALE=10``, at least 30,000). The budgets are lifted: the fuzz measures what the
views answer, not the limits (tests/test_doors.py measures those)."""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from fivesite.doors import DOORS
from tests.api.test_query_fuzz import demo_archive  # noqa: F401 (a fixture)
from tests.conftest import join
from tests.test_doors import filled, routes

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

SCALE = int(os.environ.get("FIVES_FUZZ_SCALE", "1"))
WRITES = ("post", "put", "patch", "delete")

# What a field may be sent, by name: each kind of the list.
BAD: dict[str, object] = {
    "nul": "ni\x00no",
    "megabyte": "x" * 1_000_000,
    "year-1": "0001-01-01",
    "year-9999": "9999-12-31",
    "moment-9999": "9999-12-31T23:59:59+14:00",
    "negative": -1,
    "huge": 10**30,
    "huge-text": "99999999999999999999999999",
    "float": 1e308,
    "list": [1, "a"],
    "object": {"a": {"b": 1}},
    "true": True,
    "null": None,
    "empty": "",
    "nested": json.loads("[" * 40 + "]" * 40),
    "georgian": "ნინო\u200b🁡",
}
# The whole body, whatever the door's fields.
WHOLE = {
    "empty": "",
    "no-object": "{}",
    "array": "[]",
    "string": '"x"',
    "number": "1e999",
    "deep": "[" * 50_000 + "]" * 50_000,
    "deep-object": '{"a":' * 5_000 + "1" + "}" * 5_000,
    "nul-byte": '{"name": "a\x00"}',
    "nul-escape": '{"name": "a\\u0000"}',
    "duplicate": '{"name": "a", "name": 1, "slug": "b", "slug": []}',
    "unknown": '{"unknown": 1, "__class__": "x"}',
    "not-json": "{'name': 1",
    "not-utf8": b'{"name": "\xff\xfe"}',
}


def api_writes() -> list[tuple[str, str, list[str]]]:
    """Every write of the API's schema: (path, method, its body's field names)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, operations in schema["paths"].items():
        for method in WRITES:
            operation = operations.get(method)
            if operation is None:
                continue
            content = operation.get("requestBody", {}).get("content", {})
            body = next(iter(content.values()), {}).get("schema", {})
            if "$ref" in body:
                body = components.get(body["$ref"].rsplit("/", 1)[-1], {})
            found.append((path, method, sorted(body.get("properties", {}))))
    # A delete last: the owner's deletions would leave later doors with nothing to act on.
    return sorted(found, key=lambda write: write[1] == "delete")


class FormFields(HTMLParser):
    """The names of a page's form fields."""

    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag in ("input", "select", "textarea") and found.get("name"):
            self.names.add(found["name"])


def page_doors(archive) -> list[tuple[str, str]]:
    """Every page door of the URL map that writes: (address, its route), with the demo's ids."""
    doors = []
    for route, name, _view in routes():
        door = DOORS.get(name or "")
        if door is None or route.startswith(("api/", "admin/")) or door.reads:
            continue
        address = archive.fill("/" + re.sub(r"<id:", "<int:", route))
        doors.append((address if "<" not in address else filled(route), route))
    return doors


def field_values(fields: list[str], rng: random.Random) -> list[dict[str, object]]:
    """Bodies of the door's fields: each field with a share of the kinds of bad value at
    scale 1; past scale 1, each kind and then more, each with one or two other fields bad
    too; and every field bad at once."""
    bodies: list[dict[str, object]] = []
    kinds = list(BAD)
    per_field = 3 if SCALE == 1 else 5 * SCALE
    for field in fields:
        for number in range(per_field):
            kind = rng.choice(kinds) if SCALE == 1 else kinds[number % len(kinds)]
            body = {field: BAD[kind]}
            if number >= len(kinds):  # one of each kind given: others bad beside it
                for other in rng.sample(fields, min(len(fields), rng.randint(1, 2))):
                    body.setdefault(other, BAD[rng.choice(kinds)])
            bodies.append(body)
    for _round in range(2 * SCALE if fields else 0):
        bodies.append({field: BAD[rng.choice(kinds)] for field in fields})
    return bodies


def form_of(body: dict[str, object]) -> dict[str, object]:
    """A page form's fields as a browser or a script would post them: text, or repeated."""
    posted: dict[str, object] = {}
    for key, value in body.items():
        if isinstance(value, list):
            posted[key] = [str(item) for item in value]
        elif isinstance(value, dict | type(None)):
            posted[key] = json.dumps(value)
        else:
            posted[key] = str(value)
    return posted


WRITTEN = [
    "clubs.Club",
    "clubs.Membership",
    "clubs.Invitation",
    "clubs.JoinRequest",
    "clubs.AuditEntry",
    "games.Upload",
    "games.Match",
    "games.Player",
    "competitions.League",
    "competitions.Team",
    "competitions.Fixture",
    "competitions.Season",
    "competitions.Tournament",
    "competitions.Notice",
    "recorder.LiveMatch",
]


def stored() -> tuple[int, ...]:
    """The rows of every table a write makes, counted in one query."""
    tables = []
    for label in WRITTEN:
        try:
            tables.append(apps.get_model(label)._meta.db_table)
        except LookupError:
            continue
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {table})" for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def keeps_logs(address: str) -> bool:
    """A door of match logs keeps what it refuses as a rejected upload, with its report."""
    door = DOORS.get(resolve(address.split("?")[0]).view_name)
    return door is not None and door.log


@pytest.fixture
def no_budgets(settings):
    from rest_framework.settings import api_settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {kind: "100000000/min" for kind in rates},
    }
    settings.FIVES_SIGNUP_RATE = "100000000/min"
    api_settings.reload()
    yield
    api_settings.reload()


def test_no_write_answers_500_and_nothing_refused_is_stored(
    demo_archive,  # noqa: F811
    django_user_model,
    no_budgets,
):
    rng = random.Random(55)
    owner = Client(raise_request_exception=False)
    owner.force_login(django_user_model.objects.get(username="demo"))
    clients = {"anonymous": Client(raise_request_exception=False)}
    for role in ("outsider", "member", "admin"):
        person = django_user_model.objects.create_user(f"fuzz-{role}", password="x" * 12)
        if role != "outsider":
            join(person, demo_archive.club.slug, role)
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(person)
    clients["owner"] = owner
    statuses: Counter[int] = Counter()
    failures: list[tuple] = []
    kept: list[tuple] = []

    def send(who, client, method, address, body, *, form=False):
        before = stored()
        if form:
            answer = client.post(address, body)
        else:
            data = body if isinstance(body, str | bytes) else json.dumps(body)
            answer = getattr(client, method)(address, data, content_type="application/json")
        statuses[answer.status_code] += 1
        if answer.status_code >= 500:
            failures.append((who, method, address, str(body)[:80], answer.status_code))
        elif answer.status_code >= 400 and stored() != before and not keeps_logs(address):
            kept.append((who, method, address, str(body)[:80], answer.status_code))

    for path, method, fields in api_writes():
        address = demo_archive.fill(path)
        bodies = list(WHOLE.values()) + field_values(fields, rng)
        for who, client in clients.items():
            for body in bodies:
                send(who, client, method, address, body)
    for address, _route in page_doors(demo_archive):
        page = FormFields()
        page.feed(owner.get(address).content.decode(errors="replace"))
        fields = sorted(page.names - {"csrfmiddlewaretoken"})
        bodies = [{}, {"unknown": "1"}] + [form_of(body) for body in field_values(fields, rng)]
        for who, client in clients.items():
            for body in bodies:
                send(who, client, "post", address, body, form=True)
            send(who, client, "post", address, WHOLE["deep"])
            send(who, client, "post", address, WHOLE["nul-escape"])
    sent = sum(statuses.values())
    print(f"{sent} crafted writes at scale {SCALE}: {dict(sorted(statuses.items()))}")
    assert sent >= 3000 * SCALE
    assert failures == [], f"{len(failures)} of {sent} answered 5xx: {failures[:10]}"
    assert kept == [], f"{len(kept)} refused writes stored something: {kept[:10]}"
