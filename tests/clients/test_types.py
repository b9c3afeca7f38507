"""The client's types (``clients/python/fives_client/types.py``) read against the OpenAPI
schema the archive serves: each TypedDict has its component's properties, each of the type
the schema gives (an enum as the same ``Literal``, a nullable one with ``None``), and every
property the schema says is always there is one the type requires. A change of the API
that would break the client fails here."""

from __future__ import annotations

import types
import typing

import pytest
from fives_client.types import COMPONENTS

SCALARS = {"integer": int, "string": str, "boolean": bool, "number": float}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        answer = Client().get("/api/schema/", {"format": "json", "lang": "en"})
    assert answer.status_code == 200
    return answer.json()


def without_none(hint) -> tuple[object, bool]:
    """Return ``hint`` without ``| None``, and whether it had it."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(args) < len(typing.get_args(hint)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return hint, False


def mismatches(hint, prop: dict, schemas: dict, where: str) -> list[str]:
    """What keeps ``hint`` from being the type of the schema's property ``prop``."""
    hint, nullable = without_none(hint)
    if nullable != bool(prop.get("nullable")):
        return [f"{where}: nullable is {prop.get('nullable', False)} in the schema"]
    if "allOf" in prop and len(prop["allOf"]) == 1:
        prop = prop["allOf"][0]
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        if name in COMPONENTS:
            return [] if hint is COMPONENTS[name] else [f"{where}: the schema's {name}"]
        prop = schemas[name]
    if "enum" in prop:
        if typing.get_origin(hint) is not typing.Literal:
            return [f"{where}: an enum in the schema, {hint} here"]
        if set(typing.get_args(hint)) != set(prop["enum"]):
            return [f"{where}: the schema's values are {prop['enum']}"]
        return []
    kind = prop.get("type")
    if kind == "array":
        if typing.get_origin(hint) is not list:
            return [f"{where}: an array in the schema"]
        return mismatches(typing.get_args(hint)[0], prop["items"], schemas, f"{where}[]")
    if kind == "object":
        return [] if typing.get_origin(hint) is dict else [f"{where}: an object in the schema"]
    if SCALARS.get(kind) is not hint:
        return [f"{where}: {kind} in the schema, {hint} here"]
    return []


@pytest.mark.parametrize("name", sorted(COMPONENTS))
def test_each_type_is_its_schema_component(schema, name):
    schemas = schema["components"]["schemas"]
    assert name in schemas, f"the schema has no component {name}"
    component = schemas[name]
    typed = COMPONENTS[name]
    hints = typing.get_type_hints(typed)
    assert set(hints) == set(component["properties"]), name
    assert set(component.get("required", [])) <= typed.__required_keys__, name
    faults = [
        fault
        for field, prop in component["properties"].items()
        for fault in mismatches(hints[field], prop, schemas, f"{name}.{field}")
    ]
    assert not faults


def test_the_calls_answer_the_typed_components(schema):
    """The paths the client calls answer the components its types stand for."""

    def answer(path: str, method: str, status: str) -> str:
        content = schema["paths"][path][method]["responses"][status]["content"]
        return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    assert answer("/api/v1/uploads/", "post", "202") == "Upload"
    assert answer("/api/v1/uploads/{id}/", "get", "200") == "Upload"
    assert answer("/api/v1/uploads/{id}/items/", "get", "200") == "PaginatedUploadItemList"
    export = schema["paths"]["/api/v1/matches/export"]["get"]
    assert {"club", "date_from"} <= {p["name"] for p in export["parameters"]}
    assert "application/x-ndjson" in export["responses"]["200"]["content"]
