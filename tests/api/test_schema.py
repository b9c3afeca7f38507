"""Schemathesis against the project's own OpenAPI schema, in-process (WSGI): no server error,
and every documented response matches the schema, for every endpoint.

Deterministic under the default Hypothesis profile (``ci``, derandomized, in tests/conftest.py):
the same cases every run. ``make fuzz`` runs it randomized with ten times the cases."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from fivesite.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.mark.serial
@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_endpoint_answers_as_its_schema_says(case, archive):
    # Plain answers: the schema describes JSON, and the API gzips only for clients that ask.
    case.call_and_validate(
        checks=[not_a_server_error, response_schema_conformance],
        headers={"Accept-Encoding": "identity"},
    )
