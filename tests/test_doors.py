# ruff: noqa: F811 (the fixtures imported from test_leagues are arguments here)
"""Every write names its budget in one table (issue 55, item 1): the URL map and the API's
schema are walked, and a write with no door in ``fivesite.doors`` fails here, unless the
table exempts it with its reason; a write to a view with no door is a 405 before the view.
Then the budgets the issue measured: live tables, postponements, practice answers, calendar
feeds; and the one input boundary of JSON bodies (``clubs.inputs``)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from fivesite.doors import COUNTED_ELSEWHERE, DOORS, EXEMPT, exemption_of
from games.ratelimit import throttle_rate
from recorder import live
from recorder.models import LiveMatch
from tests.competitions.test_leagues import match_day, people  # noqa: F401 (fixtures)
from tests.recorder.test_live import match_record

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")


def routes(resolver=None, prefix="", namespace=""):
    """Every (route, URL name, view) of the site, with the namespaces it is reached by."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from routes(pattern, route, inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name or '?'}" if namespace else pattern.name
            yield route, name, pattern.callback


def write_methods(view) -> list[str] | None:
    """The writes a class-based view (Django's or the REST framework's) answers; None for a
    function, whose methods only a request tells."""
    actions = getattr(view, "actions", None)
    if actions:
        return sorted(method for method in actions if method in WRITES)
    cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if cls is None:
        return None
    return [method for method in WRITES if hasattr(cls, method)]


def filled(route: str) -> str:
    """An address of a route, each parameter given a value of its converter's kind."""
    route = route.lstrip("^").rstrip("$")
    route = re.sub(r"<(?:int|id):\w+>", "1", route)
    route = re.sub(r"<(?:\w+:)?\w+>", "x", route)
    route = re.sub(r"\(\?P<\w+>[^)]*\)+", "uploads/", route)
    return "/" + route


def test_every_write_of_the_site_has_a_door_or_a_reason(admin_user):
    """A class's writes are read from the class; a function's by asking it (signed in as
    an admin, who may reach every door): with no door, the write is a 405 before the view."""
    client = Client(raise_request_exception=False)
    client.force_login(admin_user)
    kinds: Counter[str] = Counter()
    doorless = []
    for route, name, view in routes():
        if exemption_of(name) is not None:
            continue
        door = DOORS.get(name or "")
        methods = write_methods(view)
        if door is not None:
            kinds[door.budget] += 1
            continue
        if methods:
            doorless.append((name, route, methods))
            continue
        if methods is None:  # a function: a write must be refused before the view
            answer = client.post(filled(route), {})
            if answer.status_code != 405:
                doorless.append((name, route, answer.status_code))
    exempt = [*sorted(EXEMPT), "admin:*"]
    print(f"{sum(kinds.values())} doors by budget: {dict(sorted(kinds.items()))}")
    print(f"{len(exempt)} exempt, each with its reason: {exempt}")
    assert doorless == []


def test_the_table_names_only_doors_that_exist_and_rates_that_are_set():
    names = {name for _route, name, _view in routes() if name}
    assert sorted(set(DOORS) - names) == []
    assert sorted(set(EXEMPT) - names) == []
    assert all(len(reason) > 40 for reason in EXEMPT.values())
    for kind in {door.budget for door in DOORS.values()}:
        assert throttle_rate(kind) or kind in COUNTED_ELSEWHERE, kind
    assert throttle_rate("live-table")  # spent by the live steps' view on a new table


def test_every_write_of_the_api_schema_has_a_door():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        for method in set(operations) & set(WRITES):
            address = re.sub(
                r"\{(\w+)\}", lambda m: "x" if m[1] in ("slug", "token") else "1", path
            )
            name = resolve(address).view_name
            found.append(name)
            assert name in DOORS, (method, path, name)
    print(f"{len(found)} writes in the API's schema, each with its door")
    assert len(found) >= 50


# --- the budgets the issue measured -----------------------------------------------------------

SETUP = live.steps_of(match_record())[0]


def live_send(client, record_id: str, setup=None):
    """A phone's first send of a table: its set-up, no step yet."""
    body = {"id": record_id, "club": "tbilisi-fives-club", "setup": setup or SETUP, "from": 0}
    body["steps"] = []
    return client.post("/record/live/", json.dumps(body), content_type="application/json")


def test_sixty_live_tables_in_a_row_are_refused_well_before_the_sixtieth(member):
    client = Client()
    client.force_login(member)
    answers = [live_send(client, f"table-{n}").status_code for n in range(60)]
    opened = answers.index(429) if 429 in answers else len(answers)
    limit = int(throttle_rate("live-table").split("/")[0])
    print(f"60 live tables sent in a row: {opened} opened, then {answers[opened:].count(429)} 429")
    assert opened == limit < 40
    assert set(answers[:opened]) == {200} and set(answers[opened:]) == {429}
    assert LiveMatch.objects.filter(recorder=member).count() == limit
    refused = live_send(client, "table-60")
    assert int(refused["Retry-After"]) > 0 and refused.json()["code"] == "throttled"
    # A table already open goes on being sent: only a new one spends the budget.
    assert live_send(client, "table-0").status_code == 200


def test_the_club_nights_page_lists_at_most_what_its_recorders_can_open(member, settings):
    from rest_framework.settings import api_settings

    client = Client()
    client.force_login(member)
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "live-table": "1000/h"},
    }
    for n in range(30):
        assert live_send(client, f"table-{n}").status_code == 200
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    api_settings.reload()
    answer = client.get("/clubs/tbilisi-fives-club/live/tables/")
    assert len(answer.json()["tables"]) == int(rates["live-table"].split("/")[0])


def test_a_captain_offering_and_withdrawing_in_a_loop_meets_the_notify_budget(match_day, people):
    from datetime import timedelta

    from django.utils import timezone

    fixture, *_ = match_day
    api = APIClient()
    api.force_authenticate(people["levan"])
    base = f"/api/v1/leagues/{fixture.league_id}/fixtures/{fixture.pk}/postpone"
    day = (timezone.localdate() + timedelta(days=9)).isoformat()
    statuses = Counter()
    for _n in range(40):
        statuses[api.post(f"{base}/", {"day_1": day}, format="json").status_code] += 1
        statuses[api.post(f"{base}/withdraw/", format="json").status_code] += 1
    limit = int(throttle_rate("notify").split("/")[0])
    print(f"80 offers and withdrawals: {dict(statuses)}")
    assert statuses[200] == limit and statuses[429] == 80 - limit
    refused = api.post(f"{base}/withdraw/", format="json")
    assert refused["Retry-After"] and refused.json()["error"]["code"] == "throttled"


def test_a_page_past_its_budget_says_when_to_try_again_in_the_readers_language(match_day, people):
    fixture, *_ = match_day
    client = Client()
    client.force_login(people["levan"])
    address = f"/leagues/{fixture.league_id}/fixtures/{fixture.pk}/postpone/withdraw/"
    limit = int(throttle_rate("notify").split("/")[0])
    for _n in range(limit):
        client.post(address)
    answer = client.post(address, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert "Попробуйте снова через" in answer.content.decode()
    assert "минут" in answer.content.decode()  # an hour's budget: minutes, not 2,615 seconds


def test_a_wait_is_said_in_seconds_under_a_minute_and_in_minutes_past_it():
    from fivesite.doors import wait_message

    assert wait_message(1).endswith("Try again in 1 second.")
    assert wait_message(59).endswith("Try again in 59 seconds.")
    assert wait_message(60).endswith("Try again in 1 minute.")
    assert wait_message(2615).endswith("Try again in 44 minutes.")


def test_practice_answers_and_calendar_feeds_have_their_budgets(member, owner):
    client = Client(raise_request_exception=False)
    client.force_login(member)
    practice = int(throttle_rate("practice").split("/")[0])
    answers = [
        client.post("/players/1/practice/", {"at": "x"}).status_code for _ in range(practice + 5)
    ]
    assert 429 not in answers[:practice] and answers[practice:] == [429] * 5
    feed = int(throttle_rate("feed").split("/")[0])
    anonymous = Client(raise_request_exception=False)
    answers = [anonymous.get("/leagues/1/calendar.ics").status_code for _ in range(feed + 3)]
    assert 429 not in answers[:feed] and answers[feed:] == [429] * 3


# --- the one input boundary -------------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "address",
    [
        "/api/v1/leagues/",
        "/api/v1/clubs/",
        "/api/v1/leagues/1/fixtures/1/postpone/",
        "/api/v1/leagues/1/fixtures/1/walkover/",
    ],
)
def test_a_body_nested_too_deep_is_a_400_in_the_apis_shape(owner, address):
    api = APIClient()
    api.force_authenticate(owner)
    answer = api.post(address, DEEP, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ka")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "body-too-deep"
    # Not the parser's limit but the boundary's: 33 levels, where a body of the archive has 5.
    nested = json.dumps({"name": "x" * 0 or 1}).replace("1", "[" * 32 + "1" + "]" * 32)
    answer = api.post(address, nested, content_type="application/json")
    assert answer.json()["error"]["code"] == "body-too-deep"


def test_the_phones_live_steps_refuse_a_deep_body_and_a_nul(member):
    client = Client()
    client.force_login(member)
    deep = client.post("/record/live/", DEEP, content_type="application/json")
    assert (deep.status_code, deep.json()["code"]) == (400, "body-too-deep")
    nul = live_send(client, "table-nul", {**SETUP, "doc": {**SETUP["doc"], "event": "Ni\x00no"}})
    assert (nul.status_code, nul.json()["code"]) == (400, "nul-character")
    escaped = client.post(
        "/record/live/",
        '{"id": "a\\u0000b", "club": "tbilisi-fives-club", "from": 0, "steps": []}',
        content_type="application/json",
    )
    assert (escaped.status_code, escaped.json()["code"]) == (400, "nul-character")
    assert not LiveMatch.objects.exists()


def test_a_form_field_with_a_nul_is_refused_before_its_view(owner):
    client = Client()
    client.force_login(owner)
    answer = client.post("/clubs/new/", {"name": "Ni\x00no", "slug": "nino"})
    assert answer.status_code == 400
    assert "NUL" in answer.content.decode()


def test_a_deep_log_is_still_kept_as_a_rejected_upload(member, django_capture_on_commit_callbacks):
    """A match log is the engine's to read: the upload is kept, with its report."""
    from games.models import Upload

    api = APIClient()
    api.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            "/api/v1/uploads/?club=tbilisi-fives-club", DEEP, content_type="application/json"
        )
    assert answer.status_code == 202
    upload = Upload.objects.get(pk=answer.json()["id"])
    assert upload.status == "rejected"
